"""`cellgrad-charlm`: train a character-level language model on Python's own standard library
source, report validation loss against the unigram baseline, checkpoint, reload and sample."""

import argparse
import json
import math
import os
import sys
import time

import numpy as np

import cellgrad as ms
from cellgrad import nn
from cellgrad_charlm import data, models, progress


def parse_args(argv):
    p = argparse.ArgumentParser(prog="cellgrad-charlm", description=__doc__)
    p.add_argument("--model", choices=sorted(models.MODELS), default="transformer",
                   help="the network (default transformer)")
    p.add_argument("--epochs", type=int, default=4, help="epochs (default 4)")
    p.add_argument("--steps-per-epoch", type=int, default=100,
                   help="training steps an epoch (default 100)")
    p.add_argument("--seq-len", type=int, default=64, help="window length (default 64)")
    p.add_argument("--batch-size", type=int, default=32, help="windows a step (default 32)")
    p.add_argument("--lr", type=float, default=3e-3, help="Adam's learning rate (3e-3)")
    p.add_argument("--max-chars", type=int, default=1_000_000,
                   help="training characters read from the stdlib (default 1000000; "
                        "validation reads a 32nd of it from other files)")
    p.add_argument("--seed", type=int, default=0, help="seed of the split, weights and order")
    p.add_argument("--out", default="./charlm-out", help="output folder (./charlm-out)")
    p.add_argument("--prompt", default="def ", help="start of the generated sample ('def ')")
    p.add_argument("--sample-chars", type=int, default=300, help="characters to generate (300)")
    p.add_argument("--temperature", type=float, default=0.7,
                   help="sampling temperature; 0 picks the likeliest character (0.7)")
    p.add_argument("--no-plots", action="store_true", help="do not write the loss-curve PNG")
    args = p.parse_args(argv)
    for name in ("epochs", "steps_per_epoch", "seq_len", "batch_size", "max_chars"):
        value = getattr(args, name)
        if value < 1:
            p.error(f"--{name.replace('_', '-')} must be a positive integer, got {value}")
    if args.temperature < 0:
        p.error(f"--temperature must be >= 0, got {args.temperature}")
    return args


def trainer(net, opt, vocab_size):
    """One Adam step on a batch: MindSpore's `value_and_grad` over the optimizer's parameters."""
    loss_fn = nn.CrossEntropyLoss()

    def forward(x, y):
        logits = net(x)
        return loss_fn(logits.reshape(-1, vocab_size), y.reshape(-1))

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return float(loss.asnumpy())

    return step


def evaluate(net, val_windows, batch_size=64):
    """Mean cross-entropy (nats/char) of the model's next-character predictions."""
    net.set_train(False)
    total = 0.0
    for i in range(0, len(val_windows), batch_size):
        w = val_windows[i:i + batch_size]
        logits = net(ms.Tensor(w[:, :-1])).asnumpy().astype(np.float64)
        m = logits.max(-1, keepdims=True)
        logz = m[..., 0] + np.log(np.exp(logits - m).sum(-1))
        picked = np.take_along_axis(logits, w[:, 1:, None].astype(np.int64), -1)[..., 0]
        total += float((logz - picked).sum())
    net.set_train(True)
    return total / val_windows[:, 1:].size


def generate(net, vocab, prompt, n, seq_len, temperature, seed):
    """`prompt` continued by `n` characters, each from the last `seq_len` characters' logits."""
    net.set_train(False)
    rng = np.random.default_rng(seed)
    ids = list(vocab.encode(prompt)) or [data.UNK]
    for _ in range(n):
        context = np.array(ids[-seq_len:], np.int32)[None]
        logits = net(ms.Tensor(context)).asnumpy()[0, -1].astype(np.float64)
        logits[data.UNK] = -np.inf  # never emit the unknown-character marker
        if temperature == 0:
            ids.append(int(logits.argmax()))
            continue
        p = np.exp((logits - logits.max()) / temperature)
        ids.append(int(rng.choice(len(p), p=p / p.sum())))
    return vocab.decode(ids)


