"""Tracing one call for `ms.jit`: the eager run, watched, recorded as a replay plan.

The call runs eagerly (its results are the eager results) under a `cellgrad.observe` observer
that is also the core's jit tracer (`cellgrad._jit_hook`). What it records:

- every top-level op dispatch: the op, where each input comes from (a slot: an argument, a
  Parameter, a constant Tensor, an earlier result), the dtype the engine casts it to, the
  attributes (an array attribute that is a Parameter's data stays that Parameter's live
  data), and the tape place of its result, which gives the backward structure;
- every gradient transform: the differentiated inputs and weights, the roots and the result
  of each target, so the replay walks the recorded nodes as the engine's walk does;
- a Cell (directly under the traced function) whose Python reads Tensor values or writes
  into them outside a gradient transform (an optimizer): an *island*, called eagerly at each
  replay with the replay's arrays;
- a Cell whose Python makes its ops' attributes (batch statistics, dropout masks drawn from
  the seeded streams, arrays from the data): *refreshed*, run again eagerly at each replay so
  that its planned ops get fresh attributes;
- why a call cannot be replayed (`Unsafe`): a value read or write in the function itself or
  inside a gradient transform, hooks, a nested gradient, a Tensor changed behind the engine's
  back (copies of the Tensors the call can reach are compared after it), another thread...
"""

from threading import get_ident

import numpy as np

try:
    from xxhash import xxh3_64_intdigest as _xxh3
except ImportError:  # the copies are compared instead
    _xxh3 = None
from cellgrad._core._buffer import TensorBuffer, promote_types

import cellgrad as ms
from cellgrad import _jit_hook, observe
from cellgrad.nn import Cell
from cellgrad_jit.guards import _names as global_names
from cellgrad_jit.mutables import ScalarArg, plain
from cellgrad_jit.optim_step import OptimizerStep, fusable
from cellgrad_jit.plan import GradStep, IslandStep, OpStep, ParamRef, Plan, Ref, _refs

__all__ = ["Recorder", "Unsafe"]

_KIND_BOOL, _KIND_INT, _KIND_FLOAT, _KIND_COMPLEX = 0, 1, 2, 3
_SCALARS = (bool, int, float, complex, str, type(None))


class Unsafe(Exception):
    """The traced call does things a replay cannot reproduce; the message says what."""


def _scalar_kind(v):
    t = type(v)
    if t is float:
        return _KIND_FLOAT
    if t is bool:
        return _KIND_BOOL
    if t is int:
        return _KIND_INT
    if t is complex:
        return _KIND_COMPLEX
    if isinstance(v, np.generic):
        k = v.dtype.kind
        return {"f": _KIND_FLOAT, "c": _KIND_COMPLEX, "i": _KIND_INT, "u": _KIND_INT,
                "b": _KIND_BOOL}.get(k, -1)
    # subclasses (ms.mutable's): Python scalars, as the engine treats them
    if isinstance(v, bool):
        return _KIND_BOOL
    if isinstance(v, int):
        return _KIND_INT
    if isinstance(v, float):
        return _KIND_FLOAT
    return -1


def _promoted(op, inputs):
    """The dtype the engine casts every input of `op` to (mirrors its promotion rule)."""
    if not op.promote:
        return None
    d, skind = None, -1
    for v in inputs:
        if isinstance(v, TensorBuffer):
            d = v.dtype if d is None else promote_types(d, v.dtype)
        else:
            skind = max(skind, _scalar_kind(v))
    if d is None:
        return None
    if skind > d.kind:
        if skind == _KIND_INT:
            d = ms.int64
        elif skind == _KIND_COMPLEX:
            raise Unsafe(f"op '{op.name}' mixes a complex scalar with a Tensor")
        else:
            d = ms.float32
    if op.promote in (2, 3) and d.kind != _KIND_FLOAT:
        d = ms.float32
    return d


