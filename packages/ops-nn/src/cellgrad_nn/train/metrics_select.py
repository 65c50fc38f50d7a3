"""Metrics by name: `get_metric_fn`, `names` and `nn.get_metrics` (the metric objects a
`Model` evaluates, from names or a dict)."""

from cellgrad_nn.train import metrics, metrics_more
from cellgrad_nn.train.metrics import Metric

_BY_NAME = {**metrics.BY_NAME, **metrics_more.BY_NAME}


def get_metric_fn(name, *args, **kwargs):
    """Mirrors `mindspore.train.get_metric_fn`: a metric object from its name."""
    if name not in _BY_NAME:
        raise KeyError(f"Unknown Metric Function {name!r}; known: {sorted(_BY_NAME)}.")
    return _BY_NAME[name](*args, **kwargs)


def names():
    """Mirrors `mindspore.train.names`: the metric names `get_metric_fn` knows."""
    return sorted(_BY_NAME)


def get_metrics(metrics):
    """Mirrors `mindspore.nn.get_metrics`: None stays None; a dict {name: Metric} is checked
    and returned; a set of names gives {name: metric object}."""
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the key in 'metrics' "
                                "must be string and value in 'metrics' must be Metric, but got "
                                f"key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        out = {}
        for name in metrics:
            try:
                out[name] = get_metric_fn(name)
            except KeyError:
                raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to "
                               "official website for more details about supported metrics."
                               ) from None
        return out
    raise TypeError("For 'get_metrics', the argument 'metrics' must be None, dict or set, but "
                    f"got {metrics}")
