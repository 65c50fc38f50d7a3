"""MoE routing ops (Ascend kernels in MindSpore) on the CPU: values against plain-loop numpy
references, float64 gradients, argument errors, and the names at MindSpore's paths."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(9)


# ---- independent references (plain loops) ----

def ref_permute(tokens, indices, num_out=None):
    idx = indices.reshape(indices.shape[0], -1)
    topk = idx.shape[1]
    pairs = [(int(idx[t, j]), t * topk + j) for t in range(idx.shape[0]) for j in range(topk)]
    pairs.sort(key=lambda p: (p[0], p[1]))  # stable by expert
    out_rows, where = [], np.zeros(len(pairs), np.int32)
    for pos, (_, flat) in enumerate(pairs):
        out_rows.append(tokens[flat // topk])
        where[flat] = pos
    keep = len(pairs) if not num_out else min(num_out, len(pairs))
    return np.array(out_rows[:keep]), where


def ref_unpermute(permuted, sorted_indices, probs=None):
    topk = 1 if probs is None else probs.shape[1]
    n = sorted_indices.size // topk
    out = np.zeros((n if probs is not None else sorted_indices.size, permuted.shape[1]))
    for j, s in enumerate(sorted_indices):
        row = permuted[s] if s < permuted.shape[0] else 0
        if probs is None:
            out[j] = row
        else:
            out[j // topk] += probs[j // topk, j % topk] * row
    return out


def ref_routing_drop_pad(x, eidx, capacity, experts):
    n, k = eidx.shape
    out = np.zeros((experts, capacity, x.shape[1]), x.dtype)
    where = -np.ones(n * k, np.int32)
    fill = [0] * experts
    for e in range(experts):
        for flat in range(n * k):
            if eidx.reshape(-1)[flat] == e and fill[e] < capacity:
                out[e, fill[e]] = x[flat // k]
                where[flat] = e * capacity + fill[e]
                fill[e] += 1
    counts = np.array([(eidx == e).sum() for e in range(experts)], np.int32)
    return out, where, counts


def ref_group_topk(token, group_num, k, k_inner):
    out = token.copy()
    size = token.shape[1] // group_num
    for t in range(token.shape[0]):
        scores = [sorted(token[t, g * size:(g + 1) * size])[-k_inner:] for g in range(group_num)]
        scores = [sum(s) for s in scores]
        best = sorted(range(group_num), key=lambda g: (-scores[g], g))[:k]
        for g in range(group_num):
            if g not in best:
                out[t, g * size:(g + 1) * size] = 0
    return out


# ---- moe_token_permute ----

def test_permute_documented_example():
    tokens = ms.Tensor([[1, 1, 1], [7, 7, 7], [2, 2, 2], [1, 1, 1], [2, 2, 2], [3, 3, 3]],
                       ms.float32)
    out, where = ops.moe_token_permute(tokens, ms.Tensor([5, 0, 3, 1, 2, 4], ms.int32))
    np.testing.assert_array_equal(out.asnumpy()[:, 0], [7, 1, 2, 2, 3, 1])
    assert where.dtype == ms.int32
    np.testing.assert_array_equal(where.asnumpy(), [5, 0, 3, 1, 2, 4])


@pytest.mark.parametrize("topk,num_out", [(1, None), (3, None), (3, 7), (2, 0)])
def test_permute_matches_reference(topk, num_out):
    tok = RNG.standard_normal((6, 5)).astype(np.float32)
    idx = RNG.integers(0, 4, (6, topk)).astype(np.int64)
    arg = idx[:, 0] if topk == 1 else idx
    out, where = ops.moe_token_permute(ms.Tensor(tok), ms.Tensor(arg), num_out)
    ref_out, ref_where = ref_permute(tok, idx, num_out)
    assert out.dtype == ms.float32 and out.shape == ref_out.shape
    np.testing.assert_array_equal(out.asnumpy(), ref_out)
    np.testing.assert_array_equal(where.asnumpy(), ref_where)


def test_permute_then_unpermute_round_trip_and_grad():
    tok = RNG.standard_normal((5, 4))
    idx = ms.Tensor(RNG.integers(0, 3, (5, 2)).astype(np.int32))
    probs = RNG.random((5, 2))
    perm, where = ops.moe_token_permute(ms.Tensor(tok), idx)
    back = ops.moe_token_unpermute(perm, where, ms.Tensor(probs))
    np.testing.assert_allclose(back.asnumpy(), tok * probs.sum(1, keepdims=True), rtol=1e-12)
    assert gradcheck(lambda t: ops.moe_token_permute(t, idx, 7)[0], ms.Tensor(tok))
    # the gradient of a sum is the number of kept copies of each token
    g = ms.grad(lambda t: ops.moe_token_permute(t, idx)[0].sum())(ms.Tensor(tok))
    np.testing.assert_array_equal(g.asnumpy(), np.full((5, 4), 2.0))


def test_permute_errors():
    tok = ms.Tensor(np.ones((3, 2), np.float32))
    with pytest.raises(TypeError, match="indices"):
        ops.moe_token_permute(tok, ms.Tensor([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="padded_mode"):
        ops.moe_token_permute(tok, ms.Tensor([0, 1, 2]), None, True)
    with pytest.raises(RuntimeError, match="first dims"):
        ops.moe_token_permute(tok, ms.Tensor([0, 1]))
    with pytest.raises(TypeError, match="num_out_tokens"):
        ops.moe_token_permute(tok, ms.Tensor([0, 1, 2]), 1.5)
    with pytest.raises(ValueError, match="512"):
        ops.moe_token_permute(tok, ms.Tensor(np.zeros((3, 513), np.int32)))


# ---- moe_token_unpermute ----

def test_unpermute_mindspore_test_values_and_grads():
    # tests/st/ops/test_ops_moe_token_unpermute.py (MindSpore 2.10)
    pt = ms.Tensor([[1, 1, 1], [0, 0, 0], [0, 0, 0], [3, 3, 3], [2, 2, 2], [1, 1, 1],
                    [2, 2, 2], [3, 3, 3]], ms.float32)
    si = ms.Tensor([0, 6, 7, 5, 3, 1, 2, 4], ms.int32)
    probs = ms.Tensor(np.full((4, 2), 0.5, np.float32))
    out = ops.moe_token_unpermute(pt, si, probs)
    np.testing.assert_allclose(out.asnumpy(), np.array([[1.5] * 3, [2.0] * 3, [1.5] * 3,
                                                        [1.0] * 3]))
    dx, dp = ms.grad(lambda a, b: ops.moe_token_unpermute(a, si, b), (0, 1))(pt, probs)
    np.testing.assert_allclose(dx.asnumpy(), np.full((8, 3), 0.5))
    np.testing.assert_allclose(dp.asnumpy(), [[3, 6], [9, 3], [9, 0], [0, 6]])
    assert ops.moe_token_unpermute(pt, si).shape == (8, 3)


def test_unpermute_reference_with_dropped_rows_and_gradcheck():
    perm = RNG.standard_normal((5, 3))  # 8 pairs, 3 dropped (indices >= 5)
    si = RNG.permutation(8).astype(np.int32)
    probs = RNG.random((4, 2))
    out = ops.moe_token_unpermute(ms.Tensor(perm), ms.Tensor(si), ms.Tensor(probs))
    np.testing.assert_allclose(out.asnumpy(), ref_unpermute(perm, si, probs), rtol=1e-12)
    assert gradcheck(lambda a, b: ops.moe_token_unpermute(a, ms.Tensor(si), b),
                     ms.Tensor(perm), ms.Tensor(probs))


def test_unpermute_errors():
    pt = ms.Tensor(np.ones((4, 2), np.float32))
    with pytest.raises(TypeError, match="permuted_tokens"):
        ops.moe_token_unpermute(np.ones((4, 2)), ms.Tensor([0, 1, 2, 3]))
    with pytest.raises(ValueError, match="padded_mode"):
        ops.moe_token_unpermute(pt, ms.Tensor([0, 1, 2, 3]), None, True)
    with pytest.raises(ValueError, match="probs"):
        ops.moe_token_unpermute(pt, ms.Tensor([0, 1, 2, 3]), ms.Tensor(np.ones((3, 2))))


# ---- moe_init_routing_v2 ----

def test_routing_documented_drop_pad_example():
    x = ms.Tensor(np.array([[0.1, 0.2, 0.3], [0.2, 0.7, 0.8], [0.3, 0.3, 0.5]]), ms.float16)
    e = ms.Tensor(np.array([[0, 1, 1], [2, 1, 1], [0, 0, 0]]), ms.int32)
    out1, out2 = ops.moe_init_routing_v2(x, e, 3, 2, 3, 1, 0, False)
    assert out1.dtype == ms.float16 and out1.shape == (3, 2, 3)
    np.testing.assert_allclose(out1.asnumpy()[:, :, 0], [[0.1, 0.3], [0.1, 0.1], [0.2, 0]],
                               atol=1e-3)
    np.testing.assert_array_equal(out2.asnumpy(), [0, 2, 3, 4, -1, -1, 1, -1, -1])


@pytest.mark.parametrize("capacity", [1, 3, 6])
def test_routing_drop_pad_reference(capacity):
    x = RNG.standard_normal((6, 4)).astype(np.float32)
    e = RNG.integers(0, 4, (6, 3)).astype(np.int32)
    out, where, counts = ops.moe_init_routing_v2(ms.Tensor(x), ms.Tensor(e), 0, capacity, 4, 1,
                                                 0, True)
    r_out, r_where, r_counts = ref_routing_drop_pad(x, e, capacity, 4)
    np.testing.assert_array_equal(out.asnumpy(), r_out)
    np.testing.assert_array_equal(where.asnumpy(), r_where)
    np.testing.assert_array_equal(counts.asnumpy(), r_counts)


@pytest.mark.parametrize("active,flag", [(0, 0), (0, 1), (0, 2), (5, 2), (100, 0)])
def test_routing_dropless_and_active(active, flag):
    x = RNG.standard_normal((5, 3))
    e = RNG.integers(0, 4, (5, 2)).astype(np.int32)
    outs = ops.moe_init_routing_v2(ms.Tensor(x), ms.Tensor(e), active, 0, 4, 0, flag, False)
    assert len(outs) == (3 if flag else 2)
    ref, where = ref_permute(x, e, active or None)
    np.testing.assert_array_equal(outs[0].asnumpy(), ref)
    np.testing.assert_array_equal(outs[1].asnumpy(), where)
    counts = np.array([(e == i).sum() for i in range(4)])
    if flag:
        np.testing.assert_array_equal(outs[2].asnumpy(),
                                      np.cumsum(counts) if flag == 1 else counts)
    assert gradcheck(lambda t: ops.moe_init_routing_v2(t, ms.Tensor(e), active, 2, 4, 1, 0,
                                                        False)[0], ms.Tensor(x))


def test_routing_errors():
    x = ms.Tensor(np.ones((3, 2), np.float32))
    e = ms.Tensor(np.array([[0], [1], [5]], np.int32))
    with pytest.raises(ValueError, match=r"expert_idx' must be in \[0, 2\]"):
        ops.moe_init_routing_v2(x, e, 0, 2, 3, 1, 0, False)
    with pytest.raises(ValueError, match="drop_pad_mode"):
        ops.moe_init_routing_v2(x, e, 0, 2, 8, 2, 0, False)
    with pytest.raises(ValueError, match="expert_capacity"):
        ops.moe_init_routing_v2(x, e, 0, 4, 8, 1, 0, False)
    with pytest.raises(TypeError, match="expert_tokens_before_capacity_flag"):
        ops.moe_init_routing_v2(x, e, 0, 2, 8, 1, 0, 1)


# ---- GroupTopk ----

@pytest.mark.parametrize("shape,group_num,k,k_inner", [((7, 32), 8, 3, 2), ((4, 12), 4, 1, 3)])
def test_group_topk_in_place(shape, group_num, k, k_inner):
    data = RNG.uniform(-2, 2, shape).astype(np.float32)
    token = ms.Tensor(data)
    out = ops.GroupTopk()(token, ms.Tensor(np.arange(1024, dtype=np.int32)), group_num, k,
                          k_inner)
    ref = ref_group_topk(data, group_num, k, k_inner)
    np.testing.assert_array_equal(out.asnumpy(), ref)
    np.testing.assert_array_equal(token.asnumpy(), ref)  # written in place, as MindSpore's


def test_group_topk_errors():
    token = ms.Tensor(np.ones((2, 12), np.float32))
    idx = ms.Tensor(np.arange(12, dtype=np.int32))
    with pytest.raises(ValueError, match="group_num"):
        ops.GroupTopk()(token, idx, 5, 1)
    with pytest.raises(ValueError, match="'k'"):
        ops.GroupTopk()(token, idx, 4, 5)
    with pytest.raises(TypeError, match="idx_arr"):
        ops.GroupTopk()(token, ms.Tensor(np.ones(3, np.float32)), 4, 1)


def test_names_at_mindspore_paths():
    from cellgrad._not_provided import NOT_PROVIDED
    from cellgrad.ops import functional as F
    from cellgrad.ops import operations as P
    for name in ("moe_token_permute", "moe_token_unpermute", "moe_init_routing_v2"):
        assert getattr(F, name) is getattr(ops, name)
        assert f"ops.{name}" not in NOT_PROVIDED
    assert P.GroupTopk is ops.GroupTopk and "ops.GroupTopk" not in NOT_PROVIDED


# ---- multi_scale_deformable_attn_function ----

def ref_msda(value, shapes, starts, loc, w):
    """Deformable DETR's sampling written out: bilinear, align_corners=False, zero outside."""
    bs, _, heads, dims = value.shape
    _, nq, _, levels, points, _ = loc.shape
    out = np.zeros((bs, nq, heads, dims))
    for b in range(bs):
        for q in range(nq):
            for h in range(heads):
                for lvl in range(levels):
                    hgt, wid = shapes[lvl]
                    for p in range(points):
                        x = loc[b, q, h, lvl, p, 0] * wid - 0.5
                        y = loc[b, q, h, lvl, p, 1] * hgt - 0.5
                        x0, y0 = int(np.floor(x)), int(np.floor(y))
                        for yy in (y0, y0 + 1):
                            for xx in (x0, x0 + 1):
                                if 0 <= yy < hgt and 0 <= xx < wid:
                                    c = (1 - abs(x - xx)) * (1 - abs(y - yy)) * w[b, q, h, lvl, p]
                                    out[b, q, h] += c * value[b, starts[lvl] + yy * wid + xx, h]
    return out.reshape(bs, nq, heads * dims)


