"""Record the MindSpore programs of this folder (see tests/core/ms_programs/record.py).

    GLOG_v=3 /path/to/ms-venv/bin/python tests/dataset/ms_programs/record.py [names...]
"""

import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
_spec = importlib.util.spec_from_file_location(
    "core_record", HERE.parents[1] / "core" / "ms_programs" / "record.py")
_core = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_core)

if __name__ == "__main__":
    _core.main(sys.argv[1:], HERE)
