"""Names from the usage study (issues 28/29): ops.Custom (pyfunc), the view Primitives,
numpy.copy/round, runtime/hal, merge_sliced_parameter, dtype names, and the names cellgrad
leaves out saying why. Behaviour against MindSpore: ms_programs/usage_breadth.py."""

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import hal, ops, runtime
from cellgrad._not_provided import NotProvidedAttributeError, NotProvidedImportError
from cellgrad.testing import gradcheck


def _double(a):
    return a * 2.0


def test_custom_pyfunc_runs_numpy_and_uses_bprop():
    seen = []

    def square(a):
        seen.append(type(a))
        return a * a

    sq = ops.Custom(square, out_shape=lambda s: s, out_dtype=lambda d: d,
                    bprop=lambda a, out, dout: (2 * a * dout,))
    x = ms.Tensor(np.array([[0.5, -1.5], [2.0, 3.0]]))
    np.testing.assert_allclose(sq(x).asnumpy(), x.asnumpy() ** 2)
    assert seen == [np.ndarray]
    assert gradcheck(lambda t: sq(t), x)


def test_custom_checks_outputs_and_refuses_kernel_types():
    x = ms.Tensor(np.ones(3, np.float32))
    bad_shape = ops.Custom(lambda a: a, out_shape=(4,), out_dtype=ms.float32)
    with pytest.raises(RuntimeError, match=r"has shape \(3,\), but 'out_shape' says \(4,\)"):
        bad_shape(x)
    out = ops.Custom(lambda a: a + 1, out_shape=(3,), out_dtype=ms.int32)(x)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [2, 2, 2]
    with pytest.raises(RuntimeError, match="bprop not defined"):
        ms.grad(lambda t: ops.Custom(_double, (3,), ms.float32)(t).sum())(x)
    with pytest.raises(RuntimeError, match="func_type 'akg' compiles a custom device kernel"):
        ops.Custom(_double, (3,), ms.float32, func_type="akg")
    with pytest.raises(TypeError, match="must be a Python function"):
        ops.Custom("kernel.so:f", (3,), ms.float32)


def test_view_primitives_and_their_gradients():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 4)))
    assert ops.TransposeView()(x, (2, 0, 1)).shape == (4, 2, 3)
    np.testing.assert_array_equal(ops.TransposeExtView()(x, 0, 2).asnumpy(),
                                  np.swapaxes(x.asnumpy(), 0, 2))
    np.testing.assert_array_equal(ops.SelectView()(x, 1, 2).asnumpy(), x.asnumpy()[:, :, 1])
    assert gradcheck(lambda t: ops.SelectView()(t, 2, 1), x)
    assert gradcheck(lambda t: ops.TransposeExtView()(t, 0, 1), x)
    assert ops.Tensor is ms.Tensor


def test_numpy_copy_is_a_new_tensor_with_a_gradient_and_round_rounds_half_even():
    x = ms.Tensor(np.array([0.25, -1.35, 2.5]))
    y = mnp.copy(x)
    assert y is not x and not np.shares_memory(y.asnumpy(), x.asnumpy())
    assert gradcheck(lambda t: mnp.copy(t) * t, x)
    np.testing.assert_array_equal(mnp.round(x).asnumpy(), [0.0, -1.0, 2.0])
    np.testing.assert_allclose(mnp.around(x, 1).asnumpy(), [0.2, -1.4, 2.5])
    assert ms.grad(lambda t: mnp.round(t, 1).sum())(x).asnumpy().tolist() == [0, 0, 0]


def test_runtime_and_hal_on_the_cpu():
    assert hal.is_available("CPU") and not hal.is_available("Ascend")
    assert hal.device_count() == 1
    with pytest.raises(ValueError, match="Ascend backend is not available"):
        hal.device_count("Ascend")
    with pytest.raises(ValueError, match=r"should be in correct format!.*but got 2G\."):
        runtime.set_memory(init_size="2G")
    with pytest.raises(ValueError, match='should not be "0GB"'):
        runtime.set_memory(max_size="0.0GB")
    with pytest.raises(ValueError, match=r"optimize_level must be one of \['O0', 'O1'\]"):
        runtime.set_memory(optimize_level="O2")
    with pytest.raises(TypeError, match="'enable_affinity' must be bool"):
        runtime.set_cpu_affinity(1)
    assert ms.launch_blocking is runtime.launch_blocking


def test_merge_sliced_parameter_concatenates_axis_0():
    parts = [ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), "w", requires_grad=False),
             ms.Parameter(ms.Tensor(np.zeros((1, 3), np.float32)), "w")]
    merged = ms.merge_sliced_parameter(parts)
    assert merged.name == "w" and merged.shape == (3, 3) and merged.dtype == ms.float32
    assert not merged.requires_grad
    with pytest.raises(ValueError, match="model-parallel layout"):
        ms.merge_sliced_parameter(parts, {"w": object()})
    with pytest.raises(KeyError, match="should be a key in the 'strategy'"):
        ms.merge_sliced_parameter(parts, {"v": object()})