def _msda_inputs(dtype=np.float64, bs=2):
    shapes = np.array([[3, 4], [2, 2]], np.int64)
    starts = np.array([1, 13], np.int64)
    value = RNG.standard_normal((bs, 18, 2, 8)).astype(dtype)
    loc = RNG.uniform(-0.2, 1.2, (bs, 3, 2, 2, 3, 2)).astype(dtype)  # some points fall outside
    w = RNG.random((bs, 3, 2, 2, 3)).astype(dtype)
    return value, shapes, starts, loc, w


def test_msda_matches_reference_and_gradcheck():
    value, shapes, starts, loc, w = _msda_inputs(np.float32)
    out = ops.multi_scale_deformable_attn_function(ms.Tensor(value), ms.Tensor(shapes),
                                                   ms.Tensor(starts), ms.Tensor(loc),
                                                   ms.Tensor(w))
    assert out.shape == (2, 3, 16) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), ref_msda(value, shapes, starts, loc, w),
                               rtol=1e-5, atol=1e-5)
    value, shapes, starts, loc, w = _msda_inputs(bs=1)
    sh, st = ms.Tensor(shapes), ms.Tensor(starts)
    assert gradcheck(lambda v, lc, wt: ops.multi_scale_deformable_attn_function(v, sh, st, lc, wt),
                     ms.Tensor(value), ms.Tensor(loc), ms.Tensor(w))


