"""Mirrors `mindspore.ops.CustomRegOp` and `mindspore.ops.DataType`: the registration info of
a `Custom` op (its inputs, outputs, attributes, target and supported dtype/format pairs), built
as MindSpore builds it.

cellgrad runs a `Custom` op's Python function on numpy arrays of any dtype, so it keeps the
info (`Custom(..., reg_info=...)`) without choosing a kernel by it.
"""

__all__ = ["CustomRegOp", "DataType"]


class RegOp:
    """Mirrors `op_info_register.RegOp(op_name)`: the base of the registration builders."""

    def __init__(self, op_name=""):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []

    @staticmethod
    def _is_string(value):
        if not isinstance(value, str):
            raise TypeError(f"{value} value must be str")
        return True

    @staticmethod
    def _is_int(value):
        if not isinstance(value, int):
            raise TypeError(f"{value} value must be int")
        return True

    @staticmethod
    def _check_param(param_list, key_list, fn_list, kwargs):
        out = {}
        for idx, element in enumerate(param_list):
            if element is not None:
                (fn_list[0] if len(fn_list) == 1 else fn_list[idx])(element)
                out[key_list[idx]] = element
        out.update(kwargs)
        return out

    def fusion_type(self, fusion_type):
        """Set the fusion type (a str)."""
        self._is_string(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args):
        """Add one supported combination: a (dtype, format[, object type]) tuple per input and
        output, e.g. `DataType.F32_Default`."""
        if len(self.inputs) + len(self.outputs) != len(args):
            raise ValueError("input size add output size must be equal to dtype format size")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for item in arg:
                self._is_string(item)
        self.dtype_format_.append(tuple(args))
        return self

    def get_op_info(self):
        """The registration info as a dict (keys without the trailing '_')."""
        return {(k.rstrip("_") if k.endswith("_") else k): v for k, v in self.__dict__.items()}


class CustomRegOp(RegOp):
    """Mirrors `mindspore.ops.CustomRegOp(op_name='Custom')`: chain `input`, `output`, `attr`,
    `dtype_format` and `target`, then `get_op_info()` gives the dict `ops.Custom` takes as
    `reg_info`."""

    def __init__(self, op_name="Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """Add an input: {'index', 'name', 'paramType'} ('required', 'dynamic', 'optional')."""
        self.inputs.append(self._check_param(
            [index, name, param_type], ["index", "name", "paramType"],
            [self._is_int, self._is_string, self._is_string], kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """Add an output: {'index', 'name', 'paramType'}."""
        self.outputs.append(self._check_param(
            [index, name, param_type], ["index", "name", "paramType"],
            [self._is_int, self._is_string, self._is_string], kwargs))
        return self

    def dtype_format(self, *args):
        io_nums = len(self.inputs) + len(self.outputs)
        if len(args) != io_nums:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and "
                             f"output tensors, but got {len(args)} vs {io_nums}")
        return super().dtype_format(*args)

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """Add an attribute: {'name', 'paramType', 'type', 'defaultValue'} (all str)."""
        self.attr_.append(self._check_param(
            [name, param_type, value_type, default_value],
            ["name", "paramType", "type", "defaultValue"], [self._is_string], kwargs))
        return self

    def target(self, target=None):
        """Set the target device ('CPU', 'GPU' or 'Ascend')."""
        if target is not None:
            self._is_string(target)
        self.target_ = target
        return self


# MindSpore's table: dtype prefix -> (dtype name, the format suffixes it has)
_ALL_4D = "None Default 5HD FracZ FracNZ C1HWNCoC0 NCHW NHWC HWCN NDHWC"
_FLOAT_FORMATS = (_ALL_4D + " NCDHW DHWCN NDC1HWC0 FRACTAL_Z_3D FracZNLSTM FracZNRNN ND_RNNBIAS "
                  "ChannelLast Default_Tuple Default_List")
_DTYPES = {
    "None": ("", "None Default"),
    "BOOL": ("bool", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "I8": ("int8", _ALL_4D + " NCDHW ChannelLast NDC1HWC0 NC1HWC0 Default_Tuple Default_List"),
    "U8": ("uint8", _ALL_4D + " NCDHW ChannelLast NDC1HWC0 NC1HWC0 Default_Tuple Default_List"),
    "I16": ("int16", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "U16": ("uint16", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "I32": ("int32", _ALL_4D + " NDC1HWC0 NCDHW ChannelLast Default_Tuple Default_List"),
    "U32": ("uint32", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "I64": ("int64", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "U64": ("uint64", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "F16": ("float16", _FLOAT_FORMATS),
    "F32": ("float32", _FLOAT_FORMATS),
    "F64": ("float64", _ALL_4D + " ChannelLast Default_Tuple Default_List"),
    "BF16": ("bfloat16", _FLOAT_FORMATS),
    "C64": ("complex64", "Default Default_Tuple"),
    "C128": ("complex128", "Default Default_Tuple"),
}
_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z",
            "FracNZ": "FRACTAL_NZ", "FracZNLSTM": "FRACTAL_ZN_LSTM",
            "FracZNRNN": "FRACTAL_ZN_RNN", "ND_RNNBIAS": "ND_RNN_BIAS"}


def _pair(dtype, suffix):
    if suffix.startswith("Default_"):  # Default_Tuple / Default_List: a sequence's elements
        return (dtype, "DefaultFormat", suffix.split("_")[1].lower())
    return (dtype, _FORMATS.get(suffix, suffix))


class DataType:
    """Mirrors `mindspore.ops.DataType`: the (dtype, format) pairs of registration info, e.g.
    `DataType.F32_Default == ("float32", "DefaultFormat")`, `DataType.F16_5HD == ("float16",
    "NC1HWC0")`, `DataType.I32_Default_Tuple == ("int32", "DefaultFormat", "tuple")`."""

    for _prefix, (_dtype, _suffixes) in _DTYPES.items():
        for _suffix in _suffixes.split():
            vars()[f"{_prefix}_{_suffix}"] = _pair(_dtype, _suffix)
    del _prefix, _dtype, _suffixes, _suffix
