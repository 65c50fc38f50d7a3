"""A training step's optimizer update run inside its backward pass, parameter by parameter.

`TrainOneStepCell` computes every gradient, then the optimizer reads every parameter and
gradient once more: for a network larger than the cache that second pass comes from memory
(the 64-layer deep chain: 8.5% of a step). Here each parameter is updated as soon as its
gradient is complete -- a hook on its leaf node, where cellgrad-distributed starts an
all-reduce -- while the gradient just written and the weight the dX product just read are
still in cache.

The numbers are the usual step's bit for bit: the same kernel (`update.group_update`, one
parameter at a time, which is elementwise) on the same gradient, with the learning rate and
options read before the backward (nothing advances `global_step` in between). One exception:
with plain SGD (no momentum, weight decay or loss scale) and no gradient returned, a Dense
weight of at least 64 KiB takes its step inside its weight-gradient product
(`functional._dense_sgd`; rounded once where the BLAS kernel saves by FMA), for networks of
any size. The optimizer call that follows updates only what was not done early and advances
`global_step` as always. When the caller reads no gradient afterwards (TrainOneStepCell
without `return_grad`), the parameters of one shape also share one gradient array
(`Node.grad_buffer`, which Dense's dW product writes into), so that array stays in cache as
well.

A parameter is updated early only when nothing recorded can still read it:
- no op of the tape still holds its array (its reference count is back to what it was before
  the forward: saved inputs are released as each rule runs);
- no cell of the network re-runs or replaces code in the backward (custom `bprop`,
  `recompute`, cell hooks, `to_float`: every cell on its plain call path) and no jit trace
  records the step;
- its leaf node has no other hook or gradient buffer (Tensor hooks, data-parallel buckets).
Anything else is updated after the backward, as before; so is everything in an eager step when
the parameters are smaller than MIN_BYTES in all. If the backward raises, parameters
already updated stay updated (the step is lost either way).
"""

import sys

import numpy as np

from cellgrad import _jit_hook
from cellgrad_nn._kernels.update import SGD_PLAIN, group_update
from cellgrad_nn.functional import _dense_sgd

# Early updates only for parameters of at least this many bytes in all: below, the usual update
# reads them from cache anyway and the hooks are a cost. Thread CPU time, in-process A/B of 21-41
# interleaved rounds, AMD EPYC Zen 3 (512 KB L2), 2026-11-26 under load: the 64-layer deep
# chain (16.8 MB) 0.85-0.92x the step time of the update after the backward, the seeds' MLP
# (2.7 MB) 1.00-1.03x, LeNet-5 with and without BatchNorm (0.25 MB) 1.04x.
MIN_BYTES = 8 << 20


def _plain_cells(network):
    """Whether every cell of `network` runs only its construct (no bprop, recompute, hooks or
    casts; a cell not yet called counts as not plain)."""
    stack = [network]
    pop, extend = stack.pop, stack.extend
    while stack:
        cell = pop()
        if cell is None:
            continue
        d = cell.__dict__
        if not d.get("_fast", False):
            return False
        extend(d["_cells"].values())
    return True


