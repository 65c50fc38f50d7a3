import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


def det(shape, scale=0.125):
    n = int(np.prod(shape))
    return Tensor((((np.arange(n) * 7) % 11).astype(np.float32) - 5).reshape(shape) * scale)


x5 = det((2, 4, 4, 5, 3), 0.25)
x3 = det((2, 4, 7), 0.25)


def weights(shape):
    return Tensor((np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 5) - 2)


def show(name, cell, inp):
    print(cell)
    for p in cell.get_parameters():
        print(" ", p.name, p.shape, p.dtype, p.requires_grad)
    out = cell(inp)
    print(name, out.shape, out.dtype)
    print(out)
    w = weights(out.shape)
    grads = ms.grad(lambda t: (cell(t) * w).sum(), 0, cell.trainable_params())(inp)
    print("grad input", grads[0])
    for p, g in zip(cell.trainable_params(), grads[1]):
        print("grad", p.name, g)


def layer(cls, *args, **kw):
    cell = cls(*args, weight_init="ones", **kw)
    cell.weight.set_data(det(cell.weight.shape, 0.0625))
    if cell.bias is not None:
        cell.bias.set_data(det(cell.bias.shape, 0.5))
    return cell


show("Conv3d same", layer(nn.Conv3d, 4, 6, 3, has_bias=True, bias_init="zeros"), x5)
show("Conv3d pad stride dilation", layer(nn.Conv3d, 4, 2, (2, 3, 1), (1, 2, 1), "pad",
                                         (1, 0, 1, 1, 0, 1), (2, 1, 1)), x5)
show("Conv3d valid group", layer(nn.Conv3d, 4, 6, 2, 1, "valid", group=2, has_bias=True,
                                 bias_init="zeros"), x5)
show("Conv1dTranspose same", layer(nn.Conv1dTranspose, 4, 3, 3, 2, has_bias=True,
                                   bias_init="zeros"), x3)
show("Conv1dTranspose valid", layer(nn.Conv1dTranspose, 4, 3, 2, 3, "valid"), x3)
show("Conv1dTranspose pad", layer(nn.Conv1dTranspose, 4, 2, 3, 2, "pad", 1, 2), x3)
show("Conv3dTranspose same", layer(nn.Conv3dTranspose, 4, 3, 3, 2, has_bias=True,
                                   bias_init="zeros"), x5)
show("Conv3dTranspose valid", layer(nn.Conv3dTranspose, 4, 2, (1, 2, 3), (2, 1, 2), "valid"),
     x5)
show("Conv3dTranspose pad output_padding", layer(nn.Conv3dTranspose, 4, 2, 3, 2, "pad", 1,
                                                 output_padding=1), x5)
show("Conv2dTranspose pad output_padding", layer(nn.Conv2dTranspose, 4, 2, 3, 2, "pad", 1, 1,
                                                 has_bias=True, bias_init="zeros"), x5[:, :, 0])

bn = nn.BatchNorm3d(4, gamma_init="ones", beta_init="zeros")
print(bn)
bn.set_train()
show("BatchNorm3d train", bn, x5)
print("moving", bn.bn2d.moving_mean.asnumpy(), bn.bn2d.moving_variance.asnumpy())
bn.set_train(False)
print("BatchNorm3d eval", bn(x5))

w5 = det((6, 4, 2, 2, 2), 0.125)
print("conv3d", ops.conv3d(x5, w5, det((6,), 1.0), (1, 2, 1), "pad", (1, 0, 1), 1, 1))
print("Conv3D", ops.Conv3D(6, 2, pad_mode="same", stride=2)(x5, w5))
wt = det((4, 3, 2, 2, 2), 0.125)
print("conv3d_transpose", ops.conv3d_transpose(x5, wt, "pad", 1, 2, 1, 1, 1))
print("Conv3DTranspose", ops.Conv3DTranspose(4, 3, 2, pad_mode="same", stride=2)(x5, wt))
