"""`SummaryRecord`, mirroring `mindspore.train.SummaryRecord`, writing TensorBoard event files.

MindSpore writes MindInsight's format: TFRecord framing around its own `Event` protobuf,
whose field numbers differ from TensorBoard's (a scalar is field 3, TensorBoard's old-style
histogram), so TensorBoard cannot read it. cellgrad writes TensorBoard's `Event` protobuf
through tensorboardX (the `summary` extra), in a file named as MindSpore's with "tfevents" in
the mark, which TensorBoard's loaders require:
`<file_prefix>.out.tfevents.summary.<time>.<device id>.<host><file_suffix>`.
Each `record` is written and flushed at once, so a run that crashes leaves the steps recorded
so far readable.
"""

import atexit
import os
import platform
import re
import struct
import threading
import time
import types
from urllib.parse import quote

import numpy as np

from cellgrad import log as logger
from cellgrad.train.summary.summary_record import _DEFAULT_EXPORT_OPTIONS as _EXPORT_OPTIONS
from cellgrad_nn.train import parallel, summary_ops
from cellgrad_nn.train.summary_values import PLUGINS, check_value, to_summary_value

EVENT_FILE_MARK = ".out.tfevents.summary."
_NAME_PATTERN = re.compile(r"^\w+[0-9a-zA-Z\_\.]*$", re.ASCII)
# MindInsight-only plugins MindSpore's add_value also takes; TensorBoard has no place for them
_MINDINSIGHT_PLUGINS = ("train_lineage", "eval_lineage", "dataset_graph",
                        "custom_lineage_data", "graph", "LANDSCAPE")
_instance_lock = threading.Lock()


def load_tensorboardx():
    """tensorboardX's protobufs and image encoder, or an ImportError saying how to get them."""
    try:
        from tensorboardX.proto import event_pb2, summary_pb2, tensor_pb2, tensor_shape_pb2
        from tensorboardX.record_writer import masked_crc32c
        from tensorboardX.summary import make_image, text
    except ImportError as exc:
        raise ImportError('SummaryRecord writes TensorBoard event files through tensorboardX, '
                          'which is not installed: pip install "cellgrad-ops-nn[summary]"') \
            from exc
    return types.SimpleNamespace(
        Event=event_pb2.Event, Summary=summary_pb2.Summary,
        HistogramProto=summary_pb2.HistogramProto, TensorProto=tensor_pb2.TensorProto,
        TensorShapeProto=tensor_shape_pb2.TensorShapeProto, make_image=_image_maker(make_image),
        text=text, masked_crc32c=masked_crc32c)


def _image_maker(make_image):
    def encode(hwc):
        try:
            return make_image(hwc)
        except ImportError as exc:
            raise ImportError('An image summary is encoded as PNG by Pillow, which is not '
                              'installed: pip install "cellgrad-ops-nn[summary]"') from exc
    return encode


def make_directory(path, arg_name, owner):
    """MindSpore's checks of a summary directory; the directory, made if missing. cellgrad also
    checks that it can write there, so a bad directory fails at once, naming `owner`."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if not path.strip():
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise NotADirectoryError(f"The path({path}) is a file path, it should be a directory "
                                 f"path.")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except PermissionError as exc:  # MindSpore's class for it
        raise TypeError(f"For '{owner}', no write permission on the directory: the "
                        f"{arg_name} {path!r} cannot be created ({exc}).") from exc
    except OSError as exc:
        raise OSError(f"For '{owner}', the {arg_name} {path!r} cannot be created ({exc}).") \
            from exc
    if not os.access(path, os.W_OK | os.X_OK):
        raise PermissionError(f"For '{owner}', the {arg_name} {path!r} is not writable.")
    return path


def event_file_name(prefix, suffix, time_second):
    """`<prefix>.out.tfevents.summary.<time>.<device id>.<host><suffix>` (MindSpore's name
    with "tfevents", the mark TensorBoard looks for); the device id is the rank when
    distributed."""
    rank, size = parallel.rank_and_size()
    return f"{prefix}{EVENT_FILE_MARK}{time_second}.{rank if size > 1 else 0}." \
           f"{platform.node()}{suffix}"


def check_export_options(export_options):
    """MindSpore's checks of `export_options` ({'tensor_format': 'npy' or None})."""
    if export_options is None:
        return None
    if not isinstance(export_options, dict):
        raise TypeError(f"For `export_options` the type should be a valid type of ['dict', "
                        f"'NoneType'], but got {type(export_options).__name__}.")
    unexpected = set(export_options) - set(_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are '
                         f'unsupported, expect the follow keys: {list(_EXPORT_OPTIONS)}')
    for option, value in export_options.items():
        if value not in _EXPORT_OPTIONS[option]:
            raise ValueError(f'For "SummaryRecord", the export_format {{{value!r}}} of '
                             f'"export_options" are unsupported for {option}, expect the follow '
                             f'values: {sorted(_EXPORT_OPTIONS[option], key=str)}')
    return export_options