def _scalar_array(v, d):
    """The 0-d array the engine makes of scalar `v` for dtype `d`."""
    npd = d.np_dtype
    if d.bits >= 32 and ((type(v) is float and d.kind >= _KIND_FLOAT) or (
            type(v) is int and d.kind == _KIND_INT and -2147483648 <= v <= 2147483647 and
            (v >= 0 or np.dtype(npd).kind != "u"))):
        return np.dtype(npd).type(v)
    if d.kind == _KIND_INT and type(v) is int:
        return np.array(v, dtype=np.int64).astype(npd)
    with np.errstate(over="ignore"):
        return np.array(v).astype(npd)


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _fingerprint(a):
    """What tells whether array `a` changed during the call: the XXH3-64 digest of its bytes
    (2 ms for the deep chain's 16 MB of Parameters, where a copy costs 15 ms, most of it the
    new pages' faults), or a copy when it has no contiguous bytes or xxhash is missing."""
    if 0 in a.strides and a.size:  # a broadcast (an optimizer's zeros): its memory once
        a = a[tuple(0 if st == 0 else slice(None) for st in a.strides) + (...,)]
    if _xxh3 is not None and not a.dtype.hasobject:
        if a.flags.c_contiguous:
            return _xxh3(a)
        if a.flags.f_contiguous:  # a transposed weight: the same bytes, in C order
            return _xxh3(a.T)
    return a.copy()


def _unchanged(a, before):
    """`a` holds what `_fingerprint` saw: a digest, or a copy compared bit for bit where the
    item size allows (a float compare with equal NaNs costs 4x more)."""
    if 0 in a.strides and a.size:
        a = a[tuple(0 if st == 0 else slice(None) for st in a.strides) + (...,)]
    if type(before) is int:
        return _xxh3(a if a.flags.c_contiguous else a.T) == before
    bits = _BITS.get(a.dtype.itemsize)
    if bits is not None and a.dtype.kind in "fciub":
        return np.array_equal(a.view(bits), before.view(bits))
    return np.array_equal(a, before, equal_nan=a.dtype.kind in "fc")


