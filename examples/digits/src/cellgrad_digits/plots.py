"""The PNGs: training curves, confusion matrix, misclassified digits (matplotlib, headless)."""

import os

import numpy as np


def write_all(out, history, cm, x_test, y_test, pred):
    """Write the three plots into `out`; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")  # files only: works without a display
    import matplotlib.pyplot as plt

    paths = [curves(plt, out, history), confusion(plt, out, cm),
             misclassified(plt, out, x_test, y_test, pred)]
    plt.close("all")
    return paths


def curves(plt, out, history):
    h = history.history
    epochs = history.epoch["epoch"]
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.5))
    ax_loss.plot(epochs, h.get("net_output", []), "o-", label="train (last step)")
    if "loss" in h:
        ax_loss.plot(epochs, h["loss"], "s-", label="test")
    ax_loss.set(xlabel="epoch", ylabel="loss", title="loss")
    ax_loss.legend()
    if "accuracy" in h:
        ax_acc.plot(epochs, h["accuracy"], "s-", color="tab:green")
    ax_acc.set(xlabel="epoch", ylabel="accuracy", title="test accuracy", ylim=(0, 1))
    return _save(fig, out, "curves.png")


def confusion(plt, out, cm):
    fig, ax = plt.subplots(figsize=(5, 4.5))
    image = ax.imshow(cm, cmap="Blues")
    fig.colorbar(image, ax=ax)
    for (i, j), v in np.ndenumerate(cm):
        ax.text(j, i, str(v), ha="center", va="center",
                color="white" if v > cm.max() / 2 else "black", fontsize=8)
    ax.set(xlabel="predicted", ylabel="true", xticks=range(10), yticks=range(10),
           title="confusion matrix")
    return _save(fig, out, "confusion_matrix.png")


def misclassified(plt, out, x_test, y_test, pred, limit=24):
    wrong = np.flatnonzero(pred != y_test)[:limit]
    cols = 8
    rows = max(1, -(-len(wrong) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(cols * 1.1, rows * 1.3 + 0.4), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for ax, i in zip(axes.flat, wrong):
        ax.imshow(x_test[i, 0], cmap="gray_r")
        ax.set_title(f"{y_test[i]}→{pred[i]}", fontsize=9)
    total = int(np.sum(pred != y_test))
    fig.suptitle(f"misclassified test digits (true→predicted): {total}")
    return _save(fig, out, "misclassified.png")


def _save(fig, out, name):
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return path
