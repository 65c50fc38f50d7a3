"""`LearningRateScheduler`, mirroring `mindspore.train.LearningRateScheduler`."""

import math

import numpy as np

from cellgrad_nn.train.callbacks import Callback


class LearningRateScheduler(Callback):
    """Mirrors `mindspore.train.LearningRateScheduler`: after each step sets the optimizer's
    learning rate to `learning_rate_function(lr, cur_step_num)`."""

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        data = cb_params.optimizer.learning_rate.asnumpy()
        # As MindSpore: a learning rate that is not one number fails to convert here.
        lr = float(np.array2string(data))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            data[...] = new_lr
