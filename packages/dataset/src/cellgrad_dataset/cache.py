"""Mirrors `mindspore.dataset.DatasetCache`, MindSpore's client of its cache server."""

import copy

_UINT32_MAX, _INT32_MAX, _UINT64_MAX = 2**32 - 1, 2**31 - 1, 2**64 - 1


def _type_error(name, value, expected):
    return TypeError(f"Argument {name} with value {value} is not of type {expected}, but got "
                     f"{type(value)}.")


def _check_int(name, value, low, high):
    if isinstance(value, bool):
        raise _type_error(name, value, "(<class 'int'>,)")
    if not isinstance(value, int):
        raise _type_error(name, value, "[<class 'int'>]")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


class DatasetCache:
    """Mirrors `mindspore.dataset.DatasetCache` (same arguments and checks).

    MindSpore keeps the rows of a pipeline in a separate cache server (`dataset-cache
    --start`) shared between pipelines. cellgrad has no cache server and connects to none:
    its datasets read their files in-process, so `cache=DatasetCache(...)`, accepted by every
    dataset, changes nothing about the rows read. `get_stat()` raises a RuntimeError, as
    MindSpore's does for a cache not in use, since no row is ever cached.
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        _check_int("session_id", session_id, 1, _UINT32_MAX)
        if isinstance(size, bool) or not isinstance(size, int):
            raise _type_error("size", size, "[<class 'int'>]")
        if size < 0:
            raise ValueError("Input size must be greater than 0.")
        if size > _UINT64_MAX:
            raise ValueError(f"Input size is not within the required interval of "
                             f"[0, {_UINT64_MAX}].")
        if not isinstance(spilling, bool):
            raise _type_error("spilling", spilling, "[<class 'bool'>]")
        if hostname is not None and not isinstance(hostname, str):
            raise _type_error("hostname", hostname, "[<class 'str'>]")
        if port is not None:
            if not isinstance(port, int):
                raise _type_error("port", port, "[<class 'int'>]")
            if not 1025 <= port <= 65535:
                raise ValueError("Input port is not within the required interval of "
                                 "[1025, 65535].")
        if num_connections is not None:
            _check_int("num_connections", num_connections, 1, _INT32_MAX)
        if prefetch_size is not None:
            _check_int("prefetch_size", prefetch_size, 1, _INT32_MAX)
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.prefetch_size = prefetch_size
        self.num_connections = num_connections

    def get_stat(self):
        """Mirrors `DatasetCache.get_stat`: MindSpore's statistics of the cache server's rows.

        cellgrad caches no rows (there is no cache server), so there are none to report.
        """
        raise RuntimeError("GetStat called but the cache is not in use yet: cellgrad has no "
                           "dataset cache server and caches no rows (datasets read their files "
                           "in-process), so DatasetCache.get_stat has no statistics to return.")

    def __deepcopy__(self, memodict):
        if id(self) in memodict:
            return memodict[id(self)]
        new = type(self).__new__(type(self))
        memodict[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memodict))
        return new


def check_cache(cache):
    """MindSpore's check of a dataset's `cache` argument."""
    if cache is not None and not isinstance(cache, DatasetCache):
        raise TypeError(f"Argument cache with value {cache} is not of type "
                        f"[{DatasetCache}], but got {type(cache)}.")
