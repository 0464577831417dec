"""Activations written out element by element become the one opset op the CPU plugin has a kernel for:
``x * sigmoid(x)`` is Swish, ``x / 2 * (1 + erf(x / sqrt 2))`` and its tanh approximation are Gelu."""
import math

import numpy as np

from mo.middle.rule import BackPatternRule
from mo.ops.activation_ops import Gelu, Swish


def constant_near(const, expected: float, rtol: float = 1e-3) -> bool:
    """True when the Const node ``const`` holds ``expected`` in every element (within ``rtol``)."""
    value = const.soft_get('value', None)
    if value is None or np.size(value) == 0 or np.asarray(value).dtype.kind != 'f':
        return False
    return bool(np.all(np.abs(np.asarray(value, np.float64) - expected) <= rtol * abs(expected)))


def is_float(port) -> bool:
    dtype = port.data.get_data_type() if port is not None else None
    return dtype is not None and np.dtype(dtype).kind == 'f'


class SwishFusion(BackPatternRule):
    """Mul(x, Sigmoid(x)) = Swish(x); so is Mul(x, Sigmoid(Mul(x, 1))), Keras' swish of beta 1."""
    id = 'SwishFusion'
    patterns = (('Mul', ['x', ('Sigmoid', ['x'])]), ('Mul', ['x', ('Sigmoid', [('Mul', ['x', 'beta=Const'])])]))

    def rewrite(self, match, b):
        if hasattr(match, 'beta') and not constant_near(match.beta, 1.0, rtol=0):
            b.reject('the sigmoid of x scaled by something else than 1')
        return b.op(Swish, [match.x], 'Swish')


def _gelu_patterns(one_plus):
    """The three ways exporters write ``x * 0.5 * one_plus``: ((x * one_plus) * 0.5), ((x * 0.5) * one_plus),
    (x * (one_plus * 0.5)); Mul and Add match in either input order. The constants are matched as Const nodes, not
    as free names: a free name could take x's place in Mul(0.5, x), and the matcher does not backtrack."""
    return (('Mul', [('Mul', ['x', one_plus]), 'half=Const']),
            ('Mul', [('Mul', ['x', 'half=Const']), one_plus]),
            ('Mul', ['x', ('Mul', [one_plus, 'half=Const'])]))


_ERF_ONE_PLUS = ('Add', [('Erf', [('arg=Mul|Div', ['x', 'scale=Const'])]), 'one=Const'])
#: TensorFlow: erfc(-x / sqrt 2) = 1 - erf(-x / sqrt 2)
_ERFC_ONE_PLUS = ('Sub', ['one=Const', ('Erf', [('arg=Mul', [('Negative', ['x']), 'scale=Const'])])])
_CUBES = (('Pow', ['x', 'three=Const']), ('Mul', ['x', ('Mul', ['x', 'x'])]), ('Mul', [('Mul', ['x', 'x']), 'x']))
_TANH_ONE_PLUS = tuple(('Add', [('Tanh', [('Mul', [('Add', ['x', ('Mul', [cube, 'k=Const'])]), 'scale=Const'])]),
                                'one=Const']) for cube in _CUBES)


class GeluFusion(BackPatternRule):
    """x * 0.5 * (1 + Erf(x / sqrt 2)) = x * 0.5 * (1 - Erf(-x / sqrt 2)) = Gelu(x, 'erf');
    x * 0.5 * (1 + Tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) = Gelu(x, 'tanh')."""
    id = 'GeluFusion'
    patterns = _gelu_patterns(_ERF_ONE_PLUS) + _gelu_patterns(_ERFC_ONE_PLUS) + \
        tuple(p for one_plus in _TANH_ONE_PLUS for p in _gelu_patterns(one_plus))

    def rewrite(self, match, b):
        if not is_float(match.x) or not constant_near(match.one, 1.0) or not constant_near(match.half, 0.5):
            b.reject('not x * 0.5 * (1 + curve) of floats')
        if hasattr(match, 'arg'):  # erf form: x (or -x) * (1 / sqrt 2), or x / sqrt 2
            scale = math.sqrt(2) if match.arg.op == 'Div' else 1 / math.sqrt(2)
            if not constant_near(match.scale, scale):
                b.reject('erf of x scaled by something else than 1 / sqrt 2')
            return b.op(Gelu, [match.x], 'Gelu', approximation_mode='erf')
        if not constant_near(match.scale, math.sqrt(2 / math.pi)) or not constant_near(match.k, 0.044715) or \
                (hasattr(match, 'three') and not constant_near(match.three, 3.0)):
            b.reject('tanh of something else than sqrt(2 / pi) * (x + 0.044715 x^3)')
        return b.op(Gelu, [match.x], 'Gelu', approximation_mode='tanh')