def test_msda_matches_torch_grid_sample():
    torch = pytest.importorskip("torch")
    tf = torch.nn.functional
    value, shapes, starts, loc, w = _msda_inputs()
    vt, lt, wt = (torch.tensor(a, requires_grad=True) for a in (value, loc, w))
    bs, _, heads, dims = value.shape
    nq, levels, points = loc.shape[1], loc.shape[3], loc.shape[4]
    sampled = []
    for lvl, (hgt, wid) in enumerate(shapes):  # mmcv's multi_scale_deformable_attn_pytorch
        vl = vt[:, starts[lvl]:starts[lvl] + hgt * wid].flatten(2).transpose(1, 2)
        vl = vl.reshape(bs * heads, dims, int(hgt), int(wid))
        grid = (2 * lt[:, :, :, lvl] - 1).transpose(1, 2).flatten(0, 1)
        sampled.append(tf.grid_sample(vl, grid, mode="bilinear", padding_mode="zeros",
                                      align_corners=False))
    aw = wt.transpose(1, 2).reshape(bs * heads, 1, nq, levels * points)
    expect = (torch.stack(sampled, -2).flatten(-2) * aw).sum(-1).view(bs, heads * dims, nq)
    expect = expect.transpose(1, 2)
    expect.sum().backward()
    args = [ms.Tensor(a) for a in (value, shapes, starts, loc, w)]
    out = ops.multi_scale_deformable_attn_function(*args)
    np.testing.assert_allclose(out.asnumpy(), expect.detach().numpy(), rtol=1e-10, atol=1e-12)
    grads = ms.grad(lambda v, lc, wg: ops.multi_scale_deformable_attn_function(
        v, args[1], args[2], lc, wg).sum(), (0, 1, 2))(args[0], args[3], args[4])
    for got, want in zip(grads, (vt.grad, lt.grad, wt.grad)):
        np.testing.assert_allclose(got.asnumpy(), want.numpy(), rtol=1e-9, atol=1e-10)


