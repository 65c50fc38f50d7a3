"""Mirrors `mindspore.common._grad_function._Function` (`mindspore._Function`): a custom autograd
function in PyTorch's form, `forward(ctx, *args)` / `backward(ctx, *grad_outputs)` static
methods called through `apply`. MindSpore's tests/st/pynative/grad/test_custom_function_grad.py
uses it.

`apply` runs `forward` as a Cell whose `bprop` calls `backward` (`cellgrad.nn.bprop`), so the
engine records one node and checks the gradients as for any custom bprop. `ctx` is an instance
of the Function class, as in MindSpore.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor

__all__ = ["_Function"]


def _cell_class(cls):
    """The Cell class running `cls` (one per Function class: the bprop node is per class)."""
    cell_cls = cls.__dict__.get("_cellgrad_cell")
    if cell_cls is None:
        from cellgrad.nn.cell import Cell

        def construct(self, *args):
            if self.function._has_setup_context:
                out = self.function.forward(*args)
                self.function.setup_context(self.ctx, args, out)
            else:
                out = self.function.forward(self.ctx, *args)
            marked = {id(t) for t in getattr(self.ctx, "non_differentiable", ())}
            outs = out if isinstance(out, tuple) else (out,)
            self.ctx._non_diff_positions = [i for i, o in enumerate(outs) if id(o) in marked]
            return out

        def bprop(self, *args):
            dout = args[-1]
            grads = self.function.backward(self.ctx, *(dout if isinstance(dout, tuple)
                                                       else (dout,)))
            _check_backward(args[:-2], grads)
            return grads

        def materialize_grads(self):
            """Whether `backward` gets zeros (True) or None for outputs without a gradient."""
            return self.ctx.materialize_grads

        cell_cls = type(f"{cls.__name__}Cell", (Cell,),
                        {"construct": construct, "bprop": bprop,
                         "materialize_grads": property(materialize_grads)})
        cls._cellgrad_cell = cell_cls
    return cell_cls


def _check_backward(inputs, grads):
    """MindSpore's checks of what a custom Function's `backward` returns (its messages)."""
    grads = grads if isinstance(grads, tuple) else (grads,)
    if len(grads) < len(inputs):
        raise RuntimeError("Function backward return a wrong number of gradients, expect: "
                           f"{len(inputs)}but: {len(grads)}")
    for i, g in enumerate(grads):
        x = inputs[i] if i < len(inputs) else None
        if g is None:
            continue
        if not isinstance(x, TensorBuffer):
            raise RuntimeError("Input is not tensor, but gradient is not none, position: "
                               f"{i} type: {type(g)}")
        if not isinstance(g, TensorBuffer):
            raise RuntimeError(f"Gradient should be none or tensor, position: {i} type: "
                               f"{type(g)}")
        if g.shape != x.shape and not _reduces_to(g.shape, x.shape):
            raise RuntimeError("For grad interface or custom function, grad tensor should be "
                               "broadcast to expected shape, but got "
                               f"{_vector(g.shape)} vs {_vector(x.shape)}")


def _reduces_to(grad_shape, shape):
    """A gradient of the shape the input broadcasts to is summed back to the input's."""
    try:
        return np.broadcast_shapes(grad_shape, shape) == tuple(grad_shape)
    except ValueError:
        return False


def _vector(shape):
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


class _Function:
    """Mirrors `mindspore._Function`: subclass it with static `forward(ctx, *args)` and
    `backward(ctx, *grad_outputs)` (or `forward(*args)` plus `setup_context(ctx, inputs,
    output)`), then call `YourFunction.apply(*args)`."""

    _has_setup_context = False

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save context information needed for the backward pass."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run `forward` on `args`; gradients flow back through `backward`."""
        import inspect

        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        if cls._has_setup_context:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        ctx = cls.__new__(cls)
        ctx.needs_input_grad = tuple(isinstance(a, TensorBuffer) for a in args)
        ctx.saved_tensors = ()
        ctx.materialize_grads = True
        cell = _cell_class(cls)()
        cell.function, cell.ctx = cls, ctx
        out = cell(*args, **kwargs)
        if not ctx._non_diff_positions:
            return out
        # outputs marked non-differentiable pass no gradient back (MindSpore: zeros)
        outs = list(out) if isinstance(out, tuple) else [out]
        for i in ctx._non_diff_positions:
            o = outs[i]
            outs[i] = make_tensor(o._data, None, 0, o._dtype)
        return tuple(outs) if isinstance(out, tuple) else outs[0]

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value
