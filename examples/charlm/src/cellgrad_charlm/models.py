"""The two language models: a causal Transformer encoder and an LSTM, (B, T) ids -> logits."""

import numpy as np

import cellgrad as ms
from cellgrad import nn


class TransformerLM(nn.Cell):
    """Token and learned position embeddings, a causally masked `nn.TransformerEncoder`
    (pre-norm), a final LayerNorm and a Dense head."""

    def __init__(self, vocab, seq_len, d_model=128, heads=4, layers=2, ff=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(seq_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.0, activation="relu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm((d_model,))
        self.head = nn.Dense(d_model, vocab)
        self.seq_len = seq_len
        # -inf above the diagonal: position t attends to positions <= t only
        self.masks = {}

    def causal_mask(self, t):
        if t not in self.masks:
            m = np.triu(np.full((t, t), -np.inf, np.float32), 1)
            self.masks[t] = ms.Tensor(m)
        return self.masks[t]

    def construct(self, x):
        t = x.shape[1]
        positions = ms.Tensor(np.arange(t, dtype=np.int32))
        h = self.embed(x) + self.pos(positions)
        h = self.encoder(h, src_mask=self.causal_mask(t))
        return self.head(self.norm(h))


class LSTMLM(nn.Cell):
    """Embedding, a 2-layer `nn.LSTM` (batch_first) and a Dense head."""

    def __init__(self, vocab, seq_len, hidden=192, layers=2, embed=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Dense(hidden, vocab)
        self.seq_len = seq_len

    def construct(self, x):
        h, _ = self.lstm(self.embed(x))
        return self.head(h)


MODELS = {"transformer": TransformerLM, "lstm": LSTMLM}


def build(kind, vocab, seq_len):
    return MODELS[kind](vocab, seq_len)
