"""Iterators over a dataset's epochs: rows as lists (tuple iterator) or dicts of Tensors."""

import itertools
import sys

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad_dataset.columns import names_arg, resolve


class TupleIterator:
    """Mirrors `mindspore.dataset.TupleIterator`: rows as lists of Tensors (numpy arrays with
    `output_numpy`).

    A `for` loop over the iterator reads one epoch; the next loop reads the next epoch (a new
    shuffle order), up to `num_epochs` (-1: no limit); asking for more is an error, as in
    MindSpore. A dataset's `set_init_step(k)` makes the iterator resume after k steps.
    """

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int):
            raise TypeError(f"Argument num_epochs with value {num_epochs!r} is not of type "
                            f"[<class 'int'>], but got {type(num_epochs)}.")
        if num_epochs != -1 and num_epochs < 1:
            raise RuntimeError(f"num_epochs should be either -1 or positive integer, but got "
                               f"{num_epochs}.")
        for name, value in (("output_numpy", output_numpy), ("do_copy", do_copy)):
            if not isinstance(value, bool):
                raise TypeError(f"Argument {name} with value {value!r} is not of type "
                                f"[<class 'bool'>], but got {type(value)}.")
        names = dataset.get_col_names()
        self._take = None
        if columns is not None:
            columns = names_arg(columns)
            self._take = resolve("create_tuple_iterator", columns, names)
            names = columns
        self._names = names
        self._dataset = dataset
        randomness = sys.modules.get("cellgrad_dataset.transforms.randomness")
        if randomness is not None:  # loaded iff a random transform exists
            randomness.new_pass()  # random transforms repeat their draws in each new iterator
        self._num_epochs = num_epochs
        self._rows = None
        self._convert = _converter(output_numpy, do_copy)
        step = dataset.get_init_step()
        self._epoch, self._skip = 0, 0
        if step:
            size = dataset.get_dataset_size()
            if size and size > 0:
                self._epoch, self._skip = divmod(step, size)
            dataset.reset()

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            if 0 <= self._num_epochs <= self._epoch:
                raise RuntimeError(f"The iterator has already read its num_epochs="
                                   f"{self._num_epochs} epochs; create the iterator with a "
                                   f"larger num_epochs (or -1) to read more.")
            self._rows = iter(self._dataset._rows(self._epoch))
            if self._skip:
                self._rows = itertools.islice(self._rows, self._skip, None)
                self._skip = 0
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self._epoch += 1
            raise
        if self._take is not None:
            row = [row[i] for i in self._take]
        return self._pack(row)

    def _pack(self, row):
        return [self._convert(v) for v in row]

    def get_col_names(self):
        return list(self._names)

    def stop(self):
        """Release the pipeline (its worker processes stop)."""
        if self._rows is not None and hasattr(self._rows, "close"):
            self._rows.close()
        self._rows = None

    def __del__(self):
        try:
            self.stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _converter(output_numpy, do_copy):
    if output_numpy:  # numpy scalars (rows of 1-D columns) become 0-d arrays, as MindSpore's
        return (lambda v: np.array(v)) if do_copy else _ndarray
    return _copied_tensor if do_copy else _tensor


def _ndarray(v):
    """`v` as an array of the pipeline's own: numpy scalars as 0-d arrays, views copied."""
    if type(v) is not np.ndarray:
        return np.asarray(v)
    return v if v.base is None else v.copy()


def _tensor(v):
    """A Tensor over `v` without a copy (do_copy=False) when the pipeline made `v` (it owns
    its memory); a view into the user's arrays is copied, so the Tensor never aliases them.
    Strings stay numpy, as in MindSpore."""
    if not isinstance(v, np.ndarray):  # a numpy scalar (a row sliced from a 1-D column)
        v = np.array(v)
    if v.dtype.kind in "OUS":
        return v
    if v.base is not None or not (v.flags.c_contiguous and v.flags.writeable):
        v = np.array(v, order="C")  # a view (maybe of the user's arrays): a copy of our own
    return Tensor.from_numpy(v)


def _copied_tensor(v):
    v = np.array(v, order="C")  # do_copy=True: always a copy
    return v if v.dtype.kind in "OUS" else Tensor.from_numpy(v)


class DictIterator(TupleIterator):
    """Mirrors `mindspore.dataset.DictIterator`: rows as {column name: Tensor}."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=False):
        super().__init__(dataset, None, num_epochs, output_numpy, do_copy)

    def _pack(self, row):
        return {name: self._convert(v) for name, v in zip(self._names, row)}