def test_msda_errors():
    value, shapes, starts, loc, w = (ms.Tensor(a) for a in _msda_inputs(np.float32))
    with pytest.raises(RuntimeError, match="'shape' must be int32 or int64"):
        ops.multi_scale_deformable_attn_function(value, ms.Tensor(np.ones((2, 2))), starts,
                                                 loc, w)
    with pytest.raises(RuntimeError, match="multiple of 8"):
        ops.multi_scale_deformable_attn_function(value[..., :4], shapes, starts, loc, w)
    with pytest.raises(RuntimeError, match="num_keys"):
        ops.multi_scale_deformable_attn_function(value, shapes, ms.Tensor([1, 16]), loc, w)
    with pytest.raises(RuntimeError, match="weight"):
        ops.multi_scale_deformable_attn_function(value, shapes, starts, loc, w[..., :2])


# ---- ExtractVolumePatches, SparseSlice (also replayed: ms_programs/volume_patches_...) ----

def ref_volume_patches(x, k, s, same):
    n, c, *size = x.shape
    outs, before = [], []
    for dim, kk, ss in zip(size, k, s):
        out = -(-dim // ss) if same else (dim - kk) // ss + 1
        outs.append(out)
        before.append(max(0, (out - 1) * ss + kk - dim) // 2 if same else 0)
    res = np.zeros((n, k[0] * k[1] * k[2] * c, *outs))
    for od, oh, ow in np.ndindex(*outs):
        ch = 0
        for a, b, e in np.ndindex(*k):
            d = od * s[0] + a - before[0]
            h = oh * s[1] + b - before[1]
            w = ow * s[2] + e - before[2]
            for cc in range(c):
                if 0 <= d < size[0] and 0 <= h < size[1] and 0 <= w < size[2]:
                    res[:, ch, od, oh, ow] = x[:, cc, d, h, w]
                ch += 1
    return res


@pytest.mark.parametrize("k,s,pad", [((2, 2, 2), (1, 2, 2), "VALID"),
                                     ((2, 3, 2), (2, 2, 3), "SAME"),
                                     ((3, 1, 2), (1, 1, 1), "SAME")])
def test_extract_volume_patches(k, s, pad):
    x = RNG.standard_normal((2, 3, 3, 4, 5))
    prim = ops.ExtractVolumePatches((1, 1, *k), (1, 1, *s), pad)
    out = prim(ms.Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), ref_volume_patches(x, k, s, pad == "SAME"))
    assert gradcheck(prim, ms.Tensor(x[:1, :2]))


def test_extract_volume_patches_errors():
    with pytest.raises(ValueError, match="kernel_size"):
        ops.ExtractVolumePatches((1, 1, 2, 2), 1, "VALID")
    with pytest.raises(ValueError, match=r"'strides\[1\]' must be int and must = 1"):
        ops.ExtractVolumePatches(2, (1, 2, 1, 1, 1), "VALID")
    with pytest.raises(ValueError, match="padding"):
        ops.ExtractVolumePatches(2, 1, "FULL")
    with pytest.raises(ValueError, match="dimension of 'input_x' must be 5"):
        ops.ExtractVolumePatches(2, 1, "VALID")(ms.Tensor(np.ones((2, 3, 3, 3))))


def test_sparse_slice_reference_and_grad():
    idx = np.array([[0, 1], [1, 2], [1, 3], [2, 2], [3, 0], [2, 3]], np.int64)
    val = RNG.standard_normal(6)
    args = ms.Tensor(idx), ms.Tensor(val), ms.Tensor(np.array([4, 4], np.int64))
    start, size = np.array([1, 2]), np.array([5, 5])
    out_idx, out_val, out_shape = ops.SparseSlice()(*args, ms.Tensor(start), ms.Tensor(size))
    keep = [i for i in range(6) if all(start[r] <= idx[i, r] < min(start[r] + size[r], 4)
                                       for r in range(2))]
    np.testing.assert_array_equal(out_idx.asnumpy(), idx[keep] - start)
    np.testing.assert_array_equal(out_val.asnumpy(), val[keep])
    np.testing.assert_array_equal(out_shape.asnumpy(), [3, 2])
    assert out_idx.dtype == ms.int64 and out_shape.dtype == ms.int64
    assert gradcheck(lambda v: ops.SparseSlice()(args[0], v, args[2], ms.Tensor(start),
                                                 ms.Tensor(size))[1], args[1])
    with pytest.raises(TypeError, match="start"):
        ops.SparseSlice()(*args, ms.Tensor([0.0, 1.0]), ms.Tensor(size))
    with pytest.raises(ValueError, match="rank"):
        ops.SparseSlice()(*args, ms.Tensor(np.array([0, 1, 2])), ms.Tensor(size))


# ---- ExtractGlimpse (placement replayed from MindSpore: ms_programs/extract_glimpse.py) ----

def ref_glimpse(img, size, offsets, centered, normalized):
    n, hgt, wid, ch = img.shape
    out = np.zeros((n, size[0], size[1], ch), img.dtype)
    for i in range(n):
        r, c = float(offsets[i, 0]), float(offsets[i, 1])
        if normalized:
            r, c = r * hgt, c * wid
        if centered:
            r, c = r / 2 + hgt / 2, c / 2 + wid / 2
        top, left = int(r - size[0] / 2), int(c - size[1] / 2)  # truncation, as the kernel
        for a in range(size[0]):
            for b in range(size[1]):
                if 0 <= top + a < hgt and 0 <= left + b < wid:
                    out[i, a, b] = img[i, top + a, left + b]
    return out


@pytest.mark.parametrize("centered", [True, False])
@pytest.mark.parametrize("normalized", [True, False])
def test_extract_glimpse_reference(centered, normalized):
    img = RNG.standard_normal((3, 5, 7, 2)).astype(np.float32)
    lim = (-1.3, 1.3) if normalized else (-4, 8)
    offsets = RNG.uniform(*lim, (3, 2)).astype(np.float32)
    for size in ([2, 3], [4, 4], [6, 9]):
        out = ops.ExtractGlimpse(centered, normalized, False, "zero")(
            ms.Tensor(img), ms.Tensor(size, ms.int32), ms.Tensor(offsets))
        assert out.dtype == ms.float32 and out.shape == (3, *size, 2)
        np.testing.assert_array_equal(out.asnumpy(),
                                      ref_glimpse(img, size, offsets, centered, normalized))


def test_extract_glimpse_noise_is_seeded():
    img = ms.Tensor(np.full((1, 4, 4, 3), 100.0, np.float32))
    args = ms.Tensor([6, 6], ms.int32), ms.Tensor([[0.0, 0.0]], ms.float32)
    ms.set_seed(3)
    uniform = ops.ExtractGlimpse()(img, *args).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.ExtractGlimpse()(img, *args).asnumpy(), uniform)
    border = uniform != 100.0
    assert border.sum() == (36 - 16) * 3 and np.all(np.abs(uniform[border]) <= 1)
    gauss = ops.ExtractGlimpse(uniform_noise=False, noise="gaussian")(img, *args).asnumpy()
    noise = gauss[gauss != 100.0]
    assert noise.size == 60 and abs(noise.mean() - 10) < 0.3 and noise.min() >= 0


