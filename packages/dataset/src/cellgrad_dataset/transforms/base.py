"""The base classes of every dataset transform: plain callables on column values."""

import numpy as np

from cellgrad.dtype import DType, dtype_to_nptype


class TensorOperation:
    """Mirrors `mindspore.dataset.transforms.transforms.TensorOperation`: called with the
    values of its input columns (numpy arrays), returns the new values."""

    def __call__(self, *input_tensor_list):
        return self._apply(*input_tensor_list)

    def _apply(self, *columns):
        raise NotImplementedError(f"{type(self).__name__} must implement _apply.")

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({fields})"


class PyTensorOperation:
    """Mirrors `mindspore.dataset.transforms.transforms.PyTensorOperation`: the base of
    Python transforms; subclasses implement `_execute_py(img)`."""

    def __init__(self):
        self.transforms = []
        self.output_type = None

    def __call__(self, img):
        return self._execute_py(img)

    def _execute_py(self, img):
        raise NotImplementedError(f"{type(self).__name__} must implement _execute_py.")


def to_nptype(op, name, data_type):
    """A MindSpore or numpy dtype (or type) as a numpy dtype."""
    if isinstance(data_type, DType):
        return np.dtype(dtype_to_nptype(data_type))
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"For '{op}', {name} must be a mindspore dtype or a numpy dtype, but "
                        f"got {data_type!r}.") from None


def as_array(op, value):
    """A column value as a numpy array (PIL images too), or TypeError naming the op."""
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(value)
    except Exception as exc:  # noqa: BLE001 - any conversion failure is the user's input
        raise TypeError(f"{op}: invalid input, got {type(value).__name__}: {value!r}, which "
                        f"cannot be converted into a tensor.") from exc


def pipeline_error(op, message):
    """MindSpore raises its C++ transforms' input errors as RuntimeError '[op]: ...'."""
    return RuntimeError(f"{op}: {message}")
