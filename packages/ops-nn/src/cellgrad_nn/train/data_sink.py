"""`mindspore.data_sink` (also `train.data_sink`): a step function fed from a dataset."""

import functools


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """Mirrors `mindspore.data_sink`: a function that, per call, runs `fn` on the dataset's next
    `sink_size` rows (starting over when it ends) and returns the last output.

    MindSpore 2.10 refuses this on a CPU ("Data sinking supports ascend or gpu device target");
    cellgrad has no device queue to sink into and feeds `fn` from the calling thread, with the
    same results (README: differs on purpose). `jit_config` and `input_signature` are accepted.
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if not callable(fn):
        raise TypeError(f"For 'data_sink', 'fn' must be callable, but got {type(fn).__name__}.")
    if not hasattr(dataset, "create_tuple_iterator"):
        raise TypeError(f"For 'data_sink', 'dataset' must be a mindspore.dataset Dataset, but "
                        f"got {type(dataset).__name__}.")
    rows = _endless(dataset)

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            out = fn(*next(rows))
        return out

    return sink_process


def _endless(dataset):
    while True:
        empty = True
        for row in dataset.create_tuple_iterator(num_epochs=1):
            empty = False
            yield row
        if empty:
            raise ValueError("For 'data_sink', the dataset yields no rows.")
