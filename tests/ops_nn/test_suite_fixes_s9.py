"""Causes of MindSpore test-suite failures (issue 28) in ops-nn, each checked against MindSpore
2.10: optimizers' argument errors, group learning rates and `is_group_params_ordered`,
nn.probability seeds, pooling/leaky_relu/bidense on integer inputs, CentralCrop, cosine_decay_lr."""

import numpy as np
import pytest

from cellgrad import Parameter, Tensor, nn


def _params():
    return nn.Dense(3, 2).trainable_params()


def test_is_group_params_ordered():
    ps = _params()
    assert nn.SGD(ps).is_group_params_ordered is False
    assert nn.SGD([{"params": ps}]).is_group_params_ordered is False
    opt = nn.SGD([{"params": ps[1:]}, {"params": ps[:1]}, {"order_params": ps}])
    assert opt.is_group_params_ordered is True
    assert [p.name for p in opt.parameters] == [p.name for p in ps]


def test_get_lr_parameter_errors():
    ps = _params()
    opt = nn.SGD([{"params": ps[:1], "weight_decay": 0.8}, {"params": ps[1:]}])
    assert opt.get_lr_parameter(ps[0]).name == "learning_rate"
    with pytest.raises(TypeError, match=r"^For 'SGD', the type of 'parameter' should be "
                                        r"'Parameter', but got type 'int'.$"):
        opt.get_lr_parameter([1, 2, 3])
    with pytest.raises(TypeError, match=r"^For 'get_lr_parameter', the 'param' must be "
                                        r"'Parameter' or 'list' type, but got <class 'int'>.$"):
        opt.get_lr_parameter(1)
    with pytest.raises(ValueError, match=r"^For 'get_lr_parameter', the parameter zz is not in "
                                         r"optimizer, please check whether the argument 'param' "
                                         r"is correct.$"):
        opt.get_lr_parameter(Parameter(Tensor(1.0), name="zz"))


@pytest.mark.parametrize("wd", [np.array(1), np.float32(0.1), "a"])
def test_weight_decay_type(wd):
    ps = _params()
    msg = (r"^For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell.but got "
           rf"<class '{type(wd).__module__}.{type(wd).__name__}'>$").replace("builtins.", "")
    with pytest.raises(TypeError, match=msg):
        nn.Momentum(ps, 0.1, 0.9, weight_decay=wd)
    with pytest.raises(TypeError, match=msg):
        nn.Momentum([{"params": ps[:1], "weight_decay": wd}, {"params": ps[1:]}], 0.1, 0.9)


def test_weight_decay_negative_and_int():
    ps = _params()
    with pytest.raises(ValueError, match=r"^For 'Momentum', the 'weight_decay' must be float and "
                                         r"must >= 0, but got '-1.0' with type 'float'.$"):
        nn.Momentum(ps, 0.1, 0.9, weight_decay=-1.0)
    assert nn.Momentum(ps, 0.1, 0.9, weight_decay=1).weight_decay == 1.0


def test_parameter_in_two_groups():
    ps = _params()
    with pytest.raises(RuntimeError, match=r"^For 'Optimizer', the weight parameter already "
                                           r"exists, it does not support repeated setting."):
        nn.Adam([{"params": ps[:1], "lr": 0.1}, {"params": ps[:1], "lr": 0.3},
                 {"params": ps[1:]}], learning_rate=0.3)


def test_dynamic_group_lr_sizes_must_agree():
    ps = _params()
    msg = (r"^For 'Optimizer', the Tensor type dynamic learning rate in group must be the same "
           r"size as the argument 'learning_rate'.$")
    with pytest.raises(ValueError, match=msg):
        nn.Momentum([{"params": ps[:1], "lr": (0.1, 0.2, 0.3)}, {"params": ps[1:]}], (0.1, 0.2),
                    0.9)
    with pytest.raises(ValueError, match=msg):
        nn.Momentum([{"params": ps[:1], "lr": (0.1, 0.2, 0.3)},
                     {"params": ps[1:], "lr": (0.1, 0.2)}], 0.1, 0.9)
    assert nn.Momentum([{"params": ps[:1], "lr": (0.1, 0.2)}, {"params": ps[1:]}], (0.1, 0.2),
                       0.9).dynamic_lr is True
    assert nn.Momentum([{"params": ps[:1], "lr": (0.1, 0.2, 0.3)}, {"params": ps[1:]}], 0.1,
                       0.9).dynamic_lr is True


