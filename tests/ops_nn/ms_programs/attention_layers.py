"""MultiheadAttention and the Transformer cells: outputs, masks, weights and gradients."""
import numpy as np

import mindspore as ms
from mindspore import nn, ops

ms.set_seed(0)
RNG = np.random.default_rng(7)


def show(tag, t):
    a = t.asnumpy()
    print(tag, t.dtype, a.shape)
    print(np.array2string(a, precision=4, suppress_small=True, threshold=10_000))


def fill(cell):
    for name, p in cell.parameters_and_names():
        p.set_data(ms.Tensor((RNG.normal(size=p.shape) * 0.3).astype(np.float32)))
        print("param", name, p.shape)


E, H, L, S, N = 8, 2, 4, 5, 3
q = ms.Tensor(RNG.normal(size=(L, N, E)).astype(np.float32))
kv = ms.Tensor(RNG.normal(size=(S, N, E)).astype(np.float32))

mha = nn.MultiheadAttention(E, H)
fill(mha)
out, w = mha(q, kv, kv)
show("mha_out", out)
show("mha_w", w)
out, w = mha(q, q, q, average_attn_weights=False)
show("self_out", out)
show("self_w_heads", w)
causal = ms.Tensor(np.triu(np.ones((L, L), bool), 1))
kpm = ms.Tensor(np.array([[False] * 4 + [True], [False] * 5, [False, True] + [False] * 3]))
out, w = mha(q, kv, kv, key_padding_mask=kpm)
show("kpm_out", out)
show("kpm_w", w)
out, w = mha(q, q, q, attn_mask=causal)
show("causal_out", out)
fmask = ms.Tensor(RNG.normal(size=(N * H, L, S)).astype(np.float32))
out, w = mha(q, kv, kv, attn_mask=fmask)
show("float3d_out", out)
res = mha(q, kv, kv, need_weights=False)
print("need_weights_false", type(res).__name__, len(res))
out, w = mha(q[:, 0], kv[:, 0], kv[:, 0])
show("unbatched_out", out)
show("unbatched_w", w)

bf = nn.MultiheadAttention(E, H, batch_first=True, kdim=6, vdim=4, add_bias_kv=True,
                           add_zero_attn=True)
fill(bf)
kb = ms.Tensor(RNG.normal(size=(N, S, 6)).astype(np.float32))
vb = ms.Tensor(RNG.normal(size=(N, S, 4)).astype(np.float32))
qb = ops.swapaxes(q, 0, 1)
out, w = bf(qb, kb, vb)
show("bf_out", out)
show("bf_w", w)


def loss_fn(a, b):
    o, _ = mha(a, b, b, key_padding_mask=kpm)
    return (o * o).sum()


g = ms.grad(loss_fn, grad_position=(0, 1), weights=mha.trainable_params())(q, kv)
show("grad_q", g[0][0])
show("grad_kv", g[0][1])
for p, gp in zip(mha.trainable_params(), g[1]):
    show("grad_" + p.name, gp)

enc_layer = nn.TransformerEncoderLayer(E, H, 16, dropout=0.0)
fill(enc_layer)
show("enc_layer", enc_layer(q, src_mask=causal))
pre = nn.TransformerEncoderLayer(E, H, 16, dropout=0.0, activation="gelu", norm_first=True,
                                 batch_first=True)
fill(pre)
show("enc_prenorm_gelu", pre(qb, src_key_padding_mask=ms.Tensor(np.array(
    [[False] * 3 + [True], [False] * 4, [True] + [False] * 3]))))
dec_layer = nn.TransformerDecoderLayer(E, H, 16, dropout=0.0)
fill(dec_layer)
show("dec_layer", dec_layer(q, kv, tgt_mask=causal, memory_key_padding_mask=kpm))
encoder = nn.TransformerEncoder(enc_layer, 2, nn.LayerNorm((E,)))
fill(encoder)
show("encoder", encoder(q))
tr = nn.Transformer(E, H, 1, 1, 16, dropout=0.0)
fill(tr)
show("transformer", tr(kv, q, tgt_mask=causal))
gt = ms.grad(lambda a, b: tr(a, b, tgt_mask=causal).sum(), grad_position=(0, 1))(kv, q)
show("transformer_grad_src", gt[0])
show("transformer_grad_tgt", gt[1])


def err(tag, fn):
    try:
        fn()
        print(tag, "no error")
    except Exception as e:  # noqa: BLE001
        print(tag, type(e).__name__, str(e).splitlines()[0])


err("bad_heads", lambda: nn.MultiheadAttention(8, 3))
err("bad_rank", lambda: mha(q[0, 0], q[0, 0], q[0, 0]))
err("bad_mask_shape", lambda: mha(q, kv, kv, attn_mask=causal))
err("bad_kpm_dtype", lambda: mha(q, kv, kv, key_padding_mask=ms.Tensor(np.zeros((N, S), np.int32))))
err("bad_activation", lambda: nn.TransformerEncoderLayer(E, H, activation="tanh"))
