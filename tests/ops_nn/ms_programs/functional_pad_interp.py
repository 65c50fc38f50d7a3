import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) * 0.5 - 3)
x3 = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.25)


def weights(shape):
    return Tensor((np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 7) - 2.5)


def show(name, fn, inp):
    out = fn(inp)
    print(name, out.shape, out.dtype)
    print(out)
    w = weights(out.shape)
    print("grad", ms.grad(lambda t: (fn(t) * w).sum())(inp))


pads = [
    ("constant", lambda t: ops.pad(t, (1, 2, 0, 1), value=1.5)),
    ("constant crop", lambda t: ops.pad(t, (-1, 2, 1, -1))),
    ("constant 3 dims", lambda t: ops.pad(t, (0, 1, 1, 0, 1, 0))),
    ("reflect", lambda t: ops.pad(t, (2, 3, 1, 2), mode="reflect")),
    ("reflect crop", lambda t: ops.pad(t, (2, -2, 0, 1), mode="reflect")),
    ("replicate", lambda t: ops.pad(t, (5, 6, 0, 4), mode="replicate")),
    ("replicate crop", lambda t: ops.pad(t, (-1, 2, 0, -1), mode="replicate")),
    ("circular", lambda t: ops.pad(t, (1, 2, 2, 1), mode="circular")),
    ("circular crop", lambda t: ops.pad(t, (1, -1, -1, 2), mode="circular")),
    ("Pad", ops.Pad(((0, 0), (1, 0), (0, 1), (2, 2)))),
    ("nn.Pad REFLECT", nn.Pad(((0, 0), (0, 0), (1, 2), (2, 1)), mode="REFLECT")),
    ("nn.Pad SYMMETRIC", nn.Pad(((0, 0), (0, 0), (3, 0), (4, 1)), mode="SYMMETRIC")),
    ("ZeroPad2d", nn.ZeroPad2d((1, 0, 2, 1))),
    ("ConstantPad2d", nn.ConstantPad2d((1, 1), 2.0)),
    ("ReflectionPad2d", nn.ReflectionPad2d((1, 2, 2, 1))),
    ("ReplicationPad2d", nn.ReplicationPad2d((3, 0, 1, 2))),
]
for name, fn in pads:
    show(name, fn, x)
show("reflect unbatched", lambda t: ops.pad(t, (1, 2), mode="reflect"), x3)
show("replicate unbatched", lambda t: ops.pad(t, (2, 1, 1, 1), mode="replicate"), x3)
print(ops.pad(Tensor(np.arange(3, dtype=np.int32)), (1, 1), value=2.7))

resizes = [
    ("nearest", lambda t: ops.interpolate(t, size=(5, 7))),
    ("nearest down", lambda t: ops.interpolate(t, size=(2, 3))),
    ("nearest recompute", lambda t: ops.interpolate(t, scale_factor=(1.5, 0.6),
                                                    recompute_scale_factor=True)),
    ("nearest-exact", lambda t: ops.interpolate(t, size=(5, 7), mode="nearest-exact")),
    ("bilinear", lambda t: ops.interpolate(t, size=(5, 7), mode="bilinear")),
    ("bilinear down", lambda t: ops.interpolate(t, size=(2, 3), mode="bilinear")),
    ("bilinear corners", lambda t: ops.interpolate(t, size=(5, 7), mode="bilinear",
                                                   align_corners=True)),
    ("bilinear corners one row", lambda t: ops.interpolate(t, size=(1, 6), mode="bilinear",
                                                           align_corners=True)),
    ("bilinear recompute", lambda t: ops.interpolate(t, scale_factor=(2.5, 1.5),
                                                     mode="bilinear",
                                                     recompute_scale_factor=True)),
    ("area", lambda t: ops.interpolate(t, size=(2, 3), mode="area")),
    ("Upsample", nn.Upsample(size=(4, 6), mode="bilinear", align_corners=True)),
]
for name, fn in resizes:
    show(name, fn, x)
show("linear", lambda t: ops.interpolate(t, size=(7,), mode="linear"), x3)
show("linear corners", lambda t: ops.interpolate(t, size=7, mode="linear", align_corners=True),
     x3)
show("linear down", lambda t: ops.interpolate(t, size=(3,), mode="linear"), x3)
show("nearest-exact 3-D", lambda t: ops.interpolate(t, size=(3,), mode="nearest-exact"), x3)
print(ops.interpolate(Tensor(np.arange(4, dtype=np.float64).reshape(1, 1, 2, 2)), size=(3, 3),
                      mode="bilinear"))

errors = [
    lambda: ops.pad(x, (1, 2, 3)),
    lambda: ops.pad(x, (1.0, 2)),
    lambda: ops.pad(x, (1, 1), mode="wrap"),
    lambda: ops.pad(x, (1, 1), mode="reflect", value=1.0),
    lambda: ops.pad(x, (4, 0, 0, 0), mode="reflect"),
    lambda: ops.pad(x, (-3, -2)),
    lambda: ops.Pad([[0, 0]]),
    lambda: ops.Pad(((0, 0), (-1, 0), (0, 0), (0, 0)))(x),
    lambda: nn.Pad(((0, 0), (0, 0), (3, 0), (0, 0)), mode="REFLECT")(x),
    lambda: nn.Pad(((1, 1),), mode="reflect"),
    lambda: nn.ZeroPad2d((1, 2, 3)),
    lambda: ops.interpolate(x, size=(2, 3), scale_factor=2.0),
    lambda: ops.interpolate(x),
    lambda: ops.interpolate(x, size=(2, 3, 4)),
    lambda: ops.interpolate(x, size=(2.0, 3)),
    lambda: ops.interpolate(x, scale_factor=2.0),
    lambda: ops.interpolate(x, scale_factor=2, recompute_scale_factor=True),
    lambda: ops.interpolate(x, size=(5, 7), align_corners=True),
    lambda: ops.interpolate(x, size=(5, 7), mode="bilinear", align_corners=1),
    lambda: ops.interpolate(x, size=(2, 3), mode="cubic"),
    lambda: ops.interpolate(x, size=(2, 3), recompute_scale_factor=True),
]
for call in errors:
    try:
        call()
        print("no error")
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
