"""Mirrors `mindspore.multiprocessing`: Python's `multiprocessing` with MindSpore's `Process`
and `Pool` names.

MindSpore wraps the module to re-initialise its device runtime around a fork and to send
Tensors through shared memory. cellgrad computes with numpy in the calling process, so a forked
child needs no re-initialisation and a Tensor crosses a `Queue` or `Pipe` by pickling (a copy:
the child's in-place changes do not reach the parent, as with a copied Tensor in MindSpore).
"""

import multiprocessing as _mp
from multiprocessing import *  # noqa: F403 (MindSpore re-exports the whole module)
from multiprocessing import pool as _mp_pool

__all__ = list(_mp.__all__)


class Process(_mp.Process):
    """Mirrors `mindspore.multiprocessing.Process`: `multiprocessing.Process`."""


class Pool(_mp_pool.Pool):
    """Mirrors `mindspore.multiprocessing.Pool`: `multiprocessing.pool.Pool` whose workers are
    this module's `Process` under the fork start method."""

    def Process(self, *args, **kwds):  # noqa: N802 (multiprocessing's name)
        if self._ctx.get_start_method() == "fork":
            return Process(*args[1:], **kwds)  # Pool.Process is a staticmethod taking ctx
        return super().Process(*args, **kwds)
