"""cellgrad's checksum (`integrity.Sum64`) and the CRC-32 of zero runs."""

import zlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cellgrad_checkpoint import integrity

PIECE = integrity.PIECE


def test_pieces_give_the_same_digest_as_the_whole():
    data = np.random.default_rng(0).integers(0, 256, 2 * PIECE + 12345, dtype=np.uint8)
    whole = integrity.sum64(data)
    s = integrity.Sum64()
    for start in range(0, data.size, PIECE):
        s.update(data[start:start + PIECE])
    assert s.digest() == whole


@settings(max_examples=200, deadline=None)
@given(size=st.integers(1, 40000), where=st.integers(0, 10**9), bit=st.integers(0, 7))
def test_every_single_bit_flip_changes_the_digest(size, where, bit):
    data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)
    flipped = data.copy()
    flipped[where % size] ^= 1 << bit
    assert integrity.sum64(flipped) != integrity.sum64(data)


def test_length_order_and_places_matter():
    words = np.arange(1, 2049, dtype="<u8")
    data = words.view(np.uint8)
    swapped = words.copy()
    swapped[[3, 700]] = swapped[[700, 3]]  # two words of one row trade places
    assert integrity.sum64(swapped.view(np.uint8)) != integrity.sum64(data)
    assert integrity.sum64(b"") != integrity.sum64(bytes(8))  # trailing zeros count
    big = np.zeros(2 * PIECE, np.uint8)
    big[0] = big[PIECE + 1] = 1
    moved = np.zeros(2 * PIECE, np.uint8)
    moved[1] = moved[PIECE] = 1  # the same bytes in another piece's place
    assert integrity.sum64(big) != integrity.sum64(moved)


@settings(max_examples=50, deadline=None)
@given(count=st.integers(0, 100000), crc=st.integers(0, 2**32 - 1))
def test_crc32_of_zero_runs(count, crc):
    assert integrity.crc32_zeros(count, crc) == zlib.crc32(bytes(count), crc)
