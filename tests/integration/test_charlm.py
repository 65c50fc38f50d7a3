"""`cellgrad-charlm` end to end on tiny settings: the pipeline, training, checkpoint, sample.

Needs core, ops-nn, dataset, checkpoint and the charlm example (tox env `all`).
"""

import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("cellgrad_charlm")
pytest.importorskip("cellgrad_checkpoint")

from cellgrad_charlm import cli, data, models  # noqa: E402

import cellgrad as ms  # noqa: E402

TINY = ["--epochs", "2", "--steps-per-epoch", "6", "--seq-len", "16", "--batch-size", "8",
        "--max-chars", "20000", "--sample-chars", "40", "--lr", "0.01"]


def number(pattern, text):
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not in:\n{text}"
    return float(match.group(1))


def test_split_is_by_file_and_reproducible():
    train, val, n_train, n_val = data.load(20000, seed=3)
    assert len(train) == 20000 and 0 < len(val) <= 20000 // 32
    assert n_train >= 1 and n_val >= 1
    assert data.load(20000, seed=3) == (train, val, n_train, n_val)
    files = data.stdlib_files()
    order = np.random.default_rng(3).permutation(len(files))
    val_files = {files[i] for i in order[:round(len(files) * 0.1)]}
    first_val = data.read(files[order[0]])
    assert val == first_val[:len(val)]
    first_train = next(f for f in (files[i] for i in order) if f not in val_files)
    assert train.startswith(data.read(first_train)[:1000])


def test_vocab_unknown_id_and_unigram_baseline():
    vocab = data.Vocab("aab")
    assert vocab.chars[1:] == ["a", "b"] and len(vocab) == 3
    np.testing.assert_array_equal(vocab.encode("abz"), [1, 2, data.UNK])
    assert vocab.decode([1, 2]) == "ab"
    # add-one counts: a 3, b 2, unknown 1 of 6
    got = data.unigram_baseline(vocab.encode("aab"), vocab.encode("az"), len(vocab))
    assert got == pytest.approx(-(math.log(3 / 6) + math.log(1 / 6)) / 2)


def test_windows_and_training_pipeline():
    ids = np.arange(100, dtype=np.int32)
    w = data.windows(ids, 8)
    assert w.shape == (12, 9)
    np.testing.assert_array_equal(w[1], np.arange(8, 17))
    ms.set_seed(0)
    dataset = data.train_dataset(ids, 8, 4, seed=0)
    stream = data.batches(dataset)
    n = dataset.get_dataset_size()
    seen = [next(stream) for _ in range(2 * n)]
    x, y = seen[0]
    assert x.shape == (4, 8) and y.shape == (4, 8) and x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy()[:, 1:], y.asnumpy()[:, :-1])  # shifted by one
    first = np.concatenate([b[0].asnumpy() for b in seen[:n]])
    second = np.concatenate([b[0].asnumpy() for b in seen[n:]])
    offset = first[:, 0].min() % 8  # the cut starts at a seeded offset below seq_len
    cut = {tuple(r) for r in data.windows(ids[offset:], 8)[:, :-1]}
    assert n == len(cut) // 4  # batches of 4, the remainder dropped
    for rows in (first, second):  # a pass reads distinct windows of the cut
        assert len({tuple(r) for r in rows}) == len(rows) and {tuple(r) for r in rows} <= cut
    assert not np.array_equal(first, second)  # in a new order
    with pytest.raises(SystemExit, match="fewer than --batch-size 64"):
        data.train_dataset(ids, 8, 64, seed=0)


@pytest.mark.parametrize("kind", sorted(models.MODELS))
def test_models_are_causal(kind):
    ms.set_seed(0)
    net = models.build(kind, 11, 12)
    net.set_train(False)
    x = np.random.default_rng(0).integers(0, 11, (2, 12)).astype(np.int32)
    changed = x.copy()
    changed[:, 7:] = (changed[:, 7:] + 1) % 11
    a, b = net(ms.Tensor(x)).asnumpy(), net(ms.Tensor(changed)).asnumpy()
    assert a.shape == (2, 12, 11)
    np.testing.assert_array_equal(a[:, :7], b[:, :7])  # no position sees a later character
    assert not np.allclose(a[:, 7:], b[:, 7:])


