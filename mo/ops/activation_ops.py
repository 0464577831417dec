"""Element-wise activations: one input, one output of the same shape.

Each class names its opset ``type`` and the numpy function that folds it when the input is
constant.
"""
import math

import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


def _softplus(x):
    return np.logaddexp(0, x).astype(x.dtype)


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


class Activation(Op):
    """Base of the activations: subclasses set ``op``, ``type``, ``version`` and ``operation``."""
    op = None
    type = None
    version = 'opset1'
    operation = None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': self.type, 'op': self.op, 'version': self.version, 'operation': self.operation,
            'infer': self.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    @classmethod
    def infer(cls, node):
        copy_shape_infer(node, cls.operation)


class Sigmoid(Activation):
    op = type = 'Sigmoid'
    operation = staticmethod(lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype))


class Tanh(Activation):
    op = type = 'Tanh'
    operation = staticmethod(np.tanh)


class Exp(Activation):
    op = type = 'Exp'
    operation = staticmethod(np.exp)


class Log(Activation):
    op = type = 'Log'
    operation = staticmethod(np.log)


class Sqrt(Activation):
    op = type = 'Sqrt'
    operation = staticmethod(np.sqrt)


class Abs(Activation):
    op = type = 'Abs'
    operation = staticmethod(np.abs)


class Negative(Activation):
    op = type = 'Negative'
    operation = staticmethod(np.negative)


class ReLU(Activation):
    op = 'ReLU'
    type = 'Relu'
    operation = staticmethod(lambda x: np.maximum(x, 0).astype(x.dtype))


class Erf(Activation):
    op = type = 'Erf'
    operation = staticmethod(_erf)


class Floor(Activation):
    op = type = 'Floor'
    operation = staticmethod(np.floor)


class Ceiling(Activation):
    op = type = 'Ceiling'
    operation = staticmethod(np.ceil)


class SoftPlus(Activation):
    op = type = 'SoftPlus'
    version = 'opset4'
    operation = staticmethod(_softplus)


class Mish(Activation):
    op = type = 'Mish'
    version = 'opset4'
    operation = staticmethod(lambda x: (x * np.tanh(_softplus(x))).astype(x.dtype))


class Swish(Activation):
    op = type = 'Swish'
    version = 'opset4'
    operation = staticmethod(lambda x: (x / (1 + np.exp(-x))).astype(x.dtype))


class HSwish(Activation):
    op = type = 'HSwish'
    version = 'opset4'
    operation = staticmethod(lambda x: (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype))


def _gelu(x, mode):
    if mode == 'tanh':
        return (0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    return (0.5 * x * (1 + _erf(x / np.sqrt(2).astype(x.dtype)))).astype(x.dtype)


class Gelu(Activation):
    """opset7 Gelu: x * Phi(x), ``approximation_mode`` 'erf' (exact) or 'tanh'."""
    op = type = 'Gelu'
    version = 'opset7'
    operation = None

    @classmethod
    def infer(cls, node):
        copy_shape_infer(node, lambda x: _gelu(x, node.soft_get('approximation_mode', 'erf')))

    def backend_attrs(self):
        return ['approximation_mode']


class Elu(Activation):
    op = type = 'Elu'
    operation = None

    @classmethod
    def infer(cls, node):
        alpha = node.soft_get('alpha', 1.0)
        copy_shape_infer(node, lambda x: np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))).astype(x.dtype))

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'alpha': 1.0}, **(attrs or {})))

    def backend_attrs(self):
        return ['alpha']


class Clamp(Activation):
    op = type = 'Clamp'
    operation = None

    @classmethod
    def infer(cls, node):
        copy_shape_infer(node, lambda x: np.clip(x, node.min, node.max).astype(x.dtype))

    def backend_attrs(self):
        return ['min', 'max']


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
