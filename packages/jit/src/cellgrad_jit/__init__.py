"""cellgrad-jit: a graph IR captured from one run (`capture`), `export` to ONNX and MINDIR,
`load` and `GraphCell` for MINDIR files (MindSpore's and cellgrad's)."""

from cellgrad_jit.api import export, load
from cellgrad_jit.capture import capture
from cellgrad_jit.errors import MindIRFormatError, UnsupportedOpError
from cellgrad_jit.ir import Graph, Node, Value

__all__ = ["capture", "export", "load", "Graph", "Node", "Value", "MindIRFormatError",
           "UnsupportedOpError"]
