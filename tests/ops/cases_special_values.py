"""Harness cases: the element-wise TF ops at their special values (signed zeros, infinities, NaN, tiny and huge
magnitudes), run by OpenVINO and compared element by element with TensorFlow (each element to 4e-6 of itself, NaN
and signed zeros as TF's).

Left to the ops' ordinary cases, because OpenVINO's CPU kernels themselves depart from TF there (ovc's IRs, which
use the same opset ops, do the same):

- Relu, Relu6 (Clamp), Selu and Elu give 0 (or -scale) for NaN, Exp gives inf for NaN;
- Exp overflows to inf from x = 88.5 (TF from 88.73), so Expm1 does too;
- Maximum and Minimum drop a NaN (they give the other operand);
- Mod and TruncateMod (TF's fmod) compute x - y * trunc(x / y): NaN for an infinite divisor (TF: x), -inf where
  x / y overflows, +0 where TF's zero is -0; FloorMod's infinite divisors and zero signs are mended by mo
  (``special/floor_mod``), not the overflow of x / y (1e30 mod 1e-30), nor the lost precision of a quotient past
  2^24 that all three share: exact remainders would need a loop over the exponent difference;
- Erf is accurate to ~4e-7 absolutely, not relatively (erf(1e-8) is 0, erf(3e-5) 0.5% off), so Erfc = 1 - Erf
  (mo's formula: the opset has no Erfc) is 0 where TF's tail is tiny (erfc(7) = 4e-23), and Elu of tiny negative
  inputs is 0.
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register
from tests.ops.cases_math_ext import _elementwise_exact

_VALUES = np.array([-3.5, -2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 7.0, -np.inf, np.inf, np.nan,
                    -1e-3, -3e-5, -1e-8, 1e-8, 3e-5, 1e-3, 100.0, -100.0, 1e30, -1e30, 1e-30, 88.5, -88.5], np.float32)
_UNARY = ['Abs', 'Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh', 'Ceil', 'Cos', 'Cosh', 'Floor', 'Inv', 'Log',
          'Log1p', 'Neg', 'Reciprocal', 'Round', 'Rsqrt', 'Sigmoid', 'Sign', 'Sin', 'Sinh', 'Softplus', 'Softsign',
          'Sqrt', 'Square', 'Tan', 'Tanh', 'LeakyRelu']


def _unary(op):
    fn = getattr(tf.raw_ops, op)
    arg = 'features' if op in ('Softplus', 'Softsign', 'LeakyRelu') else 'x'
    return OpCase('', lambda x: fn(**{arg: x}), [In(_VALUES.shape, values=lambda rng, s: _VALUES)],
                  check=_elementwise_exact)


register(grid('special/unary', _unary, op=_UNARY))


_X = np.array([-3.5, -2.5, -1.0, -0.0, 0.0, 0.5, 2.5, 7.0, -np.inf, np.inf, np.nan, 1e-8, 1e30, -1e-30, 0.0, -0.0,
               np.inf, -np.inf, 3.0, -3.0], np.float32)
_Y = np.array([2.0, -3.0, 0.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 2.0, -3.0, 1.0, 1e-8, 1e-30, 1e30, np.inf, 3.0,
               np.inf, -np.inf, 0.5, -0.5], np.float32)
_BINARY = ['AddV2', 'Atan2', 'DivNoNan', 'FloorDiv', 'Mul', 'Pow', 'RealDiv', 'SquaredDifference', 'Sub', 'Xdivy',
           'Xlog1py', 'Xlogy']


#: TF's own sign of a zero result differs between its vectorized and scalar kernels (Xdivy(-0, 3) is -0 inside a
#: SIMD packet, +0 in the tail), so only the zero's value is checked
_ANY_ZERO_SIGN = ('Xdivy', 'Xlogy', 'Xlog1py')


def _binary(op):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x, y: fn(x=x, y=y), [In(_X.shape, values=lambda rng, s: _X),
                                                   In(_Y.shape, values=lambda rng, s: _Y)],
                  check=lambda ov, tf_: _elementwise_exact(ov, tf_, zero_sign=op not in _ANY_ZERO_SIGN))


register(grid('special/binary', _binary, op=_BINARY))


#: FloorMod's edges: zero remainders of both signs (TF gives the dividend's sign), infinite divisors of both signs
#: over finite, zero and infinite dividends, NaN and zero divisors
_MOD_X = np.array([6.0, -6.0, 6.0, -6.0, 0.0, -0.0, 0.0, -0.0, 3.0, -3.0, 3.0, -3.0, 0.0, -0.0, 0.0, -0.0, np.inf,
                   -np.inf, np.nan, 5.0, -5.0, 2.5, -2.5, 7.25, -7.25, 1e-30, -1e-30, 100.0, 0.0, np.inf], np.float32)
_MOD_Y = np.array([3.0, 3.0, -3.0, -3.0, 3.0, 3.0, -3.0, -3.0, np.inf, np.inf, -np.inf, -np.inf, np.inf, np.inf,
                   -np.inf, -np.inf, 2.0, np.inf, 2.0, 0.0, -0.0, -0.5, 0.5, 2.0, -2.0, 7.0, 7.0, 7.0, np.nan,
                   -np.inf], np.float32)


def _floor_mod(dtype):
    return OpCase('', lambda x, y: tf.raw_ops.FloorMod(x=x, y=y),
                  [In(_MOD_X.shape, dtype, values=lambda rng, s: _MOD_X),
                   In(_MOD_Y.shape, dtype, values=lambda rng, s: _MOD_Y)],
                  check=lambda ov, tf_: _elementwise_exact(ov, tf_, zero_sign=True))


_MOD_CASES = grid('special/floor_mod', _floor_mod, dtype=[np.float32, np.float16, np.float64])
_F64_MOD = ('OpenVINO CPU runs f64 as f32 and saturates +-inf to +-FLT_MAX: inf mod 2 and 0 mod inf come '
           'out finite (as ONNX\'s mod_float_edge_cases_fmod_0_float64)')
for _mod_case in _MOD_CASES:
    if _mod_case.name.endswith('float64]'):
        _mod_case.xfail = _F64_MOD
register(_MOD_CASES)