@pytest.mark.parametrize("cls", [nn.AdamWeightDecay, nn.ASGD, nn.SGD, nn.Adam])
def test_empty_parameters(cls):
    with pytest.raises(ValueError, match=r"^For 'Optimizer', the argument parameters must not be "
                                         r"empty.$"):
        cls([])


def test_adam_lazy_offload_amsgrad():
    ps = _params()
    with pytest.raises(ValueError, match=r"^For 'Adam', 'use_lazy' and 'use_offload' can not both "
                                         r"be True.But got use_lazy=True, use_offload=True.$"):
        nn.Adam(ps, use_lazy=True, use_offload=True)
    msg = (r"^For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'.but "
           r"got 'use_amsgrad'=True.$")
    for kw in ({"use_lazy": True}, {"use_offload": True}):
        with pytest.raises(ValueError, match=msg):
            nn.Adam(ps, use_amsgrad=True, **kw)


def test_group_learning_rate_is_one_entry_per_parameter():
    ps = _params()
    groups = [{"params": ps[:1], "lr": 0.8}, {"params": ps[1:]}]
    opt = nn.Momentum(groups + [{"order_params": ps}], 0.1, 0.9)
    assert type(opt.learning_rate).__name__ == "ParameterTuple"
    assert [lr.name for lr in opt.learning_rate] == ["learning_rate_group_0", "learning_rate"]
    np.testing.assert_allclose([float(lr.data.asnumpy()) for lr in opt.learning_rate],
                               [0.8, 0.1], rtol=1e-6)
    assert list(opt.parameters_dict())[:3] == ["global_step", "learning_rate_group_0",
                                               "learning_rate"]
    opt = nn.Momentum(groups, (0.1, 0.2, 0.3), 0.9)
    assert type(opt.learning_rate).__name__ == "CellList" and opt.dynamic_lr is True
    conv, default = opt.learning_rate
    np.testing.assert_allclose(conv.learning_rate.data.asnumpy(), 0.8, rtol=1e-6)
    np.testing.assert_allclose(default.learning_rate.data.asnumpy(), [0.1, 0.2, 0.3], rtol=1e-6)
    assert list(opt.parameters_dict())[-2:] == ["learning_rate_group_0", "learning_rate"]
    assert nn.Momentum(ps, 0.1, 0.9).learning_rate.name == "learning_rate"


def test_group_lrs_still_train():
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    b = Parameter(Tensor(np.zeros(1, np.float32)), name="b")
    opt = nn.SGD([{"params": [w], "lr": 0.5}, {"params": [b]}], 0.1)
    opt((Tensor(np.ones(2, np.float32)), Tensor(np.ones(1, np.float32))))
    np.testing.assert_allclose(w.asnumpy(), [-0.5, -0.5])
    np.testing.assert_allclose(b.asnumpy(), [-0.1])


# ---- nn.probability: the seed's error classes ----

@pytest.mark.parametrize("name, args", [
    ("Gamma", ([1.0], [1.0])), ("Beta", ([1.0], [1.0])), ("Bernoulli", ([0.5],)),
    ("Categorical", ([0.5, 0.5],)), ("Cauchy", ([0.0], [1.0])), ("Exponential", ([1.0],)),
    ("Geometric", ([0.5],)), ("Normal", ([0.0], [1.0]))])
def test_distribution_seed_errors(name, args):
    import cellgrad.nn.probability.distribution as msd

    cls = getattr(msd, name)
    for seed, kind in (("seed", "str"), (1.5, "float")):
        with pytest.raises(TypeError, match=rf"^For '{name}', the 'seed' must be int, but got "
                                            rf"'{kind}'$"):
            cls(*args, seed=seed)
    with pytest.raises(TypeError, match=rf"^For '{name}', the 'seed' must be int and must >= 0, "
                                        rf"but got 'True' with type 'bool'.$"):
        cls(*args, seed=True)
    with pytest.raises(ValueError, match=rf"^For '{name}', the 'seed' must be int and must >= 0, "
                                         rf"but got '-1' with type 'int'.$"):
        cls(*args, seed=-1)
    cls(*args, seed=None)
    cls(*args, seed=3)


# ---- pooling with integer inputs ----

