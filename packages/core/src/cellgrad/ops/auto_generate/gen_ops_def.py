"""Mirrors `mindspore.ops.auto_generate.gen_ops_def`: the op functions MindSpore generates from
its op definitions, here the functions of `cellgrad.ops` whose signature is the generated
one's (recorded from MindSpore 2.10) and the `*_ext` functions `mint` is built from. MindSpore's
module also holds every generated Primitive class (`from .gen_ops_prim import *`): those of
`gen_ops_prim` resolve here too."""

from cellgrad.ops.auto_generate import gen_ops_prim as _prim
from cellgrad.ops.auto_generate._lazy import lazy_names

# module -> the names it gives this namespace
_FROM = {
    "cellgrad.ops": (
        "abs acos acosh adaptive_avg_pool1d add add_rms_norm addn all angle asin asinh "
        "assign assign_add assign_sub atan atan2 atanh baddbmm broadcast_to cast cat "
        "cdist ceil celu conj conv_transpose2d cos cosh cosine_embedding_loss cummax "
        "deepcopy dense diag diagonal dot elu equal erf erfc erfinv exp exp2 expand_as "
        "expand_dims expm1 fast_gelu fft fft2 fftfreq fftn fftshift flash_attention_score "
        "floor floor_divide floor_mod gather gather_d gather_nd gcd geqrf greater "
        "greater_equal hardshrink hardsigmoid hardswish hfft hfft2 hfftn ifft ifft2 ifftn "
        "ifftshift ihfft ihfft2 ihfftn inplace_sigmoid irfft irfft2 irfftn isfinite isinf "
        "lerp less less_equal log log1p log_softmax logaddexp2 masked_fill masked_select "
        "matrix_exp maximum minimum mse_loss_ext mul nan_to_num neg nextafter not_equal "
        "ones pow prelu prim_attr_register put_ randperm range rank real relu6 reshape "
        "rfft rfft2 rfftfreq rfftn rms_norm roll rsqrt scatter_nd select sigmoid sign "
        "silu sin sinc sinh soft_margin_loss softshrink sqrt square strided_slice sub "
        "swiglu take tan tanh tanh_ tensor_scatter_add tile trace transpose triu trunc "
        "type_as unsorted_segment_sum view_as zero_ zeros"
    ).split(),
    # `*_ext` functions whose mint form has their signature
    "cellgrad.ops.auto_generate._ext_funcs": "add_ext bmm_ext sub_ext".split(),
}
for _module, _names in _prim._FROM.items():
    _FROM[_module] = _FROM.get(_module, []) + [n for n in _names if n not in _FROM.get(_module, [])]


__getattr__, __dir__ = lazy_names(globals(), _FROM)
