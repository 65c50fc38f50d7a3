"""`SummaryLandscape`, mirroring `mindspore.train.SummaryLandscape`: loss landscapes from the
checkpoints `SummaryCollector(collect_specified_data={'collect_landscape': ...})` saved.

The collector saves the backbone's parameters at each step (or epoch) of the `intervals` into
`<summary_dir>/ckpt_dir` and, at the end of training, `train_metadata.json`, as MindSpore does.
`SummaryLandscape` then evaluates the loss on a `landscape_size` x `landscape_size` grid around
the last checkpoint of each interval: in the plane of its two principal directions (PCA of the
interval's parameter trajectory, with the trajectory's own losses) for `create_landscape['train']`,
and in two random directions for `['result']`, both filter-normalised as MindSpore does.

MindSpore writes each landscape as one MindInsight `LossLandscape` record; cellgrad's
SummaryRecord writes TensorBoard files, so a landscape is written as tensor summaries under
the tag MindSpore uses, `landscape_<interval>/<field>` (`x`, `y`, `z`, `path_x`, `path_y`,
`path_z`, `convergence`), and a text `landscape_<interval>/metadata` (decomposition, unit,
step_per_epoch). The PCA is an exact economy SVD (MindSpore uses a randomised one when the
trajectory has more than 500 parameters, so its directions then vary from run to run).
"""

import json
import os
import shutil
import stat
from collections import defaultdict, namedtuple
from concurrent.futures import ALL_COMPLETED, ProcessPoolExecutor, wait

import numpy as np

from cellgrad import log as logger

Points = namedtuple("Points", ["x", "y", "z"])
_DEFAULT = {"landscape_size": 40, "unit": "step", "num_samples": 2048,
            "create_landscape": {"train": True, "result": True},
            "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]}
_META_KEYS = ["epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples",
              "landscape_size", "create_landscape"]
_PROZ = 0.2  # the grid reaches 20% beyond the trajectory on each side


def check_value_type(name, value, types):
    """MindSpore's `check_value_type` (bool is not an int here)."""
    types = types if isinstance(types, tuple) else (types,)
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise TypeError(f"For `{name}` the type should be a valid type of "
                        f"{[t.__name__ for t in types]}, but got {type(value).__name__}.")


def check_intervals(intervals, owner, item_name, value_text, end):
    """The `intervals` setting: a list of lists of at least three ints (MindSpore's texts vary
    by caller: `item_name`, `value_text` and the messages' `end`)."""
    check_value_type("intervals", intervals, list)
    for interval in intervals:
        check_value_type(item_name, interval, list)
        if len(interval) < 3:
            raise ValueError(f'For "{owner}", the length of each list in "intervals" should not '
                             f'be less than three, but got the: {interval}{end}')
        for j in interval:
            if not isinstance(j, int):
                raise TypeError(f'For "{owner}", {value_text} "intervals" should be int, but '
                                f'got the: {type(j)}{end}')


def _is_direction(name):
    """MindSpore moves weights and biases only (not optimizer moments or other state)."""
    return ("weight" in name or "bias" in name) and "moment" not in name


def _write_readonly_json(path, data):
    if os.path.exists(path):
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file)
    os.chmod(path, stat.S_IRUSR)


# ---- the collector's side: checkpoints along the intervals ----


