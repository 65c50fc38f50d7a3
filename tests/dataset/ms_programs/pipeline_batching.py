import numpy as np
import mindspore as ms
import mindspore.dataset as ds

def rows(d, n=None):
    out = []
    for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1):
        out.append([x.tolist() for x in r])
    return out[:n] if n else out

def err(f):
    try:
        f()
        print("no error")
    except RuntimeError:
        print("RuntimeError")
    except Exception as e:
        print(type(e).__name__, str(e).strip().splitlines()[0][:300])

# dtypes from python values
def gen():
    for i in range(3):
        yield i, float(i) / 2, [i, i + 1], True, np.float16(i)
g = ds.GeneratorDataset(gen, ["a", "b", "c", "d", "e"])
for r in g.create_tuple_iterator(output_numpy=True, num_epochs=1):
    print([(x.dtype, x.shape) for x in r])
    break
print(g.get_dataset_size(), g.output_types(), g.output_shapes())
n = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
print(n.get_col_names(), rows(n), n.output_types())
n = ds.NumpySlicesDataset([[1.0, 2.0], [3.0, 4.0]], shuffle=False)
print(n.get_col_names(), rows(n), n.output_types())
n = ds.NumpySlicesDataset(([1, 2], [3, 4]), shuffle=False)
print(n.get_col_names(), rows(n))
n = ds.NumpySlicesDataset({"x": [1, 2], "y": [3.5, 4]}, shuffle=False)
print(n.get_col_names(), rows(n), n.output_types())
# batch variants
x = np.arange(10, dtype=np.int32)
D = lambda: ds.NumpySlicesDataset({"x": x, "y": x * 2}, shuffle=False)
def pbm(xs, ys, info):
    return [a * 10 for a in xs], [b + info.get_batch_num() * 1000 + info.get_epoch_num() * 100 for b in ys]
b = D().batch(4, per_batch_map=pbm, input_columns=["x", "y"])
print(b.get_col_names(), rows(b))
def pbm2(xs, info):
    return xs, [a + 1 for a in xs]
b = D().batch(3, drop_remainder=True, per_batch_map=pbm2, input_columns=["x"], output_columns=["x", "z"])
print(b.get_col_names(), rows(b), b.get_dataset_size())
def pbm3(xs, ys, info):
    return (np.array(xs).sum(keepdims=True),)
err(lambda: rows(D().batch(3, per_batch_map=pbm3, input_columns=["x","y"], output_columns=["s"])))
b = D().batch(3, per_batch_map=pbm3, input_columns=["x","y"], output_columns=["s"])
print(b.get_col_names())
# padded_batch
def vgen():
    for i in range(5):
        yield np.arange(i + 1, dtype=np.int64), np.full((i % 2 + 1, 2), i, np.float32)
V = lambda: ds.GeneratorDataset(vgen, ["a", "b"], shuffle=False)
print(rows(V().padded_batch(2, pad_info={"a": (None, -1), "b": (None, 0)})))
print(rows(V().padded_batch(2, pad_info={"a": ([6], 0), "b": ([3, 2], 9)})))
print(rows(V().padded_batch(3, drop_remainder=True, pad_info={"b": None, "a": None})))
print(rows(V().padded_batch(2, pad_info={"a": None, "b": ([2, 2], 5)})))
err(lambda: rows(V().batch(2)))
err(lambda: rows(V().padded_batch(2, pad_info={"a": ([2], 0)})))
err(lambda: rows(V().padded_batch(2, pad_info={"q": ([2], 0)})))
# bucket
def bgen():
    for i in [1, 3, 2, 5, 4, 1, 7, 2, 6]:
        yield (np.arange(i, dtype=np.int32),)
BK = lambda: ds.GeneratorDataset(bgen, ["t"], shuffle=False)
print(rows(BK().bucket_batch_by_length(["t"], [3, 5], [2, 2, 3])))
print(rows(BK().bucket_batch_by_length(["t"], [3, 5], [2, 2, 3], pad_to_bucket_boundary=False, drop_remainder=True)))
print(rows(BK().bucket_batch_by_length(["t"], [3, 6], [2, 2, 3], pad_info={"t": (None, 7)}, pad_to_bucket_boundary=True)))
print(rows(BK().bucket_batch_by_length(["t"], [4], [2, 2], element_length_function=lambda t: 10 - t.shape[0])))
print(BK().bucket_batch_by_length(["t"], [3, 5], [2, 2, 3]).get_dataset_size())
err(lambda: BK().bucket_batch_by_length(["t"], [3, 5], [2, 2]))
err(lambda: BK().bucket_batch_by_length(["t"], [5, 3], [2, 2, 3]))
err(lambda: BK().bucket_batch_by_length(["t"], [0, 3], [2, 2, 3]))