def test_extract_glimpse_errors():
    img = ms.Tensor(np.ones((1, 4, 4, 1), np.float32))
    with pytest.raises(ValueError, match="uniform_noise is True"):
        ops.ExtractGlimpse(noise="zero")
    with pytest.raises(ValueError, match="shape of 'offsets' must be"):
        ops.ExtractGlimpse()(img, ms.Tensor([2, 2], ms.int32), ms.Tensor([[0.0, 0.0, 0.0]]))
    with pytest.raises(TypeError, match="size"):
        ops.ExtractGlimpse()(img, ms.Tensor([2.0, 2.0]), ms.Tensor([[0.0, 0.0]]))


# ---- ScaleAndTranslate (all kernels replayed from MindSpore: ms_programs/scale_and_...) ----

def ref_triangle_resize(img, out_hw, scale, translate):
    """Triangle-kernel (linear) resampling without antialias, written out per output pixel."""
    n, hgt, wid, ch = img.shape
    out = np.zeros((n, *out_hw, ch))

    def taps(o, size, s, t):
        centre = (o + 0.5 - t) / s
        if centre < 0 or centre > size:
            return []
        taps = [(i, max(0.0, 1 - abs(i + 0.5 - centre))) for i in range(size)]
        taps = [(i, w) for i, w in taps if w > 0]
        total = sum(w for _, w in taps)
        return [(i, w / total) for i, w in taps] if total > 1e-4 else taps

    for r in range(out_hw[0]):
        for c in range(out_hw[1]):
            for i, wi in taps(r, hgt, scale[0], translate[0]):
                for j, wj in taps(c, wid, scale[1], translate[1]):
                    out[:, r, c] += wi * wj * img[:, i, j]
    return out