class LandscapeCheckpoints:
    """What `SummaryCollector` does for `collect_landscape`: checks the settings with its
    messages, saves the backbone at the intervals' steps/epochs, writes the metadata."""

    def __init__(self, summary_dir, collect_landscape, owner="SummaryCollector"):
        self._owner = owner
        self._check(collect_landscape)
        self._settings = collect_landscape
        self.ckpt_dir = os.path.join(summary_dir, "ckpt_dir")
        os.makedirs(self.ckpt_dir, mode=0o700, exist_ok=True)
        self._files = {}
        self._epoch_group = {i: list(v) for i, v in enumerate(collect_landscape["intervals"])}

    def _check(self, settings):
        unexpected = set(settings) - set(_DEFAULT)
        if unexpected:
            raise ValueError(f'For "{self._owner}", the keys {unexpected} of `collect_landscape` '
                             f'are unsupported, expect the follow keys: {list(_DEFAULT)}')
        size = settings.get("landscape_size", 40)
        check_value_type("landscape_size", size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{self._owner}", the "landscape_size" in '
                             f'collect_specified_data should be less than 256 and more than 3, '
                             f'but got the: {size}')
        unit = settings.get("unit", "step")
        check_value_type("unit", unit, str)
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{self._owner}", unit in collect_specified_data should be '
                             f'step or epoch, but got the: {unit}.')
        check_value_type("num_samples", settings.get("num_samples", 2048), int)
        create = settings.get("create_landscape", {"train": True, "result": True})
        check_value_type("create_landscape", create, dict)
        for key, value in create.items():
            if key not in ("train", "result"):
                raise ValueError(f'For "{self._owner}", the key to create landscape should be '
                                 f'in ["train", "result"], but got the: {key}.')
            check_value_type(key, value, bool)
        # MindSpore's collector and SummaryLandscape word these two checks differently
        check_intervals(settings.get("intervals"), self._owner, "each interval inintervals",
                        "the value of each list in", "")

    def _unit(self):
        return self._settings.get("unit", "step")

    def _in_intervals(self, number):
        return any(number in interval for interval in self._settings["intervals"])

    def step_end(self, cb):
        if cb.mode == "train" and self._unit() == "step" and self._in_intervals(cb.cur_step_num):
            self._save(cb, cb.cur_step_num)

    def epoch_end(self, cb):
        if cb.mode == "train" and self._unit() == "epoch" and \
                self._in_intervals(cb.cur_epoch_num):
            self._save(cb, cb.cur_epoch_num)

    def end(self, cb):
        if cb.mode != "train":
            return
        get = self._settings.get
        data = {"epoch_group": self._epoch_group, "model_params_file_map": self._files,
                "step_per_epoch": cb.batch_num, "unit": get("unit", "step"),
                "num_samples": get("num_samples", 2048),
                "landscape_size": get("landscape_size", 40),
                "create_landscape": get("create_landscape", {"train": True, "result": True})}
        path = os.path.join(self.ckpt_dir, "train_metadata.json")
        if not os.path.isfile(path):  # as MindSpore: the first training's metadata stays
            _write_readonly_json(path, data)

    def _save(self, cb, number):
        from cellgrad import save_checkpoint

        backbone = _backbone(cb.train_network)
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{number}_{self._unit()}"
                                           f".ckpt")
        self._files[str(number)] = path
        if not os.path.isfile(path):
            save_checkpoint([{"name": p.name, "data": p} for p in backbone.get_parameters()],
                            path)


def _backbone(network):
    """MindSpore's choice: the first `_backbone` below the train network, then down through
    `network` attributes of the wrappers."""
    backbone = next((cell._backbone for _, cell in network.cells_and_names()
                     if hasattr(cell, "_backbone")), network)
    while "network" in backbone.name_cells():
        has_optimizer = "optimizer" in backbone.name_cells()
        backbone = backbone.network
        if has_optimizer:
            break
    return backbone


# ---- the landscapes ----


