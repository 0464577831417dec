"""The complex arithmetic of the float form [..., 2] (real, imaginary): the formulas ``complex_tensors`` and the
op families beside it (``complex_linear``, ``complex_moves``) build their rewrites from. Each takes a ``Builder``
and ports (or nodes) holding float forms and returns the node of the result's float form.
"""
import numpy as np

from extensions.front.tf.fft_ext import real_type
from mo.front.common.formula_kit import I64
from extensions.front.tf.tensor_ext import constant_input
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.graph.graph import Node
from mo.ops.activation_ops import Exp, Log, Sqrt
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Equal, Less, Mul, Sub
from mo.ops.math_ops import Atan, Cos, Cosh, Sin, Sinh
from mo.ops.reduce import ReduceSum
from mo.ops.select import Select
from mo.ops.split import Split
from mo.utils.error import Error


def is_complex_type(dtype) -> bool:
    return dtype is not None and np.issubdtype(np.dtype(dtype), np.complexfloating)


def parts(b, z, tag: str):
    """(real, imaginary) of the float form, each [..., 1]."""
    split = b.op(Split, [z, b.const(-1, tag + '/axis', I64)], tag, num_splits=2)
    return split.out_port(0), split.out_port(1)


def pair(b, real, imag, tag: str):
    return b.op(Concat, [real, imag], tag, axis=-1)


def multiply(b, x, y, tag: str):
    """(a + bi)(c + di) = (ac - bd) + (ad + bc)i."""
    a, bb = parts(b, x, tag + '/x')
    c, d = parts(b, y, tag + '/y')
    real = b.op(Sub, [b.op(Mul, [a, c], tag + '/ac'), b.op(Mul, [bb, d], tag + '/bd')], tag + '/real')
    imag = b.op(Add, [b.op(Mul, [a, d], tag + '/ad'), b.op(Mul, [bb, c], tag + '/bc')], tag + '/imag')
    return pair(b, real, imag, tag)


def divide(b, x, y, tag: str):
    """(a + bi) / (c + di) = ((ac + bd) + (bc - ad)i) / (c^2 + d^2)."""
    a, bb = parts(b, x, tag + '/x')
    c, d = parts(b, y, tag + '/y')
    norm = b.op(Add, [b.op(Mul, [c, c], tag + '/cc'), b.op(Mul, [d, d], tag + '/dd')], tag + '/norm')
    real = b.op(Add, [b.op(Mul, [a, c], tag + '/ac'), b.op(Mul, [bb, d], tag + '/bd')], tag + '/real_num')
    imag = b.op(Sub, [b.op(Mul, [bb, c], tag + '/bc'), b.op(Mul, [a, d], tag + '/ad')], tag + '/imag_num')
    return pair(b, b.op(Div, [real, norm], tag + '/real'), b.op(Div, [imag, norm], tag + '/imag'), tag)


def parts_type(node: Node):
    """The float type of the parts of the complex numbers ``node`` computes on (its ``data_type`` or ``T``; else
    that of its complex input, ``complex_float_type``, for ops whose extractor kept no TF type), float32 by
    default."""
    if is_complex_type(node.soft_get('data_type', None)):
        return real_type(node.data_type)
    for attr in ('T', 'Tcomplex', 'Tout'):
        dtype = tf_dtype_attr(node, attr, None)
        if is_complex_type(dtype):
            return real_type(dtype)
    return np.dtype(node.soft_get('complex_float_type', None) or np.float32)



def shifted_axes(b, node: Node, port: int):
    """Input ``port`` of ``node`` (axes of the complex tensor) for the float form: a negative axis counts one
    further from the end, past the trailing 2; computed at run time when the axes are."""
    value = constant_input(node, port)
    if value is not None:
        value = np.asarray(value)
        return b.const(np.where(value < 0, value - 1, value).astype(value.dtype), 'axes_float_form', value.dtype)
    axes = b.cast(node.in_port(port), I64, 'axes_i64')
    return b.op(Select, [b.op(Less, [axes, b.const(0, 'zero_axis', I64)], 'negative'),
                         b.op(Sub, [axes, b.const(1, 'one_axis', I64)], 'past_parts'), axes], 'axes_float_form')


