"""CSVDataset and TextFileDataset: columns, types from column_defaults, the order MindSpore
reads several files in (by worker), sharding, num_samples, and the errors for missing files,
bad arguments and malformed rows. Worker counts are explicit: the order depends on them."""

import os
import shutil
import tempfile

import mindspore.dataset as ds


def rows(dataset):
    return [[f"{v.dtype.kind}:{v.item()!r}" for v in r]
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


def write(name, text):
    path = os.path.join(root, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


try:
    files = [write(f"{name}.txt", "".join(f"{name}_{i}\n" for i in range(n)))
             for name, n in [("f1", 3), ("f2", 1), ("f3", 4), ("f4", 2)]]
    text = ds.TextFileDataset(files, shuffle=False, num_parallel_workers=1)
    print(text.get_col_names(), text.get_dataset_size(), rows(text))
    print(rows(ds.TextFileDataset(files[::-1], shuffle=False, num_parallel_workers=2)))
    print(rows(ds.TextFileDataset(os.path.join(root, "f*.txt"), shuffle=False,
                                  num_parallel_workers=2)))
    for workers in (1, 2):
        for shard in range(3):
            sharded = ds.TextFileDataset(files, shuffle=False, num_shards=3, shard_id=shard,
                                         num_parallel_workers=workers)
            print(workers, shard, sharded.get_dataset_size(), rows(sharded))
    print(rows(ds.TextFileDataset(files, 5, 2, shuffle=False)))
    print(rows(ds.TextFileDataset(files, 2, 2, False, 2, 1)))
    print(rows(ds.TextFileDataset(files[:1], shuffle=False, num_shards=5, shard_id=4)))
    shuffled = ds.TextFileDataset(files, num_parallel_workers=2)
    print(shuffled.get_dataset_size(), sorted(r[0] for r in rows(shuffled)))
    odd = write("odd.txt", "a\n\n  b  \r\nc\r\n\nh\u00e9llo \u65e5\u672c\nlast")
    print(rows(ds.TextFileDataset(odd, shuffle=False)))

    a = write("a.csv", 'id,name,score\n1,alice,3.5\n2,"bob, jr",4\n3,carol,-1e2\n')
    b = write("b.csv", "id,name,score\n4,dan,1e3\n5,eve,-2\n")
    csv = ds.CSVDataset([b, a], shuffle=False, num_parallel_workers=2)
    print(csv.get_col_names(), csv.get_dataset_size(), rows(csv))
    print(rows(ds.CSVDataset(a, column_defaults=[0, "", 0.0], shuffle=False)))
    print(rows(ds.CSVDataset(b, column_defaults=[0, "x", 0], shuffle=False)))
    print(rows(ds.CSVDataset(a, column_defaults=[0.0], shuffle=False)))
    print(rows(ds.CSVDataset(b, column_names=["i", "n", "s"], shuffle=False)))
    print(rows(ds.CSVDataset([a, b], shuffle=False, num_shards=2, shard_id=1,
                             num_parallel_workers=2)))
    print(rows(ds.CSVDataset([a, b], num_samples=3, shuffle=False, num_parallel_workers=1)))
    c = write("c.csv", 'x;y\n1;2.5\n\n" 3 ";4x\r\n"multi\nline";+7\n')
    print(rows(ds.CSVDataset(c, field_delim=";", shuffle=False)))
    print(rows(ds.CSVDataset(c, field_delim=";", column_defaults=["", 0.0], shuffle=False)))
    print(rows(ds.CSVDataset(write("n.csv", "v\nnan\n-inf\n 12abc\n"), column_defaults=[0.5],
                             shuffle=False)))
    print(rows(ds.CSVDataset(write("m.csv", "v\n-7\n+8\n 3.9\n"), column_defaults=[0],
                             shuffle=False)))

    error("missing file", lambda: ds.TextFileDataset(os.path.join(root, "nope.txt")))
    error("csv missing file", lambda: ds.CSVDataset([a, os.path.join(root, "nope.csv")]))
    error("bad shuffle", lambda: ds.TextFileDataset(files, shuffle="global"))
    error("empty file", lambda: ds.TextFileDataset(write("e.txt", "")))
    error("field_delim two chars", lambda: ds.CSVDataset(a, field_delim=";;"))
    error("field_delim quote", lambda: ds.CSVDataset(a, field_delim='"'))
    error("numpy default", lambda: ds.CSVDataset(a, column_defaults=[__import__("numpy")
                                                                    .int64(0)]))
    error("int field text", lambda: ds.CSVDataset(write("t.csv", "x\nabc\n"),
                                                   column_defaults=[0]))
    error("int out of range", lambda: ds.CSVDataset(write("r.csv", "x\n3000000000\n"),
                                                     column_defaults=[0]))
    error("empty float", lambda: ds.CSVDataset(write("f.csv", "x,y\n1,\n"),
                                                column_defaults=[0, 0.5]))
    error("short row", lambda: ds.CSVDataset(write("s.csv", "x,y\n1\n")))
    error("long row", lambda: ds.CSVDataset(write("l.csv", "x,y\n1,2,3\n")))
    error("unterminated quote", lambda: ds.CSVDataset(write("q.csv", 'x,y\n"abc,1\n')))
    error("headers differ", lambda: ds.CSVDataset([write("h1.csv", "x\n1\n"),
                                                   write("h2.csv", "y\n2\n")]))
    error("header only", lambda: ds.CSVDataset(write("h.csv", "a,b\n")))
    error("shard_id alone", lambda: ds.CSVDataset(a, shard_id=0))
finally:
    shutil.rmtree(root)
