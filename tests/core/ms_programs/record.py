"""Record each program's stdout under real MindSpore into `<program>.out`.

Run with a Python that has MindSpore 2.10 (`pip install mindspore "numpy<2"` in a venv):
    GLOG_v=3 /path/to/ms-venv/bin/python tests/core/ms_programs/record.py [names...]
The outputs are committed; `tests/core/test_ms_programs.py` replays the programs on cellgrad.
Other folders' record scripts call `main(names, folder)` (MindSpore's venv has no cellgrad).
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent


def main(names, folder=HERE):
    """Record `names` (default: every program of `folder` except the record scripts)."""
    programs = [folder / f"{n}.py" for n in names] or sorted(
        p for p in folder.glob("*.py") if not p.name.startswith("record"))
    for prog in programs:
        run = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True,
                             env={"GLOG_v": "3", "PATH": "/usr/bin:/bin"}, cwd=folder,
                             timeout=600)
        if run.returncode:
            print(f"{prog.name}: exit {run.returncode}\n{run.stderr[-2000:]}")
            continue
        prog.with_suffix(".out").write_text(run.stdout)
        print(f"{prog.name}: {len(run.stdout.splitlines())} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
