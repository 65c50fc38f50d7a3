"""Mirrors `mindspore.ops.auto_generate.gen_ops_prim`: the Primitive classes MindSpore generates
from its op definitions. Each name here is cellgrad's Primitive of the same name (the one
`mindspore.ops` / `mindspore.ops.operations` exports, or the inner op of the same name), plus
the inner Primitives of `_inner_prims` that MindSpore's tests build directly."""

from cellgrad.ops.auto_generate._lazy import lazy_names

# module -> the names it gives this namespace
_FROM = {
    "cellgrad.ops": (
        "ACos Abs Acosh AdamWeightDecay AdaptiveMaxPool2D Add AddN Addcdiv Addcmul Angle "
        "ArgMaxWithValue ArgMinWithValue Argmax Argmin Asin Asinh Assign AssignAdd "
        "AssignSub Atan Atan2 Atanh AvgPool BCEWithLogitsLoss BatchMatMul Betainc BiasAdd "
        "BinaryCrossEntropy BroadcastTo Cdist CeLU Ceil Cholesky CholeskyInverse Complex "
        "Concat Conj Cos Cosh CountNonZero Cross CumProd CumSum Cummax Cummin Dense Diag "
        "Div Dropout Eig Elu Equal Erf Erfc Erfinv Exp ExpandDims Expm1 "
        "ExtractImagePatches Eye FFTWithSize FastGeLU Flatten Floor FloorDiv FloorMod GLU "
        "Gather GatherD GatherNd Gcd GeLU Geqrf Greater GreaterEqual GridSampler2D "
        "GridSampler3D HShrink HSigmoid HSwish Identity IsClose IsFinite IsInf LayerNorm "
        "LeftShift Lerp LerpScalar Less LessEqual LinSpace Log Log1p LogMatrixDeterminant "
        "LogSoftmax LogSoftmaxExt LogicalAnd LogicalNot LogicalOr LogicalXor Logit "
        "MaskedFill MaskedScatter MaskedSelect MatMul MatrixDeterminant MatrixExp Maximum "
        "Meshgrid Minimum Mul NLLLoss NanToNum Neg NextAfter NonZero NotEqual OneHot Ones "
        "OnesLike PReLU Polar Pow Primitive Qr RandpermV2 Range ReLU ReLU6 Real RealDiv "
        "Reciprocal ReduceAll ReduceAny ReduceMax ReduceMean ReduceMin ReduceProd "
        "ReduceStd ReduceSum Reshape ResizeBicubic ResizeBilinearV2 ResizeLinear1D "
        "ResizeNearestNeighbor ResizeNearestNeighborV2 ReverseV2 RightShift RmsNorm Roll "
        "Round Rsqrt ScatterNd SearchSorted Select Sigmoid Sign Sin Sinc Sinh Slice "
        "SmoothL1Loss SoftMarginLoss SoftShrink Softmax Split Sqrt Square Squeeze "
        "StridedSlice Sub Svd Tan Tanh Tensor TensorScatterAdd TensorScatterElements "
        "TensorShape Trace Transpose TransposeExtView TransposeView Triu Trunc "
        "UniqueConsecutive UnsortedSegmentSum UpsampleNearest3D UpsampleTrilinear3D Xlogy "
        "Zeros ZerosLike"
    ).split(),
    "cellgrad.ops.auto_generate._inner_prims": (
        "CdistGrad SequenceConcat SoftmaxBackward SumExt TanhGrad TraceV2Grad "
        "UpsampleNearest3DGrad UpsampleTrilinear3DGrad tracev2_grad_op"
    ).split(),
    "cellgrad.ops.operations._grad_ops": (
        "ACosGrad AcoshGrad AsinGrad AsinhGrad AtanGrad BiasAddGrad"
    ).split(),
    "cellgrad.ops.operations._sequence_ops": (
        "TensorToScalar TupleToTensor"
    ).split(),
}


__getattr__, __dir__ = lazy_names(globals(), _FROM)
