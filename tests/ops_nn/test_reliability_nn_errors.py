"""Issue 21 items 8-10 (nn): errors name the API and the problem (hooks, im2col memory), shape
and range errors are also RuntimeError as in MindSpore, and layers refuse an input of another
dtype than their weight, as MindSpore 2.10 does (recorded messages quoted per case)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops
from cellgrad._errors import ShapeError, ValueRangeError
from cellgrad_nn.spatial import _buffers


def _x(*shape, dtype=np.float32):
    return ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(dtype))


def test_forward_pre_hook_returning_a_str():
    pytest.importorskip("cellgrad_hooks", reason="Cell hooks come from cellgrad-hooks")
    # MindSpore 2.10: TypeError "For primitive[Shape], the input argument must be Tensor, but
    # got <class 'str'>."
    cell = nn.Dense(3, 2)
    cell.register_forward_pre_hook(lambda c, args: "bad")
    with pytest.raises(TypeError, match="For 'Dense', the input must be a Tensor, but got "
                                        "str.") as info:
        cell(_x(1, 3))
    assert any("forward pre hook" in n for n in info.value.__notes__)


def test_im2col_larger_than_memory_is_refused_before_allocating(monkeypatch):
    monkeypatch.setattr(_buffers, "memory_bytes", lambda: 100 * 2**20)
    x, w = _x(1, 8, 130, 130), _x(4, 8, 11, 11)
    # 8*11*11 x 1 x 120*120 float32 = 53 MiB fits in 100 MiB; 4 samples (213 MiB) do not
    assert ops.conv2d(x, w).shape == (1, 4, 120, 120)
    with pytest.raises(MemoryError, match=r"For 'conv2d', the im2col columns would need 0\.2 "
                                          r"GiB \(shape \(968, 4, 14400\), float32\), more than "
                                          r"this machine's 0\.1 GiB"):
        ops.conv2d(ms.Tensor(np.zeros((4, 8, 130, 130), np.float32)), w)
    with pytest.raises(MemoryError, match="For 'conv2d', the im2col columns"):
        nn.Conv2d(8, 4, 11, pad_mode="valid")(ms.Tensor(np.zeros((4, 8, 130, 130), np.float32)))


def test_issue_sized_convolution_is_refused_with_its_size():
    # the audit's case: 29 GiB of columns; refused on any machine with less memory than that
    limit = _buffers.memory_bytes()
    if limit is None or limit > 29 * 2**30:
        pytest.skip("this machine has more memory than the case needs")
    with pytest.raises(MemoryError, match=r"would need 29\.1 GiB"):
        ops.conv2d(ms.Tensor(np.zeros((1, 256, 512, 512), np.float32)), _x(256, 256, 11, 11))


@pytest.mark.parametrize("layer,shape", [
    (lambda: nn.Conv1d(3, 8, 3), (1, 4, 8)),
    (lambda: nn.Conv2d(3, 8, 3), (1, 4, 8, 8)),
    (lambda: nn.Conv3d(3, 8, 3), (1, 4, 4, 4, 4)),
    (lambda: nn.Conv2dTranspose(3, 8, 3), (1, 4, 8, 8)),
    (lambda: nn.Dense(3, 2), (2, 4)),
])
def test_channel_mismatch_is_runtime_error_too(layer, shape):
    # MindSpore 2.10: RuntimeError "For 'Conv2D', 'C_in' of input 'x' shape divide by
    # parameter 'group' must be equal to 'C_in' of input 'weight' shape: 3, but got ... 4"
    # (Conv3d and Dense: ValueError)
    with pytest.raises(ShapeError) as info:
        layer()(_x(*shape))
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, ValueError)


def test_functional_conv_channel_mismatch_is_runtime_error_too():
    with pytest.raises(RuntimeError, match=r"For 'conv2d', the input's channels \(4\)"):
        ops.conv2d(_x(1, 4, 8, 8), _x(8, 3, 3, 3))


def test_embedding_index_out_of_range_is_runtime_error_too():
    # MindSpore 2.10: RuntimeError "For 'Gather', the 'input_indices' should be in the range
    # [0, 4), but got 5"
    idx = ms.Tensor(np.array([5], np.int32))
    with pytest.raises(RuntimeError, match=r"For 'embedding', 'input' values must be in "
                                           r"\[-4, 4\)"):
        nn.Embedding(4, 3)(idx)
    with pytest.raises(ValueRangeError):
        nn.Embedding(4, 3)(idx)


@pytest.mark.parametrize("call", [
    lambda x, t: ops.cross_entropy(x, t),
    lambda x, t: nn.CrossEntropyLoss()(x, t),
    lambda x, t: ops.nll_loss(ops.log_softmax(x, 1), t),
])
def test_label_out_of_range_is_runtime_error_too(call):
    # MindSpore 2.10: RuntimeError "For 'GatherD', the value of 'index' must be in [-3, 3),
    # but got: 5"
    t = ms.Tensor(np.array([0, 5], np.int32))
    with pytest.raises(RuntimeError, match="'target' values must be class indices in"):
        call(_x(2, 3), t)
    with pytest.raises(ValueError):
        call(_x(2, 3), t)


@pytest.mark.parametrize("opt", [
    lambda p: nn.SGD(p, 0.1), lambda p: nn.Momentum(p, 0.1, 0.9), lambda p: nn.Adam(p, 0.1)])
def test_optimizer_gradient_count_is_runtime_error_too(opt):
    # MindSpore 2.10: RuntimeError "The tuples in HyperMap should have the same length."
    dense = nn.Dense(3, 2)
    with pytest.raises(RuntimeError, match=r"the gradients must be a tuple of 2 Tensors \(one "
                                           r"per parameter\), but got 1"):
        opt(dense.trainable_params())((_x(2, 3),))


@pytest.mark.parametrize("opt", [lambda p: nn.SGD(p, 0.1), lambda p: nn.Adam(p, 0.1)])
def test_optimizer_gradient_shape_is_runtime_error_too(opt):
    # MindSpore 2.10: RuntimeError (SGD's kernel: "the shape of 'parameters' must be the
    # gradient as the shape of 'gradient'")
    dense = nn.Dense(3, 2)
    with pytest.raises(RuntimeError, match=r"the gradient of 'weight' has shape \(2, 4\), but "
                                           r"the parameter has shape \(2, 3\)"):
        opt(dense.trainable_params())((_x(2, 4), _x(2)))


DTYPE_CASES = [
    # (layer, input shape, input dtype); MindSpore 2.10 raises TypeError for each:
    # "For primitive[Conv2D], the input type must be same."
    (lambda: nn.Conv2d(1, 2, 3), (1, 1, 8, 8), np.float16),
    (lambda: nn.Conv2d(1, 2, 3), (1, 1, 8, 8), np.float64),
    (lambda: nn.Conv2d(1, 2, 3), (1, 1, 8, 8), np.int32),
    (lambda: nn.Conv1d(1, 2, 3), (1, 1, 8), np.float64),
    (lambda: nn.Conv3d(1, 2, 3), (1, 1, 5, 5, 5), np.float16),
    (lambda: nn.Conv2dTranspose(1, 2, 3), (1, 1, 5, 5), np.float64),
    (lambda: nn.Conv1dTranspose(1, 2, 3), (1, 1, 5), np.float64),
    (lambda: nn.Conv3dTranspose(1, 2, 3), (1, 1, 3, 3, 3), np.float16),
]


@pytest.mark.parametrize("index", range(len(DTYPE_CASES)))
def test_layers_refuse_another_dtype_than_their_weight(index):
    make, shape, dtype = DTYPE_CASES[index]
    cell = make()
    x = ms.Tensor(np.ones(shape, dtype))
    with pytest.raises(TypeError, match=r"the type of the input should be same as 'weight', "
                                        r"but got the input with type Tensor\[") as info:
        cell(x)
    assert str(info.value).startswith(f"For '{type(cell).__name__}', ")


def test_layers_of_the_inputs_dtype_run():
    y = nn.Dense(3, 2, dtype=ms.float64)(_x(2, 3, dtype=np.float64))
    assert y.dtype == ms.float64
    y = nn.Conv2d(1, 2, 3, dtype=ms.float16)(_x(1, 1, 6, 6, dtype=np.float16))
    assert y.dtype == ms.float16 and y.shape == (1, 2, 6, 6)
    # to_float casts the inputs and the Parameters together: no refusal
    net = nn.Dense(3, 2)
    net.to_float(ms.float16)
    assert net(_x(2, 3)).dtype == ms.float16


@pytest.mark.parametrize("call", [
    lambda: ops.conv2d(_x(1, 2, 5, 5, dtype=np.float16), _x(2, 2, 3, 3)),
    lambda: ops.conv2d(_x(1, 2, 5, 5, dtype=np.float64), _x(2, 2, 3, 3)),
    lambda: ops.conv1d(_x(1, 2, 5, dtype=np.float64), _x(2, 2, 3)),
    lambda: ops.conv3d(_x(1, 2, 5, 5, 5, dtype=np.float16), _x(2, 2, 3, 3, 3)),
    lambda: ops.conv_transpose2d(_x(1, 2, 5, 5, dtype=np.float64), _x(2, 2, 3, 3)),
])
def test_functional_convolutions_refuse_mixed_dtypes(call):
    # MindSpore 2.10: TypeError "For primitive[Conv2D], the input type must be same."
    with pytest.raises(TypeError, match=r"the type of 'input' should be same as 'weight', but "
                                        r"got 'input' with type Tensor\["):
        call()


@pytest.mark.parametrize("dtype", ["Float64", "Float16", "Int32", "Int64"])
def test_dense_refuses_another_dtype_than_its_weight(dtype):
    x = ms.Tensor(np.ones((1, 3)), getattr(ms, dtype.lower()))
    # MindSpore 2.10's nn.Dense multiplies with MatMul, which names itself
    with pytest.raises(TypeError) as info:
        nn.Dense(3, 2)(x)
    assert str(info.value) == (f"For 'MatMul', the type of 'x2' should be same as 'x1', but got "
                               f"'x1' with type Tensor[{dtype}] and 'x2' with type "
                               f"Tensor[Float32].")


def test_ops_dense_refuses_mixed_dtypes_as_mindspore():
    # messages recorded from MindSpore 2.10 (2026-11-26)
    x32, x16 = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 3), np.float16))
    w32, w16 = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 3), np.float16))
    b32, b16 = ms.Tensor(np.ones(4, np.float32)), ms.Tensor(np.ones(4, np.float16))
    with pytest.raises(TypeError) as info:
        ops.dense(x32, w16)
    assert str(info.value) == ("For 'Dense', the type of 'x2' should be same as 'x1', but got "
                               "'x1' with type Tensor[Float32] and 'x2' with type "
                               "Tensor[Float16].")
    with pytest.raises(TypeError) as info:
        ops.dense(x32, w32, b16)
    assert str(info.value) == ("For Dense, all dtypes should be the same, but got 'input' with "
                               "dtype: Float32 and 'bias' with dtype: Float16.")
    with pytest.raises(TypeError) as info:
        ops.dense(x16, w16, b32)
    assert str(info.value) == ("For Dense, all dtypes should be the same, but got 'input' with "
                               "dtype: Float16 and 'bias' with dtype: Float32.")
    got = ops.dense(x16, w16, b16)
    assert got.dtype == ms.float16 and np.all(got.asnumpy() == 4)
    got = ops.dense(x32.astype(ms.int32), w32.astype(ms.int32))
    assert got.dtype == ms.int32 and np.all(got.asnumpy() == 3)
