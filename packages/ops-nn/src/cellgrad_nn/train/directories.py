"""The folders the train callbacks write into, checked and made as MindSpore's `_make_directory`
does."""

import os

from cellgrad import log as logger

_MAX_PATH_LENGTH = 4096


def make_directory(path, arg_name="path"):
    """The real path of the folder `path`, made if missing."""
    if not isinstance(path, str):
        logger.critical(f"The {arg_name} is invalid, the type should be string.")
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        logger.critical(f"The {arg_name} is invalid, it should be non-blank.")
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if len(path) > _MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in "
                         f"{_MAX_PATH_LENGTH}.")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"The path({path!r}) is a file path, it should be a "
                                     f"directory path.")
        return path
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except PermissionError as e:
        raise TypeError("No write permission on the directory.") from e
    return path
