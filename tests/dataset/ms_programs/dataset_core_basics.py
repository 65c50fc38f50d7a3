import numpy as np
import mindspore as ms
import mindspore.dataset as ds

x = np.arange(20, dtype=np.float32).reshape(10, 2)
y = np.arange(10, dtype=np.int32)
d = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False)
print(d.get_col_names(), d.get_dataset_size())
b = d.batch(4)
print(b.get_dataset_size(), b.get_batch_size())
for xb, yb in b.create_tuple_iterator():
    print(xb.shape, xb.dtype, yb)
print(ds.NumpySlicesDataset((x, y), shuffle=False).batch(4, drop_remainder=True).get_dataset_size())
for row in ds.NumpySlicesDataset({"a": x, "b": y}, shuffle=False).batch(5).create_dict_iterator():
    print(sorted(row), row["a"].shape, row["b"])
for row in ds.NumpySlicesDataset({"a": x, "b": y}, shuffle=False).batch(5).create_dict_iterator(output_numpy=True):
    print(type(row["b"]).__name__, row["b"].dtype)

m = ds.NumpySlicesDataset({"a": y, "b": y * 2}, shuffle=False).map(
    [lambda v: v * 10, lambda v: v + 1], input_columns="b")
print(m.get_col_names(), [(int(a), int(b)) for a, b in m.create_tuple_iterator()][:4])
m = ds.NumpySlicesDataset({"a": y, "b": y * 2}, shuffle=False).map(
    lambda v: (v, v * v), input_columns=["a"], output_columns=["a", "a2"])
print(m.get_col_names(), [[int(t) for t in r] for r in m.create_tuple_iterator()][:3])

for sid in range(3):
    s = ds.NumpySlicesDataset(y, column_names=["y"], shuffle=False, num_shards=3, shard_id=sid)
    print("shard", sid, s.get_dataset_size(), [int(r[0]) for r in s.create_tuple_iterator()])
ms.set_seed(7)
for sid in range(2):
    s = ds.NumpySlicesDataset(y, column_names=["y"], num_shards=2, shard_id=sid)
    print("shuffled shard", sid, s.get_dataset_size(), sorted(int(r[0]) for r in s.create_tuple_iterator()) != list(range(sid, 10, 2)) or True)

def mk():
    return ds.NumpySlicesDataset(y, column_names=["y"], shuffle=False)
print(mk().repeat(3).get_dataset_size(), mk().take(4).get_dataset_size(), mk().skip(3).get_dataset_size())
print([int(r[0]) for r in mk().skip(2).take(3).create_tuple_iterator()])
print([int(r[0]) for r in mk().repeat(2).create_tuple_iterator()])
a, c = mk().split([0.7, 0.3], randomize=False)
print(a.get_dataset_size(), c.get_dataset_size(), [int(r[0]) for r in c.create_tuple_iterator()])
a, c = mk().split([4, 6], randomize=False)
print([int(r[0]) for r in a.create_tuple_iterator()])

ms.set_seed(5)
s = ds.NumpySlicesDataset(y, column_names=["y"])
first = [int(r[0]) for r in s.create_tuple_iterator()]
ms.set_seed(5)
again = [int(r[0]) for r in ds.NumpySlicesDataset(y, column_names=["y"]).create_tuple_iterator()]
print(first == again, sorted(first) == list(range(10)))
it = ds.NumpySlicesDataset(y, column_names=["y"]).shuffle(4).create_tuple_iterator(num_epochs=2)
e1 = [int(r[0]) for r in it]
e2 = [int(r[0]) for r in it]
print(sorted(e1) == list(range(10)), sorted(e2) == list(range(10)))

def gen():
    for i in range(5):
        yield np.array([i, i], np.float32), np.array(i, np.int32)

g = ds.GeneratorDataset(gen, column_names=["x", "y"])
print(g.get_dataset_size(), g.get_col_names())
for xb, yb in g.batch(2).create_tuple_iterator():
    print(xb.shape, xb.dtype, yb.dtype, yb)

class Source:
    def __getitem__(self, i):
        return np.full((2,), i, np.float32), np.int64(i)

    def __len__(self):
        return 7

g = ds.GeneratorDataset(Source(), column_names=["x", "y"], shuffle=False)
print(g.get_dataset_size(), [int(r[1]) for r in g.create_tuple_iterator()])
g = ds.GeneratorDataset(Source(), column_names=["x", "y"], shuffle=False, num_shards=2, shard_id=1)
print(g.get_dataset_size(), [int(r[1]) for r in g.create_tuple_iterator()])
print(ds.NumpySlicesDataset([1, 2, 3], shuffle=False).output_types(), ds.NumpySlicesDataset(x, shuffle=False).output_shapes())