def exponential(b, z, tag: str):
    """exp(a + bi) = e^a (cos b + i sin b)."""
    a, bb = parts(b, z, tag)
    scale = b.op(Exp, [a], tag + '/exp_real')
    return pair(b, b.op(Mul, [scale, b.op(Cos, [bb], tag + '/cos')], tag + '/real'),
                 b.op(Mul, [scale, b.op(Sin, [bb], tag + '/sin')], tag + '/imag'), tag)


def trig(b, z, tag: str, hyperbolic: bool, cosine: bool, dtype):
    """sin(a + bi) = sin a cosh b + i cos a sinh b, cos(a + bi) = cos a cosh b - i sin a sinh b,
    sinh(a + bi) = sinh a cos b + i cosh a sin b, cosh(a + bi) = cosh a cos b + i sinh a sin b."""
    a, bb = parts(b, z, tag)
    f, g = (Sinh, Cosh) if hyperbolic else (Sin, Cos)  # of the real part
    p, q = (Sin, Cos) if hyperbolic else (Sinh, Cosh)  # of the imaginary part
    if not cosine:
        real = b.op(Mul, [b.op(f, [a], tag + '/f_a'), b.op(q, [bb], tag + '/q_b')], tag + '/real')
        imag = b.op(Mul, [b.op(g, [a], tag + '/g_a'), b.op(p, [bb], tag + '/p_b')], tag + '/imag')
        return pair(b, real, imag, tag)
    real = b.op(Mul, [b.op(g, [a], tag + '/g_a'), b.op(q, [bb], tag + '/q_b')], tag + '/real')
    imag = b.op(Mul, [b.op(f, [a], tag + '/f_a'), b.op(p, [bb], tag + '/p_b')], tag + '/imag_abs')
    if not hyperbolic:
        imag = b.op(Mul, [imag, b.const(-1, tag + '/minus', dtype)], tag + '/imag')
    return pair(b, real, imag, tag)


def squared_norm(b, z, tag: str):
    """|z|^2 = a^2 + b^2, [..., 1]."""
    return b.op(ReduceSum, [b.op(Mul, [z, z], tag + '/squares'), b.const([-1], tag + '/axis', I64)], tag,
                keep_dims=True)


def logarithm(b, z, tag: str, dtype):
    """log(a + bi) = log|z| + i arg z: log|z| = log(a^2 + b^2) / 2, arg z = 2 atan(b / (|z| + a)) (the half-angle
    form, accurate everywhere but where |z| + a = 0: there z is 0 (arg 0) or on the negative real axis (pi))."""
    a, bb = parts(b, z, tag)
    squared = squared_norm(b, z, tag + '/squared_norm')
    magnitude = b.op(Mul, [b.op(Log, [squared], tag + '/log_squared'), b.const(0.5, tag + '/half', dtype)],
                     tag + '/real')
    denominator = b.op(Add, [b.op(Sqrt, [squared], tag + '/norm'), a], tag + '/denominator')
    on_axis = b.op(Equal, [denominator, b.const(0, tag + '/zero', dtype)], tag + '/on_axis')
    safe = b.op(Select, [on_axis, b.const(1, tag + '/one', dtype), denominator], tag + '/safe_denominator')
    half_angle = b.op(Atan, [b.op(Div, [bb, safe], tag + '/ratio')], tag + '/half_angle')
    angle = b.op(Mul, [half_angle, b.const(2, tag + '/two', dtype)], tag + '/angle')
    axis_angle = b.op(Select, [b.op(Less, [a, b.const(0, tag + '/zero_a', dtype)], tag + '/negative'),
                               b.const(np.pi, tag + '/pi', dtype), b.const(0, tag + '/zero_angle', dtype)],
                      tag + '/axis_angle')
    return pair(b, magnitude, b.op(Select, [on_axis, axis_angle, angle], tag + '/imag'), tag)


def constant_ints(node: Node, what: str) -> list:
    """Input 1 of ``node`` as ints; an Error naming the node when it is computed at run time."""
    value = constant_input(node, 1)
    if value is None:
        raise Error('Node "{}" ({}) on a complex tensor: {} is computed at run time; mo needs it constant',
                    node.soft_get('name', node.id), node.soft_get('tf_op', node.op), what)
    return [int(v) for v in np.ravel(value)]
