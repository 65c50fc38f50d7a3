"""`mint.distributed` and `mint.nn.SyncBatchNorm` on two and three processes under the MPI
wheel's `mpirun`: each program checks every function against numpy (and SyncBatchNorm against
one process's BatchNorm on the whole batch) and prints `ok <what>` per check."""

import pytest
from mpi_launch import require_mpi, run_ok


@pytest.fixture(autouse=True)
def _mpi():
    require_mpi()


MINT_CHECKS = ("all_reduce values", "all_reduce gradient", "all_gather", "reduce_scatter",
               "broadcast reduce", "exchange", "p2p", "objects", "groups", "destroyed")


@pytest.mark.parametrize("n", [2, 3])
def test_every_function_and_gradient_matches_numpy(n):
    out = run_ok("mint_distributed.py", n=n, timeout=180)
    for what in MINT_CHECKS:
        assert out.count(f"ok {what}") == n, out  # lines of processes may interleave


@pytest.mark.parametrize("n", [2, 3])
def test_comm_primitives_and_their_gradients(n):
    out = run_ok("comm_primitives.py", n=n, timeout=120)
    for what in ("Reduce", "CollectiveGather CollectiveScatter", "AlltoAll", "Send Receive",
                 "uneven", "NeighborExchange BatchISendIRecv", "fused matmul",
                 "NeighborExchangeV2"):
        assert out.count(f"ok {what}") == n, out


@pytest.mark.parametrize("n", [2, 3])
def test_sync_batchnorm_equals_batchnorm_on_the_whole_batch(n):
    out = run_ok("mint_sync_batchnorm.py", n=n, timeout=180)
    for what in ("2d", "1d", "2-D input", "3d", "data parallel"):  # none is another's prefix
        assert out.count(f"ok {what}") == n, out
