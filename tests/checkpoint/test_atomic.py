"""Atomic saves: a failed or killed save leaves the previous file; permissions are kept."""

import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
from ckpt_helpers import Bare

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad_checkpoint import atomic, integrity, save


def _net(fill):
    return Bare(np.full((2, 3), fill, np.float32), np.full(2, fill, np.float32))


def _files(directory):
    return sorted(os.listdir(directory))


@pytest.fixture(params=["unnamed", "named"])
def temp_kind(request, monkeypatch):
    """Both temporary-file strategies: O_TMPFILE where the kernel allows it, and named."""
    if request.param == "named":
        monkeypatch.setattr(atomic, "_can_use_unnamed", lambda directory: False)
    elif not atomic._can_use_unnamed("."):
        pytest.skip("O_TMPFILE + link through /proc is not available here")
    return request.param


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_an_exception_mid_save_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch, temp_kind,
                                                               format):
    path = tmp_path / f"net.{format}"
    ms.save_checkpoint(_net(1.0), str(path), format=format)
    before = path.read_bytes()
    calls = []

    def failing_update(self, data, executor=None):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(integrity.DataHash, "update", failing_update)
    with pytest.raises(OSError, match="No space left"):
        ms.save_checkpoint(_net(2.0), str(path), format=format)
    assert path.read_bytes() == before
    assert _files(tmp_path) == [f"net.{format}"]


def test_permissions_of_the_previous_file_are_kept(tmp_path, temp_kind):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint(_net(1.0), str(path))
    os.chmod(path, 0o400)  # what MindSpore leaves behind
    ms.save_checkpoint(_net(2.0), str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o400
    assert ms.load_checkpoint(str(path))["bias"].asnumpy().tolist() == [2.0, 2.0]
    os.chmod(path, 0o640)
    ms.save_checkpoint(_net(3.0), str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_a_new_file_gets_the_umask_default(tmp_path, temp_kind):
    old = os.umask(0o027)
    try:
        ms.save_checkpoint(_net(1.0), str(tmp_path / "a.ckpt"))
        ms.save_checkpoint(_net(1.0), str(tmp_path / "a.safetensors"), format="safetensors")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.ckpt").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(tmp_path / "a.safetensors").st_mode) == 0o640


def test_file_names_as_mindspore_resolves_them(tmp_path):
    ms.save_checkpoint(_net(1.0), str(tmp_path / "noext"))
    ms.save_checkpoint(_net(1.0), str(tmp_path / "a.v1.ckpt"))
    ms.save_checkpoint(_net(1.0), str(tmp_path / "st"), format="safetensors")
    real = tmp_path / "real.ckpt"
    ms.save_checkpoint(_net(1.0), str(real))
    os.symlink(real, tmp_path / "link.ckpt")
    ms.save_checkpoint(_net(5.0), str(tmp_path / "link.ckpt"))  # writes through the link
    assert os.path.islink(tmp_path / "link.ckpt")
    assert ms.load_checkpoint(str(real))["bias"].asnumpy().tolist() == [5.0, 5.0]
    assert _files(tmp_path) == ["a.v1.ckpt", "link.ckpt", "noext.ckpt", "real.ckpt",
                                "st.safetensors"]
    with pytest.raises(IsADirectoryError, match="is a directory, it must be a file name"):
        ms.save_checkpoint(_net(1.0), str(tmp_path))


def test_stale_temporary_files_of_dead_processes_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = tmp_path / f".net.ckpt.{dead}.0123abcd.tmp"
    mine = tmp_path / f".net.ckpt.{os.getpid()}.89abcdef.tmp"  # a save of this process
    other = tmp_path / f".other.ckpt.{dead}.0123abcd.tmp"
    for f in (stale, mine, other):
        f.write_bytes(b"partial")
    ms.save_checkpoint(_net(1.0), str(tmp_path / "net.ckpt"))
    assert _files(tmp_path) == [mine.name, other.name, "net.ckpt"]


def test_async_save_snapshots_the_values_and_writes_in_the_background(tmp_path):
    net = _net(1.0)
    path = tmp_path / "async.ckpt"
    for mode in (True, "thread", "process"):
        ms.save_checkpoint(net, str(path), async_save=mode)
        net.bias.set_data(Tensor(np.full(2, 9.0, np.float32)))  # after the call: not saved
        save.wait_async()
        assert ms.load_checkpoint(str(path))["bias"].asnumpy().tolist() == [1.0, 1.0]
        net.bias.set_data(Tensor(np.full(2, 1.0, np.float32)))
    assert _files(tmp_path) == ["async.ckpt"]


def test_a_failed_async_save_is_reported_by_the_next_call(tmp_path, monkeypatch):
    path = tmp_path / "async.ckpt"
    ms.save_checkpoint(_net(1.0), str(path))

    def broken(self, data, executor=None):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(integrity.DataHash, "update", broken)
    ms.save_checkpoint(_net(2.0), str(path), async_save=True)
    save._async_thread.join()  # the failure happens in the background
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="the asynchronous save of .*async.ckpt failed: "
                                           "OSError.*the previous file is unchanged") as info:
        ms.save_checkpoint(_net(3.0), str(path))
    assert isinstance(info.value.__cause__, OSError)
    assert ms.load_checkpoint(str(path))["bias"].asnumpy().tolist() == [1.0, 1.0]
    ms.save_checkpoint(_net(3.0), str(path))  # reported once; the next save works
    assert _files(tmp_path) == ["async.ckpt"]


_CHILD = textwrap.dedent("""
    import sys, time
    import numpy as np
    import cellgrad as ms
    from cellgrad import Parameter, Tensor
    from cellgrad_checkpoint import atomic, integrity

    if sys.argv[2] == "named":
        atomic._can_use_unnamed = lambda directory: False
    real_update = integrity.DataHash.update

    def slow_update(self, data, executor=None):  # 3 pieces of 4 MiB, 60 ms each: >= 0.18 s
        time.sleep(0.06)
        real_update(self, data)  # summed here, not on the helper thread

    integrity.DataHash.update = slow_update
    for fill in range(1000):
        big = np.full(12 * 2**20 // 4, fill, np.float32)
        print("saving", fill, flush=True)
        ms.save_checkpoint({"big": Parameter(Tensor(big), name="big")}, sys.argv[1])
        print("saved", fill, flush=True)
""")


@pytest.mark.slow
def test_sigkill_mid_save_leaves_the_previous_file_loadable(tmp_path, temp_kind):
    path = tmp_path / "big.ckpt"
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path), temp_kind],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().split() == ["saving", "0"]
        assert child.stdout.readline().split() == ["saved", "0"]
        assert child.stdout.readline().split() == ["saving", "1"]
        time.sleep(0.1)  # well inside the second save
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    loaded = ms.load_checkpoint(str(path))
    big = loaded["big"].asnumpy()
    assert big.shape == (3 * 2**20,) and (big == 0).all()  # the first save, whole
    leftovers = [f for f in _files(tmp_path) if f != "big.ckpt"]
    if temp_kind == "unnamed":
        assert leftovers == []
    else:  # a named temporary file survives a SIGKILL; the next save removes it
        assert len(leftovers) == 1 and leftovers[0].startswith(f".big.ckpt.{child.pid}.")
    ms.save_checkpoint({"big": Parameter(Tensor(np.ones(2, np.float32)), name="big")}, str(path))
    assert _files(tmp_path) == ["big.ckpt"]


