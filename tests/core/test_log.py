"""`cellgrad.log` prints what `mindspore.log` prints: the cases of log_format-2.10.json were
recorded from MindSpore 2.10 (tests/core/ms_programs/record_log_format.py) and run here in a
fresh interpreter with the same logging variables."""

import json
import logging
import pathlib
import re
import sys

import pytest

import cellgrad as ms
from cellgrad import log

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE / "ms_programs"))
import record_log_format  # noqa: E402

RECORDED = json.loads((HERE / "log_format-2.10.json").read_text())


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_output_is_mindspores(case):
    got = record_log_format.run("cellgrad", record_log_format.CASES[case])
    assert got == RECORDED[case]


def test_names_and_paths():
    assert log.__all__ == ["get_level", "get_log_config"]
    assert ms.log is log and ms.get_level is log.get_level
    assert ms.get_log_config is log.get_log_config
    assert log.logging is logging  # `mindspore.log.logging.info(...)` is the stdlib's
    for name in ("debug", "info", "warning", "error", "critical"):
        assert callable(getattr(log, name))
    assert "get_level" in dir(ms) and "log" in dir(ms)


def test_time_stamp_and_file_of_a_line(capsys, monkeypatch):
    record = logging.LogRecord("x", logging.WARNING, log.__file__, 7, "m", None, None)
    record.created, record.msecs = 0.0, 123.456
    formatter = log._Formatter(log._FORMAT)
    line = formatter.format(record)
    assert re.fullmatch(r"\[WARNING\] ME\(\d+:\d+,MainProcess\):"
                        r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.123\.456 \[cellgrad/log\.py:7\] m",
                        line), line
    record.pathname = "/opt/x/site-packages/mindspore/train/model.py"
    assert "[mindspore/train/model.py:7]" in formatter.format(record)
    record.pathname = "/home/me/train.py"
    assert "[/home/me/train.py:7]" in formatter.format(record)


def test_a_bad_variable_is_mindspores_error(monkeypatch):
    monkeypatch.setattr(log, "_logger", None)
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.delenv("GLOG_log_dir", raising=False)
    with pytest.raises(ValueError, match="When GLOG_logtostderr is set to 0, the directory of "
                                         "saving log GLOG_log_dir must be set"):
        log.warning("never shown")
    monkeypatch.setenv("GLOG_logtostderr", "2")
    with pytest.raises(ValueError, match="the value of GLOG_logtostderr must be 0 or 1, but "
                                         "got 2"):
        log.warning("never shown")
