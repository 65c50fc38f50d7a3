"""`einsum` as diagonals (gathers), sums, transposes and batched matmuls of the core ops, so
its gradient, of any order, comes from theirs.

Operands are contracted left to right, two at a time: the labels both share and still need
are batch axes, the shared labels nobody needs any more are contracted by one matmul, and
labels only one operand has and nobody needs are summed away first.
"""

import math

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.ops import functional as F

_FLOATS = ("Float16", "Float32", "Float64")


def _error(msg):
    return ValueError(f"For 'Einsum', {msg}")


def _parse(equation, operands):
    """Per-operand label lists and the output labels; '...' becomes one upper-case label per
    broadcast dimension (aligned from the right, as numpy)."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise _error("the number of inputs must be equal to the number of inputs and "
                     "equation's operand.")
    n_ell = 0
    labels = []
    for term, x in zip(terms, operands):
        named = term.replace("...", "")
        if not all(c.isalpha() for c in named):
            raise _error(f"the equation may hold only letters, ',', '->' and '...', but got "
                         f"{equation!r}.")
        if "..." in term:
            k = x.ndim - len(named)
            n_ell = max(n_ell, k)
            head, _, tail = term.partition("...")
            term_labels = list(head) + [_ell(i, k) for i in range(k)] + list(tail)
        else:
            term_labels = list(term)
        if len(term_labels) != x.ndim:
            raise _error(f"the term {term!r} names {len(term_labels)} dimensions, but its operand "
                         f"has shape {x.shape}.")
        labels.append(term_labels)
    ell = [_ell(i, n_ell) for i in range(n_ell)]
    if arrow:
        head, _, tail = out.partition("...")
        out_labels = list(head) + (ell if "..." in out else []) + list(tail)
        if len(set(out_labels)) != len(out_labels):
            raise _error(f"each label may appear once to the right of the arrow, but got "
                         f"{out!r}.")
        for c in out_labels:
            if not any(c in ls for ls in labels):
                raise _error(f"the label to the right of arrow in the equation must appear on "
                             f"the left, but the {c} does not.")
    else:
        counts = {}
        for ls in labels:
            for c in ls:
                counts[c] = counts.get(c, 0) + 1
        out_labels = ell + sorted(c for c, n in counts.items() if n == 1 and c not in ell)
    return labels, out_labels


def _ell(i, k):
    # counted from the right, so operands with fewer broadcast dimensions line up; not a letter
    return f"...{k - i}"


def _diagonal(x, labels):
    """Take the diagonal for every label repeated within one operand."""
    while len(set(labels)) != len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(c)
        j = labels.index(c, i + 1)
        if x.shape[i] != x.shape[j]:
            raise _error(f"label {c!r} is repeated over dimensions of different sizes "
                         f"{x.shape[i]} and {x.shape[j]}.")
        rest = [a for a in range(x.ndim) if a not in (i, j)]
        x = F.transpose(x, (i, j, *rest))
        n = make_tensor(np.arange(x.shape[0]))
        x = x[n, n]
        labels = [c] + [labels[a] for a in rest]
    return x, labels


def _sum_unneeded(x, labels, needed):
    axes = tuple(i for i, c in enumerate(labels) if c not in needed)
    if not axes:
        return x, labels
    return F.sum(x, axes), [c for c in labels if c in needed]


def _align_sizes(x, lx, y, ly):
    """Broadcast size-1 axes a label shares with the other operand (ellipsis broadcasting)."""
    sizes = {}
    for t, ls in ((x, lx), (y, ly)):
        for c, s in zip(ls, t.shape):
            if sizes.get(c, 1) != 1 and s not in (1, sizes[c]):
                raise _error(f"label {c!r} has sizes {sizes[c]} and {s} in different operands.")
            sizes[c] = max(sizes.get(c, 1), s)
    out = []
    for t, ls in ((x, lx), (y, ly)):
        target = tuple(sizes[c] for c in ls)
        out.append(t if target == t.shape else F.broadcast_to(t, target))
    return out


def _contract(x, lx, y, ly, keep):
    """x and y contracted over their shared labels not in `keep`, as one batched matmul."""
    x, y = _align_sizes(x, lx, y, ly)
    size = dict(zip(lx, x.shape)) | dict(zip(ly, y.shape))
    batch = [c for c in lx if c in ly and c in keep]
    summed = [c for c in lx if c in ly and c not in keep]
    left = [c for c in lx if c not in ly]
    right = [c for c in ly if c not in lx]
    x = F.transpose(x, tuple(lx.index(c) for c in batch + left + summed))
    y = F.transpose(y, tuple(ly.index(c) for c in batch + summed + right))
    dims = [math.prod(size[c] for c in group) for group in (batch, left, summed, right)]
    x = F.reshape(x, (dims[0], dims[1], dims[2]))
    y = F.reshape(y, (dims[0], dims[2], dims[3]))
    if dims[1] == 1 and dims[3] == 1:  # a row-wise dot: many 1xK @ Kx1 products are slow
        out = F.sum(x * F.transpose(y, (0, 2, 1)), -1, True)
    else:
        out = F.matmul(x, y)
    new = batch + left + right
    return F.reshape(out, tuple(size[c] for c in new)), new


def einsum(equation, *operands):
    """Mirrors `mindspore.ops.einsum` (numpy's notation, incl. '...', implicit output and
    repeated labels). MindSpore 2.10 runs it only on GPU; cellgrad runs it anywhere."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', 'equation' must be a str, but got "
                        f"{type(equation).__name__}.")
    F._need_tensor("einsum", *operands)
    for t in operands:
        if str(t.dtype) not in _FLOATS:
            raise TypeError(f"For primitive[Einsum], the input argument[out_type] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"Tensor[{t.dtype}].")
    if len({t.dtype for t in operands}) > 1:
        raise TypeError(f"For 'Einsum', all operands must have one dtype, but got "
                        f"{[str(t.dtype) for t in operands]}.")
    labels, out_labels = _parse(equation, operands)
    xs = []
    for i, (x, ls) in enumerate(zip(operands, labels)):
        x, ls = _diagonal(x, ls)
        others = {c for j, lj in enumerate(labels) if j != i for c in lj}
        xs.append(_sum_unneeded(x, ls, others | set(out_labels)))
    x, lx = xs[0]
    for k in range(1, len(xs)):
        y, ly = xs[k]
        keep = set(out_labels) | {c for _, lz in xs[k + 1:] for c in lz}
        x, lx = _contract(x, lx, y, ly, keep)
    x, lx = _sum_unneeded(x, lx, set(out_labels))
    if lx != out_labels:
        x = F.transpose(x, tuple(lx.index(c) for c in out_labels))
    return x
