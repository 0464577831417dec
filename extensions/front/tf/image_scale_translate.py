"""TensorFlow's ScaleAndTranslate (tf.image.scale_and_translate, and tf.image.resize with antialias=True, which is
built on it), extracted and built from opset ops: per image axis a MatMul with the [out, in] matrix of TF's
weights (``ComputeSpansCore`` of scale_and_translate_op.cc: each output pixel samples at
(x + 0.5) / scale - translate / scale, the kernel is widened by 1 / scale when antialiasing a downscale, its taps
are the input pixels within its radius, normalized to sum 1, and an output pixel sampling outside the image is 0).
The matrix is computed from the sizes, scale and translation at run time and folds to a constant when they are
constant, as they are in resize. Kernels: lanczos3, lanczos5, gaussian, box, triangle, keyscubic, mitchellcubic.
"""
import numpy as np

from mo.front.common.formula_kit import F32, I64, arange, ceil, clamp, dim, floor
from extensions.front.tf.tensor_ext import set_op
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Exp
from mo.ops.elementwise import (Add, Div, Greater, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr, Maximum,
                                Mul, Sub)
from mo.ops.math_ops import Sin
from mo.ops.matmul import MatMul
from mo.ops.reduce import ReduceSum
from mo.ops.select import Select
from mo.utils.error import Error

_PI = 3.14159265359
#: kernel -> its radius (TF's Radius())
_RADIUS = {'lanczos1': 1.0, 'lanczos3': 3.0, 'lanczos5': 5.0, 'gaussian': 1.5, 'box': 1.0, 'triangle': 1.0,
           'keyscubic': 2.0, 'mitchellcubic': 2.0}


class ScaleAndTranslateExtractor(FrontExtractorOp):
    """ScaleAndTranslate -> per image axis MatMul with TF's span weights (kernel_type, antialias); float32 output."""
    op = 'ScaleAndTranslate'

    @classmethod
    def extract(cls, node):
        kernel = tf_attr(node, 'kernel_type', b'lanczos3')
        kernel = kernel.decode() if isinstance(kernel, bytes) else str(kernel)
        if kernel not in _RADIUS:
            raise Error('ScaleAndTranslate "{}": unknown kernel_type "{}"', node.soft_get('name', node.id), kernel)
        set_op(node, 'ScaleAndTranslate', {'kernel_type': kernel, 'antialias': bool(tf_attr(node, 'antialias', True)),
                                           'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32)),
                                           'in_ports_count': 4, 'out_ports_count': 1})
        return True


def _kernel(b, kind: str, x, tag: str):
    """TF's sampling kernel of ``kind`` at |x| (``x`` >= 0, float32)."""
    def c(value, name):
        return b.const(value, tag + '/' + name, F32)

    def poly(coefficients, name):  # Horner: ((c0 x + c1) x + c2) x + c3
        result = c(coefficients[0], name + '0')
        for k, coefficient in enumerate(coefficients[1:]):
            result = b.op(Mul, [result, x], '{}/{}_x{}'.format(tag, name, k))
            if coefficient:
                result = b.op(Add, [result, c(coefficient, '{}{}'.format(name, k + 1))], '{}/{}_add{}'.format(
                    tag, name, k))
        return result
    zero = c(0, 'zero')
    if kind.startswith('lanczos'):
        radius = _RADIUS[kind]
        pi_x = b.op(Mul, [x, c(_PI, 'pi')], tag + '/pi_x')
        numerator = b.op(Mul, [b.op(Mul, [c(radius, 'radius'), b.op(Sin, [pi_x], tag + '/sin')], tag + '/r_sin'),
                               b.op(Sin, [b.op(Div, [pi_x, c(radius, 'radius_')], tag + '/pi_x_r')], tag + '/sin_r')],
                         tag + '/numerator')
        value = b.op(Div, [numerator, b.op(Mul, [pi_x, pi_x], tag + '/pi_x2')], tag + '/sinc')
        value = b.op(Select, [b.op(LessEqual, [x, c(1e-3, 'small')], tag + '/at_zero'), c(1, 'one'), value],
                     tag + '/limit')
        return b.op(Select, [b.op(Greater, [x, c(radius, 'radius__')], tag + '/outside'), zero, value], tag)
    if kind == 'gaussian':
        sigma = 1.5 / 3.0
        value = b.op(Exp, [b.op(Mul, [b.op(Mul, [x, x], tag + '/x2'), c(-1.0 / (2.0 * sigma * sigma), 'coef')],
                                tag + '/power')], tag + '/exp')
        return b.op(Select, [b.op(GreaterEqual, [x, c(1.5, 'radius')], tag + '/outside'), zero, value], tag)
    if kind == 'box':
        half = c(0.5, 'half')
        edge = b.op(Select, [b.op(LessEqual, [x, half], tag + '/at_edge'), half, zero], tag + '/edge')
        return b.op(Select, [b.op(Less, [x, half], tag + '/inside'), c(1, 'one'), edge], tag)
    if kind == 'triangle':
        return b.op(Select, [b.op(Less, [x, c(1, 'one')], tag + '/inside'),
                             b.op(Sub, [c(1, 'one_'), x], tag + '/tent'), zero], tag)
    if kind == 'keyscubic':
        near, far = poly([1.5, -2.5, 0, 1.0], 'near'), poly([-0.5, 2.5, -4.0, 2.0], 'far')
    else:  # mitchellcubic
        near = poly([7.0 / 6.0, -2.0, 0, 8.0 / 9.0], 'near')
        far = poly([-7.0 / 18.0, 2.0, -10.0 / 3.0, 16.0 / 9.0], 'far')
    value = b.op(Select, [b.op(GreaterEqual, [x, c(1, 'one')], tag + '/far_side'), far, near], tag + '/cubic')
    return b.op(Select, [b.op(GreaterEqual, [x, c(2, 'two')], tag + '/outside'), zero, value], tag)


