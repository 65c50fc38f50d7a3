"""Record each program's stdout under real MindSpore into `<program>.out`.

Run with a Python that has MindSpore 2.10 (`pip install mindspore "numpy<2"` in a venv):
    GLOG_v=3 /path/to/ms-venv/bin/python tests/hooks/ms_programs/record.py [names...]
The outputs are committed; `tests/hooks/test_hooks_ms_programs.py` replays the programs on cellgrad.
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent


def main(names):
    programs = [HERE / f"{n}.py" for n in names] or sorted(
        p for p in HERE.glob("*.py") if p.name != "record.py")
    for prog in programs:
        run = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True,
                             env={"GLOG_v": "3", "PATH": "/usr/bin:/bin"}, cwd=HERE, timeout=600)
        if run.returncode:
            print(f"{prog.name}: exit {run.returncode}\n{run.stderr[-2000:]}")
            continue
        prog.with_suffix(".out").write_text(run.stdout)
        print(f"{prog.name}: {len(run.stdout.splitlines())} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
