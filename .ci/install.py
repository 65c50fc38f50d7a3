"""pip-install project folders as users do (non-editable), each built from a private copy.

    python .ci/install.py WORKDIR FOLDER[EXTRAS]... [-- PIP-OPTION...]

tox runs envs in parallel, and pip builds a local folder in place: two envs building
packages/core at once collide in its build/ directory ("File exists"), and a developer's
in-place build could leak into the wheel. So each folder is copied to WORKDIR (the env's
temporary directory) without build products, and pip installs all the copies in one run.
"""

import shutil
import subprocess
import sys
from pathlib import Path

BUILD_PRODUCTS = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "*.so",
                                        "*.pyd", "*.c", "*.html")


def main(argv):
    pip_options = argv[argv.index("--") + 1:] if "--" in argv else []
    args = argv[: argv.index("--")] if "--" in argv else argv
    if len(args) < 2:
        sys.exit(__doc__)
    work, copies = Path(args[0]), []
    for arg in args[1:]:
        folder, bracket, extras = arg.partition("[")  # examples/digits[plots]
        folder = Path(folder)
        copy = work / "src" / folder.name
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(folder, copy, ignore=BUILD_PRODUCTS)
        copies.append(f"{copy}{bracket}{extras}")
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", *pip_options, *copies]
    sys.exit(subprocess.call(cmd))


if __name__ == "__main__":
    main(sys.argv[1:])
