"""The random vision transforms: parameter semantics, statistics, and determinism under
`dataset.config.set_seed` / `ms.set_seed`; and every transform inside `Dataset.map`."""

import cellgrad.dataset as ds
import cellgrad.dataset.transforms as T
import cellgrad.dataset.vision as V
import numpy as np
import pytest
from cellgrad.dataset.vision import Inter
from PIL import Image

import cellgrad as ms

IMG = np.random.default_rng(0).integers(0, 256, (24, 32, 3), dtype=np.uint8)


@pytest.fixture(autouse=True)
def _seed():
    ds.config.set_seed(1234)
    yield
    ds.config.set_seed(1234)


def draws(op, n=200, img=IMG):
    return [op(img) for _ in range(n)]


def test_same_seed_same_draws_new_instances_too():
    a = [o.tobytes() for o in draws(V.RandomCrop(10), 20)]
    b = [o.tobytes() for o in draws(V.RandomCrop(10), 20)]
    assert a == b and len(set(a)) > 5
    ds.config.set_seed(99)
    c = [o.tobytes() for o in draws(V.RandomCrop(10), 20)]
    assert c != a
    ms.set_seed(5)  # ms.set_seed seeds the dataset pipelines too when no dataset seed is set
    ds.config._seed = None
    d = [o.tobytes() for o in draws(V.RandomCrop(10), 20)]
    e = [o.tobytes() for o in draws(V.RandomCrop(10), 20)]
    assert d == e


def test_random_horizontal_flip_probability():
    flipped = [np.array_equal(o, IMG[:, ::-1]) for o in draws(V.RandomHorizontalFlip(0.3), 2000)]
    assert abs(np.mean(flipped) - 0.3) < 0.04
    assert not any(np.array_equal(o, IMG[:, ::-1]) for o in draws(V.RandomHorizontalFlip(0.0)))
    assert all(np.array_equal(o, IMG[::-1]) for o in draws(V.RandomVerticalFlip(1.0), 20))


def test_random_crop_positions_are_uniform_and_inside():
    op = V.RandomCrop((20, 20))
    tops = []
    for o in draws(op, 1000):
        hits = [(t, left) for t in range(5) for left in range(13)
                if np.array_equal(IMG[t:t + 20, left:left + 20], o)]
        assert len(hits) == 1
        tops.append(hits[0])
    t, left = np.array(tops).T
    assert set(t) == set(range(5)) and set(left) == set(range(13))
    assert abs(t.mean() - 2.0) < 0.2 and abs(left.mean() - 6.0) < 0.5


def test_random_crop_padding_and_pad_if_needed():
    out = V.RandomCrop(30, pad_if_needed=True, fill_value=7)(IMG)
    assert out.shape == (30, 30, 3) and (out == 7).any()
    out = V.RandomCrop(24, padding=4)(np.full((24, 24, 3), 200, np.uint8))
    assert out.shape == (24, 24, 3)
    with pytest.raises(RuntimeError, match="RandomCrop: crop size .* bigger than the image"):
        V.RandomCrop(40)(IMG)


def test_random_resized_crop_scale_and_ratio():
    from cellgrad_dataset.vision.random_geometry import crop_box
    rng = np.random.default_rng(0)
    boxes = np.array([crop_box(rng, (100, 100), (0.08, 1.0), (3 / 4, 4 / 3), 10)
                      for _ in range(2000)])
    area = boxes[:, 2] * boxes[:, 3] / 1e4
    ratio = boxes[:, 3] / boxes[:, 2]
    # U(0.08, 1) areas, less the large non-square boxes that do not fit (redrawn)
    assert area.min() >= 0.07 and area.max() <= 1.0 and 0.42 < area.mean() < 0.54
    assert ratio.min() > 0.7 and ratio.max() < 1.4
    assert (boxes[:, 0] + boxes[:, 2] <= 100).all() and (boxes[:, 1] + boxes[:, 3] <= 100).all()
    out = V.RandomResizedCrop((16, 18), interpolation=Inter.BICUBIC)(IMG)
    assert out.shape == (16, 18, 3) and out.dtype == np.uint8
    # scale (1, 1) and the image's own ratio: the whole image, resized
    whole = V.RandomResizedCrop((24, 32), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))(IMG)
    np.testing.assert_array_equal(whole, IMG)


def test_random_crop_decode_resize():
    data = V.encode_png(IMG)
    out = V.RandomCropDecodeResize((12, 12), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))(data)
    np.testing.assert_array_equal(out, V.Resize((12, 12))(IMG))


def test_random_rotation_range():
    ds.config.set_seed(3)
    op = V.RandomRotation(15)
    assert op.degrees == (-15, 15)
    angles = [op._rng().uniform(*op.degrees) for _ in range(1000)]
    assert min(angles) >= -15 and max(angles) <= 15 and abs(np.mean(angles)) < 1.0
    assert V.RandomRotation(30, expand=True)(IMG).shape[0] >= 24


