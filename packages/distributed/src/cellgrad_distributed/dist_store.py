"""`mint.distributed.TCPStore`: mirrors MindSpore's TCP key-value store (`set`, `get`, `add`,
`delete_key`), a server thread in the master process and one connection per store object.

Messages are framed bytes (a command byte, then length-prefixed key and value), never pickles:
the server runs no code a client sends. `get` waits for the key up to the store's timeout
(then RuntimeError, as MindSpore's "TCP get operation failed.").
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
import time
from datetime import timedelta

__all__ = ["TCPStore"]

_SET, _GET, _ADD, _DELETE, _HELLO = b"s", b"g", b"a", b"d", b"h"
_OK, _FAIL = b"+", b"-"


def _send(sock, *parts):
    sock.sendall(b"".join(struct.pack("!I", len(p)) + p for p in parts))


def _read_exact(sock, n):
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the TCPStore connection closed")
        data += chunk
    return bytes(data)


def _recv(sock, count):
    return [_read_exact(sock, struct.unpack("!I", _read_exact(sock, 4))[0])
            for _ in range(count)]


class _State:
    def __init__(self):
        self.data, self.clients = {}, 0
        self.changed = threading.Condition()


class _Handler(socketserver.BaseRequestHandler):
    def handle(self):
        state = self.server.state
        while True:
            try:
                command, key, value, wait = _recv(self.request, 4)
            except (ConnectionError, OSError):
                return
            with state.changed:
                reply = self._answer(state, command, key.decode(), value,
                                     struct.unpack("!d", wait)[0])
            _send(self.request, *reply)

    @staticmethod
    def _answer(state, command, key, value, wait):
        if command == _HELLO:
            state.clients += 1
            state.changed.notify_all()
            return _OK, b""
        if command == _SET:
            state.data[key] = value
            state.changed.notify_all()
            return _OK, b""
        if command == _GET:
            if not state.changed.wait_for(lambda: key in state.data, timeout=wait):
                return _FAIL, b"TCP get operation failed."
            return _OK, state.data[key]
        if command == _ADD:
            total = int(state.data.get(key, b"0")) + int(value)
            state.data[key] = str(total).encode()
            state.changed.notify_all()
            return _OK, state.data[key]
        existed = state.data.pop(key, None) is not None
        return _OK, b"1" if existed else b"0"


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _check(where, name, value, kinds, kind_text):
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise TypeError(f"For '{where}', the argument '{name}' must be type of {kind_text}, but "
                        f"got '{name}' type : {type(value)}.")


class TCPStore:
    """Mirrors `mindspore.mint.distributed.TCPStore`: `is_master=True` serves the store on
    (`host_name`, `port`) and, with `wait_for_workers`, waits for `world_size` stores to
    connect; every store (the master's too) talks to it over TCP."""

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=timedelta(seconds=300), wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True):
        _check("TCPStore", "host_name", host_name, (str,), "string")
        _check("TCPStore", "port", port, (int,), "int")
        _check("TCPStore", "is_master", is_master, (bool,), "bool")
        _check("TCPStore", "timeout", timeout, (timedelta,), "timedelta")
        _check("TCPStore", "wait_for_workers", wait_for_workers, (bool,), "bool")
        world_size = 1 if world_size is None else world_size
        _check("TCPStore", "world_size", world_size, (int,), "int")
        if port < 0 or port > 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(f"For 'TCPStore', the argument 'world_size' must be legal, but got "
                             f"{world_size}.")
        self.host, self.port, self.timeout = host_name, port, timeout.total_seconds()
        self._server = None
        if is_master:
            self._server = _Server((host_name, port), _Handler)
            self._server.state = _State()
            threading.Thread(target=self._server.serve_forever, daemon=True,
                             name="cellgrad-TCPStore").start()
        self._sock = self._connect()
        self._lock = threading.Lock()
        self._call(_HELLO, "")
        if is_master and wait_for_workers:
            state = self._server.state
            with state.changed:
                if not state.changed.wait_for(lambda: state.clients >= world_size,
                                              timeout=self.timeout):
                    raise RuntimeError(f"For 'TCPStore', {state.clients} of {world_size} stores "
                                       f"connected within {self.timeout:g} s.")

    def _connect(self):
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return socket.create_connection((self.host, self.port), timeout=None)
            except OSError as exc:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"For 'TCPStore', no store server answered on "
                                       f"{self.host}:{self.port} within {self.timeout:g} s: "
                                       f"{exc}") from None
                time.sleep(0.05)

    def _call(self, command, key, value=b""):
        with self._lock:
            _send(self._sock, command, key.encode(), value, struct.pack("!d", self.timeout))
            status, answer = _recv(self._sock, 2)
        if status != _OK:
            raise RuntimeError(answer.decode())
        return answer

    def add(self, key, amount):
        """Add `amount` to the integer at `key` (0 when absent); the new value."""
        _check("TCPStore.add", "key", key, (str,), "string")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"For 'TCPStore.add', the argument 'amount' must be type of string "
                            f"or int, but got 'amount' type : {type(amount)}.")
        return int(self._call(_ADD, key, str(amount).encode()))

    def set(self, key, value):
        """Store `value` (str or bytes) at `key`."""
        _check("TCPStore.set", "key", key, (str,), "string")
        if not isinstance(value, (str, bytes)):
            raise TypeError(f"For 'TCPStore.set', the argument 'value' must be type of string or "
                            f"bytes, but got 'value' type : {type(value)}.")
        self._call(_SET, key, value.encode() if isinstance(value, str) else value)

    def get(self, key):
        """The bytes at `key`, waiting for it up to the store's timeout."""
        _check("TCPStore.get", "key", key, (str,), "string")
        return self._call(_GET, key)

    def delete_key(self, key):
        """Remove `key`: True if it was there."""
        _check("TCPStore.delete_key", "key", key, (str,), "string")
        return self._call(_DELETE, key) == b"1"