def test_disk_writes_start_while_saving(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(atomic, "_SYNC_STEP", 1000)
    monkeypatch.setattr(atomic, "_start_writeback", lambda fd, off, n: calls.append((off, n)))
    big = {"w": Parameter(Tensor(np.zeros(5000, np.float32)), name="w")}
    ms.save_checkpoint(big, str(tmp_path / "w.ckpt"))
    starts = [off for off, _ in calls]
    assert calls and starts[0] == 0
    assert all(a + n == b for (a, n), b in zip(calls, starts[1:]))  # consecutive ranges
    assert sum(n for _, n in calls) <= os.path.getsize(tmp_path / "w.ckpt")


def test_real_writeback_call_is_harmless(tmp_path):
    if atomic._start_writeback is None:
        pytest.skip("no sync_file_range here")
    with open(tmp_path / "f", "wb") as f:
        f.write(b"x" * 4096)
        f.flush()
        atomic._start_writeback(f.fileno(), 0, 4096)
    assert (tmp_path / "f").read_bytes() == b"x" * 4096


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_the_previous_files_cache_is_released_before_writing(tmp_path, monkeypatch, format):
    if not hasattr(os, "posix_fadvise"):
        pytest.skip("no posix_fadvise here")
    path = tmp_path / f"net.{format}"
    ms.save_checkpoint(_net(1.0), str(path), format=format)
    old_inode = os.stat(path).st_ino
    advised = []
    real = os.posix_fadvise

    def spy(fd, offset, length, advice):
        advised.append((os.fstat(fd).st_ino, advice))
        return real(fd, offset, length, advice)

    monkeypatch.setattr(os, "posix_fadvise", spy)
    ms.save_checkpoint(_net(2.0), str(path), format=format)
    assert advised == [(old_inode, os.POSIX_FADV_DONTNEED)]
    assert ms.load_checkpoint(str(path), format=format)["weight"].asnumpy()[0, 0] == 2.0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_saving_over_a_fifo_replaces_it_without_opening_it(tmp_path):
    path = tmp_path / "net.ckpt"
    os.mkfifo(path)  # opening it for reading would block
    ms.save_checkpoint(_net(3.0), str(path))
    assert stat.S_ISREG(os.stat(path).st_mode)
    assert ms.load_checkpoint(str(path))["weight"].asnumpy()[0, 0] == 3.0


def test_an_unreadable_previous_file_is_still_replaced(tmp_path):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint(_net(1.0), str(path))
    os.chmod(path, 0o200)
    ms.save_checkpoint(_net(4.0), str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o200
    os.chmod(path, 0o600)
    assert ms.load_checkpoint(str(path))["weight"].asnumpy()[0, 0] == 4.0


def test_async_ckpt_thread_status_follows_the_background_save(tmp_path, monkeypatch):
    assert ms.async_ckpt_thread_status() is False
    assert ms.train.async_ckpt_thread_status is ms.async_ckpt_thread_status
    release = threading.Event()
    real_update = integrity.DataHash.update

    def held(self, data, executor=None):
        release.wait(10)
        real_update(self, data)

    monkeypatch.setattr(integrity.DataHash, "update", held)
    ms.save_checkpoint(_net(4.0), str(tmp_path / "a.ckpt"), async_save=True)
    assert ms.async_ckpt_thread_status() is True
    assert save._async_thread.name == "asyn_save_ckpt"   # MindSpore's name, joined by name
    release.set()
    save.wait_async()
    assert ms.async_ckpt_thread_status() is False
    assert ms.load_checkpoint(str(tmp_path / "a.ckpt"))["bias"].asnumpy().tolist() == [4, 4]
