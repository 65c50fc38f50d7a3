"""Record what `mindspore.log` prints under MindSpore's logging variables into
tests/core/log_format-2.10.json (`tests/core/test_log.py` replays it on cellgrad).

Run under real MindSpore:
    GLOG_v=3 /path/to/ms-venv/bin/python tests/core/ms_programs/record_log_format.py
Each case runs PROBE in a fresh interpreter with the case's variables; the lines the probe
logged (stderr, the log file), its stdout and a ValueError's last line are kept, with the
process and thread ids, the time stamp and the log folder replaced by fixed words
(`normalize`), so both sides compare exactly.
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
PROBE = """
import {package} as ms
from {package} import log as logger
logger.debug("probe debug %d", 1)
logger.info("probe info %s", "two")
logger.warning("probe warning")
logger.error("probe error %r", [3])
logger.critical("probe critical")
print("level", logger.get_level(), ms.get_level())
print("config", sorted(ms.get_log_config().items()))
print("stdlib", logger.logging.getLevelName(30))
"""
CASES = {
    "default": {},
    "GLOG_v=0": {"GLOG_v": "0"},
    "GLOG_v=1": {"GLOG_v": "1"},
    "GLOG_v=3": {"GLOG_v": "3"},
    "GLOG_v=4": {"GLOG_v": "4"},
    "to files": {"GLOG_v": "1", "GLOG_logtostderr": "0", "GLOG_log_dir": "{dir}",
                 "GLOG_stderrthreshold": "3", "logger_maxBytes": "4096",
                 "logger_backupCount": "2"},
    "bad level": {"GLOG_v": "7"},
}
STAMP = re.compile(r"\((\d+):(\d+),MainProcess\):"
                   r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{1,3}\.\d{0,3} ")


def run(package, env, python=sys.executable):
    """(stdout, probe lines of stderr, lines of the log file) of PROBE under `env`."""
    with tempfile.TemporaryDirectory() as folder:
        full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                **{k: v.replace("{dir}", folder) for k, v in env.items()}}
        if "PYTHONPATH" in os.environ:
            full["PYTHONPATH"] = os.environ["PYTHONPATH"]
        proc = subprocess.run([python, "-c", PROBE.format(package=package)], env=full,
                              capture_output=True, text=True, timeout=300)
        files = sorted(pathlib.Path(folder).rglob("mindspore.log.*"))
        logged = [line for line in (files[0].read_text().splitlines() if files else [])
                  if "probe" in line]
        text = (proc.stdout + "".join(f"{line}\n" for line in logged)).replace(folder, "DIR")
        err = [line for line in proc.stderr.splitlines()
               if "probe" in line or line.startswith("ValueError")]
        return {"returncode": proc.returncode, "stdout": normalize(text),
                "stderr": normalize("\n".join(err))}


def normalize(text):
    text = STAMP.sub("(PID:TID,MainProcess):TIME ", text)
    return re.sub(r"mindspore\.log\.\d+", "mindspore.log.PID", text)


def main():
    out = {name: run("mindspore", env) for name, env in CASES.items()}
    target = HERE.parent / "log_format-2.10.json"
    target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {target} ({len(out)} cases)")


if __name__ == "__main__":
    main()
