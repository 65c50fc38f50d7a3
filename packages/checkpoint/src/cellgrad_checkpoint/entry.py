"""`Entry`: one named value of a checkpoint, in the file's own terms."""

from __future__ import annotations

from typing import NamedTuple, Tuple, Union

import numpy as np

from cellgrad_checkpoint.dtypes import STR


class Entry(NamedTuple):
    """A checkpoint entry: `data` is a C-contiguous little-endian array in the file's layout
    (uint16 bit patterns for BFloat16) or, for `tensor_type == 'str'`, a Python str."""

    name: str
    tensor_type: str
    shape: Tuple[int, ...]
    data: Union[np.ndarray, str]

    def payload(self):
        """(dims as written, the data as a flat uint8 array) for the writer."""
        if self.tensor_type == STR:
            return [0], np.frombuffer(self.data.encode("utf-32-le"), np.uint8)
        flat = self.data.reshape(-1).view(np.uint8)
        return list(self.shape), flat
