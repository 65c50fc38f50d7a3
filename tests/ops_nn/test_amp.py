"""cellgrad.amp: the levels' cast points, custom lists, build_train_network, the loss scalers,
all_finite, and the errors for bad arguments (recorded behaviour: ms_programs/amp_*.py)."""

import json
import pathlib

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, amp, nn, ops
from cellgrad.ops import operations as P

FIXTURE = pathlib.Path(__file__).parents[1] / "signatures" / "mindspore-2.10.json"


@pytest.fixture(autouse=True)
def _logger_made_here_is_dropped(monkeypatch):
    """amp logs warnings; cellgrad.log's handler keeps the stderr of the test that logs first,
    so a logger made during these tests is dropped after each (later tests read capsys)."""
    from cellgrad import log

    monkeypatch.setattr(log, "_logger", log._logger)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", bias_init="zeros",
                              weight_init=Tensor(rng.uniform(-1, 1, (2, 1, 3, 3)), ms.float32))
        self.bn = nn.BatchNorm2d(2)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(8, 3, weight_init=Tensor(rng.uniform(-1, 1, (3, 8)), ms.float32),
                           bias_init="zeros")

    def construct(self, x):
        return self.fc(self.flat(self.relu(self.bn(self.conv(x)))))


def x_in():
    return Tensor(np.linspace(-1, 1, 32).reshape(2, 1, 4, 4).astype(np.float32))


def dtypes_at_boundaries(net, x):
    pytest.importorskip("cellgrad_hooks", reason="records dtypes with Cell hooks")
    seen = {}

    def record(name):
        def hook(cell, inputs, output):
            seen.setdefault(name, output.dtype)
        return hook

    for name, cell in net.cells_and_names():
        cell.register_forward_hook(record(name))
    net(x)
    return seen


def test_o2_keeps_the_black_list_in_float32_and_returns_float32():
    net = Net()
    out_net = amp.auto_mixed_precision(net, "O2")
    assert type(out_net).__name__ == "_OutputTo32" and out_net._amp_level == "O2"
    assert type(net.bn).__name__ == "_OutputTo16"
    # wrappers add no prefix: the checkpoint names stay
    assert [p.name for p in out_net.trainable_params()] == [
        "conv.weight", "bn.gamma", "bn.beta", "fc.weight", "fc.bias"]
    seen = dtypes_at_boundaries(out_net, x_in())
    assert seen == {"": ms.float32, "_backbone": ms.float16, "_backbone.conv": ms.float16,
                    "_backbone.bn": ms.float16, "_backbone.bn._backbone": ms.float32,
                    "_backbone.relu": ms.float16, "_backbone.flat": ms.float16,
                    "_backbone.fc": ms.float16}
    assert net.conv.weight.dtype == ms.float32  # Parameters stay float32


def test_levels_agree_with_float32_within_float16_rounding():
    ref = Net()(x_in()).asnumpy()
    for level in ("O1", "O2", "O3"):
        out = amp.auto_mixed_precision(Net(), level)(x_in())
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-2, atol=1e-2)


def test_o1_casts_white_listed_cells_and_primitives_only():
    class Blk(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mm = ops.MatMul()
            self.add = ops.Add()

        def construct(self, x):
            y = self.mm(x, x)
            return self.add(y, x), y

    blk = Blk()
    amp.auto_mixed_precision(blk, "O1")
    assert isinstance(blk.mm, P.MatMul) and type(blk.add) is P.Add
    x = Tensor(np.full((2, 2), 1 / 3, np.float32))
    s, y = blk(x)
    assert y.dtype == ms.float32 and s.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), np.float32(np.float16(1 / 3) ** 2 * 2
                                                          ).astype(np.float16))


def test_o1_leaves_cells_whose_precision_the_user_set():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 2).to_float(ms.float16)])
    amp.auto_mixed_precision(net, "O1")
    seen = dtypes_at_boundaries(net, Tensor(np.ones((1, 2), np.float32)))
    assert seen["0"] == ms.float32 and seen["1"] == ms.float16


def test_bfloat16_as_the_low_dtype():
    """MindSpore 2.10's CPU build has no bfloat16 MatMul/Conv2D kernels (TypeError 'Select CPU
    operator[MatMul] fail! Unsupported data type!'); cellgrad computes them."""
    net = Net()
    out = amp.auto_mixed_precision(net, "O3", ms.bfloat16)(x_in())
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), Net()(x_in()).asnumpy(), rtol=5e-2, atol=5e-2)