class _EventFile:
    """One TensorBoard event file, opened on the first write (appended to, never truncated)."""

    def __init__(self, path, max_file_size, pb):
        self.path, self.remaining, self.pb = path, max_file_size, pb
        self.file = None

    def write_event(self, event):
        data = event.SerializeToString()
        if self.file is None:
            self.file = open(self.path, "ab")
            os.chmod(self.path, 0o600)
            self._write(self.pb.Event(wall_time=time.time(), file_version="brain.Event:2")
                        .SerializeToString())
        self._write(data)
        self.file.flush()

    def _write(self, data):
        required = len(data) + 16  # 8 for the length, 4 for each crc
        if self.remaining is not None:
            if required > self.remaining:
                raise RuntimeWarning(f"'max_file_size' reached: There are {self.remaining} bytes "
                                     f"remaining, but the '{self.path}' requires to write "
                                     f"{required} bytes.")
            self.remaining -= required
        header = struct.pack("<Q", len(data))
        self.file.write(header + struct.pack("<I", self.pb.masked_crc32c(header)) + data
                        + struct.pack("<I", self.pb.masked_crc32c(data)))

    def flush(self):
        if self.file is not None:
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self):
        if self.file is not None:
            self.file.close()


class SummaryRecord:
    """Mirrors `mindspore.train.SummaryRecord`: `add_value` queues values, `record(step)`
    writes them (with those the summary ops queued) as one event of that step.

    Writes TensorBoard event files (see the module docstring); `network` is accepted and no
    graph is written (cellgrad runs eagerly, there is no compiled graph to draw).
    """

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        self._check_count()
        log_path = make_directory(log_dir, "log_dir", "SummaryRecord")
        if not isinstance(max_file_size, (int, type(None))) or isinstance(max_file_size, bool):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but "
                            f"got type {type(max_file_size)}")
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix`  should be "
                            f"str, but got type {type(file_prefix)}")
        for text in (file_prefix, file_suffix):
            if not _NAME_PATTERN.match(text):
                raise ValueError(f"The '{text}' is illegal, it must be match regular"
                                 f"'{_NAME_PATTERN.pattern}' by flags're.ASCII.'")
        if max_file_size is not None and max_file_size < 0:
            logger.warning(f"For 'SummaryRecord', the 'max_file_size' should be greater than 0. "
                           f"but got value {max_file_size}.")
            max_file_size = None
        if not isinstance(raise_exception, bool):
            raise TypeError(f"The type of 'raise_exception' should be 'bool', but got type "
                            f"'{type(raise_exception).__name__}'.")
        self._export_options = check_export_options(export_options)
        self._pb = load_tensorboardx()
        with _instance_lock:
            self._check_count()
            SummaryRecord.count += 1
        time_second = str(int(time.time()))
        self.base_log_dir, self.file_prefix, self.file_suffix = log_dir, file_prefix, file_suffix
        self.network, self.max_file_size, self.raise_exception = network, max_file_size, \
            raise_exception
        self.file_info = {"file_name": event_file_name(file_prefix, file_suffix, time_second)}
        self.file_info["file_path"] = os.path.join(log_path, self.file_info["file_name"])
        self._export_dir = os.path.join(log_path, f"export_{time_second}")
        self._file = _EventFile(self.file_info["file_path"], max_file_size, self._pb)
        self._mode, self._pool = "train", {}
        self._closed = self._warned_graph = False
        atexit.register(self.close)

    @classmethod
    def _check_count(cls):
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, "
                f"you are trying to create a new one when the existing instance number is "
                f"{cls.count}. Please check your scripts.")

    def __enter__(self):
        if self._closed:
            raise ValueError('For "SummaryRecord", SummaryRecord has been closed, please check '
                             'if close() method is called')
        return self

    def __exit__(self, *err):
        self.close()

    @property
    def log_dir(self):
        """The full path of the event file."""
        return self.file_info["file_path"]

    def set_mode(self, mode):
        """'train' or 'eval'; in 'eval' the summary ops' values are not recorded."""
        if mode not in ("train", "eval"):
            raise ValueError(f'For "SummaryRecord.set_mode", {mode!r} is not a recognized mode, '
                             'expect the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue `value` (a Tensor) under `name` for `plugin`: 'scalar', 'image' (NCHW),
        'histogram' or 'tensor'."""
        if plugin in _MINDINSIGHT_PLUGINS:
            raise ValueError(f'For "SummaryRecord.add_value", the plugin {plugin!r} holds '
                             f"MindInsight's lineage/graph/landscape data, which cellgrad's "
                             f"TensorBoard files do not hold; use 'scalar', 'image', "
                             f"'histogram' or 'tensor'.")
        if plugin not in PLUGINS:
            raise ValueError(f'For "SummaryRecord.add_value", no such "plugin" of {plugin!r} , '
                             f'expect value is one of [tensor, scalar, image, histogram, '
                             f'train_lineage, eval_lineage, dataset_graph, custom_lineage_data, '
                             f'graph, landscape]')
        if not name or not isinstance(name, str):
            raise ValueError(f'For "SummaryRecord", the parameter "name" type should be str, but '
                             f'got {type(name)}.')
        self._add(plugin, name, check_value(plugin, value, "SummaryRecord"))

    def _add(self, plugin, name, array):
        if (plugin, name) in self._pool:
            logger.warning(f'For "SummaryRecord.add_value", {name + "/" + plugin!r} has duplicate '
                           f'values. Only the newest one will be recorded.')
            del self._pool[(plugin, name)]
        self._pool[(plugin, name)] = array

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the queued values as the event of `step`; False when closed."""
        from cellgrad.nn import Cell

        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"The type of 'step' should be 'int', but got type "
                            f"'{type(step).__name__}'.")
        if train_network is not None and not isinstance(train_network, Cell):
            raise TypeError(f"The type of 'train_network' should be one of '['Cell', "
                            f"'NoneType']', but got type '{type(train_network).__name__}'.")
        if self._closed:
            logger.error("For 'SummaryRecord', The record writer is closed, please check if "
                         "close() method is called")
            return False
        if self.network is not None and not self._warned_graph:
            logger.warning("SummaryRecord: cellgrad runs eagerly and writes no graph for "
                           "'network'.")
            self._warned_graph = True
        if self._mode == "train":
            self._take_summary_ops()
        pool, self._pool = self._pool, {}
        if plugin_filter:
            pool = {key: array for key, array in pool.items() if plugin_filter(key[0])}
        self._write(step, pool)
        return True

    def _take_summary_ops(self):
        queued = summary_ops.take_queued()
        for op_name, name, value in queued:
            if not isinstance(name, str):
                raise TypeError(f'For "{op_name}", the name must be valid string, but got '
                                f'"{name}".')
            if not name:  # MindSpore's ValueError for an empty name
                raise ValueError(f"For '{op_name}', the name must be valid string, but got "
                                 f"'{name}'.")
            self._add(op_name[:-len("Summary")].lower(), name,
                      check_value(op_name[:-len("Summary")].lower(), value, op_name))

    def _write(self, step, pool):
        values = []
        for (plugin, tag), array in pool.items():
            value = to_summary_value(self._pb, plugin, tag, array)
            if value is None:
                logger.error(f"The dimension of Summary tensor should be 4 or second dimension "
                             f"should be 1 or 3, but got tag = {tag}, ndim = {array.ndim}, "
                             f"shape={array.shape}, which means Summary tensor is not Image.")
                continue
            values.append(value)
            if plugin == "tensor" and self._export_options and \
                    self._export_options.get("tensor_format") == "npy":
                self._guarded(lambda _, t=tag, a=array: self._export_npy(t, step, a))
        if values:
            self._write_event(step, self._pb.Summary(value=values))

    def _write_event(self, step, summary):
        event = self._pb.Event(wall_time=time.time(), step=step, summary=summary)
        self._guarded(lambda file: file.write_event(event))

    def _write_text(self, step, tag, text):
        """A TensorBoard text summary, written at once (SummaryCollector's lineage data)."""
        if not self._closed:
            self._write_event(step, self._pb.text(tag, text))

    def _guarded(self, write):
        """Calls `write(file)` with MindSpore's policy: a write error is logged and writing
        stops, unless `raise_exception`; a full `max_file_size` is a warning."""
        if self._file is None:
            return
        try:
            write(self._file)
        except RuntimeWarning as exc:
            logger.warning(str(exc))
            self._stop_writing()
        except (RuntimeError, OSError) as exc:
            logger.error(f"For 'SummaryRecord', writing {self.log_dir!r} failed: {exc}")
            self._stop_writing()
            if self.raise_exception:
                raise

    def _stop_writing(self):
        self._file.close()
        self._file = None

    def _export_npy(self, tag, step, array):
        folder = os.path.join(self._export_dir, "tensor")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        np.save(os.path.join(folder, f"{quote(tag, safe='')}_{int(step)}.npy"), array)

    def flush(self):
        """Write what is buffered to disk."""
        if self._closed:
            logger.error("For 'SummaryRecord', the record writer is closed and can not flush, "
                         "please check if close() method is called")
        else:
            self._guarded(lambda file: file.flush())

    def close(self):
        """Flush and close the file; a second call does nothing."""
        if self._closed:
            return
        atexit.unregister(self.close)
        self._guarded(lambda file: file.flush())
        if self._file is not None:
            self._file.close()
        self._closed = True
        with _instance_lock:
            SummaryRecord.count -= 1
