"""Attention: the fused scaled-dot-product kernel, `nn.MultiheadAttention` and the
Transformer encoder/decoder cells (MindSpore 2.10's `mindspore.nn.layer.transformer`).

Read by `cellgrad_nn.plugin` without importing the modules below.
"""

OP_MODULES: tuple = ("kernel",)

EXPORTS: dict = {
    "nn.MultiheadAttention": "multihead:MultiheadAttention",
    **{f"nn.{n}": f"transformer:{n}" for n in (
        "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
        "TransformerDecoder", "Transformer")},
}
