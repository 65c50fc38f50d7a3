"""`load_mindir` and `save_mindir`, mirroring `mindspore.load_mindir`/`save_mindir`: a MINDIR
file as its `ModelProto` message, to read or edit (`user_info`, graph attributes) and write
back. The messages are those of `cellgrad_jit.mindir.proto`, built from MindSpore's schema."""

import os
import re
import stat

from cellgrad import log as logger
from cellgrad_jit.mindir.proto import messages

_NAME = re.compile(r"^[0-9a-zA-Z@\_\-\.\:\/\\]+$")


def _check_file_name(file_name):
    """MindSpore's `check_file_name_by_regular`."""
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if file_name.endswith(("\\", "/")):
        raise ValueError(f"The '{file_name}' cannot be a directory path.")
    if _NAME.match(file_name) is None:
        raise ValueError(f"The '{file_name}' is illegal, it must be match regular "
                         f"'{_NAME.pattern}'.")


def load_mindir(file_name):
    """Mirrors `mindspore.load_mindir`: the `ModelProto` of the MINDIR file `file_name`
    (deprecated in MindSpore since 2.5, as it warns)."""
    logger.warning("The interface 'mindspore.load_mindir' is deprecated from version 2.5 "
                   "and will be removed in a future version.")
    _check_file_name(file_name)
    file_name = os.path.realpath(file_name)
    model = messages()["ModelProto"]()
    try:
        with open(file_name, "rb") as f:
            model.ParseFromString(f.read())
    except BaseException as e:  # as MindSpore: a missing or unparsable file is a ValueError
        logger.critical(f"Failed to parse the file: {file_name}  please check the correct file.")
        raise ValueError(str(e)) from e
    return model


def save_mindir(model, file_name):
    """Mirrors `mindspore.save_mindir`: writes the `ModelProto` `model` to `file_name` (".mindir"
    added when missing; folders made; the file left read-only, as MindSpore leaves it)."""
    logger.warning("The interface 'mindspore.save_mindir' is deprecated from version 2.5 "
                   "and will be removed in a future version.")
    _check_file_name(file_name)
    file_name = os.path.realpath(file_name)
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    os.makedirs(os.path.dirname(file_name), mode=0o700, exist_ok=True)
    if os.path.exists(file_name):
        os.chmod(file_name, stat.S_IWUSR)
    if not isinstance(model, messages()["ModelProto"]):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got "
                        f"{type(model)}.")
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with os.fdopen(os.open(file_name, flags, 0o600), "wb") as f:
            f.write(model.SerializeToString())
    except BaseException as e:
        logger.critical(f"Failed to save the file: {file_name} , please check the correct file.")
        raise ValueError(str(e)) from e
    finally:
        if os.path.exists(file_name):
            os.chmod(file_name, stat.S_IRUSR)
