"""Builds ops-nn's Cython kernels (every `src/cellgrad_nn/_kernels/*.pyx`).

Kernels index typed memoryviews in tight loops, so bounds and wraparound checks are off; every
`def` entry validates shapes before a loop runs. `CELLGRAD_CYTHON_DEBUG=1` turns the checks
back on and builds unoptimised with symbols.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CELLGRAD_CYTHON_DEBUG", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "nonecheck": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

# update must give numpy's results bit for bit: no fused multiply-add; without errno a sqrt is
# one instruction (the same IEEE result), so its loops vectorise.
extra_args = {"update": ["-ffp-contract=off", "-fno-math-errno"]}
# blas splits the batch-1 GEMV over two OpenMP threads (libgomp: spinning workers hand over in
# about a microsecond, where a Python thread takes tens)
extra_args["blas"] = ["-fopenmp"]
link_args = {"blas": ["-fopenmp"]}

extensions = [
    Extension(
        f"cellgrad_nn._kernels.{pyx.stem}",
        [str(pyx)],
        extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + extra_args.get(pyx.stem, []),
        extra_link_args=link_args.get(pyx.stem, []),
    )
    for pyx in sorted(Path("src/cellgrad_nn/_kernels").glob("*.pyx"))
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, force=True))