def test_dtype_names():
    from cellgrad.common import dtype as mstype

    assert mstype.Float(64) is ms.float64 and isinstance(ms.float16, mstype.Float)
    assert mstype.Tuple() is mstype.tuple_ and ms.tensor_type is mstype.tensor_type
    assert str(mstype.tensor_type) == "Tensor" and mstype.tensor_type != mstype.TensorType(ms.int8)


@pytest.mark.parametrize("qualname, says", [
    ("ops.Pull", "parameter-server"),
    ("parallel.transform_checkpoints", "strategy files of MindSpore's semi/auto-parallel"),
    ("train.ConvertModelUtils", "THOR"),
    ("runtime.MemPool", r"device \(Ascend/GPU\) memory"),
    ("hal.Stream", "device streams"),
    ("SymbolTree", "mindspore.rewrite"),
    ("ops.kernel", "registers or compiles a kernel"),
    ("ops.MapCacheIdx", "embedding cache"),
])
def test_left_out_names_say_why(qualname, says):
    import importlib

    module_name, _, name = f"cellgrad.{qualname}".rpartition(".")
    module = importlib.import_module(module_name)
    with pytest.raises(NotProvidedAttributeError, match=says):
        getattr(module, name)
    with pytest.raises(NotProvidedImportError, match=says):
        exec(f"from {module_name} import {name}", {})


def test_recompute_runs_the_cell_again_in_the_backward_walk():
    class Block(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.calls = 0
            self.w = ms.Parameter(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]])), "w")

        def construct(self, a):
            self.calls += 1
            return ops.tanh(ops.matmul(a, self.w))

    block, plain = Block(), Block()
    x = ms.Tensor(np.array([[0.1, 0.2], [-0.3, 0.4]]))
    g = ms.grad(lambda a: ms.recompute(block, a).sum(), 0, block.trainable_params())(x)
    want = ms.grad(lambda a: plain(a).sum(), 0, plain.trainable_params())(x)
    assert (block.calls, plain.calls) == (2, 1)
    np.testing.assert_allclose(g[0].asnumpy(), want[0].asnumpy())
    np.testing.assert_allclose(g[1][0].asnumpy(), want[1][0].asnumpy())
    assert gradcheck(lambda a: ms.recompute(block, a), x)
    with pytest.raises(TypeError, match="cellgrad recomputes Cells only"):
        ms.recompute(np.tanh, x, use_reentrant=False)


def test_load_segmented_checkpoints_merges_a_directory(tmp_path):
    pytest.importorskip("cellgrad_checkpoint")
    ms.save_checkpoint([{"name": "b", "data": ms.Tensor(np.zeros(3, np.float32))}],
                       str(tmp_path / "rank_1.ckpt"))
    ms.save_checkpoint([{"name": "a", "data": ms.Tensor(np.ones(2, np.float32))}],
                       str(tmp_path / "rank_0.ckpt"))
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    params = ms.load_segmented_checkpoints(str(tmp_path))
    assert list(params) == ["a", "b"] and params["b"].shape == (3,)
    with pytest.raises(ValueError, match="doesn't exist. Or it's not a directory"):
        ms.load_segmented_checkpoints(str(tmp_path / "missing"))
    with pytest.raises(TypeError, match="should be a str"):
        ms.load_segmented_checkpoints(tmp_path)


def test_device_ctx_sets_and_restores_the_device():
    ms.set_device("CPU", 0)
    with ms.DeviceCtx("CPU", 1) as ctx:
        assert isinstance(ctx, ms.DeviceCtx) and tuple(ms.get_current_device()) == ("CPU", 1)
    assert tuple(ms.get_current_device()) == ("CPU", 0)
    with pytest.raises(RuntimeError, match="Unsupported device target GPU"):
        with ms.DeviceCtx("GPU"):
            pass
    assert tuple(ms.get_current_device()) == ("CPU", 0)
    with pytest.raises(ValueError, match=r"must be one of \['CPU', 'GPU', 'Ascend', 'meta'\]"):
        with ms.DeviceCtx("xpu"):
            pass
    with pytest.raises(ValueError, match="device_id must be greater than or equal to 0"):
        with ms.DeviceCtx("CPU", -1):
            pass
    with pytest.raises(RuntimeError, match="no 'meta' device"):
        with ms.DeviceCtx("meta"):
            pass


def test_tensor_copy_and_ops_deepcopy_pass_gradients_as_mindspore():
    # MindSpore 2.10: grad(lambda x: (x.copy() * 2).sum()) and deepcopy's both give [2., 2.]
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    for f in (lambda t: t.copy(), ms.ops.deepcopy):
        g = ms.grad(lambda t, f=f: (f(t) * 2).sum())(x)
        np.testing.assert_array_equal(g.asnumpy(), [2.0, 2.0])
        y = f(x)
        assert y is not x and type(y) is ms.Tensor
        y[0] = 5.0
        assert x.asnumpy()[0] == 1.0  # a copy, not a view
