# ops.affine_grid / AffineGrid, MaxPoolWithArgmax(V2), RGBToHSV and HSVToRGB's rank error.
import numpy as np, mindspore as ms
from mindspore import ops, Tensor
def t(label, f):
    try: print(label, f())
    except Exception as e: print(label, type(e).__name__, str(e).strip().splitlines()[0][:150])
x = Tensor(np.random.RandomState(0).randn(2, 6).astype(np.float32))
theta = Tensor(np.array([[[0.8, 0.5, 0.1], [-0.5, 0.8, 0.2]]], np.float32))
t('affine_grid', lambda: ops.affine_grid(theta, (1, 1, 2, 3)))
t('affine_grid ac', lambda: ops.affine_grid(theta, (1, 1, 2, 3), True))
t('AffineGrid', lambda: ops.AffineGrid(False)(theta, (1, 1, 2, 3)))
img = Tensor(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) % 7)
t('MPWAv2', lambda: ops.MaxPoolWithArgmaxV2(2, 2)(img))
t('MPWA', lambda: ops.MaxPoolWithArgmax(2, 2)(img))
rgb = Tensor(np.array([[[0.2, 0.5, 0.9], [0.9, 0.1, 0.1]]], np.float32))
t('RGBToHSV', lambda: ops.RGBToHSV()(rgb))
t('HSVToRGB', lambda: ops.HSVToRGB()(Tensor(np.array([[[0.6, 0.8, 0.9], [0.0, 0.9, 0.9]]], np.float32))))