def _weights(b, kind: str, antialias: bool, in_size, out_size, scale, translate, tag: str):
    """The [out, in] matrix of TF's normalized span weights along one axis (sizes int32 scalars, scale and
    translation float32 scalars)."""
    radius = _RADIUS[kind]
    inv_scale = b.op(Div, [b.const(1, tag + '/one', F32), scale], tag + '/inv_scale')
    inv_translate = b.op(Mul, [b.op(Mul, [b.const(-1, tag + '/minus', F32), inv_scale], tag + '/neg_inv'), translate],
                         tag + '/inv_translate')
    kernel_scale = b.op(Maximum, [inv_scale, b.const(1, tag + '/one_', F32)], tag + '/kernel_scale') \
        if antialias else b.const(1, tag + '/kernel_scale', F32)
    column = b.op(Add, [b.cast(arange(b, out_size, tag + '/out_range'), F32, tag + '/out_float'),
                        b.const(0.5, tag + '/half', F32)], tag + '/centre')
    sample = b.unsqueeze(b.op(Add, [b.op(Mul, [column, inv_scale], tag + '/scaled'), inv_translate],
                               tag + '/sample'), [1], tag + '/sample_column')  # [out, 1]
    in_float = b.cast(in_size, F32, tag + '/in_float')
    reach = b.op(Mul, [b.const(radius, tag + '/radius', F32), kernel_scale], tag + '/reach')
    low = b.op(Sub, [b.op(Sub, [sample, reach], tag + '/low_'), b.const(0.5, tag + '/half_', F32)], tag + '/low_f')
    high = b.op(Sub, [b.op(Add, [sample, reach], tag + '/high_'), b.const(0.5, tag + '/half__', F32)], tag + '/high_f')
    last = b.op(Sub, [in_float, b.const(1, tag + '/one__', F32)], tag + '/last')
    zero = b.const(0, tag + '/zero', F32)
    start = clamp(b, ceil(b, low, tag + '/start_ceil'), zero, last, tag + '/start')
    end = clamp(b, floor(b, high, tag + '/end_floor'), zero, last, tag + '/end')
    source = b.unsqueeze(b.cast(arange(b, in_size, tag + '/in_range'), F32, tag + '/in_f'), [0], tag + '/source')
    in_span = b.op(LogicalAnd, [b.op(GreaterEqual, [source, start], tag + '/from'),
                                b.op(LessEqual, [source, end], tag + '/to')], tag + '/in_span')
    position = b.op(Sub, [b.op(Add, [source, b.const(0.5, tag + '/half3', F32)], tag + '/source_centre'), sample],
                    tag + '/kernel_pos')
    distance = b.op(Abs, [b.op(Div, [position, kernel_scale], tag + '/kernel_x')], tag + '/distance')
    weight = b.op(Select, [in_span, _kernel(b, kind, distance, tag + '/kernel'), zero], tag + '/span_weight')
    total = b.op(ReduceSum, [weight, b.const([1], tag + '/sum_axis', I64)], tag + '/total', keep_dims=True)
    usable = b.op(GreaterEqual, [b.op(Abs, [total], tag + '/total_abs'),
                                 b.const(1000.0 * np.finfo(np.float32).tiny, tag + '/tiny', F32)], tag + '/usable')
    outside = b.op(LogicalOr, [b.op(Less, [sample, zero], tag + '/before'),
                               b.op(Greater, [sample, in_float], tag + '/after')], tag + '/outside')
    keep = b.op(LogicalAnd, [usable, b.op(Select, [outside, b.const(False, tag + '/no', np.bool_),
                                                   b.const(True, tag + '/yes', np.bool_)], tag + '/inside')],
                tag + '/keep')
    normal = b.op(Div, [weight, b.op(Select, [usable, total, b.const(1, tag + '/unit', F32)], tag + '/divisor')],
                  tag + '/normal')
    return b.op(Select, [keep, normal, zero], tag + '/matrix')


class ScaleAndTranslateLowering(OpRule):
    """ScaleAndTranslate(images, size, scale, translation) = W_rows @ images @ W_cols^T with TF's span weights per
    axis (columns first, as TF); float32 output."""
    op = 'ScaleAndTranslate'

    def rewrite(self, node: Node, b: Builder):
        image = node.in_port(0)
        if np.dtype(node.data_type) != F32:
            image = b.cast(image, F32, 'image')
        scale, translation = b.cast(node.in_port(2), F32, 'scale'), b.cast(node.in_port(3), F32, 'translation')
        matrices = []
        for axis, name in ((1, 'rows'), (2, 'columns')):
            matrices.append(_weights(b, node.kernel_type, node.antialias, dim(b, image, axis, name + '/in_size'),
                                     b.element(node.in_port(1), axis - 1, name + '/out_size'),
                                     b.element(scale, axis - 1, name + '/scale'),
                                     b.element(translation, axis - 1, name + '/translate'), name))
        columns = b.op(MatMul, [matrices[1], image], 'columns/resized')  # [B, H, out_w, C]
        rows = b.op(MatMul, [matrices[0], b.transpose(columns, [0, 2, 1, 3], 'rows/swapped')], 'rows/resized')
        return b.transpose(rows, [0, 2, 1, 3], 'resized')
