"""Extractors for MXNet's element-wise ops: those that are one opset op, and the scalar and comparison forms that
``elementwise_lowering`` builds."""
from extensions.front.mxnet.basic_ext import mxnet_attr, pending
from mo.front.extractor import FrontExtractorOp, OpTableExtractor
from mo.ops.activation_ops import Abs, Ceiling, Erf, Exp, Floor, Log, Negative, ReLU, Sigmoid, SoftPlus, Sqrt, Tanh
from mo.ops.activation_ops import Clamp
from mo.ops.elementwise import Add, Div, Maximum, Minimum, Mul, Pow, Sub
from mo.ops.math_ops import Cos, Round, Sin, SoftSign
from mo.utils.error import Error

#: binary ops (MXNet's same-shape ``elemwise_*`` and numpy-broadcasting ``broadcast_*``)
BINARY = {'Add': Add, 'Sub': Sub, 'Mul': Mul, 'Div': Div, 'Maximum': Maximum, 'Minimum': Minimum, 'Pow': Pow}


class UnaryExtractor(OpTableExtractor):
    """Unary MXNet ops that are one opset op."""
    table = {'sigmoid': Sigmoid, 'relu': ReLU, 'tanh': Tanh, 'exp': Exp, 'log': Log, 'sqrt': Sqrt, 'abs': Abs,
             'negative': Negative, 'floor': Floor, 'ceil': Ceiling, 'round': Round, 'erf': Erf, 'sin': Sin,
             'cos': Cos, 'softsign': SoftSign}
    op = sorted(table)


class BinaryExtractor(OpTableExtractor):
    """elemwise_add/sub/mul/div, broadcast_add/plus/sub/minus/mul/div/maximum/minimum/power -> the opset's
    numpy-broadcasting ops."""
    table = {'elemwise_add': Add, 'elemwise_sub': Sub, 'elemwise_mul': Mul, 'elemwise_div': Div,
             '_plus': Add, '_add': Add, '_minus': Sub, '_sub': Sub, '_mul': Mul, '_div': Div, '_Plus': Add,
             '_Minus': Sub, '_Mul': Mul, '_Div': Div, '_maximum': Maximum, '_minimum': Minimum, '_power': Pow,
             '_Maximum': Maximum, '_Minimum': Minimum, '_Power': Pow,
             'broadcast_add': Add, 'broadcast_plus': Add, 'broadcast_sub': Sub, 'broadcast_minus': Sub,
             'broadcast_mul': Mul, 'broadcast_div': Div, 'broadcast_maximum': Maximum,
             'broadcast_minimum': Minimum, 'broadcast_power': Pow}
    op = sorted(table)


class ActivationExtractor(FrontExtractorOp):
    """Activation(act_type): relu, sigmoid, tanh, softrelu (SoftPlus), softsign."""
    op = 'Activation'
    _TYPES = {'relu': ReLU, 'sigmoid': Sigmoid, 'tanh': Tanh, 'softrelu': SoftPlus, 'softsign': SoftSign}

    @classmethod
    def extract(cls, node):
        act = mxnet_attr(node).str('act_type')
        if act not in cls._TYPES:
            raise Error('Activation "{}": act_type "{}" is not one of {}', node.name, act, ', '.join(cls._TYPES))
        cls._TYPES[act].update_node_stat(node, {})
        return True


class ClipExtractor(FrontExtractorOp):
    """clip(a_min, a_max) -> Clamp."""
    op = 'clip'

    @classmethod
    def extract(cls, node):
        attr = mxnet_attr(node)
        Clamp.update_node_stat(node, {'min': attr.float('a_min'), 'max': attr.float('a_max')})
        return True


#: ``_<name>_scalar`` ops: x <op> scalar; the ``_r`` forms put the scalar first
SCALAR = ('_plus_scalar', '_minus_scalar', '_mul_scalar', '_div_scalar', '_rminus_scalar', '_rdiv_scalar',
          '_power_scalar', '_rpower_scalar', '_maximum_scalar', '_minimum_scalar',
          '_PlusScalar', '_MinusScalar', '_MulScalar', '_DivScalar', '_RMinusScalar', '_RDivScalar',
          '_PowerScalar', '_RPowerScalar', '_MaximumScalar', '_MinimumScalar')
#: comparisons: MXNet gives 1 or 0 in the input's type
COMPARISON = ('_equal_scalar', '_not_equal_scalar', '_greater_scalar', '_greater_equal_scalar', '_lesser_scalar',
              '_lesser_equal_scalar', 'broadcast_equal', 'broadcast_not_equal', 'broadcast_greater',
              'broadcast_greater_equal', 'broadcast_lesser', 'broadcast_lesser_equal', '_equal', '_not_equal',
              '_greater', '_greater_equal', '_lesser', '_lesser_equal', 'broadcast_logical_and',
              'broadcast_logical_or', '_logical_and', '_logical_or', 'logical_not')


class FormulaExtractor(FrontExtractorOp):
    """Element-wise ops built from a few opset ops by ``elementwise_lowering``."""
    op = list(SCALAR + COMPARISON + ('square', 'rsqrt', 'reciprocal', 'add_n', 'ElementWiseSum', 'hard_sigmoid',
                                     'where', 'Cast', 'cast', 'zeros_like', 'ones_like', 'shape_array'))
    _SAME = {'ElementWiseSum': 'MXadd_n', 'cast': 'MXCast'}

    @classmethod
    def extract(cls, node):
        if node.op in SCALAR:
            return pending(node, 'MXScalar')
        if node.op in COMPARISON:
            return pending(node, 'MXComparison')
        return pending(node, cls._SAME.get(node.op))