def test_random_color_adjust_ranges_and_effect():
    op = V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)
    assert op.brightness == (0.6, 1.4) and op.hue == (-0.1, 0.1)
    assert V.RandomColorAdjust(brightness=2).brightness == (0.0, 3.0)
    means = [o.mean() for o in draws(V.RandomColorAdjust(brightness=(0.5, 0.5)), 3)]
    assert all(abs(m - IMG.mean() * 0.5) < 1 for m in means)
    identity = V.RandomColorAdjust()(IMG)
    np.testing.assert_array_equal(identity, IMG)
    with pytest.raises(ValueError, match="hue"):
        V.RandomColorAdjust(hue=0.7)


def test_random_affine_translate_range_and_identity():
    # MindSpore 2.x: two values are the (min, max) horizontal shift (checked: (-0.1, -0.1)
    # moves a 10-pixel image one pixel left, not up)
    op = V.RandomAffine(degrees=0, translate=(-0.25, 0.25))
    assert op.translate == (-0.25, 0.25, 0.0, 0.0) and op.shear == (0.0, 0.0, 0.0, 0.0)
    img = np.zeros((10, 10, 3), np.uint8)
    img[4:6, 4:6] = 255
    moved = V.RandomAffine(0, translate=(-0.1, -0.1))(img)
    assert np.argwhere(moved[..., 0] == 255)[0].tolist() == [4, 3]
    from cellgrad.dataset.vision import py_transforms
    assert py_transforms.RandomAffine(0, translate=(0.1, 0.2)).translate == (-0.1, 0.1, -0.2, 0.2)
    assert V.RandomAffine(10, shear=5).shear == (-5, 5, 0.0, 0.0)
    np.testing.assert_array_equal(V.RandomAffine(0)(IMG), IMG)
    shifted = draws(op, 50)
    assert any(not np.array_equal(o, IMG) for o in shifted)


def test_cutout_random_erasing_mixup_cutmix():
    big = np.full((20, 20, 3), 200, np.uint8)
    zeros = [int((o == 0).all(-1).sum()) for o in draws(V.CutOut(6, 1), 300, big)]
    # corners uniform in [-6, 20]: whole, clipped and (rarely) empty patches, as MindSpore's
    assert max(zeros) == 36 and len(set(zeros)) > 5 and 16 < np.mean(zeros) < 24  # E = 19.75
    with pytest.raises(RuntimeError, match="CutOut: box size is too large"):
        V.CutOut(30)(big)
    chw = np.full((3, 20, 20), 0.5, np.float32)
    outs = draws(V.RandomErasing(prob=1.0), 50, chw)
    erased = [np.mean(o == 0) for o in outs]
    assert all(0.02 * 0.9 <= e <= 0.33 * 1.1 for e in erased)
    assert all(o.dtype == np.float32 and o.shape == chw.shape for o in outs)
    kept = draws(V.RandomErasing(prob=0.0), 5, chw)
    assert all(np.array_equal(o, chw) for o in kept)
    imgs = np.random.default_rng(1).integers(0, 255, (4, 8, 8, 3)).astype(np.uint8)
    labels = np.eye(3, dtype=np.float32)[[0, 1, 2, 0]]
    mi, ml = V.MixUpBatch(1.0)(imgs, labels)
    assert mi.dtype == np.uint8 and mi.shape == imgs.shape and ml.dtype == np.float32
    np.testing.assert_allclose(ml.sum(1), 1.0, rtol=1e-6)
    ci, cl = V.CutMixBatch(V.ImageBatchFormat.NHWC)(imgs, labels)
    assert ci.dtype == np.uint8 and cl.shape == (4, 3)
    np.testing.assert_allclose(cl.sum(1), 1.0, rtol=1e-6)
    with pytest.raises(RuntimeError, match="MixUpBatch: wrong labels shape.*rank: 1"):
        V.MixUpBatch()(imgs, np.array([0, 1, 2, 0]))


def test_policy_augments_keep_shape_and_dtype():
    for op in (V.AutoAugment(), V.AutoAugment(V.AutoAugmentPolicy.CIFAR10), V.RandAugment(),
               V.TrivialAugmentWide(),
               V.UniformAugment([V.Invert(), V.Equalize(), V.AutoContrast()], 2),
               V.RandomSelectSubpolicy([[(V.Invert(), 1.0)], [(V.Equalize(), 1.0)]])):
        outs = draws(op, 20)
        assert all(o.shape == IMG.shape and o.dtype == np.uint8 for o in outs)
        assert len({o.tobytes() for o in outs}) > 1, type(op).__name__


def test_random_color_family():
    for op in (V.RandomColor(), V.RandomSharpness(), V.RandomPosterize((1, 4)),
               V.RandomSolarize(), V.RandomInvert(), V.RandomEqualize(), V.RandomAutoContrast(),
               V.RandomAdjustSharpness(2.0), V.RandomGrayscale(0.5), V.RandomLighting(0.5),
               V.RandomResize(10), V.RandomPerspective(prob=1.0)):
        outs = draws(op, 10)
        assert all(o.dtype == np.uint8 for o in outs), type(op).__name__
    gray = V.RandomGrayscale(1.0)(IMG)
    assert gray.shape == IMG.shape and (gray[..., 0] == gray[..., 1]).all()


