"""Element-wise ops with numpy broadcasting (opset's ``auto_broadcast='numpy'``): arithmetic, comparisons and
logical ops (bool outputs, ``Elementwise.boolean_output``), FloorMod and Mod, and the unary LogicalNot and Sign."""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer, eltwise_infer
from mo.ops.activation_ops import Activation
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


def bool_output_type(node):
    """Every output of ``node`` is bool (comparisons and logical ops)."""
    for port in node.out_ports().values():
        if port.is_connected():
            port.data.set_data_type(np.bool_)


class Elementwise(Op):
    """Base of the binary element-wise ops: subclasses set ``op``, ``type`` and ``operation``.

    ``boolean_output`` marks comparisons and logical ops, whose outputs are bool whatever the inputs.
    """
    op = None
    type = None
    version = 'opset1'
    operation = None
    boolean_output = False

    def __init__(self, graph, attrs: dict = None):
        defaults = {
            'type': self.type, 'op': self.op, 'version': self.version, 'auto_broadcast': 'numpy',
            'infer': self.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }
        if self.boolean_output:
            defaults['type_infer'] = bool_output_type
        super().__init__(graph, defaults, attrs)

    def backend_attrs(self):
        return ['auto_broadcast']

    @classmethod
    def infer(cls, node):
        eltwise_infer(node, cls.operation)


def _same_dtype(fn):
    def apply(a, b):
        result = fn(a, b)
        return result.astype(np.result_type(a, b)) if isinstance(result, np.ndarray) else result
    return staticmethod(apply)


class Add(Elementwise):
    op, type = 'Add', 'Add'
    operation = _same_dtype(np.add)


class Sub(Elementwise):
    op, type = 'Sub', 'Subtract'
    operation = _same_dtype(np.subtract)


class Mul(Elementwise):
    op, type = 'Mul', 'Multiply'
    operation = _same_dtype(np.multiply)


class Div(Elementwise):
    """Divide; integer quotients round down (the opset's default, TF's FloorDiv), or toward zero when the node
    says ``python_div = False`` (``m_pythondiv = false``: C's and ONNX's integer division)."""
    op, type = 'Div', 'Divide'

    def backend_attrs(self):
        return ['auto_broadcast', ('m_pythondiv', lambda node: 'false' if node.soft_get('python_div', True) is False
                                   else None)]

    @classmethod
    def infer(cls, node):
        eltwise_infer(node, cls.operation if node.soft_get('python_div', True) is not False else cls.truncated)

    @staticmethod
    def operation(a, b):
        if np.issubdtype(np.result_type(a, b), np.integer):
            return np.floor_divide(a, b)
        return np.divide(a, b).astype(np.result_type(a, b))

    @staticmethod
    def truncated(a, b):
        dtype = np.result_type(a, b)
        if np.issubdtype(dtype, np.signedinteger):
            a, b = np.asarray(a, dtype), np.asarray(b, dtype)
            return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(dtype)
        return Div.operation(a, b)


class Pow(Elementwise):
    op, type = 'Pow', 'Power'
    operation = _same_dtype(np.power)


class Maximum(Elementwise):
    op, type = 'Maximum', 'Maximum'
    operation = _same_dtype(np.maximum)


class Minimum(Elementwise):
    op, type = 'Minimum', 'Minimum'
    operation = _same_dtype(np.minimum)


class SquaredDifference(Elementwise):
    op, type = 'SquaredDifference', 'SquaredDifference'
    operation = _same_dtype(lambda a, b: np.square(np.subtract(a, b)))


class Less(Elementwise):
    op, type = 'Less', 'Less'
    boolean_output = True
    operation = staticmethod(np.less)


class Greater(Elementwise):
    op, type = 'Greater', 'Greater'
    boolean_output = True
    operation = staticmethod(np.greater)


class Equal(Elementwise):
    op, type = 'Equal', 'Equal'
    boolean_output = True
    operation = staticmethod(np.equal)


class LogicalAnd(Elementwise):
    op, type = 'LogicalAnd', 'LogicalAnd'
    boolean_output = True
    operation = staticmethod(np.logical_and)


#: kept for callers that attach the bool rule to a node explicitly
bool_type_infer = bool_output_type


class _Comparison(Elementwise):
    boolean_output = True


class LessEqual(_Comparison):
    op, type = 'LessEqual', 'LessEqual'
    operation = staticmethod(np.less_equal)


class GreaterEqual(_Comparison):
    op, type = 'GreaterEqual', 'GreaterEqual'
    operation = staticmethod(np.greater_equal)


class NotEqual(_Comparison):
    op, type = 'NotEqual', 'NotEqual'
    operation = staticmethod(np.not_equal)


class LogicalOr(_Comparison):
    op, type = 'LogicalOr', 'LogicalOr'
    operation = staticmethod(np.logical_or)


class LogicalXor(_Comparison):
    op, type = 'LogicalXor', 'LogicalXor'
    operation = staticmethod(np.logical_xor)


class FloorMod(Elementwise):
    """The remainder with the divisor's sign (Python's ``%``; TensorFlow's FloorMod)."""
    op, type = 'FloorMod', 'FloorMod'

    @staticmethod
    def operation(a, b):
        return np.mod(a, b).astype(np.result_type(a, b))


class Mod(Elementwise):
    """The remainder with the dividend's sign (C's ``fmod``; TensorFlow's Mod and TruncateMod)."""
    op, type = 'Mod', 'Mod'

    @staticmethod
    def operation(a, b):
        return np.fmod(a, b).astype(np.result_type(a, b))


class LogicalNot(Op):
    """Unary logical negation of a bool tensor."""
    op = 'LogicalNot'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'LogicalNot', 'op': 'LogicalNot', 'version': 'opset1', 'type_infer': bool_type_infer,
            'infer': lambda node: copy_shape_infer(node, np.logical_not), 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)


class Sign(Activation):
    op = type = 'Sign'
    operation = staticmethod(np.sign)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
