"""`cellgrad-digits`: train, evaluate, checkpoint, reload and plot, in one command."""

import argparse
import os
import re
import sys
import time

import numpy as np

import cellgrad as ms
from cellgrad import nn
from cellgrad_digits import data, insight
from cellgrad_digits.net import DigitsNet

PREFIX = "digits"
# this program's checkpoints: a rerun in the same folder writes `digits_1-...`, `digits_2-...`
CHECKPOINT = re.compile(re.escape(PREFIX) + r"(?:_\d+)?-\d+_\d+\.ckpt$")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="cellgrad-digits", description=__doc__)
    p.add_argument("--epochs", type=int, default=10, help="epochs to train in all (default 10)")
    p.add_argument("--batch-size", type=int, default=32, help="training batch size (32)")
    p.add_argument("--lr", type=float, default=0.05, help="learning rate of Momentum (0.05)")
    p.add_argument("--seed", type=int, default=0, help="seed of the split, weights and order")
    p.add_argument("--out", default="./digits-out", help="output folder (./digits-out)")
    p.add_argument("--resume", metavar="CKPT",
                   help="continue from a checkpoint this program wrote")
    p.add_argument("--limit", type=int, help="use only N samples (for quick tests)")
    p.add_argument("--no-plots", action="store_true", help="do not write the PNG plots")
    p.add_argument("--profile", action="store_true",
                   help="profile training steps 2-4 into OUT/profile (summary table, trace)")
    p.add_argument("--summary", action="store_true",
                   help="write TensorBoard files (loss, learning rate, weights) to OUT/summary")
    args = p.parse_args(argv)
    for name in ("epochs", "batch_size", "limit"):
        value = getattr(args, name)
        if value is not None and value < 1:
            p.error(f"--{name.replace('_', '-')} must be a positive integer, got {value}")
    if args.limit is not None and args.limit < 50:
        p.error(f"--limit must be at least 50 (5 samples per class), got {args.limit}")
    return args


def join_job(args):
    """Under `mpirun -n N` (with cellgrad-distributed installed) train data-parallel: each
    process on its shard with batch_size/N (the same global batch), gradients averaged.
    Returns (rank, size); (0, 1) for one process."""
    try:
        from cellgrad.communication import get_group_size, get_rank, init
    except ImportError:  # cellgrad-distributed is not installed: one process
        return 0, 1
    init()
    rank, size = get_rank(), get_group_size()
    if size > 1:
        if args.batch_size % size:
            raise SystemExit(f"cellgrad-digits: --batch-size {args.batch_size} must be a "
                             f"multiple of the {size} processes")
        ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    return rank, size


def shard(train_set, x_train, y_train, args, rank, size):
    """This process's shard of the training set (the whole set for one process)."""
    if size == 1:
        return train_set
    return ms.dataset.NumpySlicesDataset((x_train, y_train), column_names=["image", "label"],
                                         shuffle=True, num_shards=size, shard_id=rank
                                         ).batch(args.batch_size // size)


def build(args):
    net = DigitsNet(data.CLASSES)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = ms.train.Model(net, loss, opt, metrics={"accuracy", "loss"})
    return net, opt, model


def resume(model, path):
    """Load weights and optimizer state; returns the epoch the checkpoint was written at."""
    params = ms.load_checkpoint(path)
    if "epoch_num" not in params:
        raise SystemExit(f"cellgrad-digits: {path} has no epoch_num: not written by this "
                         f"program (or by an older version)")
    epoch = int(params.pop("epoch_num").asnumpy())
    not_loaded, _ = ms.load_param_into_net(model.train_network, params)
    if [n for n in not_loaded if not n.startswith(("moments.", "global_step"))]:
        raise SystemExit(f"cellgrad-digits: {path} does not hold this network: missing "
                         f"{not_loaded[:5]}")
    return epoch


def train(args, model, train_set, test_set, ckpt_dir, initial_epoch):
    steps = train_set.get_dataset_size()
    config = ms.train.CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=3,
                                       append_info=["epoch_num"])
    checkpoints = ms.train.ModelCheckpoint(prefix=PREFIX, directory=ckpt_dir, config=config)
    history = ms.train.History()
    extra = insight.callbacks(args)
    model.fit(args.epochs, train_set, test_set, callbacks=[checkpoints, history, *extra],
              initial_epoch=initial_epoch)
    for callback in extra:
        if isinstance(callback, insight.ProfileSteps):
            print(callback.report())
        else:
            print(f"wrote TensorBoard files to {os.path.relpath(args.out)}/summary")
    return history, checkpoints.latest_ckpt_file_name


