"""Encrypted checkpoints as MindSpore 2.10 writes them (`enc_key`/`dec_key`), on `cryptography`.

The plain body (exactly what an unencrypted save writes) is cut into 64 MiB blocks and each
block becomes one frame; integers are 4-byte little-endian:

    AES-GCM: magic D8 5E 3A 7F | GCM tag[16] | block_len | iv_len=16 | iv[16] | cipher_len | data
    AES-CBC: magic D9 5E 3A 7F | block_len | iv_len=16 | iv[16] | cipher_len | data (PKCS#7)
    SM4-CBC: magic DA 5E 3A 7F | the same as AES-CBC

`block_len = 8 + iv_len + cipher_len`; GCM uses the first 12 bytes of the IV as its nonce and
no associated data. `cryptography` is the optional extra `cellgrad-checkpoint[crypto]`.
"""

from __future__ import annotations

import os
import struct

from cellgrad_checkpoint.errors import CheckpointError

BLOCK = 64 * 1024 * 1024
MAGICS = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
_MODE_OF = {struct.pack("<I", m): mode for mode, m in MAGICS.items()}
_IV_LEN = 16


def is_cipher(first4: bytes) -> bool:
    return first4 in _MODE_OF


def mode_of(first4: bytes) -> str:
    return _MODE_OF.get(first4, "not encrypted")


def check_key(what: str, key, mode: str) -> None:
    """MindSpore's rules for `enc_key`/`dec_key` and the mode, with clearer errors."""
    if mode not in MAGICS:
        raise ValueError(f"For '{what}', the mode must be one of {', '.join(MAGICS)}, but got "
                         f"{mode!r}.")
    lengths = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in lengths:
        raise ValueError(f"For '{what}', the key for {mode} must be "
                         f"{' or '.join(map(str, lengths))} bytes long, but got {len(key)} bytes.")
    _backend()


def _backend():
    try:
        from cryptography.hazmat.primitives import ciphers
        from cryptography.hazmat.primitives.ciphers import aead
    except ImportError:
        raise ImportError("Encrypted checkpoints (enc_key/dec_key) need the 'cryptography' "
                          "package: pip install 'cellgrad-checkpoint[crypto]'") from None
    return ciphers, aead


def encrypt_block(plain: bytes, key: bytes, mode: str) -> bytes:
    ciphers, aead = _backend()
    iv = os.urandom(_IV_LEN)
    if mode == "AES-GCM":
        sealed = aead.AESGCM(key).encrypt(iv[:12], plain, None)
        data, tag = sealed[:-16], sealed[-16:]
        return struct.pack("<I", MAGICS[mode]) + tag + _frame_tail(iv, data)
    encryptor = ciphers.Cipher(_algorithm(ciphers, key, mode), ciphers.modes.CBC(iv)).encryptor()
    data = encryptor.update(_pkcs7(plain)) + encryptor.finalize()
    return struct.pack("<I", MAGICS[mode]) + _frame_tail(iv, data)


def _pkcs7(plain: bytes) -> bytes:
    n = 16 - len(plain) % 16
    return bytes(plain) + bytes([n]) * n


def _algorithm(ciphers, key, mode):
    algorithms = ciphers.algorithms
    return algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)


def _frame_tail(iv: bytes, data: bytes) -> bytes:
    return struct.pack("<ii", 8 + _IV_LEN + len(data), _IV_LEN) + iv \
        + struct.pack("<i", len(data)) + data


class FrameWriter:
    """A sink that encrypts what is written to it in 64 MiB blocks, frame by frame."""

    def __init__(self, raw, key: bytes, mode: str):
        self.raw = raw
        self.key = key
        self.mode = mode
        self.buf = bytearray()

    def write(self, data) -> None:
        data = memoryview(data).cast("B")
        while len(data):
            take = min(BLOCK - len(self.buf), len(data))
            self.buf += data[:take]
            data = data[take:]
            if len(self.buf) == BLOCK:
                self._flush()

    def _flush(self):
        self.raw.write(encrypt_block(bytes(self.buf), self.key, self.mode))
        self.buf = bytearray()

    def close(self) -> None:
        if self.buf:
            self._flush()


def decrypt_file(path: str, source, key: bytes, mode: str) -> bytearray:
    """The plain body of an encrypted file, every frame checked before it is read."""
    check_key("load_checkpoint", key, mode)
    ciphers, aead = _backend()
    want = struct.pack("<I", MAGICS[mode])
    plain = bytearray()
    pos = 0
    while pos < source.size:
        fixed = 4 + (16 if mode == "AES-GCM" else 0) + 8
        if source.size - pos < fixed:
            raise CheckpointError(path, "the file ends inside an encrypted frame's header", pos)
        head = source.pread(pos, fixed)
        if head[:4] != want:
            raise CheckpointError(path, f"expected an {mode} frame, found "
                                        f"{mode_of(head[:4])} data: wrong dec_mode, or the file "
                                        f"is damaged", pos)
        tag = head[4:20] if mode == "AES-GCM" else None
        block_len, iv_len = struct.unpack("<ii", head[-8:])
        rest = block_len - 4  # iv, cipher_len and the data
        if iv_len != _IV_LEN or rest < _IV_LEN + 4 or pos + fixed + rest > source.size:
            raise CheckpointError(path, f"an encrypted frame declares {block_len} bytes with a "
                                        f"{iv_len}-byte IV, which does not fit the file", pos)
        body = source.pread(pos + fixed, rest)
        iv, (cipher_len,) = body[:_IV_LEN], struct.unpack("<i", body[_IV_LEN:_IV_LEN + 4])
        data = body[_IV_LEN + 4:]
        if cipher_len != len(data):
            raise CheckpointError(path, "an encrypted frame's lengths disagree", pos)
        plain += _decrypt(path, pos, mode, key, iv, tag, data, ciphers, aead)
        pos += fixed + rest
    return plain


def _decrypt(path, pos, mode, key, iv, tag, data, ciphers, aead):
    wrong = ("cannot decrypt the frame: wrong dec_key, or the file was damaged or tampered "
             "with")
    if mode == "AES-GCM":
        from cryptography.exceptions import InvalidTag

        try:
            return aead.AESGCM(key).decrypt(iv[:12], data + tag, None)
        except InvalidTag:
            raise CheckpointError(path, wrong, pos) from None
    if len(data) % 16:
        raise CheckpointError(path, "an encrypted CBC frame is not a whole number of blocks", pos)
    decryptor = ciphers.Cipher(_algorithm(ciphers, key, mode), ciphers.modes.CBC(iv)).decryptor()
    padded = decryptor.update(data) + decryptor.finalize()
    n = padded[-1] if padded else 0
    if not 1 <= n <= 16 or padded[-n:] != bytes([n]) * n:
        raise CheckpointError(path, wrong, pos)
    return padded[:-n]
