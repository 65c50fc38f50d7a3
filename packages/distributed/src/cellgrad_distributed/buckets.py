"""Gradient buckets: parameters' gradients packed into a few flat buffers, each all-reduced in
place with one non-blocking MPI call, started as soon as its last gradient is ready.

Buffers are made once, at construction. While a step's backward walk runs, each parameter's
tape leaf offers its slot (a view of the buffer shaped like the parameter) as its
`grad_buffer`, so a rule that computes the whole gradient in one call writes it there (dense
does, for its weight and bias); any other gradient is copied in when it is ready. The step
then all-reduces, scales and hands the views back as the reduced gradients: no array is
allocated per step and the large gradients are never copied. Buckets fill in reverse
parameter order, the order in which a backward walk finishes them, and start strictly in
bucket order, so every process issues the same collectives in the same order. When the
group's processes share one host, the buckets live in an MPI shared-memory window instead
and a step reduces them there (`shared_buckets`). Before either, every process checks that
all built the same layout (`layout`).
"""

from __future__ import annotations

import time
import weakref

import numpy as np

from cellgrad_distributed import layout, shared_buckets, watchdog, world

DEFAULT_BUCKET_BYTES = 2**20  # 1 MB: the first bucket of a small network starts early


class Bucket:
    """One flat buffer and the parameter slots it holds."""

    __slots__ = ("flat", "slots", "missing", "request")

    def __init__(self, flat, slots):
        self.flat = flat
        self.slots = slots  # indices of the parameters whose gradients live here
        self.missing = len(slots)  # gradients not yet copied in this step
        self.request = None  # the in-flight MPI request


def _wire_dtype(dtype):
    return np.float64 if dtype == np.float64 else np.float32


