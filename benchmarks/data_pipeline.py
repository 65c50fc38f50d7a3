"""The in-memory data pipeline (issue 20, item 7): one epoch of 60,000 MNIST-sized uint8
images -> float32 normalize -> batches of 64, in samples/s.

    cellgrad  NumpySlicesDataset -> map(vision.Normalize) -> batch(64) -> tuple iterator
              (Tensors); also with a plain Python function as the map (per-row path), and
              with 2 worker processes (python_multiprocessing=True)
    pytorch   a map-style Dataset doing the same per sample, DataLoader(batch_size=64),
              num_workers 0 and 2
    numpy     slicing 64 rows at a time and normalizing them in place (the limit)

    python benchmarks/data_pipeline.py [--repeat 3]
"""

import argparse
import time

import numpy as np

from timing import torch_or_none

N, BATCH, MEAN, STD = 60000, 64, 33.3, 78.6


def data():
    rng = np.random.default_rng(0)
    return (rng.integers(0, 256, (N, 28, 28), dtype=np.uint8),
            rng.integers(0, 10, N).astype(np.int32))


def _rates(epochs, repeat):
    """{name: best samples/s}: `repeat` rounds, each timing one epoch of every contender in
    turn (interleaved, so a neighbour's load on a shared machine hits them alike); each epoch
    is checked to yield N rows."""
    best = {name: 0.0 for name in epochs}
    for _ in range(repeat):
        for name, epoch in epochs.items():
            t = time.perf_counter()
            seen = epoch()
            dt = time.perf_counter() - t
            assert seen == N, (name, seen)
            best[name] = max(best[name], N / dt)
    return best


def _rate(epoch, repeat):
    return _rates({"one": epoch}, repeat)["one"]


def cellgrad_epoch(images, labels, op=None, workers=None):
    import cellgrad.dataset as ds
    from cellgrad.dataset import vision

    op = op or vision.Normalize(mean=[MEAN], std=[STD])

    def epoch():
        d = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
        d = d.map(op, input_columns="image", num_parallel_workers=workers,
                  python_multiprocessing=workers is not None)
        seen = 0
        for x, _ in d.batch(BATCH).create_tuple_iterator(num_epochs=1):
            seen += x.shape[0]
        return seen

    return epoch


def _normalize_row(img):
    return (img.astype(np.float32) - np.float32(MEAN)) / np.float32(STD)


def torch_epoch(torch, images, labels, workers):
    class Digits(torch.utils.data.Dataset):
        def __len__(self):
            return N

        def __getitem__(self, i):
            x = (torch.from_numpy(images[i]).float() - MEAN) / STD
            return x, int(labels[i])

    def epoch():
        seen = 0
        loader = torch.utils.data.DataLoader(Digits(), batch_size=BATCH, num_workers=workers)
        for x, _ in loader:
            seen += x.shape[0]
        return seen

    return epoch


def numpy_epoch(images, labels):
    def epoch():
        seen = 0
        for i in range(0, N, BATCH):
            x = images[i:i + BATCH].astype(np.float32)  # in place: no extra temporaries
            x -= np.float32(MEAN)
            x /= np.float32(STD)
            y = labels[i:i + BATCH]
            seen += len(x) + 0 * len(y)
        return seen

    return epoch


def measure(repeat=3):
    """{contender: samples/s}; the slow contenders (per-row work: ~seconds an epoch) run one
    round."""
    images, labels = data()
    out = _rates({"cellgrad": cellgrad_epoch(images, labels),
                  "numpy": numpy_epoch(images, labels)}, repeat)
    slow = {"cellgrad python map": cellgrad_epoch(images, labels, _normalize_row),
            "cellgrad 2 workers": cellgrad_epoch(images, labels, _normalize_row, 2)}
    torch = torch_or_none()
    if torch is not None:
        slow["pytorch"] = torch_epoch(torch, images, labels, 0)
        slow["pytorch 2 workers"] = torch_epoch(torch, images, labels, 2)
    out.update(_rates(slow, 1))
    return out


def add_rows(table, repeat):
    """run_all.py's rows: cellgrad against DataLoader (>= 1.0x) and numpy slicing (>= 0.5x)."""
    got = measure(repeat)
    ms_per_epoch = {k: N / v * 1e3 for k, v in got.items()}
    cg, npy = ms_per_epoch["cellgrad"], ms_per_epoch["numpy"]
    for name in ("pytorch", "pytorch 2 workers"):
        if name in ms_per_epoch:
            table.add(f"data_pipeline epoch vs {name}", "ms", cg, ms_per_epoch[name], npy,
                      cg / ms_per_epoch[name], f"of {name}", 1.0)
    table.add("data_pipeline epoch vs numpy slicing", "ms", cg, None, npy, cg / npy,
              "of numpy", 2.0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    got = measure(args.repeat)
    print(f"data_pipeline: {N} uint8 28x28 -> float32 normalize -> batch {BATCH}, one epoch "
          f"(samples/s, best of {args.repeat})")
    base = got["cellgrad"]
    for name, rate in got.items():
        print(f"  {name:<20} {rate:12,.0f} samples/s   cellgrad / {name} = {base / rate:.2f}x")


if __name__ == "__main__":
    main()