class InBackward:
    """The early updates of one optimizer: `scope(network)` for each step (a context manager
    around the backward, or None when this step cannot run them), `finish(gradients)` in the
    optimizer's call after it."""

    def __init__(self, opt):
        self.opt = opt
        kind, states, _ = opt._group
        params = opt.parameters
        n = len(params)
        # group_update's arguments for parameter i alone, made once
        self.args = [((p,), [(s[i],) for s in states], (opt._lr_slots[i],), (opt._wds[i],))
                     for i, p in enumerate(params)]
        self.kind = kind
        self.nbytes = sum(p._data.nbytes for p in params)
        self.base = [0] * n
        self.done = [False] * n
        self.hooks = [self._make_hook(i, p) for i, p in enumerate(params)]
        # plain SGD without weight decay or loss scale: Dense may take a large weight's step
        # in its weight-gradient product (`functional._dense_sgd`)
        self.fusable = [i for i, p in enumerate(params)
                        if kind == SGD_PLAIN and opt.loss_scale == 1.0 and opt._wds[i] == 0.0
                        and p._data.ndim == 2 and p._data.nbytes >= _dense_sgd.MIN_BYTES]
        self.fusers = {i: self._make_fuser(i, params[i]) for i in self.fusable}
        self.fuse_only = False  # this step: hooks only on fusable weights (a small network)
        self.nodes = []
        self.lrs = self.options = None
        self.scratch = {}  # (shape, dtype) -> the weight-gradient array layers of it share
        self.keep_grads = True
        self.active = False  # hooks installed (inside the backward)
        self.pending = False  # a step ran early updates; `finish` completes it
        self.rest = None  # (indices, their params, states, lr slots, wds) `finish` last took

    def scope(self, network, keep_grads=True):
        # MIN_BYTES is the eager step's measurement (`network` given: its cells are walked
        # each step); a jit plan (no network: it checked its cells once) decides for itself.
        # Below it, a step whose gradients nobody reads may still fuse Dense weights' steps.
        small = network is not None and self.nbytes < MIN_BYTES
        if (small and (keep_grads or not self.fusable or not _dense_sgd.ENABLED)) or \
                _jit_hook.tracer is not None or not _plain_cells(network):
            return None
        self.keep_grads, self.fuse_only = keep_grads, small
        return self

    def __enter__(self):
        opt = self.opt
        step = int(opt.global_step.asnumpy()[0])
        self.lrs = [lr.value(step) for lr in opt._lr_kinds]
        _, _, options = opt._group
        self.options = {**options, **opt._group_options()}
        done, base, nodes, scratch = self.done, self.base, self.nodes, self.scratch
        share = not self.keep_grads
        fusers = self.fusers if share and _dense_sgd.ENABLED else {}
        params = opt.parameters
        for i in range(len(done)):
            done[i] = False
        for i in (self.fusable if self.fuse_only else range(len(params))):
            p = params[i]
            node = p._node
            if node is None or node.hooks or node.grad_buffer is not None:
                continue
            data = p._data
            base[i] = sys.getrefcount(p._data)
            nodes.append((node, node.hooks))
            node.hooks = [self.hooks[i]]
            if share and type(data) is np.ndarray:
                # nobody reads a gradient once its parameter is updated: rules may write it
                # (Dense's dW, `Node.grad_into`) into one array per shape, which stays in cache
                key = (data.shape, data.dtype)
                buf = scratch.get(key)
                if buf is None:
                    buf = scratch[key] = np.empty(data.shape, data.dtype)
                node.grad_buffer = buf
                if i in fusers:
                    _dense_sgd.STEPS[node] = fusers[i]
        self.active = self.pending = True
        return self

    def __exit__(self, kind, value, tb):
        self.active = False
        steps = _dense_sgd.STEPS
        for node, hooks in self.nodes:
            node.hooks = hooks
            node.grad_buffer = None
            steps.pop(node, None)
        self.nodes.clear()
        if kind is not None:
            self.pending = False
        return False

    def _make_hook(self, i, p):
        done, base, args = self.done, self.base, self.args[i]
        getrefcount, ndarray = sys.getrefcount, np.ndarray

        def hook(node, gs):
            if gs is None or not self.active or done[i]:  # done: Dense fused the step
                return None
            g = gs[0]
            data = p._data
            # early only when nothing recorded still holds the array (see the module's doc)
            if getrefcount(p._data) == base[i] and type(g) is ndarray and \
                    g.dtype == data.dtype and g.shape == data.shape:
                done[i] = self._one(args, g) == 1
                if done[i]:
                    return None
            if g is node.grad_buffer:  # shared: the update after the backward needs its own
                return (g.copy(),)
            return None

        return hook

    def _make_fuser(self, i, p):
        done, base, slot = self.done, self.base, self.opt._lr_slots[i]
        getrefcount = sys.getrefcount

        def fuse(g2, x2, held):
            data = p._data
            # the hook's test, but for the Dense rule's own `held` references
            if done[i] or not self.active or type(data) is not np.ndarray or \
                    getrefcount(data) != base[i] + held:
                return False
            done[i] = _dense_sgd.step(data, g2, x2, self.lrs[slot]) != 0
            return done[i]

        return fuse

    def _one(self, args, grad):
        """One parameter's update by the group kernel; 1 when done, 0 when it cannot take it."""
        param, states, slot, wd = args
        return group_update(self.kind, param, (grad,), states, self.lrs, slot, wd,
                            self.opt.loss_scale, **self.options)

    def finish(self, gradients):
        """The rest of the step: every parameter not updated early, as `construct` would (one
        kernel call for all of them, the per-parameter path from the first it cannot take)."""
        self.pending = False
        opt, done, lrs, slots = self.opt, self.done, self.lrs, self.opt._lr_slots
        rest = [i for i, d in enumerate(done) if not d]
        if not rest:
            return
        key = tuple(rest)
        if self.rest is None or self.rest[0] != key:  # the same parameters step after step
            _, states, _ = opt._group
            self.rest = (key, [opt.parameters[i] for i in rest],
                         [[s[i] for i in rest] for s in states], [slots[i] for i in rest],
                         [opt._wds[i] for i in rest])
        _, params, states, rest_slots, wds = self.rest
        took = group_update(self.kind, params, [gradients[i] for i in rest], states, lrs,
                            rest_slots, wds, opt.loss_scale, **self.options)
        for i in rest[took:]:
            if self._one(self.args[i], gradients[i]) != 1:
                data = opt.parameters[i].asnumpy()
                opt._update(i, data, opt._gradient(i, data, gradients[i]), lrs[slots[i]])
