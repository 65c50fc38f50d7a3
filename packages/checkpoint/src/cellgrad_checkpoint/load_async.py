"""`load_checkpoint_async`, mirroring `mindspore.load_checkpoint_async`: the read runs in a
worker thread while the caller goes on (building the network, say)."""

from concurrent.futures import ThreadPoolExecutor

from cellgrad_checkpoint.load import load_checkpoint


class ParamDictFuture:
    """Mirrors `mindspore.train.serialization.ParamDictFuture`: `result()` waits for the load
    and returns its parameter dict (or raises its error)."""

    def __init__(self, executor, param_dict_future):
        self.executor = executor
        self.param_dict_future = param_dict_future

    def result(self):
        param_dict = self.param_dict_future.result()
        self.executor.shutdown()
        return param_dict


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                          dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                          choice_func=None):
    """Mirrors `mindspore.load_checkpoint_async`: `load_checkpoint` in a worker thread; a
    `.safetensors` name is read as safetensors. Returns a `ParamDictFuture`."""
    if not isinstance(ckpt_file_name, str):  # MindSpore's class: it calls .endswith on it
        raise AttributeError(f"For 'load_checkpoint_async', the argument 'ckpt_file_name' must be "
                        f"str, but got {type(ckpt_file_name)}.")
    format = "safetensors" if ckpt_file_name.endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=2)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix,
                             dec_key, dec_mode, specify_prefix, choice_func, format=format)
    return ParamDictFuture(executor, future)
