"""nn functional ops and their primitive classes (`cellgrad.ops.relu`, `softmax`, `ops.ReLU`).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ("_math", "activation", "softmax", "linear")


def _ops(module: str, names: str) -> dict:
    return {f"ops.{n}": f"{module}:{n}" for n in names.split()}


EXPORTS: dict = {
    **_ops("activation", "relu relu6 leaky_relu elu gelu silu softplus hardswish hardsigmoid"),
    **_ops("softmax", "softmax log_softmax"),
    **_ops("linear", "dense bias_add"),
}
