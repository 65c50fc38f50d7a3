"""mindspore._checkparam's checks that real code imports: values returned, MindSpore's error
classes and messages."""

from mindspore import _checkparam as validator

print(validator.GE, validator.INC_LEFT, validator.INC_BOTH, validator.EQ, validator.NOT_IN)
print(validator.check_positive_int(3, "n"), validator.check_non_negative_int(0),
      validator.check_positive_float(0.5), validator.check_bool(True, "flag"),
      validator.check_value_type("x", 3, [int]), validator.check_value_type("x", 1.23456789, [float]),
      validator.check_string("sum", ["sum", "mean"], "reduction"),
      validator.check_int_range(2, 0, 3, validator.INC_LEFT, "axis"),
      validator.check_float_range(1.0, 0.0, 1.0, validator.INC_BOTH, "keep_prob"))

CASES = [
    lambda: validator.check_positive_int(0, "num_layers", "LSTM"),
    lambda: validator.check_positive_int(-2),
    lambda: validator.check_positive_int(True, "n"),
    lambda: validator.check_positive_int(2.0, "n"),
    lambda: validator.check_positive_int(float("nan"), "n"),
    lambda: validator.check_non_negative_int(-1, "padding", "Conv2d"),
    lambda: validator.check_positive_float(0.0, "lr"),
    lambda: validator.check_positive_float(1, "lr"),
    lambda: validator.check_non_negative_float(-0.5, "weight_decay", "Adam"),
    lambda: validator.check_bool(1, "has_bias"),
    lambda: validator.check_bool("yes"),
    lambda: validator.check_value_type("x", True, [int], "Dense"),
    lambda: validator.check_value_type("x", "a", [int, float]),
    lambda: validator.check_value_type("x", 1.5, int),
    lambda: validator.check_string("max", ["sum", "mean"], "reduction", "Loss"),
    lambda: validator.check_string(3, ["sum"]),
    lambda: validator.check_int(1, 2, validator.GE, "k", "TopK"),
    lambda: validator.check_int(5, 3, validator.LT),
    lambda: validator.check_equal_int(4, 3, "rank"),
    lambda: validator.check_int_range(3, 0, 3, validator.INC_LEFT, "axis", "Concat"),
    lambda: validator.check_int_range(0, 0, 3, validator.INC_NEITHER),
    lambda: validator.check_int_range(1.0, 0, 3, validator.INC_BOTH, "axis"),
    lambda: validator.check_float_range(1.5, 0.0, 1.0, validator.INC_BOTH, "keep_prob",
                                        "Dropout"),
    lambda: validator.check_float_range(0.0, 0.0, 1.0, validator.INC_RIGHT, "p"),
    lambda: validator.check_positive_int_sequence([1, 0], "dims", "Tile"),
    lambda: validator.check_non_negative_int_sequence((1, -1)),
    lambda: validator.check_is_int(1.0, "x"),
    lambda: validator.check_is_float(2, "x", "Op"),
    lambda: validator.check_number("x", 3, 4, validator.GT, "Op"),
    lambda: validator.check("x", 3, "y", 4, validator.EQ, "Op"),
    lambda: validator.check("x shape", (2, 3), "y shape", (3, 2), validator.EQ),
    lambda: validator.check_isinstance("x", 3, (str, list)),
]
for case in CASES:
    try:
        case()
        print("no error")
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)


@validator.args_type_check(mode=int, device_target=str)
def configure(**kwargs):
    return sorted(kwargs)


print(configure(mode=1, device_target=None))
try:
    configure(mode="graph")
except TypeError as e:
    print("TypeError", e)
