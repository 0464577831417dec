"""Harness cases for the array ops of ``extensions/front/tf/array_ext.py`` and ``array_formula_ext.py``: each over
its attributes (axes incl. negative, exclusive/reverse, out_type/out_idx, seeds), element types, edge values
(ties on bucket boundaries, empty inputs, shifts beyond the size, indices clamped into range, duplicates) and
dynamic dimensions run at two shapes."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _fixed(value, dtype):
    """A feed that is always ``value``."""
    return lambda rng, shape: np.array(value, dtype).reshape(shape)


def _broadcast_args(pair, dtype):
    a, b = {'ranks': ([2, 1, 3], [4, 1]), 'ones': ([1], [3, 2]), 'scalar': ([], [2, 3]),
            'zero': ([0, 1], [1, 5]), 'equal': ([2, 3], [2, 3])}[pair]
    return OpCase('', lambda x, y: tf.raw_ops.BroadcastArgs(s0=x, s1=y),
                  [In((len(a),), dtype, values=_fixed(a, dtype)), In((len(b),), dtype, values=_fixed(b, dtype))])


def _broadcast_args_dynamic():
    """Lengths unknown when converting: [2, 1, 3] against [4, 1] and [5] against [1, 1, 1, 5]."""
    by_length = {3: [2, 1, 3], 1: [5], 2: [4, 1], 4: [1, 1, 1, 5]}
    return OpCase('batch_a/BroadcastArgs_dynamic', lambda x, y: tf.raw_ops.BroadcastArgs(s0=x, s1=y),
                  [In((None,), np.int32, run=[(3,), (1,)], values=lambda rng, s: np.array(by_length[s[0]])),
                   In((None,), np.int32, run=[(2,), (4,)], values=lambda rng, s: np.array(by_length[s[0]]))])


def _bucketize(boundaries, dtype):
    edges = {'none': [], 'one': [0.0], 'several': [-1.5, 0.0, 0.5, 2.0], 'integers': [-2.0, 1.0, 3.0]}[boundaries]

    def values(rng, shape):  # half the elements exactly on a boundary (ties go right)
        pool = np.array(edges + [-3.0, -0.7, 0.2, 1.2, 4.0])
        picked = rng.choice(pool, shape)
        return picked if dtype == np.float32 else np.round(picked)
    return OpCase('', lambda x: tf.raw_ops.Bucketize(input=x, boundaries=edges),
                  [In((None, 4), dtype, run=[(3, 4), (1, 4)], values=values)])


def _invert_permutation(dtype):
    return OpCase('', lambda x: tf.raw_ops.InvertPermutation(x=x),
                  [In((None,), dtype, run=[(6,), (1,)], values=lambda rng, s: rng.permutation(s[0]))])


def _linspace(num, index_type, dtype):
    if num == 'dynamic':
        return OpCase('', lambda a, z, n: tf.raw_ops.LinSpace(start=a, stop=z, num=n),
                      [In((), dtype, run=[(), ()]), In((), dtype, run=[(), ()]),
                       In((), index_type, run=[(), ()], low=1, high=9)])
    count = np.array(num, index_type)
    return OpCase('', lambda a, z: tf.raw_ops.LinSpace(start=a, stop=z, num=count), [In((), dtype), In((), dtype)])


def _list_diff(dtype, out_idx, y_size):
    return OpCase('', lambda x, y: tf.raw_ops.ListDiff(x=x, y=y, out_idx=out_idx),
                  [In((None,), dtype, run=[(8,), (3,)], values=lambda rng, s: rng.integers(0, 6, s)),
                   In((None,), dtype, run=[(y_size,), (y_size,)], values=lambda rng, s: rng.integers(0, 6, s))])


def _reverse(dims, dtype):
    mask = np.array(dims, np.bool_)
    return OpCase('', lambda x: tf.raw_ops.Reverse(tensor=x, dims=mask), [In((2, 3, 4), dtype)])


def _roll(shift_axis, dtype):
    shift, axis = shift_axis
    shift, axis = np.array(shift, np.int32), np.array(axis, np.int32)
    return OpCase('', lambda x: tf.raw_ops.Roll(input=x, shift=shift, axis=axis),
                  [In((None, 3, 4), dtype, run=[(2, 3, 4), (5, 3, 4)])])


def _roll_shift_input():
    return OpCase('batch_a/Roll_shift_input', lambda x, s: tf.raw_ops.Roll(input=x, shift=s, axis=[0, -1]),
                  [In((3, 4)), In((2,), np.int64, low=-9, high=10)])


def _shape_n(out_type, count):
    shapes = [(None, 3), (2, None, 4), ()][:count]
    runs = [[(1, 3), (4, 3)], [(2, 5, 4), (2, 1, 4)], [(), ()]][:count]
    return OpCase('', lambda *xs: tf.raw_ops.ShapeN(input=list(xs), out_type=out_type),
                  [In(s, run=r) for s, r in zip(shapes, runs)])


def _to_bool(kind, dtype):
    if kind == 'tensor':
        if dtype != np.float32:
            return None
        return OpCase('', lambda x: tf.raw_ops.ToBool(input=x), [In((None, 3), run=[(2, 3), (0, 3)])])
    return OpCase('', lambda x: tf.raw_ops.ToBool(input=x),
                  [In((), dtype, values=_fixed(0 if kind == 'zero' else 3, np.float32))])


def _unique(op, dtype, out_idx):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(x=x, out_idx=out_idx),
                  [In((None,), dtype, run=[(9,), (1,)], values=lambda rng, s: rng.integers(-3, 4, s))])


def _unravel(indices, dims, dtype):
    shape = (4, 3, 5) if dims == 'const' else None
    if indices == 'scalar':
        index = In((), dtype, run=[(), ()], low=0, high=60)
    else:
        index = In((None,), dtype, run=[(5,), (1,)], low=0, high=60)
    if shape is not None:
        return OpCase('', lambda i: tf.raw_ops.UnravelIndex(indices=i, dims=np.array(shape, dtype)), [index])
    return OpCase('', lambda i, d: tf.raw_ops.UnravelIndex(indices=i, dims=d),
                  [index, In((2,), dtype, run=[(2,), (2,)], values=_fixed([6, 10], dtype))])


def _sparse_to_dense(indices, values, dtype):
    default = np.array(-1, dtype)
    if indices == 'scalar':
        ids, shape = np.array(2, np.int32), np.array([5], np.int32)
    elif indices == 'vector':
        ids, shape = np.array([0, 3, 4], np.int64), np.array([6], np.int64)
    else:
        ids, shape = np.array([[0, 1], [1, 3], [2, 0]], np.int32), np.array([3, 4], np.int32)
    count = int(np.size(ids) if ids.ndim < 2 else ids.shape[0])
    value_shape = () if values == 'scalar' else (count,)
    return OpCase('', lambda v: tf.raw_ops.SparseToDense(sparse_indices=ids, output_shape=shape, sparse_values=v,
                                                         default_value=default), [In(value_shape, dtype)])


def _sparse_to_dense_dynamic():
    return OpCase('batch_a/SparseToDense_dynamic',
                  lambda i, v, s: tf.raw_ops.SparseToDense(sparse_indices=i, output_shape=s, sparse_values=v,
                                                           default_value=np.float32(0.5)),
                  [In((None, 2), np.int64, run=[(2, 2), (1, 2)],
                      values=lambda rng, s: np.array([[0, 2], [1, 1]][:s[0]])),
                   In((None,), run=[(2,), (1,)]),
                   In((2,), np.int64, run=[(2,), (2,)], values=_fixed([2, 3], np.int64))])


def _cumprod(exclusive, reverse, axis, dtype):
    values = (lambda rng, s: rng.integers(-3, 4, s)) if dtype == np.int32 else None
    return OpCase('', lambda x: tf.raw_ops.Cumprod(x=x, axis=axis, exclusive=exclusive, reverse=reverse),
                  [In((None, 4, 3), dtype, run=[(2, 4, 3), (1, 4, 3)], values=values)])


def _tensor_scatter(op, depth, dtype):
    fn = getattr(tf.raw_ops, op)
    if depth == 1:  # whole rows, some twice (updates add, subtract, take max/min in turn)
        indices = np.array([[1], [3], [1]] if op != 'TensorScatterUpdate' else [[1], [3], [0]], np.int32)
        return OpCase('', lambda t, u: fn(tensor=t, indices=indices, updates=u), [In((4, 3), dtype), In((3, 3), dtype)])
    indices = np.array([[0, 2], [3, 1], [0, 2]] if op != 'TensorScatterUpdate' else [[0, 2], [3, 1]], np.int64)
    return OpCase('', lambda t, u: fn(tensor=t, indices=indices, updates=u),
                  [In((4, 3), dtype), In((len(indices),), dtype)])


def _top_k(k, sorted_):
    """The legacy TopK (k an attribute) that TensorFlow builds only into GraphDefs of version < 7: traced as
    TopKV2, then rewritten to it."""
    def legacy(graph_def):
        graph_def.versions.producer = 6
        for node in graph_def.node:
            if node.op == 'TopKV2':
                node.op = 'TopK'
                node.attr['k'].i = k
                node.attr['sorted'].b = sorted_
                del node.input[1]
    return OpCase('', lambda x: tf.raw_ops.TopKV2(input=x, k=k, sorted=sorted_),
                  [In((None, 6), run=[(3, 6), (1, 6)], values=lambda rng, s: rng.integers(0, 4, s).astype(np.float32))],
                  edit_graph_def=legacy, check=None if sorted_ else _same_up_to_order)


def _same_up_to_order(actual, expected):
    """sorted=False leaves the order of the k elements to the implementation: the same values and indices."""
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype
        np.testing.assert_array_equal(np.sort(a, axis=-1), np.sort(e, axis=-1))


def _random(op, seeded):
    seed, seed2 = (7, 11) if seeded else (0, 0)
    if op == 'RandomUniform':
        fn = lambda s: tf.raw_ops.RandomUniform(shape=s, dtype=tf.float32, seed=seed, seed2=seed2)  # noqa: E731
        low, high, dtype = 0.0, 1.0, np.float32
    else:
        fn = lambda s: tf.raw_ops.RandomUniformInt(shape=s, minval=np.int32(-4), maxval=np.int32(9), seed=seed,  # noqa
                                                   seed2=seed2)
        low, high, dtype = -4, 9, np.int32
    check = None if seeded else _in_range(low, high, dtype)
    return OpCase('', fn, [In((3,), np.int32, values=_fixed([2, 3, 50], np.int32))], check=check)


def _in_range(low, high, dtype):
    """Unseeded random values differ from TF's run to run: same shape and type, within [low, high), not
    constant."""
    def check(actual, expected):
        for a, e in zip(actual, expected):
            assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, a.dtype, e.shape, e.dtype)
            assert a.min() >= low and a.max() < high, (a.min(), a.max())
            assert len(np.unique(a)) > 1
    return check


def _xla_slice(start):
    from tensorflow.compiler.tf2xla.python import xla
    values = {'inside': [1, 2], 'clamped': [3, 9], 'negative': [-2, 1]}[start]
    return OpCase('', lambda x, s: xla.dynamic_slice(x, s, [2, 3]),
                  [In((None, 6), run=[(4, 6), (5, 6)]),
                   In((2,), np.int32, run=[(2,), (2,)], values=_fixed(values, np.int32))])


def _xla_update(start, dtype):
    from tensorflow.compiler.tf2xla.python import xla
    values = {'inside': [1, 2], 'clamped': [3, 9], 'negative': [-2, 1]}[start]
    return OpCase('', lambda x, u, s: xla.dynamic_update_slice(x, u, s),
                  [In((None, 6), dtype, run=[(4, 6), (5, 6)]), In((2, 3), dtype, run=[(2, 3), (2, 3)]),
                   In((2,), np.int64, run=[(2,), (2,)], values=_fixed(values, np.int64))])


def _select_v2(dtype, shapes):
    c, t, e = {'dynamic': ((None, 1), (3,), (None, 3)), 'scalar_cond': ((), (2, 3), (2, 1))}[shapes]
    runs = {'dynamic': ([(2, 1), (4, 1)], [(3,), (3,)], [(2, 3), (4, 3)]),
            'scalar_cond': ([(), ()], [(2, 3), (2, 3)], [(2, 1), (2, 1)])}[shapes]
    return OpCase('', lambda a, b, d: tf.raw_ops.SelectV2(condition=a, t=b, e=d),
                  [In(c, np.bool_, run=runs[0]), In(t, dtype, run=runs[1]), In(e, dtype, run=runs[2])])


register(
    grid('batch_a/BroadcastArgs', _broadcast_args, pair=['ranks', 'ones', 'scalar', 'zero', 'equal'],
         dtype=[np.int32, np.int64])
    + [_broadcast_args_dynamic(), _roll_shift_input(), _sparse_to_dense_dynamic()]
    + grid('batch_a/Bucketize', _bucketize, boundaries=['none', 'one', 'several', 'integers'],
           dtype=[np.float32, np.int32, np.int64])
    + [OpCase('batch_a/EnsureShape', lambda x: tf.raw_ops.EnsureShape(input=x, shape=[None, 3]) * 2,
              [In((None, 3), run=[(2, 3), (5, 3)])]),
       OpCase('batch_a/CheckNumericsV2', lambda x: tf.raw_ops.CheckNumericsV2(tensor=x, message='bad') + 1,
              [In((2, 3))])]
    + grid('batch_a/InvertPermutation', _invert_permutation, dtype=[np.int32, np.int64])
    + grid('batch_a/LinSpace', _linspace, num=[1, 2, 7, 'dynamic'], index_type=[np.int32, np.int64],
           dtype=[np.float32, np.float64])
    + grid('batch_a/ListDiff', _list_diff, dtype=[np.int32, np.float32], out_idx=[tf.int32, tf.int64], y_size=[0, 3])
    + grid('batch_a/Reverse', _reverse, dims=[[True, False, True], [False, False, False], [True, True, True]],
           dtype=[np.float32, np.int32])
    + grid('batch_a/Roll', _roll,
           shift_axis=[(1, 0), (-2, -1), (7, 1), ([1, -2], [1, 2]), ([1, 2], [-1, -1]), ([5], [0])],
           dtype=[np.float32, np.int64])
    + grid('batch_a/ShapeN', _shape_n, out_type=[tf.int32, tf.int64], count=[2, 3])
    + grid('batch_a/ToBool', _to_bool, kind=['zero', 'non_zero', 'tensor'], dtype=[np.float32, np.int32, np.bool_])
    + grid('batch_a/Unique', _unique, op=['Unique', 'UniqueWithCounts'], dtype=[np.int32, np.float32, np.int64],
           out_idx=[tf.int32, tf.int64])
    + grid('batch_a/UnravelIndex', _unravel, indices=['scalar', 'vector'], dims=['const', 'input'],
           dtype=[np.int32, np.int64])
    + grid('batch_a/SparseToDense', _sparse_to_dense, indices=['scalar', 'vector', 'matrix'],
           values=['scalar', 'vector'], dtype=[np.float32, np.int32])
    + grid('batch_a/Cumprod', _cumprod, exclusive=[False, True], reverse=[False, True], axis=[0, 1, -1, -2],
           dtype=[np.float32, np.int32])
    + grid('batch_a/TensorScatter', _tensor_scatter, op=['TensorScatterUpdate', 'TensorScatterAdd',
                                                         'TensorScatterSub', 'TensorScatterMax', 'TensorScatterMin'],
           depth=[1, 2], dtype=[np.float32, np.int32])
    + grid('batch_a/TopK', _top_k, k=[1, 3, 6], sorted_=[True, False])
    + grid('batch_a/random', _random, op=['RandomUniform', 'RandomUniformInt'], seeded=[True, False])
    + grid('batch_a/XlaDynamicSlice', _xla_slice, start=['inside', 'clamped', 'negative'])
    + grid('batch_a/XlaDynamicUpdateSlice', _xla_update, start=['inside', 'clamped', 'negative'],
           dtype=[np.float32, np.int32])
    + grid('batch_a/SelectV2', _select_v2, dtype=[np.float32, np.int32], shapes=['dynamic', 'scalar_cond'])
)


def _slice_runtime(size):
    """Slice with begin and size fed at run time; a size of -1 reads to the end (on the CPU plugin a stop near
    the index type's largest value computed at run time gave an empty slice)."""
    sizes = {'rest': [-1, 2], 'exact': [2, 3], 'all_rest': [-1, -1]}[size]
    return OpCase('', lambda x, b, s: tf.raw_ops.Slice(input=x, begin=b, size=s),
                  [In((None, 5), run=[(4, 5), (6, 5)]),
                   In((2,), np.int32, run=[(2,), (2,)], values=_fixed([1, 2], np.int32)),
                   In((2,), np.int32, run=[(2,), (2,)], values=_fixed(sizes, np.int32))])


register(
    grid('batch_a/Slice_runtime', _slice_runtime, size=['rest', 'exact', 'all_rest'])
    + [OpCase('batch_a/Transpose_runtime_order', lambda x, p: tf.raw_ops.Transpose(x=x, perm=p),
              [In((2, 3, 4)), In((3,), np.int32, values=_fixed([2, 0, 1], np.int32))])]
)


def _dynamic(op):
    """Ops whose other cases are static, with a dimension fed at two sizes."""
    if op == 'TensorScatterAdd':
        return OpCase('', lambda t, i, u: tf.raw_ops.TensorScatterAdd(tensor=t, indices=i, updates=u),
                      [In((None, 3), run=[(4, 3), (2, 3)]),
                       In((None, 1), np.int32, run=[(3, 1), (5, 1)], low=0, high=2),
                       In((None, 3), run=[(3, 3), (5, 3)])])
    return OpCase('', lambda x: tf.raw_ops.Reverse(tensor=x, dims=[True, False, True]),
                  [In((None, 3, None), run=[(2, 3, 4), (1, 3, 2)])])


register(grid('batch_a/dynamic', _dynamic, op=['TensorScatterAdd', 'Reverse']))
