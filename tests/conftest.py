"""Shared by every test folder: `tests/` is importable, for `ms_replay`."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