def test_scale_and_translate_triangle_reference_and_gradcheck():
    img = RNG.standard_normal((2, 5, 6, 3))
    for out_hw, scale, tr in [((9, 8), (1.8, 1.4), (0.5, -0.3)), ((5, 6), (1.0, 1.0), (1.0, 2.0))]:
        got = ops.ScaleAndTranslate("triangle", False)(
            ms.Tensor(img.astype(np.float32)), ms.Tensor(list(out_hw), ms.int32),
            ms.Tensor(scale, ms.float32), ms.Tensor(tr, ms.float32))
        assert got.dtype == ms.float32 and got.shape == (2, *out_hw, 3)
        np.testing.assert_allclose(got.asnumpy(), ref_triangle_resize(img, out_hw, scale, tr),
                                   rtol=1e-5, atol=1e-5)
    args = (ms.Tensor([3, 4], ms.int32), ms.Tensor([0.6, 0.7], ms.float32),
            ms.Tensor([0.2, 0.0], ms.float32))
    assert gradcheck(lambda x: ops.ScaleAndTranslate()(x, *args), ms.Tensor(img))


def test_scale_and_translate_matches_torch_antialiased_bilinear():
    torch = pytest.importorskip("torch")
    img = RNG.standard_normal((2, 12, 10, 3))
    for out_hw in [(5, 4), (20, 17)]:
        scale = [out_hw[0] / 12, out_hw[1] / 10]
        got = ops.ScaleAndTranslate("triangle", True)(
            ms.Tensor(img), ms.Tensor(list(out_hw), ms.int32), ms.Tensor(scale, ms.float32),
            ms.Tensor([0.0, 0.0], ms.float32))
        want = torch.nn.functional.interpolate(
            torch.tensor(img).permute(0, 3, 1, 2), size=out_hw, mode="bilinear",
            align_corners=False, antialias=True).permute(0, 2, 3, 1).numpy()
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_scale_and_translate_errors():
    img = ms.Tensor(np.ones((1, 4, 4, 1), np.float32))
    good = ms.Tensor([2, 2], ms.int32), ms.Tensor([0.5, 0.5]), ms.Tensor([0.0, 0.0])
    with pytest.raises(ValueError, match="kernel_type"):
        ops.ScaleAndTranslate("bicubic")
    with pytest.raises(TypeError, match="antialias"):
        ops.ScaleAndTranslate(antialias=1)
    with pytest.raises(ValueError, match="rank of 'images' must be 4"):
        ops.ScaleAndTranslate()(ms.Tensor(np.ones((4, 4, 1), np.float32)), *good)
    with pytest.raises(ValueError, match="shape of 'scale' must be"):
        ops.ScaleAndTranslate()(img, good[0], ms.Tensor([0.5, 0.5, 0.5]), good[2])
    with pytest.raises(TypeError, match="size"):
        ops.ScaleAndTranslate()(img, ms.Tensor([2.0, 2.0]), *good[1:])


