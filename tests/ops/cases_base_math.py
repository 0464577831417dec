"""Harness cases for the element-wise, reduction, cast and select extractors mo had before the
op-coverage work, over dtypes and broadcasting shapes."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: TF binary op -> the dtypes it is checked with
_BINARY = {
    'Add': (np.float32, np.int32), 'AddV2': (np.float32, np.int32, np.int64), 'Sub': (np.float32, np.int32),
    'Mul': (np.float32, np.int32), 'RealDiv': (np.float32,), 'Maximum': (np.float32, np.int32),
    'Minimum': (np.float32, np.int64), 'Pow': (np.float32,), 'SquaredDifference': (np.float32, np.int32),
    'FloorMod': (np.float32, np.int32),
}
_COMPARE = ('Less', 'LessEqual', 'Greater', 'GreaterEqual', 'Equal', 'NotEqual')
_LOGICAL = ('LogicalAnd', 'LogicalOr')
#: TF unary op -> the input values' range (where the op is defined)
_UNARY = {
    'Neg': 'any', 'Sqrt': 'positive', 'Exp': 'any', 'Log': 'positive', 'Abs': 'any', 'Erf': 'any',
    'Sigmoid': 'any', 'Tanh': 'any', 'Sign': 'any', 'Rsqrt': 'positive', 'Square': 'any', 'Erfc': 'any',
}
_SHAPES = {'same': ((2, 3, 4), (2, 3, 4)), 'row': ((2, 3, 4), (4,)), 'scalar': ((2, 3), ()),
           'both': ((2, 1, 4), (3, 1))}


def _nonzero(rng, shape, dtype):
    values = rng.integers(1, 6, shape) * rng.choice([-1, 1], shape)
    return values.astype(dtype) if np.issubdtype(dtype, np.integer) else (values + rng.uniform(0, 0.9, shape))


def _binary(op, dtype, shapes):
    if dtype not in _BINARY[op]:
        return None
    fn = getattr(tf.raw_ops, op)
    a_shape, b_shape = _SHAPES[shapes]
    second = In(b_shape, dtype)
    if op in ('FloorMod', 'RealDiv'):
        second = In(b_shape, dtype, values=lambda rng, s: _nonzero(rng, s, dtype))
    first = In(a_shape, dtype)
    if op == 'Pow':  # positive bases: TF and the runtime agree on real powers only there
        first = In(a_shape, dtype, values=lambda rng, s: rng.uniform(0.5, 2.0, s))
    return OpCase('', lambda x, y: fn(x=x, y=y), [first, second])


def _compare(op, dtype, shapes):
    fn = getattr(tf.raw_ops, op)
    a_shape, b_shape = _SHAPES[shapes]
    # small integers as values so that equal pairs occur
    values = (lambda rng, s: rng.integers(-2, 3, s))
    return OpCase('', lambda x, y: fn(x=x, y=y), [In(a_shape, dtype, values=values), In(b_shape, dtype, values=values)])


def _logical(op, shapes):
    fn = getattr(tf.raw_ops, op)
    a_shape, b_shape = _SHAPES[shapes]
    return OpCase('', lambda x, y: fn(x=x, y=y), [In(a_shape, np.bool_), In(b_shape, np.bool_)])


def _unary(op):
    fn = getattr(tf.raw_ops, op)
    domain = _UNARY[op]
    values = (lambda rng, s: rng.uniform(0.1, 4.0, s)) if domain == 'positive' else \
        (lambda rng, s: rng.standard_normal(s) * 2)
    return OpCase('', lambda x: fn(x=x), [In((2, 3, 5), values=values)])


def _cast(src, dst):
    if src == dst:
        return None
    # floats within every destination's range; TF truncates float -> int toward zero
    values = (lambda rng, s: rng.uniform(-100, 100, s)) if np.dtype(src).kind == 'f' else None
    if np.dtype(dst) == np.uint8 or np.dtype(src) == np.uint8:
        values = lambda rng, s: rng.uniform(0, 200, s)  # noqa: E731
    case = OpCase('', lambda x: tf.raw_ops.Cast(x=x, DstT=tf.as_dtype(dst)), [In((3, 4), src, values=values)])
    if np.dtype(dst) == np.bool_ or np.dtype(src) == np.bool_:  # zeros and non-zeros
        case.inputs = [In((3, 4), src, values=lambda rng, s: rng.integers(0, 3, s))]
    return case


_REDUCE = ('Mean', 'Sum', 'Max', 'Min', 'Prod', 'All', 'Any')


def _reduce(op, axes, keep_dims):
    fn = getattr(tf.raw_ops, op)
    dtype = np.bool_ if op in ('All', 'Any') else np.float32
    return OpCase('', lambda x: fn(input=x, axis=axes, keep_dims=keep_dims), [In((2, 3, 4), dtype)])


def _reduce_axis_input(op):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x, axis: fn(input=x, axis=axis, keep_dims=False),
                  [In((2, 3, 4)), In((1,), np.int32, values=lambda rng, s: np.array([-2]))])


def _select(op, shapes):
    fn = getattr(tf.raw_ops, op)
    if op == 'Select':
        # Select: a condition of the data's shape, or a vector over the first dimension
        cond_shape, data_shape = {'same': ((2, 3), (2, 3)), 'vector': ((2,), (2, 3))}.get(shapes, (None, None))
        if cond_shape is None:
            return None
        return OpCase('', lambda c, x, y: fn(condition=c, x=x, y=y),
                      [In(cond_shape, np.bool_), In(data_shape), In(data_shape)])
    shape_sets = {'same': ((2, 3), (2, 3), (2, 3)), 'broadcast': ((3,), (2, 1), (2, 3)), 'vector': ((2, 1), (3,), ())}
    c_shape, x_shape, y_shape = shape_sets[shapes]
    return OpCase('', lambda c, x, y: fn(condition=c, t=x, e=y), [In(c_shape, np.bool_), In(x_shape), In(y_shape)])


register(
    grid('base/binary', _binary, op=sorted(_BINARY), dtype=[np.float32, np.int32, np.int64], shapes=sorted(_SHAPES))
    + grid('base/compare', _compare, op=list(_COMPARE), dtype=[np.float32, np.int32], shapes=['same', 'both'])
    + grid('base/logical', _logical, op=list(_LOGICAL), shapes=['same', 'both'])
    + [OpCase('base/LogicalNot', lambda x: tf.raw_ops.LogicalNot(x=x), [In((3, 4), np.bool_)])]
    + grid('base/unary', _unary, op=sorted(_UNARY))
    + grid('base/Cast', _cast, src=[np.float32, np.int32, np.int64, np.bool_, np.uint8],
           dst=[np.float32, np.int32, np.int64, np.bool_, np.uint8])
    + grid('base/reduce', _reduce, op=list(_REDUCE), axes=[[1], [-1], [0, 2], []], keep_dims=[False, True])
    + grid('base/reduce_axis_input', _reduce_axis_input, op=['Mean', 'Sum', 'Max'])
    + grid('base/select', _select, op=['Select', 'SelectV2'], shapes=['same', 'broadcast', 'vector'])
)
