"""cellgrad-ops-nn: MindSpore's nn layers, nn functional ops, losses, optimizers and training
wrappers, registered into `cellgrad.nn` / `cellgrad.ops` through the `cellgrad` entry point.

Users do not import this package; `cellgrad_nn.plugin` is what cellgrad loads.
"""

__version__ = "0.1.0"