def train(args, net, step, dataset, val_windows, untrained):
    """The epochs; returns the loss history (per step, and validation per epoch after the
    `untrained` network's at step 0)."""
    stream = data.batches(dataset)
    history = {"step": [], "loss": [], "val_step": [0], "val_loss": [untrained]}
    n = 0
    for epoch in range(1, args.epochs + 1):
        bar = progress.bar(args.steps_per_epoch, f"epoch {epoch}/{args.epochs}")
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(args.steps_per_epoch):
            x, y = next(stream)
            loss = step(x, y)
            n += 1
            history["step"].append(n)
            history["loss"].append(loss)
            bar.set_postfix_str(f"loss={loss:.3f}", refresh=False)
            bar.update(1)
        bar.close()
        val = evaluate(net, val_windows)
        history["val_step"].append(n)
        history["val_loss"].append(val)
        print(f"epoch {epoch}/{args.epochs}: training loss {np.mean(history['loss'][-20:]):.4f}"
              f" (last 20 steps), validation loss {val:.4f}, perplexity {math.exp(val):.2f} "
              f"({time.perf_counter() - start:.1f} s, CPU {time.process_time() - cpu:.1f} s)",
              flush=True)
    return history


def save_and_reload(args, net, vocab, val_windows, val_loss):
    """Save the weights (and the vocabulary beside them), load them into a fresh network and
    check it gives the same validation loss. Returns True when it does."""
    path = os.path.join(args.out, f"charlm-{args.model}.ckpt")
    ms.save_checkpoint(net, path)
    with open(os.path.join(args.out, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump({"chars": vocab.chars, "model": args.model, "seq_len": args.seq_len}, f)
    fresh = models.build(args.model, len(vocab), args.seq_len)
    not_loaded, _ = ms.load_param_into_net(fresh, ms.load_checkpoint(path))
    if not_loaded:
        raise SystemExit(f"cellgrad-charlm: {path} lacks {not_loaded[:5]}")
    reloaded = evaluate(fresh, val_windows)
    same = reloaded == val_loss
    print(f"reloaded {os.path.relpath(path)} into a fresh network: validation loss "
          f"{reloaded:.4f} ({'identical' if same else 'DIFFERENT'})")
    return same


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start, cpu = time.perf_counter(), time.process_time()
    ms.set_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    train_text, val_text, n_train, n_val = data.load(args.max_chars, args.seed)
    vocab = data.Vocab(train_text)
    train_ids, val_ids = vocab.encode(train_text), vocab.encode(val_text)
    val_windows = data.windows(val_ids, args.seq_len)
    baseline = data.unigram_baseline(train_ids, val_windows[:, 1:].ravel(), len(vocab))
    print(f"charlm: {len(train_ids):,} training characters from {n_train} stdlib files, "
          f"{val_windows[:, 1:].size:,} validation characters from {n_val} other files, "
          f"vocabulary {len(vocab)} (id 0: unknown)")
    dataset = data.train_dataset(train_ids, args.seq_len, args.batch_size, args.seed)
    net = models.build(args.model, len(vocab), args.seq_len)
    params = sum(int(np.prod(p.shape)) for p in net.trainable_params())
    untrained = evaluate(net, val_windows)
    print(f"model: {args.model}, {params:,} parameters; unigram baseline {baseline:.4f} "
          f"nats/char; untrained validation loss {untrained:.4f}", flush=True)
    opt = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    history = train(args, net, trainer(net, opt, len(vocab)), dataset, val_windows, untrained)
    val = history["val_loss"][-1]
    verdict = "below" if val < baseline else "NOT below"
    print(f"validation loss {val:.4f} (perplexity {math.exp(val):.2f}) vs unigram baseline "
          f"{baseline:.4f} (perplexity {math.exp(baseline):.2f}): {verdict} the baseline by "
          f"{baseline - val:.4f} nats/char")
    same = save_and_reload(args, net, vocab, val_windows, val)
    if not args.no_plots:
        try:
            from cellgrad_charlm import plots

            path = plots.loss_curve(args.out, history["step"], history["loss"],
                                    history["val_step"], history["val_loss"], baseline,
                                    args.model)
            print(f"wrote {path}")
        except ImportError:
            print("no loss-curve PNG: pip install 'cellgrad-charlm[plots]' (matplotlib)")
    sample = generate(net, vocab, args.prompt, args.sample_chars, args.seq_len,
                      args.temperature, args.seed)
    print(f"sample (temperature {args.temperature}):\n{sample}")
    print(f"done in {time.perf_counter() - start:.1f} s (CPU {time.process_time() - cpu:.1f} s)")
    return 0 if same else 1
