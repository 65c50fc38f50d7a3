"""Reading a .ckpt file into `Entry`s: scan the records, check them all, then read the data.

Pass one (`ckpt_scan`) finds every record without reading tensor data; everything is checked
before any large allocation: names, types, shapes against data lengths, chunk sequences,
cellgrad's header and footer. Pass two reads each selected tensor's bytes straight into its
final array (`readinto`; with a footer to check, in 4 MiB pieces that are checksummed while
in cache, on as many threads as there are idle cores: `piece_reader`). Files with the legacy
footer (b"CGCKPTF1") are verified with the legacy `Sum64` the same way.

What is verified: the structure always; with cellgrad's header and footer (files cellgrad
writes), the length of the file and every entry's checksum; a CRC trailer when `crc_check`
is set or when the file has no footer to check instead.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

import numpy as np

from cellgrad_checkpoint import crypto, integrity, piece_reader
from cellgrad_checkpoint.ckpt_scan import Scan
from cellgrad_checkpoint.dtypes import FILE_DTYPES, INT4, STR
from cellgrad_checkpoint.entry import Entry
from cellgrad_checkpoint.errors import CheckpointError, WireError, warn
from cellgrad_checkpoint.sources import FileSource, MemorySource, check_regular

_SMALL_RECORD = 1 << 16


def read_ckpt(path: str, *, dec_key: Optional[bytes] = None, dec_mode: str = "AES-GCM",
              crc_check: bool = False,
              select: Optional[Callable[[str], bool]] = None) -> Dict[str, Entry]:
    """The entries of a .ckpt file by name, in file order (a later duplicate replaces an
    earlier one in its place, adjacent records of one tag are one chunked tensor)."""
    check_regular(path)
    with open(path, "rb", buffering=0) as f:
        source = FileSource(f)
        if source.size == 0:
            raise CheckpointError(path, "the file is empty (0 bytes)", offset=0)
        magic = source.pread(0, min(4, source.size))
        if dec_key is not None or crypto.is_cipher(magic):
            if dec_key is None:
                raise CheckpointError(path, f"the file is encrypted ({crypto.mode_of(magic)}); "
                                            f"pass its key as dec_key", offset=0)
            source = MemorySource(crypto.decrypt_file(path, source, dec_key, dec_mode))
        try:
            return _Reader(path, source, crc_check).read(select)
        except WireError as e:
            raise CheckpointError(path, e.problem, offset=e.offset, entry=e.entry) from None


class _Group:
    """Adjacent records of one tag: one tensor."""

    __slots__ = ("name", "records", "selected", "dest")

    def __init__(self, name, record):
        self.name = name
        self.records = [record]
        self.selected = False
        self.dest = None


class _Reader:
    def __init__(self, path, source, crc_check):
        self.path = path
        self.source = source
        self.crc_check = crc_check
        self.body_end = source.size
        self.crc = None  # the CRC from the trailer
        self.footer = None  # (entry checksums, footer offset)
        self.scheme = integrity.XXH3  # or integrity.LEGACY_SUM64, as the footer says
        self.executor = None  # the thread that checksums pieces while the next one is read
        self.checks = []  # (record, non-data bytes, data hash) to compare with the footer

    def fail(self, problem, offset=None, entry=None):
        return CheckpointError(self.path, problem, offset=offset, entry=entry)

    def read(self, select):
        self._check_length()
        self._find_trailer()
        self._find_footer()
        scan = Scan(self.source, self.records_end)
        self._check_marks(scan)
        if not scan.records and scan.header is None:
            raise self.fail("the file holds no checkpoint entries: it is not a checkpoint", 0)
        groups = self._groups(scan.records)
        for group in groups:
            group.selected = select is None or select(group.name)
            if group.selected:
                group.dest = np.empty(sum(r.data_len for r in group.records), np.uint8)
        verified = sum(g.dest.size for g in groups if g.selected) if self.footer else 0
        with integrity.summing_thread(verified) as executor:
            self.executor = executor
            self._read_data(scan.records, groups)
        entries = {}
        for group in groups:
            if group.selected:
                entries[group.name] = self._entry(group)
        return entries

    # ---- what surrounds the records ----
    def _check_length(self):
        """A file of cellgrad's cut anywhere: say so before its records are parsed."""
        size = integrity.HEADER_SIZE
        if self.source.size >= size:
            head = self.source.pread(0, size)
            key = len(integrity.HEADER_KEY) + 1
            if head[:key] == integrity.HEADER_KEY + bytes([integrity.HEADER_PAYLOAD]):
                parsed = integrity.parse_header(head[key:])
                if parsed is not None and parsed[0] != self.source.size:
                    raise self.fail(f"the file is {self.source.size} bytes long but its header "
                                    f"says {parsed[0]}: it was truncated or extended",
                                    min(parsed[0], self.source.size))

    def _find_trailer(self):
        size = self.source.size
        if size >= integrity.CRC_TRAILER:
            tail = self.source.pread(size - integrity.CRC_TRAILER, integrity.CRC_TRAILER)
            if tail[:7] == integrity.CRC_MAGIC:
                self.crc = int.from_bytes(tail[7:], "big")
                self.body_end = size - integrity.CRC_TRAILER
        if self.crc_check and self.crc is None:
            warn("For 'load_checkpoint', the ckpt file do not contain the crc code, please "
                 "check the file.")

    def _find_footer(self):
        self.records_end = self.body_end
        if self.body_end < integrity.FOOTER_TAIL:
            return
        at = self.body_end - integrity.FOOTER_TAIL
        tail = integrity.parse_footer_tail(self.source.pread(at, integrity.FOOTER_TAIL))
        if tail is None:
            return
        count, offset, self_sum, magic = tail
        if offset > at or integrity.footer_size(count) != self.body_end - offset:
            raise self.fail("cellgrad's footer is damaged (its sizes do not add up)", at)
        start = self.body_end - integrity.FOOTER_TAIL - 8 * count
        if self.source.pread(offset, start - offset) != integrity.footer_key(count):
            raise self.fail("cellgrad's footer is damaged (its field key)", offset)
        sums = self.source.pread(start, 8 * count)
        head = self.source.pread(0, min(integrity.HEADER_SIZE, self.source.size))
        if not integrity.footer_checksums_ok(sums, count, offset, self_sum, magic, head):
            key = integrity.HEADER_KEY + bytes([integrity.HEADER_PAYLOAD])
            if not head.startswith(key):
                raise self.fail("the file ends with cellgrad's footer but its header is missing "
                                "or damaged", 0)
            if not head[len(key):].startswith(integrity.HEADER_MAGIC):
                raise self.fail("cellgrad's header is damaged", 0)
            raise self.fail("cellgrad's header or footer is damaged (they do not match the "
                            "footer's hash)", at)
        self.footer = (np.frombuffer(sums, "<u8").tolist(), offset)
        self.scheme = integrity.SCHEMES[magic]
        self.records_end = offset

    def _check_marks(self, scan):
        if scan.header is None:
            if self.footer is not None:
                raise self.fail("the file ends with cellgrad's footer but its header is missing "
                                "or damaged", 0)
            return
        total, count = scan.header
        if total != self.source.size:
            raise self.fail(f"the file is {self.source.size} bytes long but its header says "
                            f"{total}: it was truncated or extended", min(total, self.source.size))
        if self.footer is None:
            raise self.fail("cellgrad's footer is missing or damaged", self.body_end)
        if count != len(scan.records) or count != len(self.footer[0]) or scan.unknown_bytes:
            raise self.fail(f"the header announces {count} entries, the file holds "
                            f"{len(scan.records)} and {scan.unknown_bytes} unknown bytes", 0)

    # ---- records into tensors ----
    def _groups(self, records) -> List[_Group]:
        groups: List[_Group] = []
        for record in records:
            self._check_record(record)
            if groups and groups[-1].name == record.tag:
                first = groups[-1].records[0]
                if (record.tensor_type, record.dims) != (first.tensor_type, first.dims):
                    raise self.fail(f"a chunk declares {record.tensor_type} {_short(record.dims)}, "
                                    f"the first chunk {first.tensor_type} {_short(first.dims)}",
                                    record.start, record.tag)
                groups[-1].records.append(record)
            else:
                groups.append(_Group(record.tag, record))
        for group in groups:
            self._check_size(group)
        return groups

    def _check_record(self, r):
        if r.tag is None:
            raise self.fail("an entry has no name (tag)", r.start)
        if r.maptensor and not r.has_tensor:
            raise self.fail("the entry holds a MapTensor (MindSpore's MapParameter), which "
                            "cellgrad does not support", r.start, r.tag)
        if not r.has_tensor:
            raise self.fail("the entry holds no tensor", r.start, r.tag)
        if r.tensor_type is None:
            raise self.fail("the entry has no tensor_type", r.start, r.tag)
        if r.tensor_type == INT4:
            raise self.fail("Int4 (qint4x2) tensors are not supported by cellgrad",
                            r.start, r.tag)
        if r.tensor_type != STR and r.tensor_type not in FILE_DTYPES:
            raise self.fail(f"unknown tensor_type {r.tensor_type!r}", r.start, r.tag)
        if any(d < 0 for d in r.dims):
            raise self.fail(f"negative dimension in shape {_short(r.dims)}", r.start, r.tag)

    def _check_size(self, group):
        r = group.records[-1]
        have = sum(x.data_len for x in group.records)
        if r.tensor_type == STR:
            if r.dims != [0] or have % 4:
                raise self.fail(f"a str entry needs dims [0] and a multiple of 4 bytes, got dims "
                                f"{_short(r.dims)} and {have} bytes", r.start, r.tag)
            return
        item = FILE_DTYPES[r.tensor_type].itemsize
        need = item * int(np.prod(r.dims, dtype=object)) if r.dims else item
        if r.dims == [0] and have == item:  # MindSpore reads dims [0] as a 0-d tensor
            need = item
        if have != need:
            raise self.fail(f"the data is {have} bytes, but shape {_short(tuple(r.dims))} of "
                            f"{r.tensor_type} needs {need}", r.start, r.tag)

    def _entry(self, group):
        r = group.records[-1]
        if r.tensor_type == STR:
            try:
                text = group.dest.tobytes().decode("utf-32-le")
            except UnicodeDecodeError:
                raise self.fail("the str entry is not valid UTF-32", r.start, r.tag) from None
            return Entry(group.name, STR, (), text.rstrip("\x00"))  # as numpy's 'U' dtype
        shape = tuple(r.dims)
        if r.dims == [0] and group.dest.size:
            shape = ()
        try:
            data = group.dest.view(FILE_DTYPES[r.tensor_type]).reshape(shape)
        except ValueError as e:  # a shape numpy cannot represent, e.g. (0, 2**62)
            raise self.fail(f"shape {_short(r.dims)} cannot be an array ({e})", r.start,
                            r.tag) from None
        return Entry(group.name, r.tensor_type, shape, data)

    # ---- pass two: the data, in file order ----
    def _read_data(self, records, groups):
        where = {}
        for group in groups:
            offset = 0
            for r in group.records:
                if group.selected:
                    where[r.index] = group.dest[offset:offset + r.data_len]
                offset += r.data_len
        whole = self.crc is not None and (self.crc_check or self.footer is None)
        if not whole:
            self._read_pieces(records, where, verify=self.footer is not None)
            return
        crc = 0
        pos = 0
        scratch = np.empty(min(integrity.PIECE, self.source.size), np.uint8) if whole else None
        for r in records:
            dest = where.get(r.index)
            if dest is None and not whole:
                continue
            if whole:
                crc = integrity.crc32(self.source.pread(pos, r.start - pos), crc)
            crc = self._read_record(r, dest, scratch, crc, whole)
            pos = r.end
        for r, head, data_sum in self.checks:
            self._verify(r, head, data_sum.digest())
        if whole:
            crc = integrity.crc32(self.source.pread(pos, self.body_end - pos), crc)
            if crc != self.crc:
                raise self.fail(f"the CRC-32 of the body is {crc}, its trailer says {self.crc}: "
                                f"the file is damaged", self.body_end)

    def _read_pieces(self, records, where, verify):
        """Each selected record read (and with `verify` checked against the footer); large
        ones in pieces on as many threads as there are idle cores (`piece_reader`)."""
        large = []
        for r in records:
            dest = where.get(r.index)
            if dest is None:
                continue
            if r.end - r.start <= _SMALL_RECORD:
                self._read_record(r, dest, None, 0, False)
            else:
                head = b""
                if verify:
                    data_end = r.data_start + r.data_len
                    head = self.source.pread(r.start, r.data_start - r.start) \
                        + self.source.pread(data_end, r.end - data_end)
                large.append((r, head, dest))
        helpers = integrity.helper_threads(sum(r.data_len for r, _, _ in large))
        if not (verify or helpers):  # one read per tensor
            for r, _, dest in large:
                self.source.readinto(r.data_start, dest)
            return
        digests = piece_reader.read_and_sum(
            self.source, [(r.data_start, dest) for r, _, dest in large], helpers,
            self.scheme if verify else None)
        if verify:
            for (r, head, _), digest in zip(large, digests):
                self._verify(r, head, digest)

    def _read_record(self, r, dest, scratch, crc, whole):
        verify = self.footer is not None and dest is not None
        data_end = r.data_start + r.data_len
        if r.end - r.start <= _SMALL_RECORD:
            raw = self.source.pread(r.start, r.end - r.start)
            head = raw[:r.data_start - r.start] + raw[data_end - r.start:]
            data = np.frombuffer(raw, np.uint8)[r.data_start - r.start:data_end - r.start]
            if dest is not None:
                dest[:] = data
            crc = integrity.crc32(raw, crc) if whole else crc
            if verify:
                data_hash = self.scheme.stream()
                data_hash.update(data)
                self._verify(r, head, data_hash.digest())
            return crc
        # a large record comes here only in a CRC pass (`_read_pieces` reads the others)
        before = self.source.pread(r.start, r.data_start - r.start)
        after = self.source.pread(data_end, r.end - data_end)
        crc = integrity.crc32(before, crc) if whole else crc
        data_sum = self.scheme.stream()
        for start in range(0, r.data_len, integrity.PIECE):
            n = min(integrity.PIECE, r.data_len - start)
            piece = dest[start:start + n] if dest is not None else scratch[:n]
            self.source.readinto(r.data_start + start, piece)
            if whole:
                crc = integrity.crc32(piece, crc)
            if verify:
                data_sum.update(piece, self.executor)
        crc = integrity.crc32(after, crc) if whole else crc
        if verify:
            self.checks.append((r, before + after, data_sum))
        return crc

    def _verify(self, r, head, data_digest):
        checksums, _ = self.footer
        if r.index >= len(checksums) or \
                self.scheme.entry(self.scheme.head(head), data_digest) != checksums[r.index]:
            raise self.fail(f"the entry's bytes {r.start}..{r.end} do not match its checksum in "
                            f"cellgrad's footer: the file is corrupted", r.start, r.tag)


def _short(dims) -> str:
    """A shape for a message: a hostile file's million dimensions are not all printed."""
    if len(dims) <= 8:
        return str(dims)
    return f"[{', '.join(map(str, dims[:4]))}, ... ({len(dims)} dimensions)]"
