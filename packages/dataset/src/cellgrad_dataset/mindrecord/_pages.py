"""Laying rows out in the pages of one shard file, as MindSpore's shard writer does (so the
files match byte for byte): rows are cut into row groups, each group's blobs fill one blob page
and its raw rows sit together in one raw page; a raw page holds several groups."""

import os
import struct

from cellgrad_dataset.mindrecord import _msgpack

BLOB, RAW = "BLOB_DATA", "RAW_DATA"
_LEN = struct.Struct("<Q")


class ShardPages:
    """The pages of one shard file being written through the file descriptor `fd`."""

    def __init__(self, fd, header_size, page_size, pages=()):
        self.fd, self.header_size, self.page_size = fd, header_size, page_size
        self.pages = [dict(p, row_group_ids=list(p["row_group_ids"])) for p in pages]

    def _last(self, kind):
        return next((p for p in reversed(self.pages) if p["page_type"] == kind), None)

    def _write(self, page_id, offset, data):
        os.pwrite(self.fd, data, self.header_size + page_id * self.page_size + offset)

    def _read(self, page_id, offset, n):
        return os.pread(self.fd, n, self.header_size + page_id * self.page_size + offset)

    def _new_page(self, kind, type_id, start_row, end_row, size, groups):
        page = {"page_id": len(self.pages), "page_type": kind, "page_type_id": type_id,
                "start_row_id": start_row, "end_row_id": end_row, "page_size": size,
                "row_group_ids": groups}
        self.pages.append(page)
        return page

    def add(self, raws, blobs):
        """Appends rows: `raws` and `blobs` are each row's raw (MessagePack) and blob bytes."""
        if not raws:
            return
        raws = [_LEN.pack(len(r)) + r for r in raws]
        blobs = [_LEN.pack(len(b)) + b for b in blobs]
        limit = self.page_size
        if max(max(map(len, raws)), max(map(len, blobs))) > limit:
            raise RuntimeError(f"Invalid data, a row ({max(map(len, raws))} raw bytes, "
                               f"{max(map(len, blobs))} blob bytes) does not fit in a page of "
                               f"{limit} bytes; call 'set_page_size' with a larger size.")
        groups = self._cut(raws, blobs)
        self._fill_last_blob_page(blobs, groups[0])
        self._new_blob_pages(blobs, groups[1:])
        self._shift_raw_page(raws, groups[0])
        self._write_raw(raws, groups)

    def _cut(self, raws, blobs):
        last_blob, last_raw = self._last(BLOB), self._last(RAW)
        n_blob = last_blob["page_size"] if last_blob else 0
        n_raw = last_raw["page_size"] - last_raw["row_group_ids"][-1][1] if last_raw else 0
        groups, start = [], 0
        for i, (raw, blob) in enumerate(zip(raws, blobs)):
            if n_blob == 0 or n_blob + len(blob) > self.page_size \
                    or n_raw + len(raw) > self.page_size:
                groups.append((start, i))
                start, n_blob, n_raw = i, len(blob), len(raw)
            else:
                n_blob, n_raw = n_blob + len(blob), n_raw + len(raw)
        groups.append((start, len(raws)))
        return groups

    def _fill_last_blob_page(self, blobs, group):
        if group[0] == group[1]:
            return
        page = self._last(BLOB)
        data = b"".join(blobs[group[0]:group[1]])
        self._write(page["page_id"], page["page_size"], data)
        page["page_size"] += len(data)
        page["end_row_id"] += group[1] - group[0]

    def _new_blob_pages(self, blobs, groups):
        last = self._last(BLOB)
        type_id = last["page_type_id"] if last else -1
        row = last["end_row_id"] if last else 0
        for start, end in groups:
            data = b"".join(blobs[start:end])
            type_id += 1
            page = self._new_page(BLOB, type_id, row, row + end - start, len(data), [])
            self._write(page["page_id"], 0, data)
            row += end - start

    def _shift_raw_page(self, raws, group):
        """Moves the last row group of the last raw page to a new page when the rows that
        continue it no longer fit there."""
        if group[0] == group[1]:
            return
        last = self._last(RAW)
        size = sum(map(len, raws[group[0]:group[1]]))
        if size + last["page_size"] <= self.page_size:
            return
        group_id, offset = last["row_group_ids"].pop()
        moved = self._read(last["page_id"], offset, last["page_size"] - offset)
        last["page_size"] = offset
        page = self._new_page(RAW, last["page_id"] + 1, 0, 0, len(moved), [(group_id, 0)])
        self._write(page["page_id"], 0, moved)

    def _write_raw(self, raws, groups):
        page = self._last(RAW)
        group_id = page["row_group_ids"][-1][0] if page else -1
        for k, (start, end) in enumerate(groups):
            if start == end:
                continue
            data = b"".join(raws[start:end])
            if page is None or page["page_size"] + len(data) > self.page_size:
                page = self._new_page(RAW, page["page_id"] + 1 if page else 0, 0, 0, 0, [])
            if k > 0:
                group_id += 1
                page["row_group_ids"].append((group_id, page["page_size"]))
            self._write(page["page_id"], page["page_size"], data)
            page["page_size"] += len(data)

    def index_rows(self, index_fields):
        """Yields each row's index entry (row id, raw page, raw start, raw end, row group, blob
        page, blob start, blob end, {index field: value}), read back from the file."""
        blob_pages = {p["page_type_id"]: p for p in self.pages if p["page_type"] == BLOB}
        for raw_page in self.pages:
            if raw_page["page_type"] != RAW:
                continue
            data = self._read(raw_page["page_id"], 0, raw_page["page_size"])
            for group_id, offset in raw_page["row_group_ids"]:
                blob_page = blob_pages[group_id]
                blob_offset = 0
                for row_id in range(blob_page["start_row_id"], blob_page["end_row_id"]):
                    (n,) = _LEN.unpack_from(data, offset)
                    raw = _msgpack.unpack(data[offset + 8:offset + 8 + n])
                    (m,) = _LEN.unpack(self._read(blob_page["page_id"], blob_offset, 8))
                    yield (row_id, raw_page["page_id"], offset, offset + 8 + n,
                           blob_page["page_type_id"], blob_page["page_id"], blob_offset,
                           blob_offset + 8 + m, {f: raw.get(f) for f in index_fields})
                    offset += 8 + n
                    blob_offset += 8 + m
