"""AdaMax, LazyAdam, Adadelta, FTRL, ProximalAdagrad, ASGD, Rprop, Lamb and LARS: parameter
names, several steps against PyTorch or a numpy transcription of the published formula, and
MindSpore's argument errors. (MindSpore's own numbers for the ones its CPU build runs:
ms_programs/optimizers_more.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn

RNG = np.random.default_rng(7)
W0 = RNG.standard_normal((3, 4))
B0 = RNG.standard_normal(4)
GRADS = [(RNG.standard_normal((3, 4)), RNG.standard_normal(4)) for _ in range(4)]


def _run(make):
    w, b = Parameter(Tensor(W0.copy()), name="w"), Parameter(Tensor(B0.copy()), name="b")
    opt = make([w, b])
    for gw, gb in GRADS:
        opt((Tensor(gw), Tensor(gb)))
    return opt, w.asnumpy(), b.asnumpy()


def _torch_run(make):
    torch = pytest.importorskip("torch")
    w, b = (torch.tensor(W0.copy(), requires_grad=True), torch.tensor(B0.copy(),
                                                                        requires_grad=True))
    opt = make(torch, [w, b])
    for gw, gb in GRADS:
        w.grad, b.grad = torch.tensor(gw), torch.tensor(gb)
        opt.step()
    return w.detach().numpy(), b.detach().numpy()


# Learning rates are exact in float32 (MindSpore keeps them in a Float32 Parameter); ASGD's
# eta is a Float32 Parameter too, hence 1e-6 there; the betas are exact in float32.
TORCH_CASES = [
    ("Adadelta", lambda p: nn.Adadelta(p, 0.5, 0.8, 1e-4),
     lambda t, p: t.optim.Adadelta(p, lr=0.5, rho=0.8, eps=1e-4), 1e-10),
    ("Rprop", lambda p: nn.Rprop(p, 0.0625, (0.4, 1.3), (1e-3, 0.2)),
     lambda t, p: t.optim.Rprop(p, lr=0.0625, etas=(0.4, 1.3), step_sizes=(1e-3, 0.2)), 1e-12),
    ("ASGD", lambda p: nn.ASGD(p, 0.125, 0.01, 0.75, 2.0),
     lambda t, p: t.optim.ASGD(p, lr=0.125, lambd=0.01, alpha=0.75, t0=2.0), 1e-6),
    # torch adds eps inside the max, MindSpore after it: equal while eps is negligible
    ("AdaMax", lambda p: nn.AdaMax(p, 0.0625, 0.75, 0.875, 1e-12),
     lambda t, p: t.optim.Adamax(p, lr=0.0625, betas=(0.75, 0.875), eps=1e-12), 1e-10),
    ("LazyAdam", lambda p: nn.LazyAdam(p, 0.0625, 0.75, 0.875, eps=1e-12),
     lambda t, p: t.optim.Adam(p, lr=0.0625, betas=(0.75, 0.875), eps=1e-12), 1e-10),
]


@pytest.mark.parametrize("name,ours,theirs,rtol", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_steps_match_pytorch(name, ours, theirs, rtol):
    expected = _torch_run(theirs)
    _, w, b = _run(ours)
    np.testing.assert_allclose(w, expected[0], rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(b, expected[1], rtol=rtol, atol=1e-12)


def _ftrl_reference(w, grads, accum, lr, power, l1, l2):
    linear = np.zeros_like(w)
    for g in grads:
        new = accum + g * g
        linear += g - (new ** -power - accum ** -power) / lr * w
        quad = new ** -power / lr + 2 * l2
        w = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quad, 0.0)
        accum = new
    return w


def test_ftrl_is_the_proximal_formula_for_either_sign_of_linear():
    # MindSpore 2.10's CPU kernel uses (l1 - linear) also where linear < 0 (README: differs
    # on purpose); the FTRL-proximal step subtracts sign(linear) * l1.
    _, w, b = _run(lambda p: nn.FTRL(p, 0.2, 0.5, -0.6, 0.05, 0.02))
    np.testing.assert_allclose(w, _ftrl_reference(W0, [g[0] for g in GRADS], 0.2, 0.5, -0.6,
                                                   0.05, 0.02), rtol=1e-12)
    np.testing.assert_allclose(b, _ftrl_reference(B0, [g[1] for g in GRADS], 0.2, 0.5, -0.6,
                                                   0.05, 0.02), rtol=1e-12)


def test_proximal_adagrad_reference():
    w, accum = W0.copy(), np.full_like(W0, 0.2)
    for g, _ in GRADS:
        accum += g * g
        step = 0.5 / np.sqrt(accum)
        prox = w - step * g
        w = np.sign(prox) * np.maximum(np.abs(prox) - step * 0.05, 0) / (1 + step * 0.02)
    np.testing.assert_allclose(_run(lambda p: nn.ProximalAdagrad(p, 0.2, 0.5, 0.05, 0.02))[1],
                               w, rtol=1e-12)


def _lamb_reference(w, grads, lr, b1, b2, eps, wd):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        r = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps) + wd * w
        w = w - lr * np.linalg.norm(w) / np.linalg.norm(r) * r
    return w


def test_lamb_follows_the_paper():
    _, w, b = _run(lambda p: nn.Lamb(p, 0.125, 0.8, 0.9, 1e-6, 0.01))
    np.testing.assert_allclose(w, _lamb_reference(W0, [g[0] for g in GRADS], 0.125, 0.8, 0.9,
                                                  1e-6, 0.01), rtol=1e-12)
    np.testing.assert_allclose(b, _lamb_reference(B0, [g[1] for g in GRADS], 0.125, 0.8, 0.9,
                                                  1e-6, 0.01), rtol=1e-12)


def test_lars_scales_filtered_gradients_then_steps_the_wrapped_optimizer():
    opt, w, b = _run(lambda p: nn.LARS(nn.SGD(p, 0.125, weight_decay=0.01), 1e-5, 0.02))
    ref = W0.copy()
    for g, _ in GRADS:
        trust = 0.02 * np.linalg.norm(ref) / (np.linalg.norm(g) + 0.01 * np.linalg.norm(ref)
                                              + 1e-5)
        ref = ref - 0.125 * trust * (g + 0.01 * ref)
    np.testing.assert_allclose(w, ref, rtol=1e-12)
    assert opt.lars_flag == (True, True)  # the default filter skips only 'bias'/'LayerNorm'

    opt2, _, b2 = _run(lambda p: nn.LARS(nn.SGD(p, 0.125), lars_filter=lambda x: x.name != "b"))
    np.testing.assert_allclose(b2, B0 - 0.125 * sum(g[1] for g in GRADS), rtol=1e-12)


def test_state_names_follow_mindspore():
    names = {
        nn.AdaMax: ["beta1_power", "moment1.w", "moment1.b", "moment2.w", "moment2.b"],
        nn.Adadelta: ["accum.w", "accum.b", "accum_update.w", "accum_update.b"],
        nn.FTRL: ["moments.w", "moments.b", "linear.w", "linear.b"],
        nn.ProximalAdagrad: ["accum.w", "accum.b"],
        nn.ASGD: ["mu_w", "mu_b", "eta_w", "eta_b", "ax_.w", "ax_.b"],
        nn.Rprop: ["prev.w", "prev.b", "step_size.w", "step_size.b"],
        nn.Lamb: ["lamb_m.w", "lamb_m.b", "lamb_v.w", "lamb_v.b"],
    }
    for cls, state in names.items():
        opt, _, _ = _run(lambda p, cls=cls: cls(p, learning_rate=0.01))
        assert [p.name for p in opt.get_parameters()] == \
            ["global_step", "learning_rate", "w", "b"] + state, cls.__name__


P = [Parameter(Tensor(np.ones(2, np.float32)), name="w")]


@pytest.mark.parametrize("make,error,text", [
    (lambda: nn.AdaMax(P, beta1=1), TypeError,
     "For 'AdaMax', the type of 'beta1' should be 'float', but got type 'int'."),
    (lambda: nn.AdaMax(P, beta1=1.5), ValueError,
     "For 'AdaMax', the 'beta1' must be in range of (0.0, 1.0), but got 1.5 with type 'float'."),
    (lambda: nn.AdaMax(P, eps=-1.0), ValueError,
     "For 'AdaMax', the 'eps' must be float and must > 0, but got '-1.0' with type 'float'."),
    (lambda: nn.Adadelta(P, rho=1.5), ValueError,
     "For 'Adadelta', the 'rho' must be in range of [0.0, 1.0], but got 1.5 with type 'float'."),
    (lambda: nn.FTRL(P, initial_accum=-1.0), ValueError,
     "For 'FTRL', the argument 'initial_accum' must >= 0.0, but got -1.0."),
    (lambda: nn.FTRL(P, learning_rate=0), TypeError,
     "For 'FTRL', the type of 'learning_rate' should be 'float', but got type 'int'."),
    (lambda: nn.FTRL(P, lr_power=0.5), ValueError,
     "For 'FTRL', the argument 'lr_power' must <= 0.0, but got 0.5."),
    (lambda: nn.ProximalAdagrad(P, accum=-0.1), ValueError,
     "For 'ProximalAdagrad', the 'accum' must be float and must >= 0, but got '-0.1' with type "
     "'float'."),
    (lambda: nn.ASGD(P, t0=5), TypeError,
     "For 'ASGD', the type of 't0' should be 'float', but got type 'int'."),
    (lambda: nn.Rprop(P, etas=[0.5, 1.2]), TypeError,
     "For Rprop, etas must be a tuple, but got <class 'list'>."),
    (lambda: nn.Rprop(P, etas=(0.5, 0.9)), ValueError,
     "For Rprop, etaplus must be greater than 1.0, but got etaplus 0.9."),
    (lambda: nn.Rprop(P, step_sizes=(1.0, 0.5)), ValueError,
     "For Rprop, maximal step size should not be less than minimal step size, but got 1.0 > 0.5."),
    (lambda: nn.LazyAdam(P, weight_decay=1), TypeError,
     "For 'LazyAdam', the type of 'weight_dacay' should be 'float', but got type 'int'."),
    (lambda: nn.LARS(object()), TypeError, "For 'LARS', the type of 'optimizer'"),
])
def test_argument_errors_as_mindspore(make, error, text):
    with pytest.raises(error) as info:
        make()
    assert text in str(info.value)


def test_optimizers_train_a_model():
    ms.set_seed(1)
    x = Tensor(RNG.standard_normal((32, 4)).astype(np.float32))
    y = Tensor((np.arange(32) % 3).astype(np.int32))
    for make in (lambda p: nn.AdaMax(p, 0.01), lambda p: nn.Adadelta(p),
                 lambda p: nn.Lamb(p, 0.01), lambda p: nn.Rprop(p, 0.01),
                 lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), coefficient=0.01)):
        net = nn.Dense(4, 3)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), make(net.trainable_params()))
        first = float(step(x, y).asnumpy())
        for _ in range(30):
            last = float(step(x, y).asnumpy())
        assert last < first


def test_single_weight_decay_skips_beta_and_gamma_as_mindspore():
    ps = [Parameter(Tensor(np.ones(2, np.float32)), name=n)
          for n in ("w", "bn.gamma", "bn.beta", "ln.bias")]
    opt = nn.SGD(ps, 0.1, weight_decay=0.5)
    opt(tuple(Tensor(np.zeros(2, np.float32)) for _ in ps))
    assert opt.decay_flags == (True, False, False, True)
    np.testing.assert_allclose([p.asnumpy()[0] for p in ps], [0.95, 1.0, 1.0, 0.95], rtol=1e-6)
    # a group's own weight decay applies to every parameter of the group
    group = nn.SGD([{"params": ps[:2], "weight_decay": 0.5}, {"params": ps[2:]}], 0.1)
    assert group.decay_flags == (True, True, False, False)
