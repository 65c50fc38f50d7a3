"""Builds cellgrad-distributed's one Cython module, the shared-memory sum (`_sum.pyx`).

Bounds and wraparound checks are off (the entry point validates every array before its
nogil loop); `CELLGRAD_CYTHON_DEBUG=1` turns them back on and builds unoptimised with
symbols. -ffp-contract=off: the sum must give numpy's results bit for bit, no FMA.
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CELLGRAD_CYTHON_DEBUG", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

extension = Extension(
    "cellgrad_distributed._sum",
    ["src/cellgrad_distributed/_sum.pyx"],
    extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + ["-ffp-contract=off"],
)

setup(ext_modules=cythonize([extension], compiler_directives=directives, force=True))
