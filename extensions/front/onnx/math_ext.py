"""Extractors for ONNX's activations, normalizations, arg-reductions, variadic and matrix ops.

Ops with an opset op of the same meaning get it here (MatMul, Elu, Einsum, the bitwise ops). The others become an
internal op named ``ONNX<op>`` (never a TensorFlow op's name) carrying the attributes read here, per opset version,
and ``math_lowering`` builds them from opset ops.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.ops.activation_ops import Elu
from mo.ops.bitwise import BitwiseAnd, BitwiseNot, BitwiseOr, BitwiseXor
from mo.ops.matmul import Einsum, MatMul
from mo.utils.error import Error

_FLOAT_MAX = float(np.finfo(np.float32).max)


def _name(node) -> str:
    return node.soft_get('name', node.id)


def internal_op(node, op: str, **attrs):
    """Give ``node`` the internal op ``op`` with ``attrs`` (``math_lowering`` builds it)."""
    node['op'] = op
    node.attrs().update(attrs)
    return True


class MatMulExtractor(FrontExtractorOp):
    """MatMul -> MatMul (numpy batch broadcasting; a 1-D operand is a row or column vector, as in the opset)."""
    op = 'MatMul'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        MatMul.update_node_stat(node, {})
        return True


class GemmExtractor(FrontExtractorOp):
    """Gemm -> alpha * MatMul(A, B, transA, transB) + beta * C (C optional from opset 11; broadcast to the
    product)."""
    op = 'Gemm'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXGemm', alpha=onnx_attr(node, 'alpha', 'f', 1.0),
                         beta=onnx_attr(node, 'beta', 'f', 1.0), transpose_a=bool(onnx_attr(node, 'transA', 'i', 0)),
                         transpose_b=bool(onnx_attr(node, 'transB', 'i', 0)))


def explicit_equation(equation: str, name: str) -> str:
    """``equation`` without spaces and with its output term: an implicit equation (no ``->``) outputs the
    ellipsis dimensions, then every letter that occurs once, in alphabetical order (ONNX's and numpy's rule)."""
    equation = equation.replace(' ', '')
    if '->' in equation:
        return equation
    letters = equation.replace('...', '').replace(',', '')
    if not all(c.isalpha() for c in letters):
        raise Error('Einsum "{}": equation "{}" has characters other than letters, ",", "..." and "->"', name,
                    equation)
    once = sorted(c for c in set(letters) if letters.count(c) == 1)
    return '{}->{}{}'.format(equation, '...' if '...' in equation else '', ''.join(once))


class EinsumExtractor(FrontExtractorOp):
    """Einsum -> Einsum (opset7), the equation made explicit."""
    op = 'Einsum'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        equation = onnx_attr(node, 'equation', 's', None)
        if equation is None:
            raise Error('Einsum "{}" has no equation', _name(node))
        equation = equation.decode() if isinstance(equation, bytes) else equation
        Einsum.update_node_stat(node, {'equation': explicit_equation(equation, _name(node)),
                                       'in_ports_count': max(len(node.in_ports()), 1)})
        return True


class EluExtractor(FrontExtractorOp):
    """Elu -> Elu (alpha)."""
    op = 'Elu'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Elu.update_node_stat(node, {'alpha': onnx_attr(node, 'alpha', 'f', 1.0)})
        return True


_BITWISE = {'BitwiseAnd': BitwiseAnd, 'BitwiseOr': BitwiseOr, 'BitwiseXor': BitwiseXor, 'BitwiseNot': BitwiseNot}


class BitwiseExtractor(FrontExtractorOp):
    """BitwiseAnd/Or/Xor/Not -> the opset13 op of the same name."""
    op = sorted(_BITWISE)
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        _BITWISE[node.op].update_node_stat(node, {})
        return True


class ClipExtractor(FrontExtractorOp):
    """Clip -> Clamp (opset < 11: min/max attributes) or Maximum(x, min) then Minimum(., max) with the optional
    inputs (any numeric type; where min > max the result is max, as ONNX says)."""
    op = 'Clip'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        if get_onnx_opset_version(node) < 11:
            return internal_op(node, 'ONNXClip', clip_min=onnx_attr(node, 'min', 'f', -_FLOAT_MAX),
                             clip_max=onnx_attr(node, 'max', 'f', _FLOAT_MAX))
        return internal_op(node, 'ONNXClip', clip_min=None, clip_max=None)


class VariadicExtractor(FrontExtractorOp):
    """Max/Min/Sum/Mean of any number of inputs (numpy broadcasting) -> a chain of Maximum/Minimum/Add (Mean:
    divided by the count)."""
    op = ['Max', 'Min', 'Sum', 'Mean']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXVariadic', combine=node.op)


class SoftmaxExtractor(FrontExtractorOp):
    """Softmax/LogSoftmax/Hardmax -> SoftMax/LogSoftmax/a one-hot of TopK's index along ``axis`` (opset 13 on);
    before 13 the input is flattened to 2-D at ``axis`` (default 1) and normalized along the flattened tail."""
    op = ['Softmax', 'LogSoftmax', 'Hardmax']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        flatten = get_onnx_opset_version(node) < 13
        return internal_op(node, 'ONNXSoftmax', normalization=node.op, flatten=flatten,
                         axis=onnx_attr(node, 'axis', 'i', 1 if flatten else -1))


class ArgMaxExtractor(FrontExtractorOp):
    """ArgMax/ArgMin -> TopK(k=1, stable).indices along ``axis`` (int64), squeezed unless ``keepdims``;
    ``select_last_index`` takes the last of equal elements (TopK of the reversed axis)."""
    op = ['ArgMax', 'ArgMin']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXArgMax', mode='max' if node.op == 'ArgMax' else 'min',
                         axis=onnx_attr(node, 'axis', 'i', 0), keep_dims=bool(onnx_attr(node, 'keepdims', 'i', 1)),
                         select_last_index=bool(onnx_attr(node, 'select_last_index', 'i', 0)))


#: ONNX activation -> {attribute: default} (read as floats)
_ACTIVATIONS = {
    'Selu': {'alpha': 1.67326319217681884765625, 'gamma': 1.05070102214813232421875},
    'LeakyRelu': {'alpha': 0.01}, 'HardSigmoid': {'alpha': 0.2, 'beta': 0.5}, 'Celu': {'alpha': 1.0},
    'Shrink': {'lambd': 0.5, 'bias': 0.0}, 'ThresholdedRelu': {'alpha': 1.0}, 'Swish': {'alpha': 1.0},
    'PRelu': {},
}


class ActivationExtractor(FrontExtractorOp):
    """Selu, LeakyRelu, PRelu, HardSigmoid, Celu, Shrink, ThresholdedRelu, Swish -> internal ``ONNX<op>`` with its
    float attributes; ``math_lowering`` gives each its formula."""
    op = sorted(_ACTIVATIONS)
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = {k: float(onnx_attr(node, k, 'f', default)) for k, default in _ACTIVATIONS[node.op].items()}
        if node.op == 'PRelu':
            # before opset 7 a slope of more than one number runs along the channel axis (1), as the opset's PRelu
            attrs['channel_slope'] = get_onnx_opset_version(node) < 7
        return internal_op(node, 'ONNX' + node.op, **attrs)


class GeluExtractor(FrontExtractorOp):
    """Gelu -> x * (1 + Erf(x / sqrt 2)) / 2, or its tanh approximation (``approximate='tanh'``)."""
    op = 'Gelu'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        approximate = onnx_attr(node, 'approximate', 's', b'none')
        approximate = approximate.decode() if isinstance(approximate, bytes) else approximate
        if approximate not in ('none', 'tanh'):
            raise Error('Gelu "{}": approximate "{}" is neither "none" nor "tanh"', _name(node), approximate)
        return internal_op(node, 'ONNXGelu', approximate=approximate)


class IsInfExtractor(FrontExtractorOp):
    """IsInf -> IsInf (both infinities) or x == +inf / x == -inf (``detect_positive``/``detect_negative``)."""
    op = 'IsInf'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXIsInf', detect_positive=bool(onnx_attr(node, 'detect_positive', 'i', 1)),
                         detect_negative=bool(onnx_attr(node, 'detect_negative', 'i', 1)))


class ReciprocalExtractor(FrontExtractorOp):
    """Reciprocal -> ``Reciprocal``, which ``extensions.front.common_lowering`` makes Divide(1, x) for every
    framework."""
    op = 'Reciprocal'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Divide(1, x)'

    @classmethod
    def extract(cls, node):
        return True
