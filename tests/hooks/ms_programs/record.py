"""Record each program's stdout under real MindSpore into `<program>.out`.

Run with a Python that has MindSpore 2.10 (`pip install mindspore "numpy<2"` in a venv):
    GLOG_v=3 /path/to/ms-venv/bin/python tests/hooks/ms_programs/record.py [names...]
The outputs are committed; `tests/hooks/test_hooks_ms_programs.py` replays the programs on
cellgrad. The recording itself is `tests/core/ms_programs/record.py`'s.
"""

import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent / "core" / "ms_programs"))

from record import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:], HERE)
