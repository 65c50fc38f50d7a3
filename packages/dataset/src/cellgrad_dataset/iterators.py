"""Iterators over a dataset's epochs: rows as lists (tuple iterator) or dicts of Tensors."""

from cellgrad.common.tensor import Tensor


class TupleIterator:
    """Rows as lists of Tensors (or numpy arrays with `output_numpy`).

    A `for` loop over the iterator reads one epoch; the next loop reads the next epoch (a new
    shuffle order), up to `num_epochs` (-1: no limit), as MindSpore's iterators do.
    """

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        names = dataset.get_col_names()
        if columns is not None:
            from cellgrad_dataset.datasets import _column_list

            take = [names.index(c) for c in _column_list("create_tuple_iterator", "columns",
                                                          columns, names)]
            names = [names[i] for i in take]
        else:
            take = None
        self._take, self._names = take, names
        self._dataset = dataset
        self._num_epochs = num_epochs
        self._epoch = 0
        self._rows = None
        self._convert = (lambda v: v) if output_numpy else Tensor

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            if 0 <= self._num_epochs <= self._epoch:
                raise StopIteration
            self._rows = iter(self._dataset._rows(self._epoch))
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


class DictIterator(TupleIterator):
    """Rows as {column name: Tensor} (or numpy arrays with `output_numpy`)."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=False):
        super().__init__(dataset, None, num_epochs, output_numpy, do_copy)

    def _pack(self, row):
        return {name: self._convert(v) for name, v in zip(self._names, row)}
