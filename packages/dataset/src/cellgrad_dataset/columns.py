"""Column-name arguments of the pipeline operations and iterators."""


def names_arg(value):
    """None, one name or several names, as None or a list."""
    return None if value is None else ([value] if isinstance(value, str) else list(value))


def resolve(owner, columns, known):
    """The positions of `columns` among the dataset's `known` column names."""
    missing = [c for c in columns if c not in known]
    if missing:
        raise RuntimeError(f"Invalid column, for '{owner}', column {missing[0]!r} does not exist "
                           f"in the dataset; its columns are {known}.")
    return [known.index(c) for c in columns]
