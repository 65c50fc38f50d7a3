"""A 4 MiB piece read and hashed in parts (`piece_reader.PART`) while each is in cache: the
digest is the whole piece's XXH3-64 (the file format does not change), from files and from
memory, for any piece length, and damage in any part is still found."""

import os

import numpy as np
import pytest
import xxhash

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad_checkpoint import integrity, piece_reader
from cellgrad_checkpoint.sources import FileSource, MemorySource


@pytest.mark.parametrize("length", [1, piece_reader.PART - 1, piece_reader.PART,
                                    3 * piece_reader.PART + 17, integrity.PIECE])
def test_a_piece_read_in_parts_has_the_whole_pieces_hash(tmp_path, length):
    data = np.random.default_rng(length).integers(0, 256, length + 100, np.uint8)
    path = tmp_path / "blob"
    data.tofile(path)
    with open(path, "rb", buffering=0) as f:
        for source in (FileSource(f), MemorySource(data.tobytes())):
            dest = np.empty(length, np.uint8)
            digest = piece_reader._read_hashing(source, 100, memoryview(dest))
            assert digest == xxhash.xxh3_64_intdigest(data[100:].tobytes())
            np.testing.assert_array_equal(dest, data[100:])


def test_read_and_sum_gives_each_jobs_data_hash(tmp_path):
    data = np.random.default_rng(0).integers(0, 256, 2 * integrity.PIECE + 5, np.uint8)
    path = tmp_path / "blob"
    data.tofile(path)
    dests = [np.empty(integrity.PIECE + 3, np.uint8), np.empty(integrity.PIECE + 2, np.uint8)]
    with open(path, "rb", buffering=0) as f:
        got = piece_reader.read_and_sum(FileSource(f), [(0, dests[0]), (dests[0].size, dests[1])],
                                        0)
    assert got == [integrity.data_hash(data[:dests[0].size]),
                   integrity.data_hash(data[dests[0].size:])]
    np.testing.assert_array_equal(np.concatenate(dests), data)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1)
        self.w = Parameter(Tensor(rng.standard_normal((1100, 1024), dtype=np.float32)),
                           name="w")


def test_a_flipped_bit_in_a_late_part_of_a_piece_is_found(tmp_path):
    path = str(tmp_path / "m.ckpt")
    ms.save_checkpoint(Net(), path)
    np.testing.assert_array_equal(ms.load_checkpoint(path)["w"].asnumpy(), Net().w.asnumpy())
    with open(path, "r+b") as f:  # a byte in a late part of the first 4 MiB piece
        at = os.path.getsize(path) // 2 + 3 * piece_reader.PART + 1
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 0x10]))
    with pytest.raises(Exception, match="do not match its checksum"):
        ms.load_checkpoint(path)
