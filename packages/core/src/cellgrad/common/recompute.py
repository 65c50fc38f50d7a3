"""`mindspore.recompute(block, *args)`: run a Cell so that a first-order gradient transform
keeps only its inputs and runs it again in the backward walk (`cellgrad.nn.recompute`, the
machinery behind `Cell.recompute()`)."""

from cellgrad._core import _tape


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True,
              context_fn=None, **kwargs):
    """Mirrors `mindspore.recompute`: `block(*args, **kwargs)`, its intermediates recomputed in
    the backward walk instead of kept. `block` must be a Cell (MindSpore's rule for
    use_reentrant=True; cellgrad recomputes Cells in both modes, so wrap a function in one)."""
    from cellgrad.nn import Cell
    from cellgrad.nn import recompute as _recompute

    if output_recompute:
        use_reentrant = False
    if not isinstance(block, Cell):
        if use_reentrant:
            raise TypeError("Recompute function now only support block which inherited from "
                            "Cell when use_reentrant=True!")
        raise TypeError("For 'recompute', cellgrad recomputes Cells only: wrap the function in "
                        "a Cell (its construct calling the function).")
    if use_reentrant and context_fn is not None:
        raise ValueError("context_fn is only supported when use_reentrant=False.")
    if _tape.recording_depth() == 1:
        return _recompute.call(block, args, kwargs)
    return block(*args, **kwargs)
