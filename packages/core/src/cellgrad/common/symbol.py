"""`Symbol`: symbolic information about one dimension of a dynamic-shape placeholder."""

__all__ = ["Symbol"]


class Symbol:
    """Mirrors `mindspore.Symbol`: a dimension written `divisor * N + remainder` (N >= 1) with
    bounds `min`/`max`; `unique` marks every use of one Symbol as the same length.

    `Tensor(shape=(None, s, s), dtype=...)` accepts Symbols as dimensions; such a placeholder
    shows each as -1, as MindSpore does.
    """

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):  # noqa: A002
        Symbol._check_args_type(max, min, divisor, remainder, unique)
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(
                f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range "
                             f"'[0, {divisor})', but got {remainder}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def __str__(self):
        return str(self.to_dict())

    @staticmethod
    def _check_args_type(maxv, minv, divisor, remainder, unique):
        for name, value in (("max", maxv), ("min", minv), ("divisor", divisor),
                            ("remainder", remainder)):
            if not isinstance(value, int):
                raise TypeError(
                    f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(
                f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")

    def to_dict(self):
        """The non-default facts, as MindSpore lists them (`min` only when it says more than
        `divisor + remainder`, `id` only for a unique Symbol)."""
        res = {}
        if self.max > self.min:
            res["max"] = self.max
        if self.min > self.divisor + self.remainder:
            res["min"] = self.min
        if self.divisor != 1:
            res["divisor"] = self.divisor
        if self.remainder != 0:
            res["remainder"] = self.remainder
        if self.unique:
            res["id"] = self.id
        return res

