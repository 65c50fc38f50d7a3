"""`nn.GraphCell`: a Cell that runs a graph `ms.load` read from a MINDIR file."""

import numpy as np

import cellgrad as ms
from cellgrad.nn import Cell
from cellgrad_jit.errors import UnsupportedOpError
from cellgrad_jit.ir import Graph
from cellgrad_jit.mindir.run import PRIMITIVES, run_graph

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """Mirrors `mindspore.nn.GraphCell`: runs a graph loaded by `ms.load`; its weights are
    Parameters of the cell (named as in the file), `params_init` {name: Tensor} replaces them.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__()
        if not isinstance(graph, Graph) or graph.dialect != "mindspore":
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph loaded "
                            f"from MindIR, but got type {type(graph)}.")
        if obf_random_seed is not None:
            raise NotImplementedError("For 'GraphCell', 'obf_random_seed' runs obfuscated "
                                      "models, which cellgrad does not support; load a model "
                                      "exported without obfuscation.")
        if params_init is not None and not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but "
                            f"got {type(params_init).__name__}.")
        for n in graph.nodes:
            if n.op not in PRIMITIVES:
                raise UnsupportedOpError(
                    f"For 'GraphCell', node {n.name} of the graph names the primitive "
                    f"'{n.op}', which cellgrad does not run (it runs: "
                    f"{', '.join(sorted(PRIMITIVES))}).", op=n.op, scope=n.scope)
        params_init = dict(params_init or {})
        unknown = sorted(set(params_init) - set(graph.params))
        if unknown:
            raise ValueError(f"For 'GraphCell', 'params_init' names {unknown}, which the graph "
                             f"does not have; its parameters are {sorted(graph.params)}.")
        self.graph = graph
        self._cache = {}
        for name, v in graph.params.items():
            value = params_init.get(name)
            if value is None:
                value = ms.Tensor(v.data) if isinstance(v.data, np.ndarray) else v.data
            elif not isinstance(value, ms.Tensor):
                raise TypeError(f"For 'GraphCell', 'params_init[{name!r}]' must be a Tensor or "
                                f"a Parameter, but got {type(value).__name__}.")
            elif tuple(value.shape) != tuple(v.shape):
                raise ValueError(f"For 'GraphCell', 'params_init[{name!r}]' must have shape "
                                 f"{list(v.shape)}, but got {list(value.shape)}.")
            param = value if isinstance(value, ms.Parameter) else ms.Parameter(value, name=name)
            self.insert_param_to_cell(name, param, check_name_contain_dot=False)

    def construct(self, *inputs):
        if len(inputs) != len(self.graph.inputs):
            raise RuntimeError(f"The input number of parameters is not Compatible. Mindir "
                               f"inputs: {len(self.graph.inputs)}, but got {len(inputs)}.")
        for i, (t, v) in enumerate(zip(inputs, self.graph.inputs)):
            if not isinstance(t, ms.Tensor):
                raise TypeError(f"For 'GraphCell', input {i} must be a Tensor, but got "
                                f"{type(t).__name__}.")
            if v.dtype is not None and t.dtype != v.dtype:
                raise TypeError(f"For 'GraphCell', input {i} must be {v.dtype} (as the graph "
                                f"was exported), but got {t.dtype}.")
            if len(t.shape) != len(v.shape) or any(
                    d is not None and d != s for d, s in zip(v.shape[1:], t.shape[1:])):
                raise ValueError(f"For 'GraphCell', input {i} must have shape "
                                 f"{['?' if d is None else d for d in v.shape]}, but got "
                                 f"{list(t.shape)}.")
        owned = self.parameters_dict()
        params = {name: owned[name] for name in self.graph.params}
        return run_graph(self.graph, inputs, params, self._cache)
