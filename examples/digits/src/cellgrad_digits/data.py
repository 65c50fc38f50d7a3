"""The digits data: scikit-learn's bundled 8x8 images, split and wrapped as datasets."""

import numpy as np

import cellgrad as ms

CLASSES = 10


def load(limit=None, seed=0, test_fraction=0.2):
    """`(x_train, y_train, x_test, y_test)`: images (N, 1, 8, 8) float32 in [0, 1], labels
    int32; a stratified split, of the first `limit` samples (stratified too) when given."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]
    y = digits.target.astype(np.int32)
    if limit is not None and limit < len(y):
        x, _, y, _ = train_test_split(x, y, train_size=limit, stratify=y, random_state=seed)
    return train_test_split(x, y, test_size=test_fraction, stratify=y, random_state=seed)


def datasets(x_train, y_train, x_test, y_test, batch_size):
    """Shuffled training batches and ordered test batches, as `ms.dataset` pipelines."""
    train = ms.dataset.NumpySlicesDataset((x_train, y_train), column_names=["image", "label"],
                                          shuffle=True).batch(batch_size)
    test = ms.dataset.NumpySlicesDataset((x_test, y_test), column_names=["image", "label"],
                                         shuffle=False).batch(256)
    return train, test
