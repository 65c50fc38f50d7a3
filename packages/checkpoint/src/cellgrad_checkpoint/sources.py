"""Byte sources for the reader: a file read with `readinto` at offsets, or a memory buffer."""

from __future__ import annotations

import os
import stat

from cellgrad_checkpoint.errors import CheckpointError, WireError


def check_regular(path: str) -> None:
    """Refuse anything but a regular file before opening it: opening a FIFO for reading
    blocks until a writer appears, a device may never end."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise CheckpointError(path, f"cannot stat the file ({e.strerror})") from None
    if not stat.S_ISREG(mode):
        kind = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFDIR: "a directory",
                stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
                stat.S_IFSOCK: "a socket"}.get(stat.S_IFMT(mode), "not a regular file")
        raise CheckpointError(path, f"it is {kind}, not a regular file; a checkpoint must be "
                                    f"a regular file")


class FileSource:
    """An open file; every read is checked, so a file that shrinks while it is read raises
    `WireError` instead of returning short data (a memory map would die of SIGBUS)."""

    def __init__(self, f):
        self.f = f
        self.size = os.fstat(f.fileno()).st_size

    def readinto(self, pos: int, view) -> None:
        view = memoryview(view).cast("B")
        self.f.seek(pos)
        done = 0
        while done < len(view):
            n = self.f.readinto(view[done:])
            if not n:
                raise WireError("the file ends early (was it changed while being read?)",
                                pos + done)
            done += n

    def pread(self, pos: int, n: int) -> bytes:
        buf = bytearray(n)
        self.readinto(pos, buf)
        return bytes(buf)

    @property
    def concurrent(self) -> bool:
        """Whether `readinto_at` may be called from several threads at once."""
        return hasattr(os, "preadv")

    def readinto_at(self, pos: int, view) -> None:
        """`readinto` without moving the file position (`os.preadv`): safe on any thread."""
        fd = self.f.fileno()
        done = os.preadv(fd, (view,), pos)  # all of it, nearly always: one call
        view = memoryview(view).cast("B")
        if done == len(view):
            return
        if not done:
            raise WireError("the file ends early (was it changed while being read?)", pos)
        while done < len(view):
            n = os.preadv(fd, [view[done:]], pos + done)
            if not n:
                raise WireError("the file ends early (was it changed while being read?)",
                                pos + done)
            done += n


class MemorySource:
    """A decrypted body held in memory."""

    def __init__(self, data):
        self.data = memoryview(data).cast("B")
        self.size = len(self.data)

    def readinto(self, pos: int, view) -> None:
        view = memoryview(view).cast("B")
        if pos + len(view) > self.size:
            raise WireError("the body ends early", self.size)
        view[:] = self.data[pos:pos + len(view)]

    def pread(self, pos: int, n: int) -> bytes:
        if pos + n > self.size:
            raise WireError("the body ends early", self.size)
        return bytes(self.data[pos:pos + n])

    concurrent = True
    readinto_at = readinto
