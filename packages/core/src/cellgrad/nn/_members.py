"""A Cell's members: Parameters and child cells found by attribute assignment, their
traversal, and MindSpore's parameter naming (semantics §11).

An unnamed Parameter takes its attribute name; assigning a Cell to a parent with `auto_prefix`
renames every parameter reachable in it to `<attr>.<path>`. Parameters and children live in
`_params`/`_cells` (what traversal reads) and in the instance dict (fast attribute reads).
"""

from collections import OrderedDict

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops.creation import cast_tensor
from cellgrad.parameter import Parameter, ParameterTuple, check_prefix

__all__ = ["CellMembers"]

class CellMembers:
    """The attribute registration and traversal half of `Cell` (a mixin; use `Cell`)."""

    # ---- attributes ----
    def __getattr__(self, name):
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            p = params[name]
            if d.get("_mixed_active") and p is not None and p.dtype.kind == 2:
                return cast_tensor(p, d["_mixed"])  # inside a to_float cell's call
            return p
        cells = d.get("_cells")
        if cells is not None and name in cells:
            return cells[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._set_parameter(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_parameter_tuple(name, value)
        elif isinstance(value, CellMembers):
            self._set_cell(name, value)
        elif isinstance(value, TensorBuffer) and getattr(value, "_is_buffer", False):
            # a `common.parameter._Buffer` (or a registered buffer) assigned: MindSpore
            # registers it as this cell's buffer
            self.__dict__.pop(name, None)
            self.register_buffer(name, value)
        elif (isinstance(value, (list, tuple)) and value
              and all(isinstance(v, Parameter) for v in value)):
            self._check_unique_names(value)
            object.__setattr__(self, name, value)
        else:
            self._set_object(name, value)

    def __delattr__(self, name):
        d = self.__dict__
        if name in d.get("_params", ()):
            del d["_params"][name]
            d.pop(name, None)
        elif name in d.get("_cells", ()):
            del d["_cells"][name]
            d.pop(name, None)
        elif name in d.get("_buffers", ()):
            del d["_buffers"][name]
            d.pop(name, None)
            d.get("_non_persistent", set()).discard(name)
        else:
            object.__delattr__(self, name)

    def _set_parameter(self, name, value):
        d = self.__dict__
        if "_params" not in d:
            raise AttributeError("For 'Cell', can not assign params before Cell.__init__() is "
                                 "called.")
        if d["_cells"].get(name) is not None:
            raise TypeError(f"For 'Cell' '{type(self).__name__}', '{name}' is a child Cell; it "
                            "can not be replaced by a Parameter.")
        if name in d and name not in d["_params"]:
            del d[name]
        self.insert_param_to_cell(name, value)

    def _set_parameter_tuple(self, name, value):
        if "_params" not in self.__dict__:
            raise AttributeError("For 'Cell', can not assign params before Cell.__init__() is "
                                 "called.")
        names, seen = set(), set()
        for p in value:
            if id(p) in seen:
                continue
            seen.add(id(p))
            if p._generated_name:
                count = self.__dict__.get("_tuple_id", 1)
                self.__dict__["_tuple_id"] = count + 1
                p.name = f"Parameter${count}"
            if p.name in names:
                raise ValueError(f"The value {value}, its name '{p.name}' already exists. Please "
                                 "set a unique name for the parameter.")
            names.add(p.name)
            self._insert_param(p.name, p, check_dot=False, as_attribute=False)
        object.__setattr__(self, name, value)

    def _check_unique_names(self, params):
        """Parameters in plain lists/tuples are not registered, but their names must differ."""
        names = self.__dict__.setdefault("_exist_names", {})
        for p in params:
            if names.setdefault(p.name, id(p)) != id(p):
                raise ValueError(f"The value {params}, its name '{p.name}' already exists. Please "
                                 "set a unique name for the parameter.")

    def _set_cell(self, name, value):
        d = self.__dict__
        if "_cells" not in d:
            raise AttributeError("For 'Cell', can not assign cells before Cell.__init__() is "
                                 "called.")
        if d["_params"].get(name) is not None:
            raise TypeError(f"For 'Cell' '{type(self).__name__}', '{name}' is a Parameter; it can "
                            "not be replaced by a Cell.")
        if name in d and name not in d["_cells"]:
            del d[name]
        if self._auto_prefix:
            value.update_parameters_name(name + ".")
        self.insert_child_to_cell(name, value)

    def _set_object(self, name, value):
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            if value is None:
                params[name] = None
                d[name] = None
            elif isinstance(value, TensorBuffer) and params[name] is not None:
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign "
                                f"this type: '{type(value).__name__}' as a parameter.")
            return
        cells = d.get("_cells")
        if cells is not None and name in cells:
            if value is not None:
                raise TypeError(f"Sub cell '{name}' already exists in network, can not assign "
                                f"this type: '{type(value).__name__}' as a cell.")
            cells[name] = None
            d[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None:  # MindSpore: re-register to replace a buffer
                raise TypeError(f"Buffer '{name}' already exists in network, can not assign this "
                                f"type: '{type(value).__name__}' as a buffer.")
            buffers[name] = None
            d[name] = None
            return
        object.__setattr__(self, name, value)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Add `param` under `param_name`; an unnamed Parameter takes that name."""
        self._insert_param(param_name, param, check_name_contain_dot, as_attribute=True)

    def _insert_param(self, key, param, check_dot, as_attribute):
        d = self.__dict__
        if not key:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be "
                           "None or empty.")
        if check_dot and "." in key:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' should not "
                           f"contain '.', but got '{key}'.")
        if "_params" not in d:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() first.")
        if key not in d["_params"] and hasattr(self, key):
            raise KeyError(f"For 'insert_param_to_cell', the {key} parameter already exists in "
                           "the network. Cannot insert another parameter with the same name.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError("For 'insert_param_to_cell', the argument 'param' must be "
                            f"'Parameter' if not None, but got {type(param)}.")
        if param is not None and param._generated_name:
            param.name = key
        d["_params"][key] = param
        if as_attribute and d.get("_mixed") is None:
            d[key] = param

    def insert_child_to_cell(self, child_name, child_cell):
        """Add `child_cell` as a child named `child_name` (no renaming of its parameters)."""
        d = self.__dict__
        if not isinstance(child_name, str):
            raise TypeError("For 'insert_child_to_cell', the type of parameter 'child_name' must "
                            f"be str, but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be "
                           f"empty and can not contain '.', but got '{child_name}'.")
        if "_cells" not in d:
            raise AttributeError("For 'insert_child_to_cell', please call Cell.__init__() first.")
        if child_name not in d["_cells"] and hasattr(self, child_name):
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already "
                           "exists in the network. Cannot insert another child cell with the same "
                           "name.")
        if child_cell is not None and not isinstance(child_cell, CellMembers):
            raise TypeError("For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' "
                            f"if not None, but got type {type(child_cell)}.")
        d["_cells"][child_name] = child_cell
        d[child_name] = child_cell

    # ---- traversal ----
    def cells_and_names(self, cells=None, name_prefix=""):
        """Yield `(path, cell)` for this cell and every sub-cell, each cell once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                path = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(seen, path)

    def name_cells(self):
        """The direct children as an OrderedDict (each cell once)."""
        out, seen = OrderedDict(), set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self):
        """The direct children."""
        return self.name_cells().values()

    def parameters_and_names(self, name_prefix="", expand=True):
        """Yield `(path, parameter)`: own parameters first, then each child's; shared ones once."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen = set()
        for cell_name, cell in cells:
            for key, p in cell._params.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{cell_name}.{key}" if cell_name else key), p

    def get_parameters(self, expand=True):
        """Yield every parameter (a generator, as in MindSpore)."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse=True):
        """The parameters with `requires_grad=True`, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        """The parameters with `requires_grad=False`, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """OrderedDict of `parameter.name -> parameter`."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every parameter to `prefix + <its path in this cell>`."""
        check_prefix(prefix, "update_parameters_name")
        for path, p in self.parameters_and_names(expand=recurse):
            p.name = prefix + path

    def check_names(self):
        """ValueError when two parameters share a name."""
        names = set()
        for path, p in self.parameters_and_names():
            if p.name in names:
                raise ValueError(f"The value of {path} is {p}, its name '{p.name}' already "
                                 "exists. Please set a unique name for the parameter.")
            names.add(p.name)

    def check_names_and_refresh_name(self):
        """MindSpore's first-call check: duplicate names are replaced by the parameter paths."""
        names = [p.name for p in self.get_parameters()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    def apply(self, fn):
        """Call `fn` on every sub-cell (children first) and on this cell; returns self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self
