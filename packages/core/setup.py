"""Builds the Cython extension modules of the core (tensor buffer, tape, small-array kernels).

The core indexes only Python lists and tuples, so bounds checks stay on (they cost a compare);
`_small`'s loops run over sizes it checked itself. It uses numpy's C API, built against
numpy 2 headers, which also run under numpy 1.26.
`CELLGRAD_CYTHON_DEBUG=1` (the debug tox env) adds None checks on typed attribute access,
assertions and an unoptimised build with symbols, for gdb.
"""

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CELLGRAD_CYTHON_DEBUG", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": True,
    "wraparound": True,
    "nonecheck": DEBUG,
    "initializedcheck": True,
    "embedsignature": True,
}

# _small must give numpy's results bit for bit: no fused multiply-add.
extra_args = {"_small": ["-ffp-contract=off"]}

extensions = [
    Extension(
        f"cellgrad._core.{name}",
        [f"src/cellgrad/_core/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("CELLGRAD_DEBUG_BUILD", "1" if DEBUG else "0"),
                       ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=extra_args.get(name, []) + (["-O0", "-g"] if DEBUG else []),
    )
    for name in ("_tape", "_buffer", "_small")
]

setup(
    ext_modules=cythonize(
        extensions, compiler_directives=directives, compile_time_env={"DEBUG": DEBUG},
        force=True,
    ),
)