@pytest.mark.parametrize("dt", [np.int32, np.int64, np.uint8, np.int8, np.int16, np.float16])
def test_adaptive_max_pool3d_integer_inputs(dt):
    from cellgrad import ops

    v = Tensor(np.arange(0, 64).reshape(1, 4, 4, 4).astype(dt))
    for out in (ops.adaptive_max_pool3d(v, 2), nn.AdaptiveMaxPool3d(2)(v)):
        assert out.asnumpy().dtype == dt and out.shape == (1, 2, 2, 2)
        np.testing.assert_array_equal(out.asnumpy().ravel(), [21, 23, 29, 31, 53, 55, 61, 63])


def test_adaptive_max_pool3d_refusals():
    from cellgrad import ops

    with pytest.raises(TypeError, match=r"^For primitive\[AdaptiveMaxPool3D\], the input "
                                        r"argument\[x\] must be a type of \{Tensor\[Float16\], "
                                        r".*Tensor\[UInt8\]\}, but got Tensor\[Bool\].$"):
        ops.adaptive_max_pool3d(Tensor(np.zeros((1, 4, 4, 4), np.bool_)), 2)
    # an empty batch gives an empty result (MindSpore's kernel refuses it; README: on purpose)
    out = nn.AdaptiveMaxPool3d([1, 1, 2])(Tensor(np.zeros((0, 3, 3, 4), np.int32)))
    assert out.shape == (0, 1, 1, 2) and out.asnumpy().dtype == np.int32


X2 = np.array([3, 9, 7, 0, 3, 5, 5, 3, 1, 8, 9, 4, 9, 8, 3, 4, 9, 9, 6, 9, 9, 1, 0, 1, 9])


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.float32])
@pytest.mark.parametrize("sdt", [np.float32, np.float16])
def test_fractional_max_pool_with_fixed_ksize_integer_inputs(dt, sdt):
    from cellgrad import ops
    from cellgrad.ops.operations import nn_ops

    samples = Tensor(np.array([[[0.8, 0.8]]]).astype(sdt))
    y, arg = nn_ops.FractionalMaxPoolWithFixedKsize(2, (2, 2))(
        Tensor(X2.reshape(1, 1, 5, 5).astype(dt)), samples)
    assert y.asnumpy().dtype == dt and str(arg.dtype) == "Int64"
    np.testing.assert_array_equal(y.asnumpy().ravel(), [9, 8, 9, 9])
    np.testing.assert_array_equal(arg.asnumpy().ravel(), [1, 9, 16, 19])
    x3 = Tensor(np.arange(1, 65).reshape(1, 1, 4, 4, 4).astype(dt))
    y, arg = ops.FractionalMaxPool3DWithFixedKsize((1, 1, 1), (2, 2, 3))(
        x3, Tensor(np.array([0.5, 0.5, 0.8]).reshape(1, 1, 3).astype(sdt)))
    assert y.asnumpy().dtype == dt
    np.testing.assert_array_equal(y.asnumpy().ravel(), [1, 2, 4, 13, 14, 16, 49, 50, 52, 61, 62,
                                                        64])
    np.testing.assert_array_equal(arg.asnumpy().ravel(), [0, 1, 3, 12, 13, 15, 48, 49, 51, 60,
                                                          61, 63])


def test_fractional_max_pool_with_fixed_ksize_refuses_other_ints():
    from cellgrad.ops.operations import nn_ops

    with pytest.raises(TypeError, match=r"^For primitive\[FractionalMaxPoolWithFixedKsize\], the "
                                        r"input argument\[input_x dtype\] must be a type of "
                                        r"\{Tensor\[Float16\], Tensor\[Float32\], "
                                        r"Tensor\[Float64\], Tensor\[Int32\], Tensor\[Int64\]\}, "
                                        r"but got Tensor\[UInt8\].$"):
        nn_ops.FractionalMaxPoolWithFixedKsize(2, (2, 2))(
            Tensor(X2.reshape(1, 1, 5, 5).astype(np.uint8)),
            Tensor(np.array([[[0.8, 0.8]]], np.float32)))


# ---- integer inputs of leaky_relu and bidense, CentralCrop's argument types ----

def test_leaky_relu_integer_inputs_cast_alpha_to_the_dtype():
    from cellgrad import ops

    u = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.uint32))
    out = nn.LeakyReLU(0.1)(u)
    assert out.asnumpy().dtype == np.uint32
    np.testing.assert_array_equal(out.asnumpy(), u.asnumpy())
    x = Tensor(np.array([-3, -1, 5, -7], np.int32))
    np.testing.assert_array_equal(ops.leaky_relu(x, 0.5).asnumpy(), [0, 0, 5, 0])  # int(0.5) = 0
    out = nn.LeakyReLU(2)(Tensor(np.array([[1, -2, 3]], np.int32)))
    assert out.asnumpy().dtype == np.int32
    np.testing.assert_array_equal(out.asnumpy(), [[1, -4, 3]])
    np.testing.assert_array_equal(ops.leaky_relu(Tensor(np.array([True, False])), 0.5).asnumpy(),
                                  [True, False])