# ---- SampleDistortedBoundingBoxV2 ----

def _sdbb(prim, hw, boxes, covered):
    return prim(ms.Tensor([hw[0], hw[1], 3], ms.int32), ms.Tensor(boxes, ms.float32),
                ms.Tensor([covered], ms.float32))


def test_sample_distorted_bounding_box_constraints():
    prim = ops.SampleDistortedBoundingBoxV2(aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.6))
    box = [[[0.2, 0.3, 0.6, 0.9]]]
    hgt, wid = 40, 50
    obj = (int(0.3 * wid), int(0.2 * hgt), int(0.9 * wid), int(0.6 * hgt))  # x0, y0, x1, y1
    for _ in range(30):
        begin, size, bbox = _sdbb(prim, (hgt, wid), box, 0.5)
        assert begin.dtype == size.dtype == ms.int32 and bbox.dtype == ms.float32
        (y, x, c0), (h, w, c1) = begin.asnumpy(), size.asnumpy()
        assert (c0, c1) == (0, -1) and 0 <= y and y + h <= hgt and 0 <= x and x + w <= wid
        assert 0.1 * hgt * wid <= h * w <= 0.6 * hgt * wid
        assert 0.5 - 0.1 <= w / h <= 2.0 + 0.1  # aspect ratio up to the rounding of w
        inter = (max(0, min(x + w, obj[2]) - max(x, obj[0]))
                 * max(0, min(y + h, obj[3]) - max(y, obj[1])))
        assert inter / ((obj[2] - obj[0]) * (obj[3] - obj[1])) >= 0.5
        np.testing.assert_allclose(bbox.asnumpy(), [[[y / hgt, x / wid, (y + h) / hgt,
                                                      (x + w) / wid]]], rtol=1e-6)


