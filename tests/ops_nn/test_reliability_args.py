"""Issue 21 item 7: layer and functional arguments are checked at construction/entry with
MindSpore 2.10's error class and message (recorded from it), and an empty batch (N=0) gives
the empty result for every layer, as MindSpore and PyTorch do."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops


def _x(*shape):
    return ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))


# (call, MindSpore 2.10's message, re.escape'd below); all ValueError in MindSpore
CONSTRUCTION = [
    (lambda: nn.Conv2d(3, 8, 3, stride=0),
     "For 'Conv2d', the 'stride item' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: nn.Conv2d(3, 8, 3, stride=-1),
     "For 'Conv2d', the 'stride item' must be int and must > 0, but got '-1' with type 'int'."),
    (lambda: nn.Conv2d(3, 8, 0),
     "For 'Conv2d', the 'kernel_size item' must be int and must > 0, but got '0'"),
    (lambda: nn.Conv2d(3, 8, 3, dilation=(1, 0)),
     "For 'Conv2d', the 'dilation item' must be int and must > 0, but got '0'"),
    (lambda: nn.Conv2dTranspose(1, 1, 3, stride=0),
     "For 'Conv2dTranspose', the 'stride item' must be int and must > 0, but got '0'"),
    (lambda: nn.Conv1d(3, 8, 3, stride=0),
     "For 'Conv1d', the 'stride' must be int and must >= 1, but got '0' with type 'int'."),
    (lambda: nn.Conv1dTranspose(3, 8, 0), "For 'Conv1dTranspose', the 'kernel_size' must be"),
    (lambda: nn.Conv3d(1, 1, 3, stride=0), "For 'Conv3d', the 'stride item' must be int"),
    (lambda: nn.Conv3dTranspose(1, 1, (3, 0, 3)), "For 'Conv3dTranspose', the 'kernel_size"),
    (lambda: nn.MaxPool2d(2, stride=-1),
     "For 'MaxPool2d', the 'stride' must be an positive int number or a tuple, but got -1"),
    (lambda: nn.MaxPool2d(0),
     "For 'MaxPool2d', the 'kernel_size' must be an positive int number or a tuple, but got 0"),
    (lambda: nn.MaxPool2d((2, 0)), "For 'MaxPool2d', the 'kernel_size' must be an positive int "
                                   "number or a tuple, but got (2, 0)"),
    (lambda: nn.AvgPool2d(kernel_size=0),
     "For 'AvgPool2d', the 'kernel_size' must be an positive int number or a tuple, but got 0"),
    (lambda: nn.AvgPool2d(2, -1), "For 'AvgPool2d', the 'stride' must be an positive int"),
    (lambda: nn.MaxPool1d(0), "For 'MaxPool1d', the 'kernel_size' must be an positive int"),
    (lambda: nn.AvgPool1d(2, -1), "For 'AvgPool1d', the 'stride' must be an positive int"),
    (lambda: nn.MaxPool3d(2, -1), "For 'MaxPool3d', the 'stride' must be an positive int"),
    (lambda: nn.AvgPool3d(0), "For 'AvgPool3d', the 'kernel_size' must be an positive int"),
    (lambda: nn.BatchNorm2d(0), "For 'BatchNorm2d', "),
    (lambda: nn.BatchNorm2d(3, momentum=1.5), "For 'BatchNorm2d', "),
    (lambda: nn.Dropout(p=1.5),
     "For 'Dropout', the 'p' must be a number in range [0, 1), but got 1.5."),
    (lambda: nn.Dropout(p=-0.1), "For 'Dropout', the 'p' must be a number in range [0, 1)"),
    (lambda: nn.Dense(0, 2), "For 'Dense', "),
    (lambda: nn.Dense(3, 0), "For 'Dense', "),
    (lambda: nn.Embedding(0, 2), "For 'Embedding', "),
    (lambda: nn.GroupNorm(0, 4), "For 'GroupNorm', "),
    (lambda: nn.GroupNorm(3, 4), "For 'GroupNorm', "),
    (lambda: nn.Conv2d(3, 8, 3, group=0),
     "For 'Conv2d', the 'group' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: nn.Conv1dTranspose(3, 8, 3, group=0), "For 'Conv1dTranspose', the 'group' must"),
    (lambda: nn.Conv3dTranspose(3, 8, 3, group=-1), "For 'Conv3dTranspose', the 'group' must"),
    (lambda: nn.MaxPool2d(2, pad_mode="pad", padding=-1), "For 'MaxPool2d', the 'padding'"),
    (lambda: nn.MaxPool2d(2, pad_mode="pad", dilation=0), "For 'MaxPool2d', the 'dilation'"),
    (lambda: nn.AvgPool2d(2, pad_mode="pad", padding=-1), "For 'AvgPool2d', the 'padding'"),
    (lambda: nn.AvgPool2d(2, pad_mode="pad", divisor_override=0),
     "For 'AvgPool2d', the 'divisor_override' must be > 0, but got 0."),
]


TYPES = [
    # MindSpore 2.10: TypeError for each, e.g. "For 'Dense', the 'in_channels' must be int, but
    # got 'float'", "For 'MaxPool2d', the type of 'kernel_size' should be one of '['int',
    # 'tuple']', but got type 'float'."
    (lambda: nn.Dense(2.5, 2), "For 'Dense', the 'in_channels' must be int, but got 'float'"),
    (lambda: nn.MaxPool2d(2.5), "For 'MaxPool2d', the type of 'kernel_size' should be one of "
                                "'['int', 'tuple']', but got type 'float'."),
    (lambda: nn.AvgPool1d(2, 1.5), "For 'AvgPool1d', the type of 'stride' should be one of"),
    (lambda: nn.Dropout(p="a"), "For 'Dropout', the type of 'p' should be one of '['float', "
                                "'int']', but got type 'str'."),
    (lambda: nn.Embedding(4.0, 3), "For 'Embedding', the 'vocab_size' must be int"),
]


@pytest.mark.parametrize("index", range(len(TYPES)))
def test_layer_argument_types_checked_at_construction(index):
    make, message = TYPES[index]
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value).startswith(message)


def test_layer_norm_axis_out_of_range_is_refused():
    # MindSpore 2.10: RuntimeError "For primitive[LayerNorm], input_x's rank is 4, while the
    # 'begin_norm_axis' value should be in the range [-1, 4), but got 5" (at call)
    cell = nn.LayerNorm((8,), begin_norm_axis=5)
    with pytest.raises(RuntimeError, match="For 'LayerNorm', the input's rank is 4, while the "
                                           "'begin_norm_axis' value should be in the range"):
        cell(_x(2, 3, 8, 8))


def test_batch_norm_momentum_out_of_range_is_refused():
    # MindSpore 2.10: ValueError "For primitive[BatchNorm], the momentum must be in (0,1], but
    # got 2."
    c = ms.Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="For 'batch_norm', the 'momentum' must be in"):
        ops.batch_norm(_x(2, 3, 4, 4), c * 0, c, c, c * 0, True, momentum=2.0)


@pytest.mark.parametrize("index", range(len(CONSTRUCTION)))
def test_layer_arguments_checked_at_construction(index):
    make, message = CONSTRUCTION[index]
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value).startswith(message)
    assert "initializer" not in str(info.value)


FUNCTIONAL = [
    (lambda x: ops.max_pool2d(x, 2, stride=0), "For 'max_pool2d', the 'stride' must be int"),
    (lambda x: ops.max_pool2d(x, 2, stride=-1), "For 'max_pool2d', the 'stride' must be int"),
    (lambda x: ops.max_pool2d(x, 0), "For 'max_pool2d', the 'kernel_size' must be int"),
    (lambda x: ops.max_pool2d(x, 2, dilation=0), "For 'max_pool2d', the 'dilation' must be"),
    (lambda x: ops.avg_pool2d(x, 0),
     "For 'avg_pool2d', the 'kernel_size' must be int and must >= 1, but got '0' with type "
     "'int'."),
    (lambda x: ops.avg_pool2d(x, 2, stride=0),
     "For 'avg_pool2d', the 'stride' must be int and must >= 1, but got '0' with type 'int'."),
    (lambda x: ops.avg_pool1d(x[0], 2, 0), "For 'avg_pool1d', "),
    (lambda x: ops.max_pool3d(x[None], 2, 0), "For 'max_pool3d', "),
    (lambda x: ops.avg_pool3d(x[None], 2, 0), "For 'avg_pool3d', "),
    (lambda x: ops.conv2d(x, _x(1, 1, 3, 3), stride=0), "For 'conv2d', "),
    (lambda x: ops.conv2d(x, _x(1, 1, 3, 3), dilation=0), "For 'conv2d', "),
    (lambda x: ops.dropout(x, p=2.0), "For 'dropout', "),
]


@pytest.mark.parametrize("index", range(len(FUNCTIONAL)))
def test_functional_arguments_checked_at_entry(index):
    call, message = FUNCTIONAL[index]
    with pytest.raises(ValueError) as info:
        call(_x(1, 1, 8, 8))
    assert str(info.value).startswith(message)


def test_max_pool2d_stride_none_is_the_kernel():
    x = _x(1, 1, 8, 8)
    np.testing.assert_array_equal(ops.max_pool2d(x, 2).asnumpy(),
                                  ops.max_pool2d(x, 2, 2).asnumpy())


EMPTY = [
    (lambda: nn.Conv1d(3, 4, 3), (0, 3, 8), (0, 4, 8)),
    (lambda: nn.Conv2d(3, 8, 3), (0, 3, 8, 8), (0, 8, 8, 8)),
    (lambda: nn.Conv2d(4, 4, 3, stride=2, dilation=2, pad_mode="valid", group=2,
                       has_bias=True), (0, 4, 8, 8), (0, 4, 2, 2)),
    (lambda: nn.Conv3d(3, 4, 3), (0, 3, 4, 4, 4), (0, 4, 4, 4, 4)),
    (lambda: nn.Conv1dTranspose(3, 4, 3), (0, 3, 8), (0, 4, 8)),
    (lambda: nn.Conv2dTranspose(3, 4, 3, stride=2, pad_mode="pad", padding=1), (0, 3, 4, 4),
     (0, 4, 7, 7)),
    (lambda: nn.Conv3dTranspose(3, 4, 3), (0, 3, 4, 4, 4), (0, 4, 4, 4, 4)),
    (lambda: nn.Dense(3, 2), (0, 3), (0, 2)),
    (lambda: nn.Dense(4, 2), (0, 5, 4), (0, 5, 2)),
    (lambda: nn.MaxPool1d(2, 2), (0, 3, 8), (0, 3, 4)),
    (lambda: nn.AvgPool1d(2, 2), (0, 3, 8), (0, 3, 4)),
    (lambda: nn.MaxPool2d(2, 2), (0, 3, 8, 8), (0, 3, 4, 4)),
    (lambda: nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True), (0, 3, 8, 8),
     (0, 3, 5, 5)),
    (lambda: nn.AvgPool2d(2, 2), (0, 3, 8, 8), (0, 3, 4, 4)),
    (lambda: nn.MaxPool3d(2, 2), (0, 3, 4, 4, 4), (0, 3, 2, 2, 2)),
    (lambda: nn.AvgPool3d(2, 2), (0, 3, 4, 4, 4), (0, 3, 2, 2, 2)),
    (lambda: nn.AdaptiveAvgPool1d(2), (0, 3, 8), (0, 3, 2)),
    (lambda: nn.AdaptiveMaxPool1d(2), (0, 3, 8), (0, 3, 2)),
    (lambda: nn.AdaptiveAvgPool2d(2), (0, 3, 8, 8), (0, 3, 2, 2)),
    (lambda: nn.AdaptiveMaxPool2d(2), (0, 3, 8, 8), (0, 3, 2, 2)),
    (lambda: nn.AdaptiveAvgPool3d(2), (0, 3, 4, 4, 4), (0, 3, 2, 2, 2)),
    (lambda: nn.AdaptiveMaxPool3d(2), (0, 3, 4, 4, 4), (0, 3, 2, 2, 2)),
    (lambda: nn.BatchNorm1d(3), (0, 3), (0, 3)),
    (lambda: nn.BatchNorm2d(3), (0, 3, 8, 8), (0, 3, 8, 8)),
    (lambda: nn.BatchNorm3d(3), (0, 3, 2, 2, 2), (0, 3, 2, 2, 2)),
    (lambda: nn.LayerNorm((4,)), (0, 4), (0, 4)),
    (lambda: nn.LayerNorm((8,)), (0, 3, 8), (0, 3, 8)),
    (lambda: nn.GroupNorm(2, 4), (0, 4, 3, 3), (0, 4, 3, 3)),
    (lambda: nn.InstanceNorm2d(3), (0, 3, 4, 4), (0, 3, 4, 4)),
    (lambda: nn.Dropout(p=0.5), (0, 3), (0, 3)),
    (lambda: nn.Dropout2d(0.5), (0, 3, 4, 4), (0, 3, 4, 4)),
    (lambda: nn.Flatten(), (0, 3, 2), (0, 6)),
    (lambda: nn.ReLU(), (0, 3), (0, 3)),
    (lambda: nn.GELU(), (0, 3), (0, 3)),
    (lambda: nn.Softmax(), (0, 3), (0, 3)),
    (lambda: nn.LogSoftmax(), (0, 3), (0, 3)),
    (lambda: nn.Tanh(), (0, 3), (0, 3)),
    (lambda: nn.Sigmoid(), (0, 3), (0, 3)),
    (lambda: nn.PReLU(), (0, 3), (0, 3)),
    (lambda: nn.PixelShuffle(2), (0, 4, 2, 2), (0, 1, 4, 4)),
]


@pytest.mark.parametrize("index", range(len(EMPTY)))
def test_empty_batch_gives_empty_result_and_gradient(index):
    make, shape, want = EMPTY[index]
    cell = make()
    cell.set_train(True)
    x = ms.Tensor(np.zeros(shape, np.float32))
    y = cell(x)
    y = y[0] if isinstance(y, tuple) else y
    assert tuple(y.shape) == want
    assert y.dtype == ms.float32
    params = cell.trainable_params()

    def loss(x):
        out = cell(x)
        return (out[0] if isinstance(out, tuple) else out).sum()

    grads = ms.grad(loss, grad_position=0, weights=params or None)(x)
    gx = grads[0] if params else grads
    assert tuple(gx.shape) == shape
    for g, p in zip(grads[1] if params else (), params):
        assert g.shape == p.shape
        assert not g.asnumpy().any()  # nothing to learn from no samples


def test_empty_batch_keeps_batchnorm_running_statistics():
    bn = nn.BatchNorm2d(3)
    bn.set_train(True)
    bn(_x(4, 3, 2, 2))
    mean, var = bn.moving_mean.asnumpy().copy(), bn.moving_variance.asnumpy().copy()
    bn(ms.Tensor(np.zeros((0, 3, 2, 2), np.float32)))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), mean)
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), var)


def test_empty_batch_matches_torch_shapes():
    torch = pytest.importorskip("torch")
    x = np.zeros((0, 3, 9, 9), np.float32)
    tconv = torch.nn.Conv2d(3, 5, 3, stride=2, padding=1)
    got = nn.Conv2d(3, 5, 3, stride=2, pad_mode="pad", padding=1)(ms.Tensor(x))
    assert tuple(got.shape) == tuple(tconv(torch.from_numpy(x)).shape)
    tpool = torch.nn.functional.max_pool2d(torch.from_numpy(x), 3, 2, 1, ceil_mode=True)
    got = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True)(ms.Tensor(x))
    assert tuple(got.shape) == tuple(tpool.shape)
