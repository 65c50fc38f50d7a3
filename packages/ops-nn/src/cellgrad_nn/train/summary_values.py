"""Summary values as TensorBoard protobufs: MindSpore's checks and conversions (histogram
bins, image grid and scaling, tensor dtypes), written as TensorBoard's `Summary.Value`s.

The protobuf classes come from tensorboardX (imported by `SummaryRecord`, not here), so the
checks run without it.
"""

import numpy as np

PLUGINS = ("tensor", "scalar", "image", "histogram")

# numpy dtype -> TensorBoard's DataType number (tensorflow/core/framework/types.proto)
_TB_DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
              np.dtype(np.uint8): 4, np.dtype(np.int16): 5, np.dtype(np.int8): 6,
              np.dtype(np.int64): 9, np.dtype(np.bool_): 10, np.dtype(np.uint16): 17,
              np.dtype(np.float16): 19, np.dtype(np.uint32): 22, np.dtype(np.uint64): 23}


def check_value(plugin, value, owner):
    """The numpy copy of `value` for `plugin` ('scalar', ...), checked as MindSpore does;
    `owner` names the call in errors ('SummaryRecord' or the summary op)."""
    from cellgrad.common.tensor import Tensor

    if not isinstance(value, Tensor):
        raise TypeError(f'For "{owner}", the parameter "value" expect to be Tensor, but got '
                        f'{type(value).__name__}')
    array = np.array(value.asnumpy(), copy=True)
    if plugin == "scalar" and array.size != 1:
        raise ValueError(f'For "{owner}", the v rank must be less than or equal to 1, but got '
                         f'{len(array)}.')
    if plugin == "image" and array.ndim != 4:
        raise ValueError(f'For "{owner}", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram") and array.ndim == 0:
        raise ValueError(f'For "{owner}", the value should not be empty.')
    if plugin == "tensor" and array.dtype not in _TB_DTYPES:
        raise TypeError(f'For "{owner}", a tensor summary holds bool, int, uint or float '
                        f'values, but got dtype {array.dtype}.')
    return array


def to_summary_value(pb, plugin, tag, array):
    """`pb.Summary.Value` for one checked value, or None when MindSpore drops it (an image
    whose channels are not 1 or 3, or of zero size; a scalar with no element)."""
    if plugin == "scalar":
        return pb.Summary.Value(tag=tag, simple_value=float(next(array.flat)))
    if plugin == "histogram":
        return pb.Summary.Value(tag=tag, histo=histogram(pb, array))
    if plugin == "tensor":
        return pb.Summary.Value(tag=tag, tensor=_tensor(pb, array))
    image = image_hwc(array)
    if image is None:
        return None
    return pb.Summary.Value(tag=tag, image=pb.make_image(image))


def bins_for(count):
    """MindSpore's number of histogram bins for `count` finite values (at most 90)."""
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    if count <= 880:
        return count // 10 + 1
    return 90


def histogram(pb, array):
    """TensorBoard's HistogramProto over the finite values, on MindSpore's bins (NaN and
    infinities, which MindSpore counts apart, are left out: TensorBoard has no place for them)."""
    finite = array[np.isfinite(array)] if array.dtype.kind in "fc" else array.reshape(-1)
    finite = finite.astype(np.float64)
    if not finite.size:
        return pb.HistogramProto(min=0.0, max=0.0, num=0, sum=0.0, sum_squares=0.0,
                                 bucket_limit=[0.0], bucket=[0.0])
    low, high = float(finite.min()), float(finite.max())
    first, last = (low, high) if low < high else (low - 0.5, high + 0.5)
    counts, edges = np.histogram(finite, bins=np.linspace(first, last, bins_for(finite.size) + 1))
    return pb.HistogramProto(min=low, max=high, num=int(finite.size), sum=float(finite.sum()),
                             sum_squares=float(np.dot(finite, finite)),
                             bucket_limit=edges[1:].tolist(), bucket=counts.tolist())


def _tensor(pb, array):
    shape = pb.TensorShapeProto(dim=[pb.TensorShapeProto.Dim(size=d) for d in array.shape])
    return pb.TensorProto(dtype=_TB_DTYPES[array.dtype], tensor_shape=shape,
                          tensor_content=np.ascontiguousarray(array).astype(
                              array.dtype.newbyteorder("<")).tobytes())


def image_hwc(array):
    """MindSpore's picture of an NCHW batch: the images on a grid 8 wide, gray made RGB, scaled
    to uint8 (x255 when in [0, 1], else shifted by the minimum and scaled by
    255 / (max - min + 1): MindSpore's rule); None when MindSpore drops it."""
    if array.ndim != 4 or array.shape[1] not in (1, 3) or 0 in array.shape:
        return None
    if array.shape[1] == 1:
        array = np.concatenate([array] * 3, axis=1)
    n, _, h, w = array.shape
    cols = min(n, 8)
    rows = -(-n // cols)
    canvas = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h:(y + 1) * h, x * w:(x + 1) * w] = array[i]
    hwc = canvas.transpose(1, 2, 0)
    # MindSpore tests for uint8 after the float64 canvas is made, so uint8 input is rescaled too
    high, low = np.max(hwc), np.min(hwc)
    if high <= 1 and low >= 0:
        scale, shift = 255, 0
    else:
        scale, shift = (255 / (high - low + 1)) if high != low else 1, low
    return ((hwc.astype(np.float32) - shift) * scale).astype(np.uint8)
