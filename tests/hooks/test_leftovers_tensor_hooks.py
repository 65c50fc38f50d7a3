"""`Tensor.hooks()` lists the functions `register_hook` put on the Tensor, as MindSpore 2.10."""

from cellgrad import Tensor


def test_hooks_lists_registered_functions():
    x = Tensor([1., 2.])
    assert x.hooks() == []

    def double(g):
        return g * 2

    handle = x.register_hook(double)
    assert x.hooks() == [double]
    handle.remove()
    assert x.hooks() == []