class SummaryLandscape:
    """Mirrors `mindspore.train.SummaryLandscape` (see the module docstring)."""

    def __init__(self, summary_dir):
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        os.makedirs(self._ckpt_dir, mode=0o700, exist_ok=True)
        self._model_params_file_map = {}
        self._epoch_group = defaultdict(list)

    def clean_ckpt(self):
        """Delete the checkpoints (and metadata) the collector saved."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def gen_landscapes_with_multi_process(self, callback_fn, collect_landscape=None,
                                          device_ids=None, output=None):
        """Compute the landscapes and write them to a summary file in `output` (default: the
        summary dir). `callback_fn()` returns `(model, network, dataset, metrics)` with a
        'Loss' metric; with several `device_ids` the grid rows are shared among that many
        worker processes (on a CPU the ids only count the workers)."""
        from cellgrad_nn.train.summary_record import SummaryRecord

        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        record = SummaryRecord(output_path)
        executor = None
        try:
            self._check_device_ids(device_ids)
            if collect_landscape is not None:
                self._update_metadata(collect_landscape)
            if len(device_ids) > 1:
                executor = ProcessPoolExecutor(len(device_ids))
            for interval, landscape in self._list_landscapes(callback_fn, executor, device_ids):
                self._write(record, f"landscape_{interval}", landscape)
        finally:
            if executor is not None:
                executor.shutdown()
            record.close()

    # -- settings --

    def _check_device_ids(self, device_ids):
        check_value_type("device_ids", device_ids, list)
        name = f"{type(self).__name__}.gen_landscapes_with_multi_process"
        for i in device_ids:
            if not isinstance(i, int):
                raise TypeError(f'For "{name}", the parameter "device_ids" type should be int, '
                                f'but got the: {type(i)}.')
            if i < 0 or i > 7:
                raise ValueError(f'For "{name}", the parameter "device_ids" should be between 0 '
                                 f'and 7, but got {i}.')

    def _check_collect_landscape(self, settings):
        owner = type(self).__name__
        for key in settings:
            if key not in _DEFAULT:
                raise ValueError(f'For "{owner}", the key of collect landscape should be '
                                 f'landscape_size, unit, num_samples create_landscape or '
                                 f'intervals, but got the: {key}. ')
        if "landscape_size" in settings:
            self._check_landscape_size(settings["landscape_size"])
        if "unit" in settings:
            self._check_unit(settings["unit"])
        if "num_samples" in settings:
            check_value_type("num_samples", settings["num_samples"], int)
        if "create_landscape" in settings:
            self._check_create_landscape(settings["create_landscape"])
        if "intervals" in settings:
            check_intervals(settings["intervals"], owner, "each interval in intervals",
                            "the type of each value in", ".")

    def _check_landscape_size(self, size):
        check_value_type("landscape_size", size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{type(self).__name__}", "landscape_size" in '
                             f'train_metadata.json should be between 3 and 256, but got the: '
                             f'{size}')

    def _check_unit(self, unit):
        check_value_type("unit", unit, str)
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{type(self).__name__}", the "unit" in train_metadata.json '
                             f'should be step or epoch, but got the: {unit}')

    def _check_create_landscape(self, create):
        check_value_type("create_landscape", create, dict)
        for key, value in create.items():
            if key not in ("train", "result"):
                raise ValueError(f'For "{type(self).__name__}", the key of "create_landscape" '
                                 f'should be in ["train", "result"], but got the: {key}.')
            if len(create) < 2:
                raise ValueError(f'For "{type(self).__name__}", the key of "create_landscape" '
                                 f'should be train and result, but only got the: {key}')
            check_value_type(key, value, bool)

    def _metadata_path(self):
        return os.path.join(self._ckpt_dir, "train_metadata.json")

    def _update_metadata(self, settings):
        self._check_collect_landscape(settings)
        path = self._metadata_path()
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file '
                                    f'path of {path} not exists.')
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        data.update({k: v for k, v in settings.items() if k in data})
        if "intervals" in settings:
            for i, interval in enumerate(settings["intervals"]):
                self._epoch_group[i].extend(interval)
            data["epoch_group"] = self._epoch_group
        _write_readonly_json(path, data)

    def _read_metadata(self):
        path = self._metadata_path()
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file does '
                                    f'not exist under the path, please use summary_collector to '
                                    f'collect information to create the json file')
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        self._check_metadata(data)
        return data

    def _check_metadata(self, data):
        for key in data:
            if key not in _META_KEYS:
                raise ValueError(f'"train_metadata" json file should be {_META_KEYS}, but got '
                                 f'the: {key}')
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{type(self).__name__}", the "epoch_group" in '
                                 f'train_metadata.json, length of each list in "epoch_group" '
                                 f'should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in data["model_params_file_map"]:
                    raise ValueError(f'For "{type(self).__name__}", the "model_params_file_map" '
                                     f'in train_metadata.json does not exist {epoch}th '
                                     f'checkpoint in intervals.')
        check_value_type("step_per_epoch", data["step_per_epoch"], int)
        self._check_landscape_size(data["landscape_size"])
        self._check_unit(data["unit"])
        check_value_type("num_samples", data["num_samples"], int)
        self._check_create_landscape(data["create_landscape"])

    # -- computing --

    def _list_landscapes(self, callback_fn, executor, device_ids):
        data = self._read_metadata()
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        size = data["landscape_size"]
        meta = {"unit": data["unit"], "step_per_epoch": data["step_per_epoch"]}
        groups = list(self._epoch_group.values())
        if data["create_landscape"]["train"]:
            for epochs in groups:
                logger.info(f"Start to create the landscape of checkpoints {epochs}, "
                            f"decomposition is PCA.")
                yield [epochs[0], epochs[-1]], dict(
                    self._by_pca(epochs, size, callback_fn, executor, device_ids), **meta)
        if data["create_landscape"]["result"] and groups:
            final = [groups[-1][-1]]
            logger.info(f"Start to create the landscape of checkpoint {final}, decomposition "
                        f"is Random.")
            yield final, dict(self._by_random(final, size, callback_fn, executor, device_ids),
                              **meta)

    def _params(self, epochs):
        """[[(name, array)] per checkpoint of `epochs`]."""
        from cellgrad import load_checkpoint

        return [[(name, p.asnumpy()) for name, p in
                 load_checkpoint(self._model_params_file_map[str(e)]).items()] for e in epochs]

    def _by_pca(self, epochs, size, callback_fn, executor, device_ids):
        group = self._params(epochs)
        flat = np.vstack([_flat([a for n, a in params if _is_direction(n)]) for params in group])
        final = group[-1]
        components = _pca_2(flat[:-1] - flat[-1])
        v, w = (_normalize(final, _unflatten(components[:, i], final)) for i in (0, 1))
        basis = np.stack([_flat([d for (n, _), d in zip(final, v) if _is_direction(n)]),
                          _flat([d for (n, _), d in zip(final, w) if _is_direction(n)])], axis=1)
        coefs = np.array([np.linalg.lstsq(basis, row - flat[-1], rcond=None)[0] for row in flat])
        lo, hi = coefs.min(axis=0), coefs.max(axis=0)
        x_axis = np.linspace(lo[0] - _PROZ * (hi[0] - lo[0]), hi[0] + _PROZ * (hi[0] - lo[0]), size)
        y_axis = np.linspace(lo[1] - _PROZ * (hi[1] - lo[1]), hi[1] + _PROZ * (hi[1] - lo[1]), size)
        x_points, y_points = np.meshgrid(x_axis, y_axis)
        rows = [(x_points[i], y_points[i][0]) for i in range(size)]
        path_z, z = self._losses(callback_fn, final, v, w, coefs, rows, executor, device_ids)
        path_z, z = np.array(path_z), np.vstack(z)
        at_final = int(np.argmin(np.abs(coefs[:, 0]) + np.abs(coefs[:, 1])))
        return {"decomposition": "PCA", "x": x_axis, "y": y_axis, "z": z,
                "path": Points(coefs[:, 0], coefs[:, 1], path_z),
                "convergence": Points(np.array([0.0]), np.array([0.0]),
                                      np.array([path_z[at_final]]))}

    def _by_random(self, epochs, size, callback_fn, executor, device_ids):
        final = self._params(epochs)[-1]
        total = sum(a.size for _, a in final)
        v = _normalize(final, _unflatten(np.random.normal(size=total), final, every=True))
        w = _normalize(final, _unflatten(np.random.normal(size=total), final, every=True))
        axis = np.linspace(-_PROZ * 5, _PROZ * 5, size)
        x_points, y_points = np.meshgrid(axis, axis)
        rows = [(x_points[i], y_points[i][0]) for i in range(size)]
        z = np.vstack(self._losses(callback_fn, final, v, w, [], rows, executor, device_ids)[1])
        middle = size // 2
        return {"decomposition": "Random", "x": axis, "y": axis, "z": z, "path": None,
                "convergence": Points(np.array([axis[middle]]), np.array([axis[middle]]),
                                      np.array([z[middle][middle]]))}

    def _losses(self, callback_fn, final, v, w, path, rows, executor, device_ids):
        """The losses at final + x v + y w: one per (x, y) of `path`, and a row of them per
        (xs, y) of `rows`; with an executor each worker takes a share of both."""
        num_samples = self._read_metadata()["num_samples"]
        if executor is None:
            return _loss_rows(callback_fn, num_samples, final, v, w, path, rows)
        n = len(device_ids)
        futures = [executor.submit(_loss_rows, callback_fn, num_samples, final, v, w,
                                   list(path_part), rows_part)
                   for path_part, rows_part in zip(_share(list(path), n), _share(rows, n))]
        wait(futures, return_when=ALL_COMPLETED)
        results = [future.result() for future in futures]
        return [z for r in results for z in r[0]], [row for r in results for row in r[1]]

    # -- writing --

    @staticmethod
    def _write(record, tag, landscape):
        from cellgrad.common.tensor import Tensor

        arrays = {"x": landscape["x"], "y": landscape["y"], "z": landscape["z"]}
        if landscape["path"] is not None:
            arrays.update(path_x=landscape["path"].x, path_y=landscape["path"].y,
                          path_z=landscape["path"].z)
        arrays["convergence"] = np.concatenate(landscape["convergence"])
        for name, array in arrays.items():
            record.add_value("tensor", f"{tag}/{name}", Tensor(np.asarray(array, np.float64)))
        record.record(0)
        record._write_text(0, f"{tag}/metadata", json.dumps(
            {k: landscape[k] for k in ("decomposition", "unit", "step_per_epoch")}))
        record.flush()


def _flat(arrays):
    return np.concatenate([np.ravel(a) for a in arrays], axis=None) if arrays else np.zeros(0)


def _unflatten(vector, params, every=False):
    """`vector` cut into the shapes of `params` (only the weights and biases unless `every`;
    the others keep their values, which `_normalize` then zeroes)."""
    out, start = [], 0
    for name, array in params:
        if not every and not _is_direction(name):
            out.append(np.array(array, np.float32))
            continue
        out.append(np.array(vector[start:start + array.size].reshape(array.shape), np.float32))
        start += array.size
    return out


def _normalize(params, direction):
    """Filter normalisation: each weight/bias part of the direction gets its parameter's norm;
    the other parts are zero."""
    return [d * (np.linalg.norm(a) / np.linalg.norm(d)) if _is_direction(n) else d * 0
            for (n, a), d in zip(params, direction)]


def _pca_2(deltas):
    """The two leading principal directions (scaled by their singular values) of the
    trajectory `deltas` (checkpoints x parameters), signs fixed as MindSpore's `_PCA` does."""
    x = deltas.T.astype(np.float64)
    x = x - x.mean(axis=0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])])
    u = u * signs
    s = np.where(s == 0, 1e-19, s)
    comps = u[:, :2] * s[:2]
    if comps.shape[1] < 2:  # a trajectory of two checkpoints spans one direction
        comps = np.concatenate([comps, comps], axis=1)
    return comps


