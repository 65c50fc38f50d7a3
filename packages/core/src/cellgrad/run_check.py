"""Mirrors `mindspore.run_check`: a multiplication on the installed core, reported."""

import numpy as np

__all__ = ["run_check"]


def run_check():
    """Mirrors `mindspore.run_check`: prints the version and whether a small computation on
    the compiled core gives the right result."""
    import cellgrad
    from cellgrad import Tensor, ops

    print("cellgrad version: ", cellgrad.__version__)
    x = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    ok = np.array_equal(ops.mul(x, x).asnumpy(), np.array([1.0, 4.0, 9.0, 16.0], np.float32))
    if ok:
        print("The result of multiplication calculation is correct, cellgrad has been installed "
              "on platform [CPU] successfully!")
    else:
        print("The result of multiplication calculation is wrong: the compiled core of this "
              "cellgrad installation is damaged; reinstall cellgrad-core.")
