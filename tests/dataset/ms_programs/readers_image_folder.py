"""ImageFolderDataset on a folder of small PNG/JPEG/BMP images: class indexing, extensions,
raw bytes (decode=False) and decoded pixels (decode=True, compared with Pillow's), order,
sharding, and the errors for a missing folder, bad arguments and a corrupt image."""

import io
import os
import shutil
import sys
import tempfile

import mindspore.dataset as ds
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                                "readers"))
import readers_files as rf  # noqa: E402  (numpy and Pillow only: writes the files)


def rows(dataset):
    return [(list(r[0].shape), int(r[0].sum()), int(r[1]), str(r[1].dtype))
            for r in dataset.create_tuple_iterator(output_numpy=True)]


def error(label, build):
    try:
        dataset = build()
        dataset.get_dataset_size()
        for _ in dataset.create_tuple_iterator(output_numpy=True):
            pass
        print(label, "no error")
    except (RuntimeError, ValueError, TypeError) as err:
        print(label, type(err).__name__)


root = tempfile.mkdtemp()
try:
    folder = rf.image_folder(os.path.join(root, "images"))
    raw = ds.ImageFolderDataset(folder, shuffle=False)
    print(raw.get_dataset_size(), raw.get_col_names(), raw.get_class_indexing(),
          raw.output_types(), raw.output_shapes())
    print(rows(raw))
    first = next(raw.create_tuple_iterator(output_numpy=True))
    with open(os.path.join(folder, "bird", "z.bmp"), "rb") as f:
        print(first[0].dtype, first[0].ndim, first[0].tobytes() == f.read())
    decoded = ds.ImageFolderDataset(folder, shuffle=False, decode=True)
    print(decoded.output_types(), decoded.output_shapes())
    print(rows(decoded))
    paths = [os.path.join(folder, c, f) for c in ("bird", "cat", "dog")
             for f in sorted(os.listdir(os.path.join(folder, c)))]
    for path, row in zip(paths, decoded.create_tuple_iterator(output_numpy=True)):
        pil = np.asarray(Image.open(path).convert("RGB"))
        print(os.path.basename(path), np.array_equal(row[0], pil))
    print(rows(ds.ImageFolderDataset(folder, shuffle=False, extensions=[".png", ".JPEG"])))
    print(rows(ds.ImageFolderDataset(folder, shuffle=False, extensions=[".jpeg", ".bmp"])))
    indexed = ds.ImageFolderDataset(folder, shuffle=False, class_indexing={"dog": 5, "cat": 1})
    print(indexed.get_class_indexing(), rows(indexed))
    for shard in range(4):
        print(shard, rows(ds.ImageFolderDataset(folder, shuffle=False, num_shards=4,
                                                shard_id=shard)))
    print(rows(ds.ImageFolderDataset(folder, 2, shuffle=False)))
    shuffled = ds.ImageFolderDataset(folder)
    print(shuffled.get_dataset_size(), sorted(r[2] for r in rows(shuffled)))

    # JPEGs of every chroma subsampling, progressive, gray, CMYK; PNGs gray, RGBA, palette,
    # gray+alpha, 1-bit and 16-bit gray (MindSpore keeps its high byte); TIFF
    rng = np.random.default_rng(7)
    big = rf.smooth_image(rng, 37, 53)
    kinds = os.path.join(root, "kinds", "all")
    os.makedirs(kinds)
    pal = io.BytesIO()
    Image.fromarray(big).convert("P", palette=Image.ADAPTIVE, colors=16).save(pal, "PNG")
    files = {"a_q75.jpg": rf.image_bytes(big, "JPEG"),
             "b_444.jpg": rf.image_bytes(big, "JPEG", quality=95, subsampling=0),
             "c_422.jpg": rf.image_bytes(big, "JPEG", quality=50, subsampling=1),
             "d_prog.jpg": rf.image_bytes(big, "JPEG", progressive=True),
             "e_gray.jpg": rf.image_bytes(big[..., 0], "JPEG"),
             "f_gray.png": rf.image_bytes(big[..., 1], "PNG"),
             "g_rgba.png": rf.image_bytes(np.concatenate([big, big[..., :1]], -1), "PNG"),
             "h_pal.png": pal.getvalue(), "i.tif": rf.image_bytes(big, "TIFF"),
             "j_cmyk.jpg": rf.encode(Image.fromarray(big).convert("CMYK"), "JPEG"),
             "k_la.png": rf.encode(Image.fromarray(big).convert("LA"), "PNG"),
             "l_1bit.png": rf.encode(Image.fromarray(big).convert("1"), "PNG"),
             "m_16bit.png": rf.image_bytes(big[..., 0].astype(np.uint16) * 257 + 3, "PNG")}
    for name, data in files.items():
        with open(os.path.join(kinds, name), "wb") as f:
            f.write(data)
    got = ds.ImageFolderDataset(os.path.dirname(kinds), shuffle=False, decode=True)
    for name, row in zip(sorted(files), got.create_tuple_iterator(output_numpy=True)):
        pil = np.asarray(Image.open(io.BytesIO(files[name])).convert("RGB"))
        print(name, row[0].shape, int(row[0].sum()), np.array_equal(row[0], pil))

    error("missing folder", lambda: ds.ImageFolderDataset(os.path.join(root, "nope")))
    error("extensions str", lambda: ds.ImageFolderDataset(folder, extensions=".jpg"))
    error("class_indexing list", lambda: ds.ImageFolderDataset(folder, class_indexing=["cat"]))
    error("decode int", lambda: ds.ImageFolderDataset(folder, decode=1))
    error("no match", lambda: ds.ImageFolderDataset(folder, extensions=[".gif"]))
    os.makedirs(os.path.join(root, "empty"))
    error("empty folder", lambda: ds.ImageFolderDataset(os.path.join(root, "empty")))
    for label, data in [("truncated jpeg", files["a_q75.jpg"][:40]),
                        ("not an image", b"hello, this is not an image"),
                        ("gif", rf.image_bytes(big, "GIF"))]:
        bad = os.path.join(root, "bad", "c")
        shutil.rmtree(os.path.dirname(bad), ignore_errors=True)
        os.makedirs(bad)
        with open(os.path.join(bad, "x.jpg"), "wb") as f:
            f.write(data)
        print(label, rows(ds.ImageFolderDataset(os.path.dirname(bad), shuffle=False))[0][:1])
        error(label, lambda folder=os.path.dirname(bad): ds.ImageFolderDataset(folder, decode=True))
finally:
    shutil.rmtree(root)