def _share(items, n):
    """MindSpore's split of `items` among `n` workers: equal parts, the rest to the last."""
    count = len(items) // n
    return [items[i * count:(i + 1) * count] if i < n - 1 else items[i * count:]
            for i in range(n)]


def _loss_rows(callback_fn, num_samples, final, v, w, path, rows):
    """In this process (or a worker): the 'Loss' metric at final + x v + y w for each point
    of `path` and each row of `rows`, reporting progress on stdout as MindSpore does."""
    from cellgrad import Parameter, Tensor, load_param_into_net
    from cellgrad_nn.train.metrics_select import get_metrics

    model, network, dataset, metrics = callback_fn()
    dataset = dataset.take(num_samples // dataset.get_batch_size())

    def at(x, y):
        params = {name: Parameter(Tensor((a + x * dv + y * dw).astype(np.float32)), name=name)
                  for (name, a), dv, dw in zip(final, v, w)}
        load_param_into_net(network, params)
        return _loss(model, dataset, get_metrics(metrics))

    path_losses = []
    for i, (x, y) in enumerate(path):
        path_losses.append(at(x, y))
        print(f"Drawing landscape path total progress is {i + 1}/{len(path)}, landscape path "
              f"loss is {path_losses[-1]}.")
    z_rows = []
    for i, (xs, y) in enumerate(rows):
        print(f"Drawing landscape total progress: {i + 1}/{len(rows)}.")
        row = []
        for j, x in enumerate(xs):
            row.append(at(x, y))
            print(f"Current local landscape progress is {j + 1}/{len(xs)}, landscape loss is "
                  f"{row[-1]}.")
        z_rows.append(np.array(row))
    return path_losses, z_rows


def _loss(model, dataset, metric_fns):
    from cellgrad.common.tensor import Tensor
    from cellgrad_nn.train.dataset_helper import DatasetHelper

    for metric in metric_fns.values():
        metric.clear()
    network = model.train_network
    network.set_train(True)
    for inputs in DatasetHelper(dataset, False):
        outputs = network(*((inputs,) if isinstance(inputs, Tensor) else inputs))
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}. "
                             f"Modify 'output' to Tensor or tuple. ")
        for metric in metric_fns.values():
            metric.update(outputs[0])
    return {key: m.eval() for key, m in metric_fns.items()}.get("Loss")
