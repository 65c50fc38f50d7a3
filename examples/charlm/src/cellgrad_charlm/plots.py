"""The loss-curve PNG (matplotlib, headless)."""

import os


def loss_curve(out, train_steps, train_losses, val_steps, val_losses, baseline, kind):
    """Training loss per step, validation loss per epoch and the unigram baseline; returns the
    path written."""
    import matplotlib

    matplotlib.use("Agg")  # files only: works without a display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(train_steps, train_losses, lw=0.8, alpha=0.7, label="training (per step)")
    ax.plot(val_steps, val_losses, "o-", label="validation (untrained, then per epoch)")
    ax.axhline(baseline, color="gray", ls="--", label=f"unigram baseline {baseline:.3f}")
    ax.set(xlabel="step", ylabel="cross-entropy (nats/char)",
           title=f"cellgrad-charlm ({kind}) on Python's stdlib source")
    ax.legend()
    fig.tight_layout()
    path = os.path.join(out, "loss_curve.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
