"""Mirrors `mindspore.hal.contiguous_tensors_handle`: a list of Tensors seen as one flat,
contiguous 1-D buffer.

On MindSpore's CPU backend there is no alignment padding: the buffer is the tensors' values,
flattened, one after the other. cellgrad reads the tensors when the handle is sliced, so a later
in-place write to one of them shows through the handle, as MindSpore's shared memory does.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor

__all__ = ["ContiguousTensorsHandle", "combine_tensor_list_contiguous"]


def combine_tensor_list_contiguous(tensor_list, enable_mem_align=True):
    """Mirrors `hal.contiguous_tensors_handle.combine_tensor_list_contiguous`."""
    return ContiguousTensorsHandle(tensor_list, enable_mem_align)


class ContiguousTensorsHandle:
    """Mirrors `hal.contiguous_tensors_handle.ContiguousTensorsHandle(tensor_list,
    enable_mem_align=True)`: `handle[i]` / `handle[a:b]` slice the flat buffer (in elements of
    the first tensor's dtype), `slice_by_tensor_index(start, end)` joins whole tensors."""

    def __init__(self, tensor_list, enable_mem_align=True):
        if not isinstance(tensor_list, (list, tuple)) or \
                not all(isinstance(t, TensorBuffer) for t in tensor_list):
            raise TypeError("input list must be [Tensor, ...].")
        if not isinstance(enable_mem_align, bool):
            raise TypeError("enable_mem_align must be bool.")
        self.tensor_list = tuple(tensor_list)
        sizes = [int(t.asnumpy().nbytes) for t in self.tensor_list]
        self.before_padding_sizes = list(sizes)
        self.after_padding_sizes = list(sizes)
        self.total_padding_size = sum(sizes)
        itemsize = self.tensor_list[0].asnumpy().itemsize if self.tensor_list else 1
        self.handle_shape = self.total_padding_size / itemsize
        self.enable_mem_align = enable_mem_align

    def _flat(self, start, end):
        dtype = self.tensor_list[0].asnumpy().dtype
        flat = np.concatenate([t.asnumpy().reshape(-1).view(np.uint8)
                               for t in self.tensor_list]).view(dtype)
        return make_tensor(np.ascontiguousarray(flat[start:end]))

    def __getitem__(self, item):
        start, end = 0, int(self.handle_shape)
        if isinstance(item, slice):
            if item.start is not None:
                start = item.start
            if item.stop is not None:
                end = item.stop
            if not isinstance(start, int) or not isinstance(end, int):
                raise TypeError("slice input error.")
            if start < 0 or end > self.handle_shape or start >= end:
                raise ValueError("slice input error.")
            return self._flat(start, end)
        if not isinstance(item, int):
            raise TypeError("slice input must be 1.index -> int.2.[start: end: step] -> "
                            "[int: int: int].")
        if item < 0 or item > self.handle_shape:
            raise ValueError("slice input is out of tensor_list size.")
        return self._flat(item, item + 1)

    def __str__(self):
        lines = [f"Handle total size: {self.total_padding_size}"]
        lines += [f"Tensor[{i}]: {t.asnumpy()}" for i, t in enumerate(self.tensor_list)]
        return "\n".join(lines) + "\n"

    def slice_by_tensor_index(self, start=None, end=None):
        """The tensors `start` to `end` (exclusive; `end` defaults to `start + 1`, or all when
        both are None) flattened into one 1-D Tensor."""
        index_start, index_end = 0, len(self.tensor_list)
        if start is not None:
            index_start = start
            if end is None:
                index_end = index_start + 1
        if end is not None:
            index_end = end
        if not isinstance(index_start, int) or not isinstance(index_end, int):
            raise TypeError("slice input error.")
        if index_start < 0 or index_end > len(self.tensor_list) or index_start >= index_end:
            raise ValueError("slice input error.")
        parts = [t.asnumpy().reshape(-1) for t in self.tensor_list[index_start:index_end]]
        return make_tensor(np.ascontiguousarray(np.concatenate(parts)))
