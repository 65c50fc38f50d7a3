# Recorded with OpenCV on the path of MindSpore's venv (MindSpore's converters import cv2):
#   PYTHONPATH=<opencv-python-headless 4.10 target> GLOG_v=3 <ms-venv>/bin/python <this file>

import gzip
import os
import shutil
import tempfile

import cv2
import numpy as np
from mindspore.mindrecord import CsvToMR, FileReader, ImageNetToMR, MnistToMR

root = tempfile.mkdtemp()
rng = np.random.default_rng(3)


def rows(path):
    reader = FileReader(path)
    out = list(reader.get_next())
    reader.close()
    return out


# MNIST: four gzipped IDX files
mnist = os.path.join(root, "mnist")
os.makedirs(mnist)
images = (rng.random((2, 5, 28, 28)) * 255).astype(np.uint8)
labels = rng.integers(0, 10, (2, 5)).astype(np.uint8)
for part, prefix in enumerate(("train", "t10k")):
    with gzip.open(os.path.join(mnist, f"{prefix}-images-idx3-ubyte.gz"), "wb") as f:
        f.write(b"\0" * 16 + images[part].tobytes())
    with gzip.open(os.path.join(mnist, f"{prefix}-labels-idx1-ubyte.gz"), "wb") as f:
        f.write(b"\0" * 8 + labels[part].tobytes())
print(MnistToMR(mnist, os.path.join(root, "mnist_mr")).transform())
for part, name in enumerate(("train", "test")):
    got = rows(os.path.join(root, f"mnist_mr_{name}.mindrecord"))
    print(name, len(got), sorted(got[0]), [int(r["label"]) for r in got])
    decoded = [cv2.imdecode(np.frombuffer(r["data"], np.uint8), cv2.IMREAD_GRAYSCALE) for r in got]
    print([d.shape for d in decoded][:2], max(float(np.abs(d.astype(int) - i.astype(int)).mean())
                                              for d, i in zip(decoded, images[part])) < 30)

# CSV
csv_file = os.path.join(root, "table.csv")
with open(csv_file, "w") as f:
    f.write("id,score,name,flag\n1,0.5,ab,True\n2,1.25,cd,False\n3,-2.0,ef,True\n")
CsvToMR(csv_file, os.path.join(root, "csv_mr")).transform()
for r in rows(os.path.join(root, "csv_mr")):
    print({k: (v.item() if hasattr(v, "item") else v) for k, v in sorted(r.items())})
CsvToMR(csv_file, os.path.join(root, "csv_mr2"), columns_list=["name", "id"]).transform()
print([sorted(r.items()) for r in rows(os.path.join(root, "csv_mr2"))])
for bad in [lambda: CsvToMR(csv_file, os.path.join(root, "x"), columns_list="id"),
            lambda: CsvToMR(csv_file, os.path.join(root, "y"), partition_number="1"),
            lambda: CsvToMR(csv_file, os.path.join(root, "z"), columns_list=["nope"]).transform()]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)

# ImageNet: a map file naming one directory per label
image_dir = os.path.join(root, "imagenet")
for wnid in ("n01", "n02"):
    os.makedirs(os.path.join(image_dir, wnid))
    for k in range(2):
        cv2.imwrite(os.path.join(image_dir, wnid, f"img{k}.JPEG"),
                    (rng.random((6, 7, 3)) * 255).astype(np.uint8))
with open(os.path.join(root, "map.txt"), "w") as f:
    f.write("n01 0\nn02 1\n")
imagenet_mr = os.path.join(root, "imagenet_mr")
ImageNetToMR(os.path.join(root, "map.txt"), image_dir, imagenet_mr).transform()
got = rows(imagenet_mr)
print(len(got), sorted(got[0]))
print(sorted((int(r["label"]), os.path.basename(str(r["file_name"])), len(r["image"])) for r in got)
      == sorted((int(w == "n02"), f"img{k}.JPEG",
                 os.path.getsize(os.path.join(image_dir, w, f"img{k}.JPEG")))
                for w in ("n01", "n02") for k in range(2)))
shutil.rmtree(root)
