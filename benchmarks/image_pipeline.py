"""The image-folder pipeline (issue 20, item 7): JPEG files in class folders -> decode ->
random crop -> random horizontal flip -> normalize -> CHW float32 -> batches of 64, two
workers, one epoch, in samples/s.

    cellgrad  ImageFolderDataset -> map([Decode, RandomCrop, RandomHorizontalFlip, Normalize,
              HWC2CHW], num_parallel_workers=2) -> batch(64) -> tuple iterator (Tensors)
    pytorch   a map-style Dataset doing the same per sample with Pillow (as torchvision's
              ImageFolder + transforms do), DataLoader(batch_size=64, num_workers=2)

    python benchmarks/image_pipeline.py [--images 2048] [--repeat 3]

The images (128x128 RGB JPEG, quality 90, 10 classes) are written once to a temporary folder.
"""

import argparse
import pathlib
import tempfile
import time

import numpy as np

from timing import torch_or_none

SIZE, CROP, BATCH, WORKERS = 128, 112, 64, 2
MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def make_folder(root, images):
    """`images` JPEGs in ten class folders under `root` (smooth gradients plus noise, so they
    compress like photographs rather than like noise)."""
    from PIL import Image

    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    for i in range(images):
        folder = pathlib.Path(root) / f"class_{i % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        a, b, c = rng.uniform(0.2, 1.5, 3)
        base = np.stack([xx * a, yy * b, (xx + yy) * c / 2], axis=-1)
        img = np.clip(base + rng.normal(0, 12, base.shape), 0, 255).astype(np.uint8)
        Image.fromarray(img).save(folder / f"{i:05d}.jpg", quality=90)


def cellgrad_epoch(root, workers):
    import cellgrad.dataset as ds
    from cellgrad.dataset import vision

    ops = [vision.Decode(), vision.RandomCrop(CROP), vision.RandomHorizontalFlip(),
           vision.Normalize(mean=MEAN, std=STD), vision.HWC2CHW()]

    def epoch():
        d = ds.ImageFolderDataset(str(root), shuffle=True)
        d = d.map(ops, input_columns="image", num_parallel_workers=workers)
        seen = 0
        for x, _ in d.batch(BATCH).create_tuple_iterator(num_epochs=1):
            assert x.shape[1:] == (3, CROP, CROP)
            seen += x.shape[0]
        return seen

    return epoch


def torch_epoch(torch, root, workers):
    from PIL import Image

    files = sorted(pathlib.Path(root).glob("*/*.jpg"))
    labels = {name: i for i, name in enumerate(sorted({f.parent.name for f in files}))}
    mean = np.array(MEAN, np.float32)
    std = np.array(STD, np.float32)

    class Folder(torch.utils.data.Dataset):
        def __len__(self):
            return len(files)

        def __getitem__(self, i):
            img = Image.open(files[i]).convert("RGB")
            top, left = np.random.randint(0, SIZE - CROP + 1, 2)
            img = img.crop((left, top, left + CROP, top + CROP))
            if np.random.rand() < 0.5:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
            x = (np.asarray(img, np.float32) - mean) / std
            return torch.from_numpy(x.transpose(2, 0, 1).copy()), labels[files[i].parent.name]

    def epoch():
        seen = 0
        loader = torch.utils.data.DataLoader(Folder(), batch_size=BATCH, shuffle=True,
                                             num_workers=workers)
        for x, _ in loader:
            assert tuple(x.shape[1:]) == (3, CROP, CROP)
            seen += x.shape[0]
        return seen

    return epoch


def measure(images=2048, repeat=3):
    """{contender: best samples/s} over `repeat` interleaved rounds."""
    with tempfile.TemporaryDirectory() as root:
        make_folder(root, images)
        epochs = {"cellgrad": cellgrad_epoch(root, WORKERS)}
        torch = torch_or_none()
        if torch is not None:
            epochs["pytorch"] = torch_epoch(torch, root, WORKERS)
        best = {name: 0.0 for name in epochs}
        for _ in range(repeat):
            for name, epoch in epochs.items():
                t = time.perf_counter()
                seen = epoch()
                dt = time.perf_counter() - t
                assert seen == images, (name, seen)
                best[name] = max(best[name], images / dt)
        return best


def add_rows(table, repeat, images=2048):
    """run_all.py's row: cellgrad's epoch time against DataLoader's (target <= 1.0x)."""
    got = measure(images, repeat)
    ms = {k: images / v * 1e3 for k, v in got.items()}
    if "pytorch" in ms:
        table.add("image_pipeline epoch (2 workers)", "ms", ms["cellgrad"], ms["pytorch"], None,
                  ms["cellgrad"] / ms["pytorch"], "of pytorch", 1.0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--images", type=int, default=2048)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    got = measure(args.images, args.repeat)
    print(f"image_pipeline: {args.images} JPEG {SIZE}x{SIZE} -> decode, crop {CROP}, flip, "
          f"normalize, CHW -> batch {BATCH}, {WORKERS} workers (samples/s, best of "
          f"{args.repeat})")
    base = got["cellgrad"]
    for name, rate in got.items():
        print(f"  {name:<10} {rate:10,.0f} samples/s   cellgrad time / {name} = "
              f"{rate / base:.2f}x")


if __name__ == "__main__":
    main()
