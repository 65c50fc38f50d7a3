"""The nn wrappers, loss-scale helpers, AdaFactor/AdamOffload, get_metrics,
no_init_parameters and the Cell extras added for MindSpore 2.10 coverage. (MindSpore's own
numbers: ms_programs/nn_extra_optim.py, cell_extra_api.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


def _data(n=8):
    r = np.random.RandomState(0)
    return Tensor(r.randn(n, 3).astype(np.float32)), Tensor(r.randn(n, 1).astype(np.float32))


class _Sum(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = nn.Dense(3, 1)

    def construct(self, x, y):
        return ((self.net(x) - y) ** 2).sum()


def test_micro_batch_cells_sum_over_slices():
    x, y = _data()
    net = _Sum()
    whole = net(x, y).asnumpy()
    for cell in (nn.GradAccumulationCell(net, 4), nn.PipelineCell(net, 2),
                 nn.MicroBatchInterleaved(net, 2)):
        np.testing.assert_allclose(cell(x, y).asnumpy(), whole, rtol=1e-5)
    grads = ms.grad(nn.GradAccumulationCell(net, 4), None, net.trainable_params())(x, y)
    ref = ms.grad(net, None, net.trainable_params())(x, y)
    for g, r in zip(grads, ref):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy(), rtol=1e-5)
    with pytest.raises(ValueError, match="divisible by 3"):
        nn.GradAccumulationCell(net, 3)(x, y)
    with pytest.raises(ValueError, match="large than 0"):
        nn.MicroBatchInterleaved(net, 0)
    with pytest.raises(TypeError, match="must cell type"):
        nn.PipelineCell(lambda a: a, 2)


def test_pipeline_cell_stage_config():
    net = _Sum()
    nn.PipelineCell(net, 2, stage_config={"net": 1}, segment_config={"net": 0})
    assert net.net.pipeline_stage == 1 and net.net.pipeline_segment == 0
    with pytest.raises(KeyError, match="stage_config"):
        nn.PipelineCell(net, 2, stage_config={"nope": 1})
    with pytest.raises(ValueError, match="no 'shard'"):
        nn.PipelineCell(net, 2).shard(((1,),))


def test_forward_value_and_grad_and_with_grad_cell():
    x, y = _data()
    net = nn.Dense(3, 1)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    params = loss_net.trainable_params()
    loss, grads = nn.ForwardValueAndGrad(loss_net, params, get_by_list=True)(x, y)
    ref_loss, ref_grads = ms.value_and_grad(loss_net, None, params)(x, y)
    np.testing.assert_allclose(loss.asnumpy(), ref_loss.asnumpy())
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy())
    loss, (gx, gy) = nn.ForwardValueAndGrad(loss_net, get_all=True)(x, y)
    assert gx.shape == (8, 3) and gy.shape == (8, 1)
    sens = nn.ForwardValueAndGrad(loss_net, params, get_by_list=True, sens_param=True)
    _, doubled = sens(x, y, Tensor(np.float32(2.0)))
    np.testing.assert_allclose(doubled[0].asnumpy(), 2 * ref_grads[0].asnumpy(), rtol=1e-6)
    for g, r in zip(nn.WithGradCell(net, nn.MSELoss())(x, y), ref_grads):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy())
    with pytest.raises(TypeError, match="'weights' must be Parameters array"):
        nn.ForwardValueAndGrad(loss_net, get_by_list=True)
    with pytest.raises(TypeError, match="'network' must be cell"):
        nn.ForwardValueAndGrad(3)


def test_parameter_update_virtual_dataset_get_next():
    p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    out = nn.ParameterUpdate(p)(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [1, 2])
    np.testing.assert_array_equal(out.asnumpy(), [1, 2])
    with pytest.raises(TypeError, match="'param' must be 'Parameter'"):
        nn.ParameterUpdate(Tensor(np.zeros(2)))

    class Three(nn.Cell):
        def construct(self, a, b, c):
            return a + b * c

    one = Tensor(np.ones(2, np.float32))
    np.testing.assert_array_equal(nn.VirtualDatasetCellTriple(Three())(one, one, one).asnumpy(),
                                  [2, 2])
    get_next = nn.GetNextSingleOp([ms.float32], [[2, 3]], "queue")
    with pytest.raises(RuntimeError, match="iterate the dataset"):
        get_next()


def test_time_distributed_forms_and_errors():
    dense = nn.Dense(2, 3)
    x = Tensor(np.random.RandomState(1).randn(4, 5, 2).astype(np.float32))
    folded = nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(x)
    looped = nn.TimeDistributed(dense, time_axis=1)(x)
    ref = np.stack([dense(x[:, i]).asnumpy() for i in range(5)], 1)
    np.testing.assert_allclose(folded.asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(looped.asnumpy(), ref, rtol=1e-6)
    with pytest.raises(ValueError, match="at least 3D"):
        nn.TimeDistributed(dense, time_axis=1)(x[0])
    with pytest.raises(TypeError, match="Cell or Primitive"):
        nn.TimeDistributed(lambda a: a, time_axis=1)


def test_loss_scale_helpers():
    from cellgrad.nn.wrap import cell_wrapper, loss_scale

    g = Tensor(np.array([2.0, 4.0], np.float32))
    np.testing.assert_array_equal(
        loss_scale.tensor_grad_scale(Tensor(np.float32(2.0)), g).asnumpy(), [1, 2])
    bad = Tensor(np.array([1.0, np.inf], np.float32))
    from cellgrad_nn.wrap.loss_scale_funcs import AllFinite

    assert AllFinite()([g, bad]).asnumpy() and not AllFinite()((g, g))
    np.testing.assert_array_equal(loss_scale.grad_overflow(bad).asnumpy(), [1.0])
    np.testing.assert_array_equal(loss_scale.ascend_grad_overflow(bad).asnumpy(), [True, False])
    accu = Parameter(Tensor(np.array([6.0, 8.0], np.float32)), name="accu")
    out = loss_scale.grad_scale(Tensor(np.float32(2.0)), g, accu)
    np.testing.assert_array_equal(out.asnumpy(), [3, 4])
    np.testing.assert_array_equal(accu.asnumpy(), [0, 0])
    buf = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="buf")
    np.testing.assert_array_equal(cell_wrapper.grad_scale(Tensor(np.float32(3.0)), buf).asnumpy(),
                                  [3, 6])
    np.testing.assert_array_equal(buf.asnumpy(), [0, 0])
    with pytest.raises(TypeError, match="AllFinite"):
        AllFinite()([g, 1.0])


def test_adafactor_factored_state_and_errors():
    net = nn.Dense(4, 3)
    opt = nn.AdaFactor(net.trainable_params())
    assert opt.exp_avg_sq_row[0].shape == (3,) and opt.exp_avg_sq_col[0].shape == (4,)
    assert opt.exp_avg_sq[1].shape == (3,)
    x = Tensor(np.random.RandomState(0).randn(6, 4).astype(np.float32))
    loss_fn = ms.value_and_grad(lambda a: (net(a) ** 2).mean(), None, opt.parameters)
    first, _ = loss_fn(x)
    for _ in range(20):
        loss, grads = loss_fn(x)
        opt(grads)
    assert loss.asnumpy() < first.asnumpy()
    assert float(opt.step.asnumpy()[0]) == 20
    with pytest.raises(ValueError, match="Cannot combine manual lr"):
        nn.AdaFactor(net.trainable_params(), learning_rate=0.1)
    with pytest.raises(ValueError, match="warmup_init requires"):
        nn.AdaFactor(net.trainable_params(), relative_step=False, learning_rate=0.1,
                     warmup_init=True)
    with pytest.raises(ValueError, match="eps must have 2"):
        nn.AdaFactor(net.trainable_params(), eps=(1e-30,))
    with pytest.raises(ValueError, match="decay_rate"):
        nn.AdaFactor(net.trainable_params(), decay_rate=1.5)


def test_adam_offload_is_adam():
    a, b = nn.Dense(3, 2), nn.Dense(3, 2)
    b.weight.set_data(a.weight)
    b.bias.set_data(a.bias)
    oa, ob = nn.Adam(a.trainable_params(), 0.01), nn.AdamOffload(b.trainable_params(), 0.01)
    x = Tensor(np.random.RandomState(0).randn(5, 3).astype(np.float32))
    for net, opt in ((a, oa), (b, ob)):
        for _ in range(3):
            opt(ms.grad(lambda v, n=net: (n(v) ** 2).sum(), None, opt.parameters)(x))
    np.testing.assert_array_equal(a.weight.asnumpy(), b.weight.asnumpy())
    with pytest.raises(TypeError, match="use_nesterov"):
        nn.AdamOffload(b.trainable_params(), use_nesterov=1)


def test_get_metrics_and_no_init_parameters():
    got = nn.get_metrics({"accuracy", "mae"})
    assert isinstance(got["accuracy"], nn.Accuracy) and isinstance(got["mae"], nn.MAE)
    assert nn.get_metrics(None) is None
    with pytest.raises(TypeError, match="must be None, dict or set"):
        nn.get_metrics(["accuracy"])
    with pytest.raises(KeyError, match="unsupported metric xx"):
        nn.get_metrics({"xx"})
    from cellgrad.nn.utils import no_init_parameters

    assert nn.no_init_parameters is no_init_parameters
    with no_init_parameters():
        net = nn.Dense(2, 3)
    net.weight.set_data(Tensor(np.ones((3, 2), np.float32)))  # what a checkpoint load does
    np.testing.assert_array_equal(net.weight.asnumpy(), 1)

    @no_init_parameters()
    def build():
        return nn.Dense(1, 1)

    assert build().weight.shape == (1, 1)


def test_cell_state_dict_hooks_order_and_removal():
    calls = []
    net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    h = net.register_state_dict_pre_hook(lambda c, prefix, keep: calls.append(("pre", prefix)))
    net[0].register_state_dict_post_hook(
        lambda c, sd, prefix, meta: calls.append(("post", prefix, sorted(sd))))
    net.state_dict()
    assert calls == [("pre", ""), ("post", "0.", ["0.bias", "0.weight"])]
    h.remove()
    calls.clear()
    net.state_dict()
    assert calls == [("post", "0.", ["0.bias", "0.weight"])]
    seen = []
    net[0].register_load_state_dict_pre_hook(
        lambda c, sd, prefix, *rest: seen.append((prefix, sorted(sd))))
    net.register_load_state_dict_post_hook(lambda c, keys: keys.unexpected_keys.clear())
    sd = dict(net.state_dict())
    sd["stray"] = Tensor(np.ones(1, np.float32))
    result = net.load_state_dict(sd)  # the post hook forgave the stray key
    assert result.unexpected_keys == [] and seen == [("0.", ["0.bias", "0.weight"])]
    with pytest.raises(TypeError, match="must be a function"):
        net.register_state_dict_pre_hook(3)


def test_cell_attributes():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.SequentialCell([nn.ReLU()])])
    net.update_cell_prefix()
    assert (net.param_prefix, net[1].param_prefix, net[1][0].param_prefix) == ("", "1", "1.0")
    net.generate_scope()
    assert net[1][0].get_scope() == "Default/1-SequentialCell/0-ReLU"
    from cellgrad.nn._cell_extras import MixedPrecisionType

    net[0].to_float(ms.float16)
    assert net[0].get_mixed_precision_type() is MixedPrecisionType.FP16
    net[0].set_mixed_precision_type(MixedPrecisionType.NOTSET)
    assert net[0].get_mixed_precision_type() is MixedPrecisionType.NOTSET
    out = net(Tensor(np.ones((1, 2), np.float32)))
    assert out.dtype == ms.float32
    before = net[0].weight
    assert net.to_empty() is net and net[0].weight is before
    with pytest.raises(AttributeError, match="pipeline_stage"):
        _ = net.pipeline_stage
    with pytest.raises(TypeError, match="must be int type"):
        net.pipeline_stage = True
    assert list(net.parameters_broadcast_dict()) == ["0.weight", "0.bias"]
    assert net.set_boost("less_bn") is net and net[1][0].less_bn
    with pytest.raises(RuntimeError, match="get_extra_state"):
        net.get_extra_state()
    with pytest.raises(TypeError, match="takes 2 positional"):
        nn.Dense(2, 2).run_construct((Tensor(np.ones((1, 2), np.float32)),), {})
    assert net.cast_inputs((1,), ms.float16) is None
    assert net.compiled is False and net.compile_phase is None and net.jit_config_dict == {}
    with pytest.raises(AttributeError, match="cell_init_args"):
        _ = net.cell_init_args
    net.cell_init_args = "Dense(2, 2)"
    assert net.cell_init_args == "Dense(2, 2)"
    holder = nn.Cell()
    holder.plain = [Parameter(Tensor(np.ones(1, np.float32)), name="c")]
    assert holder.exist_names == {"c"}


def test_pipeline_grad_reducer_one_stage():
    x, y = _data()
    net = _Sum()
    params = ms.ParameterTuple(net.trainable_params())
    reducer = nn.PipelineGradReducer(params, scale_sense=4.0)
    assert [p.name for p in reducer.accu_grads] == ["accu_grads.net.weight", "accu_grads.net.bias"]
    grads = ms.grad(nn.PipelineCell(net, 2), None, params)(x, y)
    reduced = reducer(grads)
    for g, r in zip(reduced, grads):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy() / 4.0, rtol=1e-6)
    with pytest.raises(ValueError, match="one gradient per parameter"):
        reducer(grads[:1])
