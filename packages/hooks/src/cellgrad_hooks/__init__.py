"""cellgrad-hooks: MindSpore's hooks for cellgrad.

Users never import this package: `Cell.register_forward_pre_hook`, `register_forward_hook`,
`register_backward_pre_hook`, `register_backward_hook`, `Tensor.register_hook`,
`ops.HookBackward` and `ops.InsertGradientOf` find it through its `cellgrad` entry point.

Modules: `runner` (the Cell hook runner and each Cell's hook table), `forward` (forward-pre and
forward hooks), `boundary` (backward hooks on the two tape nodes at the ends of a Cell call),
`tensor_hooks` (`Tensor.register_hook`), `grad_ops` (HookBackward, InsertGradientOf),
`handles` (removable handles), `invoke` (calling hooks: checks, error naming, gradients as
Tensors).
"""

__version__ = "0.1.0"