def test_custom_lists():
    net = Net()
    amp.custom_mixed_precision(net, white_list=[nn.Dense])
    seen = dtypes_at_boundaries(net, x_in())
    assert seen["conv"] == ms.float32 and seen["fc"] == ms.float32
    net = Net()
    out_net = amp.custom_mixed_precision(net, black_list=[nn.Dense])
    assert type(net.fc).__name__ == "_OutputTo16" and type(net.bn).__name__ == "BatchNorm2d"
    assert out_net(x_in()).dtype == ms.float32


def test_white_and_black_lists_are_copies_of_mindspores():
    white = amp.get_white_list()
    white.append(nn.Flatten)
    assert nn.Flatten not in amp.get_white_list()
    assert [c.__name__ for c in amp.get_black_list()] == [
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm"]
    assert {nn.Dense, nn.Conv2d, nn.LSTMCell, P.MatMul, P.ReLU} <= set(white)


@pytest.mark.parametrize("call, error, message", [
    (lambda n: amp.auto_mixed_precision(n, "O4"), ValueError, "The amp level O4 is not supported"),
    (lambda n: amp.auto_mixed_precision(n, "O2", ms.float32), ValueError,
     r"The dtype should be one of \(mstype.float16, mstype.bfloat16\), but got Float32."),
    (lambda n: amp.auto_mixed_precision(lambda x: x, "O2"), TypeError,
     "For amp_level 'O2', the network type should be Cell."),
    (lambda n: amp.auto_mixed_precision(3, "auto"), TypeError,
     r"For amp_level 'auto', the network type should be Cell or function\."),
    (lambda n: amp.auto_mixed_precision(n, "auto", ms.float32), ValueError,
     r"The dtype should be one of \(mstype.float16, mstype.bfloat16\), but got Float32."),
    (lambda n: amp.custom_mixed_precision(n), ValueError, "one of white_list and black_list"),
    (lambda n: amp.custom_mixed_precision(n, black_list=[ops.ReLU]), TypeError,
     "The subclass of element in black_list should be one of 'Cell'"),
    (lambda n: amp.build_train_network(n, nn.SGD(n.trainable_params()), nn.MSELoss(), "O9"),
     ValueError, r"The 'level' should be in : \['O0', 'O1', 'O2', 'O3', 'auto'\], but got O9."),
    (lambda n: amp.build_train_network(n, 3), TypeError, "The type of 'optimizer' should be"),
    (lambda n: amp.build_train_network(n, nn.SGD(n.trainable_params()), foo=1), ValueError,
     "Unsupported arg 'foo'"),
    (lambda n: ms.train.Model(n, nn.MSELoss(), nn.SGD(n.trainable_params()), amp_level="O5"),
     ValueError, r"The 'level' should be in .* but got O5"),
    (lambda n: ms.train.Model(n, nn.MSELoss(), None, amp_level="O2"), ValueError,
     "Auto mixed precision will not work because 'optimizer' is None"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call(nn.Dense(2, 2))


@pytest.mark.parametrize("make", [amp.StaticLossScaler, lambda v: amp.DynamicLossScaler(v, 2, 1)])
@pytest.mark.parametrize("value", [0, 0.5, -2])
def test_a_loss_scale_below_one_is_refused(make, value):
    with pytest.raises(ValueError, match=f"The argument 'scale_value' must be > 1, but got "
                                         f"{value}"):
        make(value)


def test_scaler_arguments_are_checked():
    with pytest.raises(TypeError, match="'scale_value' should be one of"):
        amp.StaticLossScaler("a")
    with pytest.raises(TypeError, match="The 'scale_factor' must be int, but got 'float'"):
        amp.DynamicLossScaler(8, 2.0, 1)
    with pytest.raises(ValueError, match="The 'scale_window' must be int and must > 0"):
        amp.DynamicLossScaler(8, 2, 0)
    with pytest.raises(TypeError, match="abstract"):
        amp.LossScaler()
    with pytest.raises(TypeError, match="'grads_finite' must be a bool Tensor"):
        amp.DynamicLossScaler(8, 2, 1).adjust(True)


def test_dynamic_scaler_follows_mindspores_schedule():
    scaler = amp.DynamicLossScaler(2 ** 10, 2, 3)
    scale, counter = 2.0 ** 10, 0
    for finite in [True, True, True, False, True, False, False, True, True, True, True] * 2:
        assert scaler.adjust(Tensor(finite)) is True
        if finite:
            scale = scale * 2 if counter == 2 else scale
            counter = (counter + 1) % 3
        else:
            scale, counter = max(1.0, scale / 2), 0
        assert scaler.scale_value.asnumpy() == scale and scaler.counter.asnumpy() == counter
    top = amp.DynamicLossScaler(2.0 ** 127, 2, 1)
    top.adjust(Tensor(True))  # 2**128 is not a float32: the scale stays
    assert top.scale_value.asnumpy() == np.float32(2.0 ** 127)


def test_scale_and_unscale_keep_each_tensors_dtype():
    scaler = amp.StaticLossScaler(1024)
    grads = (Tensor(np.array([1.5, 1.0]), ms.float16), [Tensor(np.array([3], np.int32))])
    out = scaler.scale(grads)
    assert isinstance(out, tuple) and isinstance(out[1], list)
    assert out[0].dtype == ms.float16 and out[1][0].dtype == ms.int32
    np.testing.assert_array_equal(out[1][0].asnumpy(), [3072])
    back = scaler.unscale(out)
    np.testing.assert_array_equal(back[0].asnumpy(), [1.5, 1.0])
    assert scaler.adjust(Tensor(True)) is False


def test_all_finite():
    assert amp.all_finite((Tensor(np.array([1.0, 2.0], np.float16)), Tensor([3]))).asnumpy()
    res = amp.all_finite([Tensor(np.array([1.0])), Tensor(np.array([np.nan], np.float32))])
    assert res.dtype == ms.bool_ and res.shape == () and not res.asnumpy()
    with pytest.raises(TypeError, match="'inputs' must be a tuple or list of Tensors"):
        amp.all_finite(Tensor(np.array([1.0])))
    with pytest.raises(ValueError, match="at least one Tensor"):
        amp.all_finite([])


def test_a_non_finite_gradient_never_reaches_the_parameters():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    amp_net = amp.auto_mixed_precision(net, "O3")
    opt = nn.SGD(net.trainable_params(), 0.1)
    scaler = amp.DynamicLossScaler(2 ** 16, 2, 2)
    grad_fn = ms.value_and_grad(lambda x: scaler.scale(amp_net(x).sum()), None, opt.parameters)
    x = Tensor(np.array([[300.0, 1.0]], np.float32))
    skipped = []
    for _ in range(12):
        before = net.weight.asnumpy().copy()
        _, grads = grad_fn(x)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        if finite:
            opt(grads)
        scaler.adjust(finite)
        skipped.append(not finite.asnumpy())
        assert np.isfinite(net.weight.asnumpy()).all()
        if skipped[-1]:
            np.testing.assert_array_equal(net.weight.asnumpy(), before)
    # the weight gradient 300 * scale overflows float16 until the scale is 128 (nine halvings);
    # two finite steps raise it to 256 again, which overflows
    assert skipped == [True] * 9 + [False, False, True]


def test_build_train_network_per_level():
    def build(level, **kw):
        net = Net()
        return net, amp.build_train_network(net, nn.SGD(net.trainable_params()),
                                            nn.SoftmaxCrossEntropyWithLogits(), level, **kw)

    _, step = build("O0")
    assert type(step).__name__ == "TrainOneStepCell" and type(step.network) is nn.WithLossCell
    net, step = build("O2")
    assert type(step).__name__ == "TrainOneStepWithLossScaleCell"
    assert step.scale_sense.asnumpy() == 2 ** 24 and type(net.bn).__name__ == "_OutputTo16"
    _, step = build("O2", loss_scale_manager=None, keep_batchnorm_fp32=False)
    assert type(step).__name__ == "TrainOneStepCell"
    assert type(step.network).__name__ == "WithLossCell"  # amp's own: the loss in float32
    assert type(step.network) is not nn.WithLossCell
    net, step = build("O3", loss_scale_manager=ms.train.FixedLossScaleManager(8.0, False))
    assert step.sens == 8.0 and type(net.bn).__name__ == "BatchNorm2d"
    y = Tensor(np.eye(3, dtype=np.float32)[[0, 1]])
    loss = step(x_in(), y)
    assert loss.dtype == ms.float32 and np.isfinite(loss.asnumpy()).all()


def test_a_scale_manager_around_a_network_that_already_scales_is_refused():
    net = nn.Dense(2, 2)
    opt = nn.SGD(net.trainable_params())
    inner = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                             Tensor(np.float32(8)))
    with pytest.raises(ValueError, match="'loss_scale_manager' cannot be used with a network "
                                         "that is already a training step"):
        ms.train.Model(inner, None, opt,
                       loss_scale_manager=ms.train.FixedLossScaleManager(8.0, False))


def test_model_keep_batchnorm_fp32():
    net = Net()
    ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(), nn.SGD(net.trainable_params()),
                   amp_level="O2", keep_batchnorm_fp32=False, loss_scale_manager=None)
    assert type(net.bn).__name__ == "BatchNorm2d" and net.bn.fp16


def test_the_amp_names_have_mindspores_signatures():
    import inspect

    recorded = json.loads(FIXTURE.read_text())["namespaces"]["amp"]
    assert sorted(recorded) == sorted(n for n in dir(amp) if not n.startswith("_"))
    for name, entry in recorded.items():
        params = list(inspect.signature(getattr(amp, name)).parameters.values())
        if entry["kind"] == "class" and not entry["params"]:
            continue
        assert [p.name for p in params] == [p[0] for p in entry["params"]], name


def test_o1_on_a_white_listed_network_itself():
    # MindSpore: [0.6334007978439331, 1000.9332885742188] (its bias is added in float32)
    net = nn.Dense(3, 2, weight_init="ones", bias_init=Tensor(np.array([1e-4, 1000.3], np.float32)))
    out = amp.auto_mixed_precision(net, "O1")(Tensor(np.array([[0.1, 0.2, 0.3333]], np.float32)))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [[0.6334007978439331, 1000.9332885742188]],
                               rtol=1e-3)
    relu = amp.auto_mixed_precision(nn.ReLU(), "O1")
    out = relu(Tensor(np.array([0.1, 0.2, 0.3333], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [0.0999755859375, 0.199951171875,
                                                  0.333251953125])
    assert out.dtype == ms.float32


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_batchnorm_moving_statistics_update_in_a_low_precision_network(level):
    net = amp.auto_mixed_precision(Net(), level)
    net.set_train()
    bn = net._backbone.bn
    bn = bn._backbone if level == "O2" else bn
    net(x_in())
    mean = bn.moving_mean.asnumpy()
    assert bn.moving_mean.dtype == ms.float32 and np.abs(mean).sum() > 0


def test_to_float_casts_inputs_and_parameters_and_checks_its_dtype():
    net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros").to_float(ms.float16)
    assert net.fp16 and net.weight.dtype == ms.float32
    out = net(Tensor(np.array([[1 / 3, 1.0]], np.float32)))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), np.float16(np.float16(1 / 3) + 1))
    with pytest.raises(ValueError, match=r"For 'to_float', the argument 'dst_type' must be "
                                         r"mstype.float32, mstype.float16 or mstype.bfloat16, "
                                         r"but got type: .* and value: Int32."):
        nn.Dense(2, 2).to_float(ms.int32)


@pytest.mark.parametrize("dtype", [ms.float16, ms.float32])
def test_relu_backward_selects_so_a_dead_units_overflow_is_not_an_overflow(dtype):
    """MindSpore 2.10's ReluGrad: vjp of relu at [-1, 2, 0] with [inf, inf, nan] is [0, inf, 0]
    (a product would give nan and make a loss-scaled step skip)."""
    x = Tensor(np.array([-1.0, 2.0, 0.0]), dtype)
    (g,) = ms.vjp(lambda a: ops.relu(a), x)[1](Tensor(np.array([np.inf, np.inf, np.nan]), dtype))
    assert g.dtype == dtype
    np.testing.assert_array_equal(g.asnumpy(), [0, np.inf, 0])


def test_an_o1_network_deep_copies():
    import copy

    class Blk(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
            self.mm = ops.MatMul()

        def construct(self, x):
            return self.mm(self.fc(x), x)

    net = copy.deepcopy(amp.auto_mixed_precision(Blk(), "O1"))
    assert type(net.fc).__name__ == "Dense" and isinstance(net.mm, P.MatMul)
    x = Tensor(np.full((2, 2), 1 / 3, np.float32))
    out = net(x)
    third = np.float16(1 / 3)
    expected = np.float16(np.float16(third + third) * third * 2)  # fc and mm in float16
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 2), expected, np.float32))