class GradBuckets:
    """The buckets of one reducer: `put` a gradient when it is ready, `reduce` the step."""

    def __init__(self, params, group, cap_bytes, where="DistributedGradReducer"):
        self.group = group
        self.where = where
        self.params = params
        n = len(params)
        self.bucket_of = [0] * n
        self.views = [None] * n
        self.ready = [False] * n
        self.buckets = []
        self.shared = None  # the SharedSegments holding the buckets, on one host
        self._plan(cap_bytes)
        self.next = 0  # the next bucket to start (buckets start in order)
        self.armed = False
        self.scale = None  # multiply the gradients by this (mean) as they enter, or None
        self.wait_seconds = 0.0  # time spent blocked at the end of steps, for benchmarks
        self.steps = 0

    def _plan(self, cap_bytes):
        open_ = {}  # wire dtype -> (slots, sizes) of the bucket being filled
        plans = []
        for i in range(len(self.params) - 1, -1, -1):
            p = self.params[i]
            dtype = np.dtype(_wire_dtype(p._data.dtype))
            slots, sizes = open_.setdefault(dtype, ([], []))
            if slots and (sum(sizes) + p._data.size) * dtype.itemsize > cap_bytes:
                plans.append((dtype, slots, sizes))
                slots, sizes = open_[dtype] = ([], [])
            slots.append(i)
            sizes.append(p._data.size)
        plans.extend((dtype, s, z) for dtype, (s, z) in open_.items() if s)
        plans.sort(key=lambda plan: -plan[1][0])  # the bucket holding the last parameter first
        # before any buffer is shared or any gradient summed: every process the same layout
        layout.check(self.group, layout.describe(self.params, plans, cap_bytes), self.where)
        if shared_buckets.usable(self.group):
            self.shared = shared_buckets.SharedSegments(
                self.group, [(dtype, sum(sizes)) for dtype, _, sizes in plans])
        for b, (dtype, slots, sizes) in enumerate(plans):
            flat = np.zeros(sum(sizes), dtype) if self.shared is None else self.shared.own(b)
            bucket = Bucket(flat, slots)
            offset = 0
            for i, size in zip(slots, sizes):
                self.bucket_of[i] = b
                self.views[i] = bucket.flat[offset:offset + size].reshape(self.params[i].shape)
                offset += size
            self.buckets.append(bucket)

    @property
    def nbytes(self):
        return sum(b.flat.nbytes for b in self.buckets)

    # ---- per step ----

    def put(self, i, g):
        """Copy gradient `g` of parameter `i` into its slot; start the buckets that are
        complete. Returns the slot (the gradient's new home) when it has the parameter's
        dtype, else None."""
        view = self.views[i]
        if self.ready[i]:
            raise RuntimeError(f"For '{self.where}', the gradient of parameter "
                               f"'{self.params[i].name}' arrived twice in one step.")
        if g.shape != view.shape:
            raise ValueError(f"For '{self.where}', the gradient of parameter "
                             f"'{self.params[i].name}' has shape {g.shape}, but the "
                             f"parameter has shape {view.shape}.")
        if self.scale is not None and self.shared is None:  # the mean rides on the copy
            np.multiply(g, view.dtype.type(self.scale), out=view, casting="unsafe")
        elif g is not view:  # (a rule wrote it in place through the leaf's grad_buffer)
            np.copyto(view, g, casting="unsafe")
        self.ready[i] = True
        bucket = self.buckets[self.bucket_of[i]]
        bucket.missing -= 1
        if bucket.missing == 0:
            self._start_ready()
        elif self.next:
            self._progress()
        return view if view.dtype == g.dtype else None

    def _start_ready(self):
        if self.shared is not None:
            return  # reduced all at once in `reduce`
        MPI = world.mpi()
        comm = self.group.comm
        while self.next < len(self.buckets) and self.buckets[self.next].missing == 0:
            bucket = self.buckets[self.next]
            bucket.request = comm.Iallreduce(MPI.IN_PLACE, bucket.flat, MPI.SUM)
            self.next += 1
        self._progress()

    def _progress(self):
        if self.shared is not None:
            return
        # MPI moves data only inside MPI calls: poke the in-flight ones while the walk goes on.
        world.mpi().Request.Testall([b.request for b in self.buckets[:self.next]])

    def reduce(self, arrays):
        """Finish the step: copy the gradients not put yet, all-reduce, wait."""
        for i, a in enumerate(arrays):
            if not self.ready[i]:
                self.put(i, a)
        self._start_ready()  # every bucket is complete now
        t = time.perf_counter()
        if self.shared is not None:
            self.shared.allreduce(self.where, self.scale)
        else:
            watchdog.wait([b.request for b in self.buckets], self.where, self.group)
        self.wait_seconds += time.perf_counter() - t
        self.steps += 1
        self._reset()
        return self.views

    def _reset(self):
        for b in self.buckets:
            b.missing = len(b.slots)
            b.request = None
        self.ready = [False] * len(self.params)
        self.next = 0

    def broadcast_parameters(self, root=0):
        """Give every process the parameter values of process `root`, through the buckets."""
        for i, p in enumerate(self.params):
            np.copyto(self.views[i], p._data, casting="unsafe")
        comm = self.group.comm
        watchdog.wait([comm.Ibcast(b.flat, root=root) for b in self.buckets],
                      "parameter_broadcast", self.group)
        for i, p in enumerate(self.params):
            np.copyto(p._data, self.views[i], casting="unsafe")

    # ---- gradient-ready hooks ----

    def attach(self):
        """Put a hook on each parameter's tape leaf: while armed, it moves the gradient into
        its bucket the moment the backward walk has finished it."""
        ref = weakref.ref(self)
        for i, p in enumerate(self.params):
            node = p._node
            if node is None:  # frozen: no gradient ever arrives
                continue
            if node.hooks is None:
                node.hooks = []
            node.hooks.append(ReadyHook(ref, i))

    def arm(self):
        """Start a step whose backward fills the buckets through the hooks."""
        if any(self.ready) or self.next:
            self._reset()  # a previous step stopped half-way (an exception)
        for p, view in zip(self.params, self.views):
            if p._node is not None and view.dtype == p._data.dtype:
                p._node.grad_buffer = view  # rules may compute the gradient in its slot
            hooks = p._node.hooks if p._node is not None else None
            if hooks and not isinstance(hooks[-1], ReadyHook):
                # after hooks registered since (Tensor.register_hook): they see the gradient
                # first, and what they return is what gets reduced
                ours = [h for h in hooks if isinstance(h, ReadyHook)]
                hooks[:] = [h for h in hooks if not isinstance(h, ReadyHook)] + ours
        self.armed = True

    def disarm(self):
        """End the step begun by `arm`: gradients computed from now on are the rules' own."""
        self.armed = False
        for p in self.params:
            if p._node is not None:
                p._node.grad_buffer = None


class ReadyHook:
    """The leaf-node hook of one parameter (the core's hook slot, as `Tensor.register_hook`)."""

    __slots__ = ("ref", "index")

    def __init__(self, ref, index):
        self.ref = ref
        self.index = index

    def __call__(self, node, gs):
        buckets = self.ref()
        if buckets is None:  # the reducer is gone: leave the parameter
            node.hooks.remove(self)
            return None
        if not buckets.armed or gs is None or type(gs[0]) is not np.ndarray:
            return None  # not a training step, no gradient, or a higher-order (Tensor) one
        view = buckets.put(self.index, gs[0])
        return None if view is None else (view,)
