"""`mindspore.DatasetHelper` and `connect_network_with_dataset` (also under `train` and
`train.dataset_helper`): the loop real training scripts write around a dataset.

Without sinking, iterating the helper gives each batch as a list of Tensors, as MindSpore's.
With `dataset_sink_mode=True` MindSpore 2.10 refuses on a CPU (its device queue,
`InitDataSetQueue`, has no CPU kernel); cellgrad runs the same loop from the calling thread:
each iteration gives `()` and the network from `connect_network_with_dataset` takes the next
`sink_size` batches itself and returns the last output — the results MindSpore gives on a
device (README: differs on purpose).
"""

from cellgrad import _checkparam
from cellgrad.nn import Cell
from cellgrad_nn.train.data_sink import _endless


class DatasetHelper:
    """Mirrors `mindspore.DatasetHelper`."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not hasattr(dataset, "create_tuple_iterator"):
            raise TypeError(f"For 'DatasetHelper', 'dataset' must be a mindspore.dataset "
                            f"Dataset, but got {type(dataset).__name__}.")
        _checkparam.check_bool(dataset_sink_mode)  # MindSpore's TypeError for "True" or 1
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For 'DatasetHelper', the type of 'sink_size' should be 'int', but "
                            f"got type '{type(sink_size).__name__}'.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size "
                             f"{sink_size}.")
        self.dataset = dataset
        self.dataset_sink_mode = bool(dataset_sink_mode)
        self.epoch_num = epoch_num
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self._rows = None  # the endless batch stream a connected network reads in sink mode

    def __iter__(self):
        if not self.dataset_sink_mode:
            for row in self.dataset.create_tuple_iterator(num_epochs=1):
                yield list(row)
            return
        for _ in range(max(1, self.dataset.get_dataset_size() // self._sink_size)):
            yield ()

    def sink_size(self):
        """Batches one iteration runs in sink mode (the dataset size for -1)."""
        if not self.dataset_sink_mode:
            raise AttributeError("'DatasetHelper' without dataset_sink_mode has no sink_size.")
        return self._sink_size

    def types_shapes(self):
        """The columns' dtypes and shapes, as two lists."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def _next_batches(self):
        if self._rows is None:
            self._rows = _endless(self.dataset)
        return self._rows

    def stop_send(self):
        """Nothing is sent ahead on a CPU: a no-op, as MindSpore's non-device helpers."""

    def continue_send(self):
        """See `stop_send`."""

    def release(self):
        """Drops the batch stream."""
        self._rows = None


class _SinkNetwork(Cell):
    """The network connected to a sinking helper: one call runs `sink_size` batches."""

    def __init__(self, network, helper):
        super().__init__(auto_prefix=False)
        self.network = network
        self._helper = helper

    def construct(self, *inputs):
        rows, out = self._helper._next_batches(), None
        for _ in range(self._helper.sink_size()):
            out = self.network(*next(rows), *inputs)
        return out


def connect_network_with_dataset(network, dataset_helper):
    """Mirrors `mindspore.connect_network_with_dataset`: the network itself without sinking,
    else a Cell that feeds it `sink_size` batches per call (see the module docstring)."""
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', 'dataset_helper' must be a "
                        f"DatasetHelper, but got {type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        return network
    return _SinkNetwork(network, dataset_helper)