def _tensors(v, out):
    if isinstance(v, TensorBuffer):
        out.append(v)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _tensors(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _tensors(x, out)
    return out


class _Frame:
    __slots__ = ("cell", "start", "reads", "args", "kwargs", "in_grad", "refresh")

    def __init__(self, cell, start, args, kwargs, in_grad):
        self.cell, self.start, self.args, self.kwargs = cell, start, args, kwargs
        self.reads, self.in_grad, self.refresh = None, in_grad, None


class _Region:
    """One gradient transform being traced."""

    def __init__(self):
        self.leaves = {}  # id(leaf node) -> node (kept alive)


class Recorder(observe.Observer):
    """Watches one eager call and builds its `Plan` (see the module docstring)."""

    def __init__(self, name):
        self.name = name
        self.kinds, self.refs, self.arrays = [], [], []  # per slot
        self.by_tensor = {}  # id(Tensor) -> slot
        self.by_array = {}  # id(array) -> slot (a detached alias shares its array)
        self.keep = []  # Tensors and arrays seen: their ids stay theirs
        self.steps = []
        self.frames = []
        self.cells = {}  # id(cell) -> (cell, training)
        self.seen_cells = set()  # ids of the Cells whose Parameters `see` has seen
        self.depth = 0
        self.pending = []
        self.region = None
        self.nodes = {}  # id(tape node) -> (step index, node)
        self.unsafe = None
        self.params = None
        self.refreshes = []  # (first step, end, cell, args, kwargs)
        self.thread = get_ident()
        self.scalars = []  # (dict or None, key or closure cell, value): baked Python values
        self.snap = {}  # id(Tensor) -> (Tensor, its array, a copy): writes nobody replays
        self.explained = set()  # ids of Tensors islands and refreshed Cells may write
        self.watched = {}  # id(watched mutable scalar) -> slot (`mutables`)
        self.mutable_reason = None  # how Python used a mutable scalar outside an op

    # ---- slots ----

    def see(self, t):
        """Keep a fingerprint of a Tensor that exists before the call (first sight)."""
        if id(t) not in self.snap:
            self.snap[id(t)] = (t, t._data, _fingerprint(t._data))

    def see_reachable(self, function, args, kwargs):
        """Copy, before the call, the Tensors and Cells' Parameters the function can reach:
        its arguments, its closure, the globals it names and its `self`."""
        fn = getattr(function, "__func__", function)
        found = list(args) + list(kwargs.values())
        found.append(getattr(function, "__self__", None))
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                v = cell.cell_contents
            except ValueError:  # an empty closure cell
                continue
            found.append(v)
            if isinstance(v, _SCALARS):
                self.scalars.append((None, cell, v))
        code, names = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
        if code is not None:
            for n in global_names(code, set()):
                if n in names:
                    found.append(names[n])
                    if isinstance(names[n], _SCALARS):
                        self.scalars.append((names, n, names[n]))
        for v in found:
            if isinstance(v, Cell):
                for p in v.get_parameters():
                    self.see(p)
                for _, c in v.cells_and_names():
                    self.seen_cells.add(id(c))
                    attrs = c.__dict__
                    self.scalars += [(attrs, k, x) for k, x in attrs.items()
                                     if not k.startswith("_") and isinstance(x, _SCALARS)]
            elif isinstance(v, TensorBuffer):
                self.see(v)

    def new_slot(self, kind, ref, array):
        self.kinds.append(kind)
        self.refs.append(ref)
        self.arrays.append(array)
        self.keep.append(array)
        return len(self.kinds) - 1

    def bind_input(self, t, index):
        kind, ref = ("param", t) if isinstance(t, ms.Parameter) else ("input", index)
        self.see(t)
        s = self.new_slot(kind, ref, t._data)
        self.by_tensor[id(t)] = s
        self.by_array.setdefault(id(t._data), s)
        self.keep.append(t)

    def bind_scalar(self, w, index):
        """Mutable scalar argument `index`, seen by the function as `w` (watched)."""
        s = self.new_slot("scalar", index, None)
        self.watched[id(w)] = s
        self.keep.append(w)

    def mutable_used(self, what):
        if self.mutable_reason is None:
            self.mutable_reason = f"a mutable scalar was used by Python ({what}) outside an op"

    def slot_of(self, t, what):
        s = self.by_tensor.get(id(t))
        if s is not None:
            if t._data is not self.arrays[s]:
                self.fail(f"{what}: a Tensor's data was replaced outside an op (an in-place "
                          f"change the trace cannot see)")
            return s
        s = self.by_array.get(id(t._data))
        if s is not None and self.arrays[s].dtype == t._data.dtype:
            self.by_tensor[id(t)] = s  # a detached alias (value_and_grad's output)
            self.keep.append(t)
            return s
        self.see(t)
        if isinstance(t, ms.Parameter):
            s = self.new_slot("param", t, t._data)
        else:
            if _jit_hook.tape_place(t) is not None:
                self.fail(f"{what}: a Tensor on the gradient tape that no traced op made")
            s = self.new_slot("const", t, t._data)
        self.by_tensor[id(t)] = s
        self.by_array.setdefault(id(t._data), s)
        self.keep.append(t)
        return s

    def other_thread(self):
        self.fail("another thread ran ops while this call was traced")

    def fail(self, reason):
        if self.unsafe is None:
            self.unsafe = reason

    # ---- the core's tracer events ----

    def value_read(self, tensor, how):
        if get_ident() != self.thread:
            return self.other_thread()
        self._impure(f"{how}() read a Tensor's values")

    def value_write(self, tensor, how):
        if get_ident() != self.thread:
            return self.other_thread()
        self._impure(f"{how} wrote into a Tensor in place")

    def random_draw(self, kernel, seed):
        if get_ident() != self.thread:
            return self.other_thread()
        self.mark_refresh(f"a random draw ({kernel})")

    def mark_refresh(self, what):
        """The innermost Cell computes op attributes from data or random draws in Python: at
        each replay it runs again (eagerly) to give its ops fresh attributes."""
        if self.depth:
            return  # inside an op's forward: the replay calls that forward again
        if not self.frames:
            self.fail(f"{what} in the traced function itself (outside any Cell), which a "
                      f"replay cannot repeat")
        elif self.frames[-1].refresh is None:
            self.frames[-1].refresh = what

    def _impure(self, what):
        if self.depth:
            return  # inside an op: its forward's own business
        if not self.frames:
            self.fail(f"{what} in the traced function itself: the result may depend on the "
                      f"data (a Python branch on a Tensor value), so it runs eagerly")
        elif self.frames[0].reads is None:
            self.frames[0].reads = what

    def grad_begin(self, pairs):
        if get_ident() != self.thread:
            return self.other_thread()
        if self.region is not None:
            self.fail("a gradient transform inside another (higher-order gradients)")
            return
        if self.frames and self.frames[0].reads:
            self.fail("a gradient transform inside a Cell that reads Tensor values")
        region = self.region = _Region()
        for fn_sees, passed in pairs:
            place = _jit_hook.tape_place(fn_sees)
            s = self.slot_of(passed, "grad")
            if fn_sees is not passed:
                self.by_tensor[id(fn_sees)] = s
                self.keep.append(fn_sees)
            if place is not None:
                region.leaves[id(place[0])] = place[0]

    def grad_end(self, roots, sens, targets, results, given=()):
        if get_ident() != self.thread:
            return self.other_thread()
        region, self.region = self.region, None
        if region is None or self.unsafe:
            return
        ids = {id(n): i for n, i in targets.items()}
        given = list(given) + [None] * (len(sens) - len(given))
        sens = [(a.shape, a.dtype, self.sens_source(g, a)) for a, g in zip(sens, given)]
        step = GradStep.build(self, [(id(n), s) for n, s in roots], sens, ids, self.fail)
        step.built = ([(id(n), s) for n, s in roots], sens, ids)
        for index, t in results:
            s = self.new_slot("result", None, t._data)
            self.by_tensor[id(t)] = s
            self.by_array.setdefault(id(t._data), s)
            self.keep.append(t)
            step.outputs.append((index, s, t._data.shape, t._data.dtype))
        self.steps.append(step)

    def sens_source(self, given, array):
        """Where a replay takes an output's sensitivity: None (ones, the default), the slot
        of the Tensor the caller passed (`vjp`'s cotangent, `sens_param`'s `sens`, a loss
        scale: its value may change between calls), or the array of a Python number."""
        if given is None:
            return None
        if isinstance(given, TensorBuffer):
            return self.slot_of(given, "a gradient's sensitivity")
        return np.array(array)

    # ---- observer events ----

    def cell_begin(self, cell, args, kwargs):
        if get_ident() != self.thread:
            return self.other_thread()
        if self.depth:
            return
        if id(cell) not in self.cells:
            self.cells[id(cell)] = (cell, cell.training)
            if id(cell) not in self.seen_cells:
                for p in cell.get_parameters():
                    self.see(p)
        if _jit_hook.cell_hooked(cell):
            self.fail(f"Cell '{type(cell).__name__}' has hooks or a custom bprop (they run "
                      f"eagerly, every call)")
        self.frames.append(_Frame(cell, len(self.steps), args, kwargs, self.region is not None))

    def cell_end(self, cell, result):
        if get_ident() != self.thread:
            return self.other_thread()
        if self.depth:
            return
        frame = self.frames.pop()
        if frame.refresh is not None and frame.reads is None:
            self.refresh_range(frame)
        if frame.reads is None or self.frames or self.unsafe:
            return
        if frame.in_grad or self.region is not None:
            self.fail(f"Cell '{type(cell).__name__}' does {frame.reads} inside a gradient "
                      f"transform")
            return
        self.island(frame, result)

    def cell_abort(self, cell):
        if get_ident() != self.thread:
            return self.other_thread()
        if not self.depth:
            self.frames.pop()

    def op_begin(self, op, inputs, attrs):
        if get_ident() != self.thread:
            return self.other_thread()
        self.depth += 1
        if self.depth == 1:
            self.pending.append([_jit_hook.tape_place(t) if isinstance(t, TensorBuffer)
                                 else None for t in inputs])

    def op_abort(self, op):
        if get_ident() != self.thread:
            return self.other_thread()
        self.depth -= 1
        if not self.depth:
            self.pending.pop()

    def op_end(self, op, inputs, attrs, result):
        if get_ident() != self.thread:
            return self.other_thread()
        self.depth -= 1
        if self.depth:
            return
        places = self.pending.pop()
        if self.unsafe:
            return
        where = f"op '{op.name}'"
        try:
            d = _promoted(op, inputs)
        except Unsafe as e:
            self.fail(str(e))
            return
        if d is not None and d.name in ("BFloat16",) or any(
                isinstance(t, TensorBuffer) and t.dtype.name == "BFloat16" for t in inputs):
            self.fail(f"{where} computes in bfloat16 (replayed eagerly)")
            return
        args = []
        for t in inputs:
            if isinstance(t, TensorBuffer):
                s = self.slot_of(t, where)
                cast = None
                if d is not None and t._data.dtype != d.np_dtype:
                    cast = d.np_dtype
                args.append((s, cast))
            elif id(t) in self.watched:
                args.append((self.watched[id(t)], ScalarArg(d)))
            elif d is not None and _scalar_kind(t) >= 0:
                args.append((-1, _scalar_array(t, d)))
            else:
                args.append((-1, t))
        node_attrs = {k: self.attr(v, where) for k, v in (attrs or {}).items()}
        multi = isinstance(result, tuple)
        if isinstance(op.ufunc, np.ufunc) and not multi and not attrs and \
                isinstance(result, TensorBuffer):
            # the dtypes this replay casts to must give the traced result's dtype
            probe = [(_scalar_array(plain(t), v.dtype) if v.dtype is not None else plain(t))
                     if type(v) is ScalarArg else
                     np.zeros((), self.arrays[s].dtype if v is None else v) if s >= 0
                     else v for (s, v), t in zip(args, inputs)]
            try:
                same = np.asarray(op.ufunc(*probe)).dtype == result._data.dtype
            except Exception:
                same = False
            if not same:
                self.fail(f"{where}: the replay's input casts would not give the traced "
                          f"result dtype {result._data.dtype}")
                return
        outs = []
        for r in (result if multi else (result,)):
            if not isinstance(r, TensorBuffer):
                self.fail(f"{where} returned {type(r).__name__}")
                return
            s = self.new_slot("result", None, r._data)
            self.by_tensor[id(r)] = s
            self.by_array[id(r._data)] = s
            self.keep.append(r)
            outs.append((s, r.dtype))
        first = (result if multi else (result,))[0]
        place = _jit_hook.tape_place(first)
        node = None
        if place is not None and _jit_hook.node_op(place[0]) is op and self.region is not None:
            node = place[0]
            self.nodes[id(node)] = (len(self.steps), node)
        step = OpStep(op, args, node_attrs, outs, multi, node is not None)
        step.places = places
        step.meta = [(r._data.shape, r._data.dtype) for r in (result if multi else (result,))]
        step.in_meta = [(t._data.shape, t._data.dtype) if isinstance(t, TensorBuffer) else None
                        for t in inputs]
        self.steps.append(step)

    def attr(self, a, where):
        """An attribute as the replay passes it: a `Ref`, a `ParamRef` or the value."""
        if id(a) in self.watched:
            self.mutable_used(f"{where}: an attribute")
        if isinstance(a, (tuple, list)):
            if any(isinstance(x, np.ndarray) and x.size for x in a):
                self.mark_refresh(f"{where}: an attribute holds arrays made in Python")
            return a
        if not isinstance(a, np.ndarray) or not a.size:
            return a
        s = self.by_array.get(id(a))
        if s is not None:
            return Ref(s)
        for p in self.all_params():
            if np.shares_memory(p._data, a):
                if p._data is a:
                    return ParamRef(p)
                break
        # Made in Python (from the data, a random draw, a Parameter's view or a constant):
        # the Cell that made it runs again at each replay to make it afresh.
        self.mark_refresh(f"{where}: an attribute array made in Python")
        return a

    def all_params(self):
        if self.params is None or len(self.params[0]) != len(self.cells):
            seen, params = set(), []
            for cell, _ in self.cells.values():
                for p in cell.get_parameters():
                    if id(p) not in seen:
                        seen.add(id(p))
                        params.append(p)
            self.params = (dict(self.cells), params)
        return self.params[1]

    def refresh_range(self, frame):
        ops = self.steps[frame.start:]
        if any(type(st) is not OpStep for st in ops):
            self.fail(f"Cell '{type(frame.cell).__name__}' does {frame.refresh} and also runs "
                      f"a gradient transform or an eager Cell")
            return
        self.refreshes = [r for r in self.refreshes if r[0] < frame.start]
        args = self.structure(frame.args, "refreshed Cell input")
        kwargs = {k: self.structure(v, "refreshed Cell input") for k, v in frame.kwargs.items()}
        self.refreshes.append((frame.start, len(self.steps), frame.cell, args, kwargs))
        self.explained.update(id(p) for p in frame.cell.get_parameters())

    # ---- islands ----

    def island(self, frame, result):
        """Replace the steps of `frame` by one eager call of its Cell."""
        del self.steps[frame.start:]
        self.refreshes = [r for r in self.refreshes if r[0] < frame.start]
        args = self.structure(frame.args, "island input")
        kwargs = {k: self.structure(v, "island input") for k, v in frame.kwargs.items()}
        out = self.out_template(result, fresh=True)
        self.explained.update(id(p) for p in frame.cell.get_parameters())
        self.explained.update(id(t) for t in _tensors((frame.args, frame.kwargs), []))
        if fusable(frame.cell, args, kwargs, out):
            self.steps.append(OptimizerStep(frame.cell, args[0], frame.reads))
        else:
            self.steps.append(IslandStep(frame.cell, args, kwargs, out, frame.reads))

    def structure(self, v, what):
        if id(v) in self.watched:
            self.mutable_used(what)
        if isinstance(v, TensorBuffer):
            return Ref(self.slot_of(v, what), v.dtype)
        if isinstance(v, (tuple, list)):
            return type(v)(self.structure(x, what) for x in v)
        return v

    def out_template(self, out, fresh=False):
        """`out` with each Tensor replaced by a `Ref` (new slots if `fresh`: an island's
        results)."""
        if id(out) in self.watched:
            self.mutable_used("the result")
        if isinstance(out, TensorBuffer):
            if fresh:
                s = self.new_slot("result", None, out._data)
                self.by_tensor[id(out)] = s
                self.by_array[id(out._data)] = s
                self.keep.append(out)
            else:
                s = self.slot_of(out, "the result")
                if self.kinds[s] in ("param", "const") and self.refs[s] is out:
                    return out  # a Parameter or constant returned as it is: the object itself
            return Ref(s, out.dtype)
        if isinstance(out, tuple) and type(out) is not tuple:  # a namedtuple
            return type(out)(*(self.out_template(x, fresh) for x in out))
        if isinstance(out, (tuple, list)):
            return type(out)(self.out_template(x, fresh) for x in out)
        if isinstance(out, dict):
            return {k: self.out_template(x, fresh) for k, x in out.items()}
        return out

    # ---- the plan ----

    def check_writes(self):
        """A Tensor that existed before the call and changed, outside the Cells that run
        eagerly at each replay, was written by Python the replay does not repeat."""
        for t, arr, before in self.snap.values():
            if id(t) in self.explained:
                continue
            if t._data is not arr or not _unchanged(arr, before):
                what = f"Parameter '{t.name}'" if isinstance(t, ms.Parameter) else "a Tensor"
                self.fail(f"{what} was changed in place outside any op the replay repeats "
                          f"(Python writing into its array)")
                return

    def prune_gradients(self, template):
        """Drop the gradients nothing reads (not returned, not used by a later step): their
        targets leave the walk, so the backward of the nodes only they needed is not run
        and those nodes' forward values are not kept."""
        read = set(_refs(template, []))
        for st in self.steps:
            read.update(st.slots())
        for _, _, _, args, kwargs in self.refreshes:
            read.update(_refs((args, kwargs), []))
        for k, st in enumerate(self.steps):
            if type(st) is not GradStep:
                continue
            kept = [o for o in st.outputs if o[1] in read]
            live = {o[0] for o in kept}
            dead = {o[0] for o in st.outputs} - live - {None}
            if not dead and len(kept) == len(st.outputs):
                continue
            roots, sens, ids = st.built
            new = GradStep.build(self, roots, sens,
                                 {n: i for n, i in ids.items() if i not in dead}, self.fail)
            new.ntargets, new.outputs, new.built = st.ntargets, kept, st.built
            walked = {w[0] for _, w in new.walk}
            for _, w in st.walk:
                if w[0] not in walked:
                    self.steps[w[0]].keep = False
            self.steps[k] = new

    def finish(self, out):
        template = self.out_template(out)
        for t in self.keep:
            if isinstance(t, TensorBuffer) and _jit_hook.has_grad_hooks(t):
                self.fail("a Tensor has a gradient hook (Tensor.register_hook)")
                break
        if self.region is not None:
            self.fail("a gradient transform did not finish")
        if not self.unsafe:
            self.check_writes()
        if self.unsafe:
            raise Unsafe(self.unsafe)
        self.prune_gradients(template)
        plan = Plan(self.name, self.kinds, self.refs, self.steps, template,
                    list(self.cells.values()), self.refreshes)
        plan.scalars = self.scalars
        plan.check_slots()
        return plan