def check_run(text, out, kind):
    start = number(r"untrained validation loss (\d+\.\d+)$", text)
    baseline = number(r"unigram baseline (\d+\.\d+) nats/char", text)
    epochs = re.findall(r"^epoch (\d)/2: training loss \d+\.\d+ \(last 20 steps\), validation "
                        r"loss (\d+\.\d+), perplexity (\d+\.\d+)", text, re.M)
    assert [e[0] for e in epochs] == ["1", "2"]
    for _, loss, ppl in epochs:
        assert float(ppl) == pytest.approx(math.exp(float(loss)), rel=2e-3)
    final = float(epochs[-1][1])
    assert final < start  # trained: below the untrained network's loss
    assert 1.0 < baseline < 5.0
    assert f"vs unigram baseline {baseline:.4f}" in text
    reloaded = number(r"into a fresh network: validation loss (\d+\.\d+) \(identical\)$", text)
    assert reloaded == final
    ckpt = os.path.join(out, f"charlm-{kind}.ckpt")
    assert os.path.getsize(ckpt) > 1000 and os.path.exists(os.path.join(out, "vocab.json"))
    sample = re.search(r"^sample \(temperature 0\.7\):\n(def .*)\ndone in ", text, re.M | re.S)
    assert sample and len(sample.group(1)) == 4 + 40, text


def test_transformer_trains_reloads_samples_and_plots(tmp_path, capsys):
    out = str(tmp_path / "out")
    code = cli.main([*TINY, "--out", out, "--seed", "1"])
    captured = capsys.readouterr()
    assert code == 0, captured.out
    check_run(captured.out, out, "transformer")
    assert "model: transformer" in captured.out
    assert "6/6" in captured.err  # the progress bar (tqdm or the plain one)
    png = os.path.join(out, "loss_curve.png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert not os.path.exists(png) and "no loss-curve PNG" in captured.out
    else:
        with open(png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        assert os.path.getsize(png) > 1000


def test_lstm_from_the_command_line(tmp_path):
    out = str(tmp_path / "out")
    run = subprocess.run([sys.executable, "-m", "cellgrad_charlm", *TINY, "--model", "lstm",
                          "--out", out, "--no-plots", "--temperature", "0"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    check_run(run.stdout.replace("temperature 0.0", "temperature 0.7"), out, "lstm")
    assert "model: lstm" in run.stdout and not os.path.exists(os.path.join(out, "loss_curve.png"))
    params = ms.load_checkpoint(os.path.join(out, "charlm-lstm.ckpt"))
    assert any(name.startswith("lstm.") for name in params)


def test_the_same_seed_gives_the_same_run(tmp_path):
    args = [*TINY, "--epochs", "1", "--no-plots", "--model", "lstm"]
    runs = [subprocess.run([sys.executable, "-m", "cellgrad_charlm", *args, "--out",
                            str(tmp_path / str(i))], capture_output=True, text=True,
                           timeout=300) for i in range(2)]
    losses = [re.findall(r"validation loss (\d+\.\d+)", r.stdout) for r in runs]
    samples = [r.stdout.split("sample (")[1].split("\ndone in")[0] for r in runs]
    assert losses[0] == losses[1] and samples[0] == samples[1]


def test_bad_flags_are_refused():
    run = subprocess.run([sys.executable, "-m", "cellgrad_charlm", "--seq-len", "0"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "--seq-len must be a positive integer, got 0" in run.stderr
    run = subprocess.run([sys.executable, "-m", "cellgrad_charlm", "--model", "gru"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "invalid choice: 'gru'" in run.stderr