def _pipeline():
    images = np.stack([IMG] * 6)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6, dtype=np.int32)},
                                 shuffle=False)
    data = data.map([V.RandomCrop(20), V.RandomHorizontalFlip(), V.Resize((16, 16)),
                     V.Rescale(1 / 255, 0), V.Normalize([0.5] * 3, [0.25] * 3), V.HWC2CHW()],
                    input_columns="image")
    data = data.map(T.OneHot(6), input_columns="label")
    return data.map(T.TypeCast(ms.float32), input_columns="label").batch(3)


def test_transforms_inside_map():
    from cellgrad_dataset.transforms import randomness

    data = _pipeline()
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert rows[0][0].shape == (3, 3, 16, 16) and rows[0][0].dtype == np.float32
    assert rows[0][1].dtype == np.float32 and rows[1][1].argmax(1).tolist() == [3, 4, 5]
    # the same seed and a rebuilt pipeline: the same draws
    again = list(_pipeline().create_tuple_iterator(output_numpy=True))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(rows, again))
    # a new pass (what an engine calls when it builds an iterator) repeats them too
    randomness.new_pass()
    third = list(data.create_tuple_iterator(output_numpy=True))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(rows, third))
    randomness.set_worker(1)  # another worker process: another stream
    fourth = list(data.create_tuple_iterator(output_numpy=True))
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(rows, fourth))
    randomness.set_worker(0)


def test_pil_in_pil_out_and_eager_numpy():
    pil = Image.fromarray(IMG)
    out = V.Resize((12, 16))(pil)
    assert isinstance(out, Image.Image) and out.size == (16, 12)
    assert isinstance(V.RandomHorizontalFlip(1.0)(pil), Image.Image)
    arr = V.Resize((12, 16))(IMG)
    assert isinstance(arr, np.ndarray) and arr.shape == (12, 16, 3)
    t = V.ToTensor()(V.ToPIL()(IMG))
    assert t.shape == (3, 24, 32) and t.dtype == np.float32 and t.max() <= 1.0


_CTOR = {
    "Resize": (8,), "CenterCrop": (4,), "Crop": ((0, 0), (2, 2)), "Pad": (1,),
    "PadToSize": ((20, 20),), "Rotate": (10,), "Affine": (10, [0, 0], 1.0, 0.0),
    "ResizedCrop": (0, 0, 2, 2, (4, 4)), "FiveCrop": (2,), "TenCrop": (2,), "RandomCrop": (2,),
    "RandomResizedCrop": (4,), "RandomResize": (4,), "RandomRotation": (10,),
    "RandomAffine": (10,), "Normalize": ([1.0] * 3, [1.0] * 3),
    "NormalizePad": ([1.0] * 3, [1.0] * 3), "ConvertColor": (V.ConvertMode.COLOR_RGB2GRAY,),
    "Posterize": (3,), "Solarize": (100,), "AdjustBrightness": (1.2,), "AdjustContrast": (1.2,),
    "AdjustSaturation": (1.2,), "AdjustHue": (0.1,), "AdjustGamma": (1.2,),
    "AdjustSharpness": (1.2,), "GaussianBlur": (3,), "CutOut": (2,), "Erase": (0, 0, 1, 1),
    "RandomAdjustSharpness": (2.0,), "UniformAugment": ([V.Invert()], 1),
    "RandomSelectSubpolicy": ([[(V.Invert(), 1.0)]],),
    "Perspective": ([[0, 0], [1, 0], [1, 1], [0, 1]], [[0, 0], [1, 0], [1, 1], [0, 1]]),
}
_NOT_IMAGE_OPS = {"Decode", "MixUpBatch", "CutMixBatch", "MixUp", "ToPIL", "ToNumpy",
                  "RandomCropDecodeResize", "LinearTransformation", "Rescale", "ToType"}


def test_every_image_transform_names_itself_on_bad_input():
    bad = [np.zeros(5, np.uint8), np.array([["a", "b"], ["c", "d"]]),
           np.zeros((2, 3, 4, 3), np.uint8)]
    checked = 0
    for name in V.__all__:
        cls = getattr(V, name)
        if not isinstance(cls, type) or name in _NOT_IMAGE_OPS or issubclass(cls, (int, str)):
            continue
        op = cls(*_CTOR.get(name, ()))
        for x in bad:
            if x.ndim == 4 and name in ("HsvToRgb", "RgbToHsv"):
                continue  # they take batches <N,H,W,3>
            with pytest.raises((RuntimeError, TypeError)) as info:
                op(x)
            assert str(info.value).startswith(f"{name}: "), (name, str(info.value))
            assert str(x.shape) in str(info.value) or str(x.dtype) in str(info.value)
        checked += 1
    assert checked > 60