def blas():
    """The BLAS numpy computes with, its CPU kernel and threads, as threadpoolctl sees them
    (results differ in the last bits between kernels and thread counts)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "BLAS unknown: pip install threadpoolctl"
    libs = [lib for lib in threadpool_info() if lib.get("user_api") == "blas"]
    # numpy's own first (scikit-learn's scipy may load another copy)
    libs.sort(key=lambda lib: "numpy" not in str(lib.get("filepath", "")))
    if not libs:
        return "BLAS not loaded"
    lib = libs[0]
    kernel = f", {lib['architecture']} kernel" if lib.get("architecture") else ""
    return (f"numpy's BLAS: {lib.get('internal_api')} {lib.get('version')}{kernel}, "
            f"{lib.get('num_threads')} thread(s)")


def latest_checkpoint(ckpt_dir):
    """The newest checkpoint this program wrote in `ckpt_dir`, or None."""
    try:
        names = [n for n in os.listdir(ckpt_dir) if CHECKPOINT.match(n)]
    except FileNotFoundError:
        return None
    paths = [os.path.join(ckpt_dir, n) for n in names]
    return max(paths, key=os.path.getmtime) if paths else None


def predictions(net, x):
    net.set_train(False)
    return net(ms.Tensor(x)).asnumpy().argmax(axis=1)


def report(args, net, model, test_set, x_test, y_test, latest):
    accuracy = model.eval(test_set)["accuracy"]
    print(f"test accuracy: {accuracy:.4f} ({blas()})")
    fresh = DigitsNet(data.CLASSES)
    ms.load_param_into_net(fresh, ms.load_checkpoint(latest))
    reloaded = float(np.mean(predictions(fresh, x_test) == y_test))
    same = "identical" if reloaded == accuracy else "DIFFERENT"
    print(f"reloaded {os.path.relpath(latest)} into a fresh network: test accuracy "
          f"{reloaded:.4f} ({same})")
    pred = predictions(net, x_test)
    matrix = ms.train.ConfusionMatrix(data.CLASSES)
    matrix.update(np.eye(data.CLASSES)[pred], y_test)
    cm = matrix.eval().astype(int)
    print("confusion matrix (rows: true digit, columns: predicted):")
    print("     " + " ".join(f"{c:>3}" for c in range(data.CLASSES)))
    for digit, row in enumerate(cm):
        print(f"  {digit}: " + " ".join(f"{v:>3}" for v in row))
    return accuracy == reloaded, pred, cm


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    ms.set_seed(args.seed)  # the same weights and shuffling order in every process
    rank, size = join_job(args)
    os.makedirs(args.out, exist_ok=True)
    ckpt_dir = os.path.join(args.out, "checkpoints")
    x_train, x_test, y_train, y_test = data.load(args.limit, args.seed)
    train_set, test_set = data.datasets(x_train, y_train, x_test, y_test, args.batch_size)
    train_set = shard(train_set, x_train, y_train, args, rank, size)
    net, _, model = build(args)
    initial_epoch = resume(model, args.resume) if args.resume else 0
    # the shuffle order of epoch initial_epoch + 1 onwards, as the uninterrupted run reads it
    train_set.set_init_step(initial_epoch * train_set.get_dataset_size())
    if rank == 0:
        print(f"digits: {len(y_train)} training and {len(y_test)} test images, "
              f"{args.epochs - initial_epoch} epoch(s) from epoch {initial_epoch}"
              + (f", {size} processes" if size > 1 else ""))
    if initial_epoch >= args.epochs:
        raise SystemExit(f"cellgrad-digits: {args.resume} is at epoch {initial_epoch}; ask for "
                         f"more --epochs to continue")
    try:
        history, latest = train(args, model, train_set, test_set, ckpt_dir, initial_epoch)
    except KeyboardInterrupt:
        done = latest_checkpoint(ckpt_dir)
        hint = f"; continue with --resume {done}" if done else ""
        print(f"\ninterrupted{hint}", file=sys.stderr)
        return 130
    if rank != 0:  # rank 0 reports, checks its checkpoint and plots for the job
        return 0
    same, pred, cm = report(args, net, model, test_set, x_test, y_test, latest)
    if not args.no_plots:
        from cellgrad_digits import plots

        for path in plots.write_all(args.out, history, cm, x_test, y_test, pred):
            print(f"wrote {path}")
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0 if same else 1
