"""Where the random transforms draw from.

MindSpore seeds every random op from the dataset seed when a pipeline is built, so a new
iterator over the same pipeline repeats its draws. Here each random transform owns a numpy
Generator seeded from (dataset seed, the transform's class, the worker) and re-seeded at each
pass; an engine calls `new_pass()` when it builds an iterator and `set_worker(i)` in worker
processes, so draws repeat per pass and differ between workers. Without a seed: fresh entropy.
"""

import os
import zlib

import numpy as np

from cellgrad_dataset import config

_state = {"pass": 0, "worker": 0}


def new_pass():
    """Start a new pass: every random transform re-seeds on its next draw."""
    _state["pass"] += 1


def set_worker(worker_id):
    """Give this process's transforms their own stream (called in each worker process)."""
    _state["worker"] = int(worker_id)
    _state["pass"] += 1


class RandomDraws:
    """Mixin for a transform that draws: `self._rng()` is its seeded Generator."""

    _generator = None
    _drawn_with = None

    def _rng(self):
        seed = config.seed_or_none()  # get_seed() is 5489 when no seed is set (MindSpore's)
        # a forked worker process re-seeds too: fresh entropy without a seed, and with one the
        # stream of the worker index the engine gave to set_worker
        key = (seed, _state["pass"], _state["worker"], os.getpid())
        if self._generator is None or self._drawn_with != key:
            if seed is None:
                self._generator = np.random.default_rng()
            else:
                cls = zlib.crc32(type(self).__name__.encode())
                # the pass only triggers the re-seed: every pass repeats the same draws
                self._generator = np.random.default_rng([seed, cls, _state["worker"]])
            self._drawn_with = key
        return self._generator
