"""`nn.AdamOffload`: Adam whose moments live in host memory -- which every tensor does here."""

from cellgrad_nn.optim.adam import Adam


class AdamOffload(Adam):
    """Mirrors `mindspore.nn.AdamOffload` (deprecated since MindSpore 2.0 for `nn.Adam`):
    MindSpore keeps the moments on the host and updates them there; cellgrad keeps every
    tensor in host memory, so this is `nn.Adam`'s update, states `moment1.<p>`, `moment2.<p>`,
    `beta1_power`, `beta2_power`."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'AdamOffload', the type of '{name}' must be bool, but got "
                                f"{type(value).__name__}.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)
