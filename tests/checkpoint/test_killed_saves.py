"""A save killed with SIGKILL mid-write, in both formats: the previous file is intact and the
next save to the same path removes the dead process's temporary file (the safetensors
package's own `serialize_file` would leave `.tmpXXXXXX` files nothing removes)."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor

pytestmark = pytest.mark.stress  # the stress tier: tox -e stress

_CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import cellgrad as ms
    from cellgrad import Parameter, Tensor
    from cellgrad_checkpoint import atomic

    atomic._can_use_unnamed = lambda directory: False  # a named temp file, as without O_TMPFILE
    real_write = atomic._EarlyWriteback.write

    def announced_write(self, data):
        if self.written >= 8 << 20 and not getattr(self, "announced", False):
            self.announced = True
            print("writing", flush=True)  # 8 MiB are in the temp file: kill me now
            sys.stdin.readline()
        return real_write(self, data)

    atomic._EarlyWriteback.write = announced_write
    big = np.full(64 * 2**20 // 4, 2.0, np.float32)
    ms.save_checkpoint({"big": Parameter(Tensor(big), name="big")}, sys.argv[1],
                       format=sys.argv[2])
    print("finished", flush=True)
""")


def _params(value, n=1000):
    return {"big": Parameter(Tensor(np.full(n, value, np.float32)), name="big")}


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_sigkill_mid_save_then_next_save_removes_the_temp_file(tmp_path, fmt):
    path = tmp_path / f"model.{fmt}"
    ms.save_checkpoint(_params(1.0), str(path), format=fmt)
    before = path.read_bytes()
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path), fmt],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
        leftovers = [name for name in os.listdir(tmp_path) if name != path.name]
        assert len(leftovers) == 1 and leftovers[0].startswith(f".{path.name}.{child.pid}.")
        assert os.path.getsize(tmp_path / leftovers[0]) >= 8 << 20  # killed during the write
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert path.read_bytes() == before  # the original is intact
    assert ms.load_checkpoint(str(path), format=fmt)["big"].asnumpy()[0] == 1.0
    assert sorted(os.listdir(tmp_path)) == sorted([path.name] + leftovers)  # the dead's temp
    ms.save_checkpoint(_params(3.0), str(path), format=fmt)
    assert os.listdir(tmp_path) == [path.name]  # removed by the next save
    assert ms.load_checkpoint(str(path), format=fmt)["big"].asnumpy()[0] == 3.0


def test_a_live_processs_temp_file_is_left_alone(tmp_path):
    path = tmp_path / "model.safetensors"
    live = tmp_path / f".model.safetensors.{os.getppid()}.0123abcd.tmp"
    live.write_bytes(b"in progress")
    ms.save_checkpoint(_params(1.0), str(path), format="safetensors")
    assert sorted(os.listdir(tmp_path)) == sorted([live.name, path.name])
