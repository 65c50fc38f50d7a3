import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

a = Tensor(np.array([[0.2, -1.5, 3.0], [1.0, 0.5, -0.25], [-0.7, 2.2, 0.9]], np.float32))
b = Tensor(np.array([[1.0, -1.0, 0.5], [-2.0, 0.4, 0.1], [0.3, 0.3, -1.2]], np.float32))
sign = Tensor(np.array([1.0, -1.0, 1.0], np.float32))

def show(name, fn):
    print(name, fn(a, b))
    print("grads", ms.grad(lambda x, y: fn(x, y).sum(), (0, 1))(a, b))

for red in ("mean", "sum", "none"):
    show("huber " + red, lambda x, y: ops.huber_loss(x, y, red, 1.5))
    show("margin_ranking " + red, lambda x, y: ops.margin_ranking_loss(x[:, 0], y[:, 0], sign,
                                                                       0.3, red))
    show("cosine_embedding " + red, lambda x, y: ops.cosine_embedding_loss(x, y, sign, 0.2, red))
show("cosine_similarity", lambda x, y: ops.cosine_similarity(x, y))
show("cosine_similarity dim0", lambda x, y: ops.cosine_similarity(x, y, 0))
show("glu", lambda x, y: ops.glu(ops.concat((x, y), 1), 1))