def test_bidense_integer_inputs():
    from cellgrad import dtype as mstype
    from cellgrad import ops

    x1, x2 = Tensor(np.array([1, -2], np.int8)), Tensor(np.array([3, 1, -1], np.int8))
    w = Tensor(np.arange(6).reshape(1, 2, 3) - 2, mstype.int8)
    out = ops.bidense(x1, x2, w)
    assert out.dtype == mstype.int64 and out.shape == (1,)
    assert int(out.asnumpy()[0]) == -11
    out = ops.bidense(x1, x2, w, Tensor(np.array([5]), mstype.int8))
    assert out.dtype == mstype.int8 and int(out.asnumpy()[0]) == -6
    with pytest.raises(TypeError, match=r"^For 'MatMul', the type of 'x2' should be same as 'x1', "
                                        r"but got 'x1' with type Tensor\[Float32\] and 'x2' with "
                                        r"type Tensor\[Int8\].$"):
        ops.bidense(Tensor(np.array([1.0, -2.0], np.float32)), x2, w)
    with pytest.raises(TypeError, match="the dtype of 'bias', 'input1' and 'input2' must be"):
        ops.bidense(x1, x2, w, Tensor(np.array([5]), mstype.int32))


@pytest.mark.parametrize("fraction, kind", [(True, "bool"), (1, "int"), ("a", "str")])
def test_central_crop_fraction_type(fraction, kind):
    with pytest.raises(TypeError, match=rf"^For 'CentralCrop', the type of 'central_fraction' "
                                        rf"should be 'float', but got type '{kind}'.$"):
        nn.CentralCrop(fraction)
    with pytest.raises(ValueError, match=r"^For 'CentralCrop', the 'central_fraction' must be in "
                                         r"range of \(0.0, 1.0\], but got 0.0 with type 'float'.$"):
        nn.CentralCrop(0.0)


@pytest.mark.parametrize("min_lr, max_lr", [(0.1, 0.01), (0.1, 0.1)])
def test_cosine_decay_lr_needs_max_above_min(min_lr, max_lr):
    with pytest.raises(ValueError, match=rf"^For 'cosine_decay_lr', the 'max_lr' must be greater "
                                         rf"than the 'min_lr', but got 'max_lr' value: {max_lr}, "
                                         rf"'min_lr' value: {min_lr}.$"):
        nn.cosine_decay_lr(min_lr, max_lr, 10, 2, 2)
    with pytest.raises(TypeError, match="the argument 'min_lr' must be type of float"):
        nn.cosine_decay_lr(0, 0.1, 10, 2, 2)
    np.testing.assert_allclose(nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2),
                               [0.1, 0.1, 0.055, 0.055, 0.01, 0.01])


def test_group_lr_names_follow_the_group_index():
    ps = _params()
    opt = nn.SGD([{"params": ps[:1], "weight_decay": 0.01}, {"params": ps[1:], "lr": 0.01},
                  {"order_params": ps[::-1]}], learning_rate=0.1, weight_decay=0.0)
    assert [lr.name for lr in opt.learning_rate] == ["learning_rate_group_1", "learning_rate"]
    assert [p.name for p in opt.parameters] == [p.name for p in ps[::-1]]
    opt = nn.SGD([{"params": ps[:1], "lr": (0.5, 0.4, 0.3)}, {"params": ps[1:]}], 0.1)
    lrs = opt.get_lr_parameter(ps)
    assert [type(lr).__name__ for lr in lrs] == ["Parameter", "Parameter"]
    np.testing.assert_allclose(lrs[0].data.asnumpy(), [0.5, 0.4, 0.3], rtol=1e-6)
    assert lrs[0].name == "learning_rate_group_0" and lrs[1].name == "learning_rate"


def test_optimizer_map_reverse_helpers():
    opt = nn.SGD(_params(), 0.1)
    add = (lambda a, b: a + b)
    assert opt.map_reverse(add, (1, 2, 3), (10, 20, 30)) == (11, 22, 33)
    assert opt.hyper_map_reverse(add, (1, 2), (10, 20)) == (11, 22)