def test_sample_distorted_bounding_box_seeds_and_fallback():
    box = [[[0.1, 0.1, 0.5, 0.5]]]
    fixed = ops.SampleDistortedBoundingBoxV2(seed=1, seed2=2)
    first = [t.asnumpy() for t in _sdbb(fixed, (30, 30), box, 0.1)]
    for _ in range(3):  # MindSpore restarts its generator from fixed seeds on every call
        again = _sdbb(fixed, (30, 30), box, 0.1)
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b.asnumpy())
    ms.set_seed(5)
    unseeded = ops.SampleDistortedBoundingBoxV2()
    draws = [_sdbb(unseeded, (30, 30), box, 0.1)[0].asnumpy() for _ in range(5)]
    ms.set_seed(5)
    np.testing.assert_array_equal(draws[0], _sdbb(unseeded, (30, 30), box, 0.1)[0].asnumpy())
    # an area range no crop can meet: the whole image comes back
    tight = ops.SampleDistortedBoundingBoxV2(aspect_ratio_range=(3.0, 4.0),
                                             area_range=(0.9, 1.0), max_attempts=5)
    begin, size, bbox = _sdbb(tight, (10, 10), box, 1.0)
    assert begin.asnumpy().tolist() == [0, 0, 0] and size.asnumpy().tolist() == [10, 10, -1]
    np.testing.assert_array_equal(bbox.asnumpy(), [[[0, 0, 1, 1]]])


def test_sample_distorted_bounding_box_errors():
    prim = ops.SampleDistortedBoundingBoxV2()
    with pytest.raises(ValueError, match="min_object_covered dimension must be equal to 1"):
        prim(ms.Tensor([10, 10, 3], ms.int32), ms.Tensor([[[0.1, 0.1, 0.5, 0.5]]]),
             ms.Tensor(0.1, ms.float32))
    with pytest.raises(ValueError, match="area_range"):
        ops.SampleDistortedBoundingBoxV2(area_range=(0.5, 1.5))
    with pytest.raises(ValueError, match="max_attempts"):
        ops.SampleDistortedBoundingBoxV2(max_attempts=0)
    with pytest.raises(ValueError, match="no bounding boxes"):
        _sdbb(prim, (10, 10), np.zeros((1, 0, 4), np.float32), 0.1)
    with pytest.raises(ValueError, match="coordinates must be in"):
        _sdbb(prim, (10, 10), [[[0.1, 0.1, 1.5, 0.5]]], 0.1)
    assert _sdbb(ops.SampleDistortedBoundingBoxV2(use_image_if_no_bounding_boxes=True),
                 (10, 10), np.zeros((1, 0, 4), np.float32), 0.0)[1].shape == (3,)
