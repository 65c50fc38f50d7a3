"""A Cell's state beyond Parameters, as MindSpore 2.10 has it: buffers, `state_dict` /
`load_state_dict` (keys are attribute paths), `to(dtype)`, and the graph-mode and parallel
settings that PyNative on one CPU accepts and records (`set_inputs`, `compile`, `shard`,
`set_comm_fusion`, `init_parameters_data`)."""

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import to_dtype
from cellgrad.ops import functional as F

__all__ = ["CellState"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns (MindSpore's repr)."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class CellState:
    """Buffers, state dicts, dtype moves and recorded settings (a mixin of `Cell`)."""

    # ---- buffers ----
    def register_buffer(self, name, tensor, persistent=True):
        """Mirrors `Cell.register_buffer`: a Tensor attribute that is state but not a Parameter
        (in `state_dict` unless `persistent=False`)."""
        d = self.__dict__
        if "_buffers" not in d:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in d["_buffers"]:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, TensorBuffer):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            "(mindspore Tensor or None required)")
        if tensor is not None:
            tensor._is_buffer = True
        d["_buffers"][name] = tensor
        d[name] = tensor
        transient = d.setdefault("_non_persistent", set())
        (transient.discard if persistent else transient.add)(name)

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Mirrors `Cell.named_buffers`: `(path, buffer)` pairs, each buffer once."""
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_prefix, cell in cells:
            for key, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is None or id(buf) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(buf))
                yield (f"{cell_prefix}.{key}" if cell_prefix else key), buf

    def get_sub_cell(self, target):
        """Mirrors `Cell.get_sub_cell`: the sub-cell at a dotted attribute path."""
        cell = self
        for item in target.split(".") if target else ():
            if not hasattr(cell, item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellState):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def get_buffer(self, target):
        """Mirrors `Cell.get_buffer`: the buffer at a dotted attribute path."""
        path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(path)
        if not hasattr(cell, name):
            raise AttributeError(f"{type(cell).__name__} has no attribute `{name}`")
        if name not in cell.__dict__.get("_buffers", ()):
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(cell, name)

    def buffers(self, recurse=True):
        """Mirrors `Cell.buffers`."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    # ---- state dicts ----
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Mirrors `Cell.state_dict`: an OrderedDict of attribute path -> Parameter or
        persistent buffer (the objects themselves)."""
        if args:
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got "
                            f"{type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
        d = self.__dict__
        for name, p in d["_params"].items():
            if p is not None:
                destination[prefix + name] = p
        transient = d.get("_non_persistent", ())
        for name, buf in d.get("_buffers", {}).items():
            if buf is not None and name not in transient:
                destination[prefix + name] = buf
        for name, cell in d["_cells"].items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True):
        """Mirrors `Cell.load_state_dict`: copy values (cast to each entry's dtype) by attribute
        path; the missing and unexpected keys are returned, and with `strict` they are a
        RuntimeError."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        self._load_state(dict(state_dict), "", missing, unexpected, errors)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _load_state(self, state, prefix, missing, unexpected, errors):
        d = self.__dict__
        transient = d.get("_non_persistent", ())
        local = {k: v for k, v in d["_params"].items() if v is not None}
        local.update((k, v) for k, v in d.get("_buffers", {}).items()
                     if v is not None and k not in transient)
        for name, target in local.items():
            key = prefix + name
            if key not in state:
                missing.append(key)
                continue
            value = state[key]
            if not isinstance(value, TensorBuffer):
                errors.append(f'While copying the parameter named "{key}", expected Tensor or '
                              f"Tensor-like object from checkpoint but received {type(value)}")
            elif tuple(value.shape) != tuple(target.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{tuple(value.shape)} from checkpoint, the shape in current model "
                              f"is {tuple(target.shape)}.")
            else:
                target._data = F.cast(value, target.dtype)._data.copy()
        for key in state:
            if key.startswith(prefix):
                head, dot, _ = key[len(prefix):].partition(".")
                if (dot and head not in d["_cells"]) or (not dot and head not in local):
                    unexpected.append(key)
        for name, cell in d["_cells"].items():
            if cell is not None:
                child = f"{prefix}{name}."
                cell._load_state({k: v for k, v in state.items() if k.startswith(child)}, child,
                                 missing, unexpected, errors)

    # ---- dtype and device ----
    def to(self, *args, **kwargs):
        """Mirrors `Cell.to(dtype)` / `to(device=None, dtype=None, non_blocking=False)` /
        `to(tensor)`: cast float Parameters (in place: the same objects) and float buffers.
        The device can only be the CPU here."""
        device, dtype = _to_args(args, kwargs)
        if device is not None and str(device).upper() != "CPU":
            raise ValueError(f"For 'Cell.to', cellgrad runs on the CPU only, but got device "
                             f"{device!r}; use 'CPU' or leave the device out.")
        if dtype is None:
            return self
        dtype = to_dtype(dtype)
        if dtype.kind != 2:
            raise TypeError(f"Cell.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")
        for _, cell in self.cells_and_names():
            cd = cell.__dict__
            for p in cd["_params"].values():
                if p is not None and p.dtype.kind == 2 and p.dtype is not dtype:
                    p.data = F.cast(p, dtype)
            for key, buf in cd.get("_buffers", {}).items():
                if buf is not None and buf.dtype.kind == 2:
                    cd["_buffers"][key] = cd[key] = F.cast(buf, dtype)
        return self

    # ---- settings PyNative on one CPU records ----
    def init_parameters_data(self, auto_parallel_mode=False):
        """Mirrors `Cell.init_parameters_data`: values exist from creation, so every Parameter
        maps to itself in the returned dict."""
        return {p: p.init_data() for p in self.get_parameters()}

    def set_inputs(self, *inputs, **kwargs):
        """Mirrors `Cell.set_inputs`: records the (dynamic-shape) inputs `get_inputs` returns;
        eager execution needs no compiled shapes."""
        if kwargs and inputs:
            raise ValueError(f"For Cell, set_inputs should only set inputs or kwargs(inputs: "
                             f"{inputs}, kwargs: {kwargs})!")
        self.__dict__["_dynamic_shape_inputs"] = inputs if not kwargs else kwargs

    def get_inputs(self):
        """Mirrors `Cell.get_inputs`: what `set_inputs` recorded, or None."""
        return self.__dict__.get("_dynamic_shape_inputs")

    def compile(self, *args, **kwargs):
        """Mirrors `Cell.compile`: checks the arguments against `construct` (MindSpore's
        TypeError for a wrong count); PyNative has no graph to build."""
        import inspect

        try:
            inspect.signature(self.construct).bind(*args, **kwargs)
        except TypeError:
            n = len([p for p in inspect.signature(self.construct).parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
            raise TypeError(f"The parameters number of the function is {n}, but the number of "
                            f"provided arguments is {len(args) + len(kwargs)}.") from None

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Mirrors `Cell.shard`: on one device MindSpore returns at once; the strategies are
        kept in `_shard_request` so a program can read back what it asked for."""
        self.__dict__["_shard_request"] = (in_strategy, out_strategy, parameter_plan)

    def set_broadcast_flag(self, mode=True):
        """Mirrors `Cell.set_broadcast_flag`: the `broadcast_flag` flag on every cell."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Mirrors `Cell.set_comm_fusion`: sets `comm_fusion` on the trainable Parameters."""
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int) or fusion_type < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got "
                             f"'{fusion_type}' with type '{type(fusion_type).__name__}'.")
        for p in self.trainable_params(recurse):
            p.comm_fusion = fusion_type
        return self


def _to_args(args, kwargs):
    """(device, dtype) from MindSpore's three `Cell.to` forms."""
    kwargs = dict(kwargs)
    kwargs.pop("non_blocking", None)
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    if kwargs:
        raise TypeError(f"Cell.to() got unexpected keyword arguments {sorted(kwargs)}.")
    for a in args:
        if isinstance(a, TensorBuffer):
            dtype = a.dtype
        elif isinstance(a, str) and a.upper() in ("CPU", "GPU", "ASCEND", "META") or (
                isinstance(a, str) and ":" in a):
            device = a
        elif isinstance(a, bool):
            continue  # non_blocking
        else:
            dtype = a
    return device, dtype
