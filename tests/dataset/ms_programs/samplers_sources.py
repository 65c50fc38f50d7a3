import numpy as np
import mindspore as ms
import mindspore.dataset as ds

def rows(d, n=None):
    out = []
    for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1):
        out.append([x.tolist() for x in r])
    return out[:n] if n else out
S = lambda n=10, name="x", **kw: ds.NumpySlicesDataset({name: np.arange(n, dtype=np.int32)}, **kw)
def flat(d): return [r[0] for r in rows(d)]

def err(f):
    try:
        f()
        print("no error")
    except RuntimeError:
        print("RuntimeError")
    except Exception as e:
        print(type(e).__name__, str(e).strip().splitlines()[0][:300])

N = lambda n=10, name="x", **kw: ds.NumpySlicesDataset({name: np.arange(n, dtype=np.int32)}, shuffle=False, **kw)
it = N(3).create_tuple_iterator(num_epochs=1, output_numpy=True)
print([r[0].tolist() for r in it]); err(lambda: [r for r in it])
it = N(3).create_dict_iterator(num_epochs=1)
print([(type(r["x"]).__name__, r["x"].dtype) for r in it])
print([type(r).__name__ for r in N(3).create_tuple_iterator()], [type(r[0]).__name__ for r in N(3)])
d = N(10).batch(2)
d.set_init_step(3)
print(rows(d))
d = N(10).repeat(2)
d.set_init_step(13)
print(rows(d))
d = N(10).batch(3)
d.set_init_step(5)
it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
print([r[0].tolist() for r in it]); err(lambda: [r for r in it])
d = N(5)
print(d.get_dataset_size(), len(d))
for n_, s_ in [(10, 3), (10, 4), (3, 4), (11, 2)]:
    print(n_, s_, [flat(S(n_, sampler=ds.DistributedSampler(s_, i, shuffle=False))) for i in range(s_)])
print([flat(S(10, sampler=ds.DistributedSampler(3, i, shuffle=False, num_samples=2))) for i in range(3)])
print([flat(S(10, sampler=ds.DistributedSampler(3, i, shuffle=False, offset=1))) for i in range(3)])
print([flat(S(10, sampler=ds.DistributedSampler(4, i, shuffle=False, offset=2))) for i in range(4)])
print([flat(N(10, num_shards=3, shard_id=i)) for i in range(3)])
print([flat(ds.NumpySlicesDataset({"x": np.arange(10)}, num_shards=4, shard_id=i, shuffle=False)) for i in range(4)])
print(flat(S(10, sampler=ds.SequentialSampler(start_index=3, num_samples=4))), flat(S(10, sampler=ds.SequentialSampler(7))))
print(flat(S(10, sampler=ds.SubsetSampler([5, 1, 8, 1]))), flat(S(10, sampler=ds.SubsetSampler([5, 1, 8], num_samples=2))))
print(sorted(flat(S(10, sampler=ds.SubsetRandomSampler([5, 1, 8])))))
print(len(flat(S(10, sampler=ds.RandomSampler(replacement=True, num_samples=25)))), sorted(flat(S(10, sampler=ds.RandomSampler(num_samples=4)))).__len__())
print(len(flat(S(10, sampler=ds.WeightedRandomSampler([0, 0, 1, 0, 1, 0, 0, 0, 0, 0], 6)))), set(flat(S(10, sampler=ds.WeightedRandomSampler([0, 0, 1, 0, 1, 0, 0, 0, 0, 0], 6)))) <= {2, 4})
print(S(10, sampler=ds.SequentialSampler(start_index=3, num_samples=4)).get_dataset_size(), S(10, sampler=ds.DistributedSampler(3, 0)).get_dataset_size(), S(10, sampler=ds.RandomSampler(replacement=True, num_samples=25)).get_dataset_size())
err(lambda: S(9, sampler=ds.PKSampler(2)))
s = ds.SequentialSampler(1, 5); s.add_child(ds.SequentialSampler(0, 3))
print(flat(S(10, sampler=s)))
s = ds.DistributedSampler(2, 0, shuffle=False); s.add_child(ds.SequentialSampler(2, 6))
print(flat(S(10, sampler=s)))
class My(ds.Sampler):
    def __iter__(self):
        for i in range(self.dataset_size - 1, -1, -3):
            yield i
print(flat(S(10, sampler=My())), S(10, sampler=My()).get_dataset_size(), flat(S(10, sampler=My(num_samples=2))))
print(flat(S(10, sampler=[4, 2, 2])))
err(lambda: S(10, sampler=ds.SequentialSampler(), num_shards=2, shard_id=0))
err(lambda: S(10, sampler=ds.SequentialSampler(), shuffle=True))
err(lambda: S(10, sampler=ds.SequentialSampler(), num_samples=3))
err(lambda: ds.SubsetSampler([1.5]))
err(lambda: ds.RandomSampler(num_samples=-1))
err(lambda: N(10, num_shards=2))
err(lambda: N(10, num_shards=2, shard_id=2))
err(lambda: flat(S(10, sampler=ds.SubsetSampler([12]))))
def gen():
    for i in range(4): yield (i,)
err(lambda: ds.GeneratorDataset(gen, ["a"], shuffle=True))
err(lambda: ds.GeneratorDataset(gen, ["a"], num_shards=2, shard_id=0))
err(lambda: ds.GeneratorDataset(gen, ["a"], sampler=ds.SequentialSampler()))
print(rows(ds.GeneratorDataset(gen, ["a"], num_samples=2)), ds.GeneratorDataset(gen, ["a"], num_samples=2).get_dataset_size(), ds.GeneratorDataset(gen, ["a"]).get_dataset_size())
class RA:
    def __getitem__(self, i): return (np.array(i * 2),)
    def __len__(self): return 7
print(rows(ds.GeneratorDataset(RA(), ["a"], shuffle=False, num_shards=2, shard_id=1)))
print(rows(ds.GeneratorDataset(RA(), ["a"], sampler=ds.SubsetSampler([6, 0]))))
err(lambda: ds.GeneratorDataset(RA()))
err(lambda: ds.GeneratorDataset(RA(), column_names=["a"], num_parallel_workers=0))
p = ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(1)}, {"image": np.ones(3, np.uint8), "label": np.array(2)}])
print(p.get_col_names(), rows(p), p.get_dataset_size())
err(lambda: ds.PaddedDataset([]))
err(lambda: ds.PaddedDataset([{"a": 1}, {"b": 2}]))
err(lambda: ds.PaddedDataset([1, 2]))
print(rows(N(3) + ds.PaddedDataset([{"x": np.array(9, np.int32)}])))
