"""The Transformer cells: encoder/decoder layers, their stacks and `nn.Transformer`
(MindSpore 2.10's, which are PyTorch's: post-norm by default, `norm_first` for pre-norm)."""

import copy
import math

from cellgrad import ops
from cellgrad.common.initializer import HeUniform, Uniform, initializer
from cellgrad.dtype import bool_, float32
from cellgrad.nn import Cell, CellList
from cellgrad_nn.attention.multihead import MultiheadAttention, _is_float
from cellgrad_nn.functional.activation import gelu, relu
from cellgrad_nn.layers.activation import GELU, ReLU
from cellgrad_nn.layers.dropout import Dropout
from cellgrad_nn.layers.linear import Dense
from cellgrad_nn.layers.norm import LayerNorm

__all__ = ["TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]


def _activation(activation):
    """MindSpore's rule: 'relu'/'gelu', an nn.ReLU/nn.GELU instance, or ops.relu/ops.gelu."""
    if isinstance(activation, str):
        if activation == "relu":
            return relu
        if activation == "gelu":
            return gelu
        raise ValueError(f"The activation must be relu/gelu, but get {activation}")
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, "
                             f"but get {activation}.")
        return activation
    if callable(activation):
        if activation is not ops.relu and activation is not ops.gelu:
            raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance,"
                             f" but get {activation}.")
        return activation
    raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, but "
                     f"get {activation}.")


def _dense(n_in, n_out, dtype):
    return Dense(n_in, n_out, weight_init=HeUniform(math.sqrt(5)),
                 bias_init=Uniform(1 / math.sqrt(n_in)), dtype=dtype)


def _check_padding_mask(mask, error=AssertionError):
    if mask is not None and mask.dtype != bool_ and not _is_float(mask):
        raise error("only bool and floating types of key_padding_mask are supported")


class _Layer(Cell):
    """What the encoder and decoder layers share: the feed-forward block and the settings."""

    def _setup(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
               batch_first, norm_first, dtype, n_norms):
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        if n_norms == 3:  # the decoder: its cross-attention comes second, as MindSpore's
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                     batch_first=batch_first, dtype=dtype)
        self.dense1 = _dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        for i in range(1, n_norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.dtype = batch_first, dtype

    def _config(self):
        return (self.d_model, self.nhead, self.dim_feedforward, self.dropout_num,
                self.activation1, self.layernorm_eps, self.batch_first, self.norm_first)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x, dropout):
        return dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_Layer):
    """Mirrors `mindspore.nn.TransformerEncoderLayer`."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=float32):
        super().__init__()
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, dtype, 2)

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_Layer):
    """Mirrors `mindspore.nn.TransformerDecoderLayer`."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=float32):
        super().__init__()
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, dtype, 3)

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x, self.dropout3))

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout2(x)


class TransformerEncoder(Cell):
    """Mirrors `mindspore.nn.TransformerEncoder`: `num_layers` copies of a fresh layer with
    `encoder_layer`'s settings (all start with the same weights, as MindSpore's)."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        layer = TransformerEncoderLayer(*encoder_layer._config(), dtype=encoder_layer.dtype)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Cell):
    """Mirrors `mindspore.nn.TransformerDecoder` (copies as `TransformerEncoder`)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        layer = TransformerDecoderLayer(*decoder_layer._config(), dtype=decoder_layer.dtype)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class Transformer(Cell):
    """Mirrors `mindspore.nn.Transformer`: every weight matrix re-drawn Xavier-uniform."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=float32):
        super().__init__()
        config = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                  batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*config, dtype=dtype), num_encoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*config, dtype=dtype), num_decoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        batched = src.ndim == 3
        axis = 0 if self.batch_first else 1
        if batched and src.shape[axis] != tgt.shape[axis]:
            raise ValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to "
                             "`d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
