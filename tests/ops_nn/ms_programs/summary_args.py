"""SummaryRecord's and SummaryCollector's argument checks and the summary ops' calls (all that
runs without a file being written, so without tensorboardX)."""
import os
import tempfile

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.train import SummaryCollector, SummaryRecord

root = tempfile.mkdtemp()


def trial(label, make):
    try:
        print(label, repr(make()))
    except Exception as exc:  # noqa: BLE001 - the program prints whatever MindSpore raises
        print(label, type(exc).__name__, exc)


for name in ("ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary"):
    op = getattr(ops, name)()
    print(name, op.name, op("x", Tensor(np.ones((1, 1, 2, 2), np.float32))), op.attrs, op)
print(ops.ScalarSummary is ms.ops.operations.ScalarSummary, ms.SummaryRecord is SummaryRecord,
      ms.train.callback.SummaryCollector is SummaryCollector)

trial("prefix", lambda: SummaryRecord(root, file_prefix="a/b"))
trial("suffix", lambda: SummaryRecord(root, file_suffix="x y"))
trial("prefix type", lambda: SummaryRecord(root, file_prefix=3))
trial("max_file_size", lambda: SummaryRecord(root, max_file_size="1"))
trial("raise_exception", lambda: SummaryRecord(root, raise_exception=1))
trial("export key", lambda: SummaryRecord(root, export_options={"x": "npy"}))
trial("log_dir int", lambda: SummaryRecord(3))
trial("log_dir blank", lambda: SummaryRecord("  "))

collector_dir = os.path.join(root, "collector")
for kwargs in [{"collect_freq": 0}, {"collect_freq": 1.5}, {"collect_freq": True},
               {"collect_specified_data": {"foo": True}},
               {"collect_specified_data": {"histogram_regular": "("}},
               {"collect_specified_data": {"histogram_regular": 3}},
               {"collect_specified_data": {"collect_metric": 1}},
               {"collect_specified_data": [1]},
               {"keep_default_action": 1}, {"custom_lineage_data": {"a": [1]}},
               {"custom_lineage_data": [1]}, {"collect_tensor_freq": -1},
               {"max_file_size": 0}, {"export_options": {"x": "npy"}}]:
    trial(sorted(kwargs), lambda kw=kwargs: SummaryCollector(collector_dir, **kw))
trial("summary_dir int", lambda: SummaryCollector(3))
print(sorted(os.listdir(root)))

target = os.path.join(root, "file")
open(target, "w").close()
try:
    SummaryRecord(target)
except NotADirectoryError as exc:
    print("log_dir file", str(exc).replace(target, "<file>"))
