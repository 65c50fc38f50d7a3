"""Mirrors `mindspore.log`: MindSpore's logger on the standard `logging` module.

`debug`, `info`, `warning`, `error` and `critical` log on one logger, set up on first use from
MindSpore's environment variables: `GLOG_v` (0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR,
4 CRITICAL), `GLOG_logtostderr` (0: write to files instead of stderr), `GLOG_log_dir` (their
folder; the file is `<dir>/rank_<RANK_ID>/logs/mindspore.log.<pid>`, rotated by
`logger_maxBytes` and `logger_backupCount`) and `GLOG_stderrthreshold` (what still reaches
stderr then). Lines look like MindSpore's:
    [WARNING] ME(1234:5678,MainProcess):2026-11-25-16:50:02.123.456 [train.py:12] message
"""

import logging
import os
import stat
import sys
import threading
import time
from logging.handlers import RotatingFileHandler

__all__ = ["get_level", "get_log_config"]

_GLOG_LEVELS = {"0": "DEBUG", "1": "INFO", "2": "WARNING", "3": "ERROR", "4": "CRITICAL"}
_LEVEL_TO_GLOG = {getattr(logging, name): glog for glog, name in _GLOG_LEVELS.items()}
# logger setting -> the environment variable MindSpore reads it from
_ENV = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir",
        "maxBytes": "logger_maxBytes", "backupCount": "logger_backupCount",
        "stderr_level": "GLOG_stderrthreshold"}
_FORMAT = ("[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
           "[%(filepath)s:%(lineno)d] %(message)s")
_SUB_MODULE = "ME"
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SKIPPED = {os.path.normcase(os.path.abspath(__file__)), os.path.normcase(logging.__file__)}

_lock = threading.Lock()
_logger = None


class _Formatter(logging.Formatter):
    """MindSpore's fields: `sub_module`, a `filepath` cut at 'mindspore' (or at cellgrad's
    package folder), and MindSpore's time stamp (`%Y-%m-%d-%H:%M:%S.mmm.uuu`)."""

    def formatTime(self, record, datefmt=None):
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", self.converter(record.created))
        micros = str(round(record.msecs * 1000))
        return f"{stamp}.{micros[:3]}.{micros[3:]}"

    def format(self, record):
        path = record.pathname
        if path.startswith(_PACKAGE_ROOT + os.sep):
            record.filepath = path[len(_PACKAGE_ROOT) + 1:]
        else:
            index = path.rfind("mindspore")
            record.filepath = path[index:] if index >= 0 else path
        record.sub_module = _SUB_MODULE
        return super().format(record)


def debug(msg, *args, **kwargs):
    """Log `msg % args` with severity DEBUG (shown when `GLOG_v=0`)."""
    _get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    """Log `msg % args` with severity INFO (shown when `GLOG_v` is 0 or 1)."""
    _get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    """Log `msg % args` with severity WARNING (shown by default)."""
    _get_logger().warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    """Log `msg % args` with severity ERROR."""
    _get_logger().error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    """Log `msg % args` with severity CRITICAL."""
    _get_logger().critical(msg, *args, **kwargs)


def get_level():
    """Mirrors `mindspore.get_level`: the level as `GLOG_v` writes it, '0' (DEBUG) to '4'."""
    return _LEVEL_TO_GLOG.get(_get_logger().getEffectiveLevel())


def get_log_config():
    """Mirrors `mindspore.get_log_config`: the logger's settings as MindSpore's variables."""
    logger = _get_logger()
    handler = logger.handlers[0]
    config = {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}
    if handler.name == "FileHandler":
        folder = os.path.split(handler.baseFilename)[0]
        config.update(GLOG_logtostderr="0", GLOG_log_dir=folder,
                      logger_maxBytes=handler.maxBytes, logger_backupCount=handler.backupCount,
                      GLOG_stderrthreshold=_LEVEL_TO_GLOG.get(logger.handlers[1].level))
    return config


def _get_logger():
    if _logger is not None:
        return _logger
    config = {key: os.environ[var].strip() for key, var in _ENV.items() if os.environ.get(var)}
    _check(config)
    return _setup(config)


def _check(config):
    for key in ("level", "stderr_level"):
        if key in config and config[key] not in _GLOG_LEVELS:
            raise ValueError(f"Incorrect log level, please check the configuration of GLOG_v or "
                             f"GLOG_stderrthreshold, desired log level: 4-CRITICAL, 3-ERROR, "
                             f"2-WARNING, 1-INFO, 0-DEBUG. But got {config[key]}.")
    console = config.get("console")
    if console is None:
        return
    if console not in ("0", "1"):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but "
                         f"got {console}.")
    if console == "0" and not config.get("filepath"):
        raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log "
                         "GLOG_log_dir must be set, but got it empty.")
    for key in ("maxBytes", "backupCount"):
        value = config.get(key)
        if console == "0" and value is not None and not value.isdigit():
            raise ValueError(f"Incorrect value, the value of {_ENV[key]} must be positive "
                             f"integer. But got {_ENV[key]}:{value}.")


def _setup(config):
    global _logger
    with _lock:
        if _logger is not None:
            return _logger
        pid = os.getpid()
        logger = logging.getLogger(f"{_SUB_MODULE}.mindspore.log.{pid}")
        logger.findCaller = _find_caller
        logger.setLevel(_GLOG_LEVELS[config.get("level", "2")])
        logger.propagate = False
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        formatter = _Formatter(_FORMAT)
        if config.get("console", "1") == "0":
            folder = os.path.join(os.path.realpath(config["filepath"]), f"rank_{_rank()}", "logs")
            os.makedirs(folder, mode=0o700, exist_ok=True)
            name = os.path.join(folder, f"mindspore.log.{pid}")
            handler = RotatingFileHandler(name, maxBytes=int(config.get("maxBytes", 52428800)),
                                          backupCount=int(config.get("backupCount", 30)),
                                          encoding="utf8")
            handler.name = "FileHandler"
            handler.formatter = formatter
            logger.addHandler(handler)
            with open(name, "a", encoding="utf-8"):
                os.chmod(name, stat.S_IREAD | stat.S_IWRITE)
        console = _StderrHandler()
        console.name = "StreamHandler"
        console.formatter = formatter
        if logger.handlers:  # the file takes everything; stderr what GLOG_stderrthreshold lets
            console.setLevel(_GLOG_LEVELS[config.get("stderr_level", "2")])
        logger.addHandler(console)
        _logger = logger
    return logger


class _StderrHandler(logging.StreamHandler):
    """Writes to `sys.stderr` as it is when a record is logged (not when the logger was made),
    so a redirected stderr (contextlib.redirect_stderr, a test's capture) gets the messages."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass  # always the current sys.stderr


def _find_caller(stack_info=False, stacklevel=1):
    """The first frame outside this module and `logging`: the line that called `info()`."""
    frame = sys._getframe(1)
    while frame is not None and os.path.normcase(frame.f_code.co_filename) in _SKIPPED:
        frame = frame.f_back
    if frame is None:
        return "(unknown file)", 0, "(unknown function)", None
    info_ = None
    if stack_info:
        import traceback

        info_ = "Stack (most recent call last):\n" + "".join(traceback.format_stack(frame))
    code = frame.f_code
    return code.co_filename, frame.f_lineno, code.co_name, info_


def _rank():
    return os.getenv("RANK_ID") or os.getenv("OMPI_COMM_WORLD_RANK") or \
        os.getenv("MS_NODE_ID") or "0"
