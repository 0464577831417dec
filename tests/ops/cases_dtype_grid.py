"""Harness cases that widen the dtype grid (issue 26 point 7): every dtype TensorFlow registers a CPU kernel
for, not only float32.

``tools/audit_tf_coverage.py`` lists, per TF op and type attribute, the registered CPU dtypes no case
exercises. The cases here close the largest of those gaps from tables rather than by editing each older
module:

- ``dtype/unary``, ``dtype/binary``: element-wise math and activations in float16 and float64 (and the
  integer types TF registers them for), one op per case;
- ``dtype/nn``: convolutions, pooling, LRN, BiasAddV1, BatchMatMul*, TopK/TopKV2, NonMaxSuppressionV2-V5,
  SparseSegment* in float16/float64/integers;
- ``dtype/move``, ``dtype/arith``, ``dtype/more``, ``dtype/lists``: one graph per dtype that runs many ops at
  once (data movement; element-wise math, comparisons, reductions, segments; PadV2/Fill/OneHot/stitches/...;
  tensor lists and TensorArrays), so that a dtype costs one conversion. ``arith`` and ``more`` take each op
  only for the dtypes TF's op def allows and registers a CPU kernel for (``_cpu_types``);
- ``dtype/index``: the index-type attributes, in ``cases_dtype_index.py``.

float16 compares with rtol 1e-2 (TF computes float16 in float16, OpenVINO's CPU plugin in float32).
bfloat16 is not fed (numpy has no bfloat16), nor are TF's quantized types (no OpenVINO element type).
``XFAIL`` lists what fails, and why (mo, OpenVINO's CPU plugin or TensorFlow itself).
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

F16, F64 = np.float16, np.float64
INTS = (np.int8, np.int16, np.int32, np.int64)
UINTS = (np.uint8, np.uint16, np.uint32, np.uint64)


def _rtol(dtype):
    return 1e-2 if np.dtype(dtype) == np.float16 else 1e-4


def _tfd(dtype):
    return tf.as_dtype(np.dtype(dtype))


def _uniform(low, high):
    return lambda rng, s: rng.uniform(low, high, s)


def _specials(rng, shape):
    values = rng.standard_normal(shape) * 2
    flat = values.reshape(-1)
    flat[::4] = np.inf
    flat[1::5] = -np.inf
    flat[2::7] = np.nan
    return values


# ----- element-wise unary -------------------------------------------------------------------------------

#: TF unary op -> (input values, extra dtypes beyond float16/float64 that TF registers a CPU kernel for)
_UNARY = {
    'Abs': (None, INTS), 'Acos': (_uniform(-0.9, 0.9), ()), 'Acosh': (_uniform(1.1, 4), ()),
    'Asin': (_uniform(-0.9, 0.9), ()), 'Asinh': (None, ()), 'Atan': (None, ()), 'Atanh': (_uniform(-0.9, 0.9), ()),
    'Ceil': (None, ()), 'Cos': (None, ()), 'Cosh': (None, ()), 'Elu': (None, ()), 'Erf': (None, ()),
    'Erfc': (None, ()), 'Exp': (None, ()), 'Expm1': (None, ()), 'Floor': (None, ()), 'Inv': (_uniform(0.5, 3), ()),
    'IsFinite': (_specials, ()), 'IsInf': (_specials, ()), 'IsNan': (_specials, ()), 'Log': (_uniform(0.1, 4), ()),
    'Log1p': (_uniform(-0.5, 4), ()), 'Neg': (None, INTS), 'Reciprocal': (_uniform(0.5, 3), ()),
    'Relu': (None, INTS + UINTS), 'Round': (None, (np.int32, np.int64)), 'Rsqrt': (_uniform(0.1, 4), ()),
    'Selu': (None, ()), 'Sigmoid': (None, ()), 'Sign': (None, INTS), 'Sin': (None, ()), 'Sinh': (None, ()),
    'Softplus': (None, ()), 'Softsign': (None, ()), 'Sqrt': (_uniform(0.1, 4), ()), 'Square': (None, INTS),
    'Tan': (_uniform(-1.2, 1.2), ()), 'Tanh': (None, ()),
}


#: the unary ops whose argument TF names ``features``
_FEATURES = ('Elu', 'Relu', 'Selu', 'Softplus', 'Softsign')


def _unary(op, dtype):
    values, extra = _UNARY[op]
    if np.dtype(dtype).kind == 'f':
        values = values or (lambda rng, s: rng.standard_normal(s) * 2)
    elif dtype not in extra:
        return None
    else:
        values = None
    fn = getattr(tf.raw_ops, op)
    arg = 'features' if op in _FEATURES else 'x'
    return OpCase('', lambda x: fn(**{arg: x}), [In((2, 3, 5), dtype, values=values)], rtol=_rtol(dtype))


def _activation(op, dtype):
    """The activations with attributes or other argument names."""
    if op == 'LeakyRelu':  # its op def allows floats only (the CPU kernels for integers are unreachable)
        if np.dtype(dtype).kind != 'f':
            return None
        return OpCase('', lambda x: tf.raw_ops.LeakyRelu(features=x, alpha=0.2), [In((2, 3, 5), dtype)],
                      rtol=_rtol(dtype))
    if np.dtype(dtype).kind != 'f':
        return None
    if op in ('Softmax', 'LogSoftmax'):
        fn = getattr(tf.raw_ops, op)
        return OpCase('', lambda x: fn(logits=x), [In((2, 3, 5), dtype)], rtol=_rtol(dtype))
    if op == 'CheckNumerics':
        return OpCase('', lambda x: tf.raw_ops.CheckNumerics(tensor=x, message='bad') * 2, [In((2, 3), dtype)])
    if op == 'CheckNumericsV2':
        return OpCase('', lambda x: tf.raw_ops.CheckNumericsV2(tensor=x, message='bad') * 2, [In((2, 3), dtype)])
    if op == 'Snapshot':
        return OpCase('', lambda x: tf.raw_ops.Snapshot(input=x) + x, [In((2, 3), dtype)])
    return None


#: TF binary op -> (first input values, second input values, extra dtypes)
_BINARY = {
    'Atan2': (None, None, ()), 'DivNoNan': (None, lambda rng, s: rng.integers(-2, 3, s), ()),
    'Pow': (_uniform(0.5, 2), _uniform(-2, 2), ()), 'Xdivy': (lambda rng, s: rng.integers(-2, 3, s), _uniform(0.5, 3), ()),
    'Xlog1py': (lambda rng, s: rng.integers(-2, 3, s), _uniform(-0.5, 3), ()),
    'Xlogy': (lambda rng, s: rng.integers(-2, 3, s), _uniform(0.1, 3), ()),
    'RealDiv': (None, _uniform(0.5, 3), ()), 'Maximum': (None, None, (np.int8, np.int16, np.int64)),
    'Minimum': (None, None, (np.int8, np.int16)), 'SquaredDifference': (None, None, (np.int64,)),
    'FloorDiv': (None, _uniform(0.5, 3), ()), 'FloorMod': (None, _uniform(0.5, 3), ()),
}


def _binary(op, dtype):
    first, second, extra = _BINARY[op]
    if np.dtype(dtype).kind != 'f':
        if dtype not in extra:
            return None
        first = second = None
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x, y: fn(x=x, y=y), [In((2, 3, 4), dtype, values=first), In((3, 4), dtype, values=second)],
                  rtol=_rtol(dtype))


def _pow_int(dtype):
    return OpCase('', lambda x, y: tf.raw_ops.Pow(x=x, y=y),
                  [In((2, 6), dtype, low=-3, high=4), In((6,), dtype, low=0, high=4)])


# ----- nn: convolution, pooling, matmul, top-k, nms, sparse segments -----------------------------------


def _const(shape, dtype, seed=1):
    return tf.constant(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def _nn(op, dtype):
    r = _rtol(dtype)
    floats_only = op not in ('MaxPool', 'MaxPoolWithArgmax', 'Conv2D')
    if floats_only and np.dtype(dtype).kind != 'f':
        return None
    if op == 'Conv2D':
        if np.dtype(dtype).kind != 'f' and dtype != np.int32:
            return None
        if dtype == np.int32:
            w = tf.constant(np.random.default_rng(1).integers(-3, 4, (3, 3, 3, 4)).astype(np.int32))
            return OpCase('', lambda x: tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding='SAME'),
                          [In((1, 5, 5, 3), dtype, low=-3, high=4)])
        return OpCase('', lambda x: tf.raw_ops.Conv2D(input=x, filter=_const((3, 3, 3, 4), dtype),
                                                        strides=[1, 2, 2, 1], padding='SAME'),
                      [In((1, 6, 6, 3), dtype)], rtol=r)
    if op == 'Conv2DBackpropInput':
        return OpCase('', lambda x: tf.raw_ops.Conv2DBackpropInput(
            input_sizes=[1, 6, 6, 3], filter=_const((3, 3, 3, 4), dtype), out_backprop=x, strides=[1, 2, 2, 1],
            padding='SAME'), [In((1, 3, 3, 4), dtype)], rtol=r)
    if op == 'Conv3D':
        return OpCase('', lambda x: tf.raw_ops.Conv3D(input=x, filter=_const((2, 2, 2, 3, 2), dtype),
                                                        strides=[1, 1, 1, 1, 1], padding='VALID'),
                      [In((1, 4, 4, 4, 3), dtype)], rtol=r)
    if op == 'Conv3DBackpropInputV2':
        return OpCase('', lambda x: tf.raw_ops.Conv3DBackpropInputV2(
            input_sizes=[1, 4, 4, 4, 3], filter=_const((2, 2, 2, 3, 2), dtype), out_backprop=x,
            strides=[1, 1, 1, 1, 1], padding='VALID'), [In((1, 3, 3, 3, 2), dtype)], rtol=r)
    if op == 'DepthwiseConv2dNative':
        return OpCase('', lambda x: tf.raw_ops.DepthwiseConv2dNative(
            input=x, filter=_const((3, 3, 3, 2), dtype), strides=[1, 1, 1, 1], padding='SAME'),
            [In((1, 5, 5, 3), dtype)], rtol=r)
    if op == 'AvgPool':
        return OpCase('', lambda x: tf.raw_ops.AvgPool(value=x, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                                         padding='SAME'), [In((1, 6, 6, 3), dtype)], rtol=r)
    if op == 'MaxPool':
        if dtype in (np.uint32, np.uint64):  # not in its op def
            return None
        return OpCase('', lambda x: tf.raw_ops.MaxPool(input=x, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                                         padding='SAME'), [In((1, 6, 6, 3), dtype)], rtol=r)
    if op == 'MaxPoolWithArgmax':
        # distinct values: which of equal maxima TF's argmax names is its own
        return OpCase('', lambda x: tuple(tf.raw_ops.MaxPoolWithArgmax(
            input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID')),
            [In((1, 4, 4, 3), dtype, values=_distinct(0 if np.dtype(dtype).kind == 'u' else 20))], rtol=r)
    if op == 'LRN':
        if dtype != np.float16:
            return None
        return OpCase('', lambda x: tf.raw_ops.LRN(input=x, depth_radius=2, bias=1.0, alpha=0.1, beta=0.75),
                      [In((1, 3, 3, 6), dtype)], rtol=r)
    if op == 'BiasAddV1':
        return OpCase('', lambda x, b: tf.raw_ops.BiasAddV1(value=x, bias=b), [In((2, 3, 4), dtype), In((4,), dtype)],
                      rtol=r)
    return None


def _matmul(op, dtype):
    kind = np.dtype(dtype).kind
    if kind not in 'fi' or dtype in (np.int8, np.int16):  # int16: not in the op defs (the kernels are unreachable)
        return None
    ints = dict(low=-4, high=5)
    a, b = In((2, 3, 4), dtype, **ints), In((2, 4, 5), dtype, **ints)
    r = _rtol(dtype)
    if op == 'BatchMatMul':
        return OpCase('', lambda x, y: tf.raw_ops.BatchMatMul(x=x, y=y, adj_y=False), [a, b], rtol=r)
    if op == 'BatchMatMulV2':
        return OpCase('', lambda x, y: tf.raw_ops.BatchMatMulV2(x=x, y=y), [a, In((4, 5), dtype, **ints)], rtol=r)
    if op == 'BatchMatMulV3':
        if dtype == np.float16:
            return None
        return OpCase('', lambda x, y: tf.raw_ops.BatchMatMulV3(x=x, y=y, Tout=_tfd(dtype)), [a, b], rtol=r)
    if op == 'MatMul':
        return OpCase('', lambda x, y: tf.raw_ops.MatMul(a=x, b=y, transpose_b=True),
                      [In((3, 4), dtype, **ints), In((5, 4), dtype, **ints)], rtol=r)
    return None


def _matmul_v3_mixed(ta, tout):
    """BatchMatMulV3 with 8-bit operands and a wider result type."""
    return OpCase('', lambda x, y: tf.raw_ops.BatchMatMulV3(x=x, y=y, Tout=_tfd(tout)),
                  [In((2, 3, 4), ta, low=0, high=9), In((2, 4, 5), ta, low=0, high=9)])


def _distinct(offset):
    return lambda rng, s: rng.permutation(int(np.prod(s))).reshape(s) - offset


def _topk(op, dtype):
    kind = np.dtype(dtype).kind
    offset = 0 if kind == 'u' else 12
    x = In((3, 8), dtype, values=_distinct(offset))
    r = _rtol(dtype)
    if op == 'TopKV2':
        return OpCase('', lambda v: tuple(tf.raw_ops.TopKV2(input=v, k=3)), [x], rtol=r)

    def legacy(graph_def):
        graph_def.versions.producer = 6
        for node in graph_def.node:
            if node.op == 'TopKV2':
                node.op = 'TopK'
                node.attr['k'].i = 3
                node.attr['sorted'].b = True
                del node.input[1]
    return OpCase('', lambda v: tuple(tf.raw_ops.TopKV2(input=v, k=3)), [x], rtol=r, edit_graph_def=legacy)


def _boxes(rng, shape):
    n = shape[0]
    centres = rng.uniform(0, 10, (4, 2))[rng.integers(0, 4, n)] + rng.normal(0, 0.5, (n, 2))
    sizes = rng.uniform(1, 3, (n, 2))
    return np.concatenate([centres - sizes / 2, centres + sizes / 2], axis=1)


def _nms(version, dtype):
    # scores far apart: float16 rounding must not reorder them
    inputs = [In((12, 4), dtype, values=_boxes), In((12,), dtype, values=lambda rng, s: rng.permutation(s[0]) / 12 + 0.02)]
    if version == 'V2':
        return OpCase('', lambda b, s: tf.raw_ops.NonMaxSuppressionV2(
            boxes=b, scores=s, max_output_size=6, iou_threshold=0.4), inputs)
    if version == 'V3':
        return OpCase('', lambda b, s: tf.raw_ops.NonMaxSuppressionV3(
            boxes=b, scores=s, max_output_size=6, iou_threshold=0.4, score_threshold=0.2), inputs)
    if version == 'V4':
        return OpCase('', lambda b, s: tuple(tf.raw_ops.NonMaxSuppressionV4(
            boxes=b, scores=s, max_output_size=6, iou_threshold=0.4, score_threshold=0.2,
            pad_to_max_output_size=True)), inputs)
    return OpCase('', lambda b, s: tuple(tf.raw_ops.NonMaxSuppressionV5(
        boxes=b, scores=s, max_output_size=6, iou_threshold=0.4, score_threshold=0.2,
        soft_nms_sigma=0.0)), inputs, rtol=_rtol(dtype))


def _sorted_ids(rng, shape):
    return np.sort(rng.integers(0, 3, shape))


def _sparse_segment(reduction, dtype, ids_dtype):
    if reduction != 'Sum' and np.dtype(dtype).kind != 'f':
        return None
    one = 'SparseSegment' + reduction
    many = one + 'WithNumSegments'
    data = In((4, 3), dtype)
    indices = In((5,), np.int32, low=0, high=4)
    ids = In((5,), ids_dtype, values=_sorted_ids)

    def fn(x, i, s):
        return (getattr(tf.raw_ops, one)(data=x, indices=i, segment_ids=s),
                getattr(tf.raw_ops, many)(data=x, indices=i, segment_ids=s, num_segments=5))
    return OpCase('', fn, [data, indices, ids], rtol=_rtol(dtype))


# ----- data movement: one graph per dtype ---------------------------------------------------------------


def _move(dtype):
    """Many data-movement ops on one input of ``dtype`` (each output one op or two)."""
    def fn(x):
        # x: (2, 4, 4, 4)
        flat = tf.reshape(x, [2, 64])
        out = [
            tf.raw_ops.DepthToSpace(input=x, block_size=2),
            tf.raw_ops.SpaceToDepth(input=x, block_size=2),
            tf.raw_ops.Concat(concat_dim=1, values=[x, x]),
            tf.raw_ops.ConcatV2(values=[x, x], axis=-1),
            tf.raw_ops.Gather(params=flat, indices=[1, 0, 1]),
            tf.raw_ops.GatherV2(params=x, indices=[3, 0], axis=2),
            tf.raw_ops.GatherNd(params=x, indices=[[1, 2], [0, 3]]),
            tf.raw_ops.ReverseSequence(input=x, seq_lengths=[3, 1], seq_dim=1, batch_dim=0),
            tf.raw_ops.ReverseV2(tensor=x, axis=[1, 3]),
            tf.raw_ops.Transpose(x=x, perm=[0, 3, 1, 2]),
            tf.raw_ops.Slice(input=x, begin=[0, 1, 0, 1], size=[2, 2, -1, 2]),
            tf.raw_ops.StridedSlice(input=x, begin=[0, 3, 0, 0], end=[2, 0, 4, 4], strides=[1, -1, 2, 1]),
            tf.raw_ops.Pad(input=x, paddings=[[0, 0], [1, 0], [0, 2], [0, 0]]),
            tf.raw_ops.MirrorPad(input=x, paddings=[[0, 0], [1, 1], [0, 2], [0, 0]], mode='REFLECT'),
            tf.raw_ops.Pack(values=[x, x], axis=1),
            tf.raw_ops.Unpack(value=x, num=4, axis=1)[2],
            tf.raw_ops.Split(axis=1, value=x, num_split=2)[1],
            tf.raw_ops.SplitV(value=x, size_splits=[1, 3], axis=3, num_split=2)[1],
            tf.raw_ops.BroadcastTo(input=x[:, :1], shape=[2, 3, 4, 4]),
            tf.raw_ops.Roll(input=x, shift=[1, -1], axis=[1, 2]),
            tf.raw_ops.ScatterNd(indices=[[1], [3]], updates=x[:, :2], shape=[5, 2, 4, 4]),
            tf.raw_ops.TensorScatterUpdate(tensor=x, indices=[[0, 1]], updates=x[1:, 2]),
            tf.raw_ops.MatrixDiagPartV2(input=x, k=[-1, 1], padding_value=tf.zeros([], x.dtype)),
            tf.raw_ops.MatrixDiagPartV3(input=x, k=0, padding_value=tf.zeros([], x.dtype)),
            tf.raw_ops.MatrixDiagV2(diagonal=x[0], k=1, num_rows=-1, num_cols=-1, padding_value=tf.zeros([], x.dtype)),
            tf.raw_ops.MatrixDiagV3(diagonal=x[0], k=0, num_rows=-1, num_cols=-1, padding_value=tf.zeros([], x.dtype)),
            tf.raw_ops.MatrixSetDiagV2(input=x, diagonal=x[:, :, 0], k=0),
            tf.raw_ops.MatrixSetDiagV3(input=x, diagonal=x[:, :, 0], k=0),
            tf.raw_ops.MatrixDiag(diagonal=x[0, 0]),
            tf.raw_ops.MatrixDiagPart(input=x),
            tf.raw_ops.MatrixSetDiag(input=x, diagonal=x[:, :, 1]),
            tf.raw_ops.Snapshot(input=x),
            tf.raw_ops.ZerosLike(x=x),
            tf.raw_ops.OnesLike(x=x),
            tf.raw_ops.Reverse(tensor=x, dims=[False, True, False, True]),
        ]
        if dtype != np.bool_:
            out.append(tf.raw_ops.SelectV2(condition=tf.raw_ops.Greater(x=x, y=tf.zeros([], x.dtype)), t=x,
                                           e=tf.raw_ops.ZerosLike(x=x)))
        if dtype not in (np.uint16, np.uint32, np.uint64):  # TF's CPU Tile has no kernel for these
            out.append(tf.raw_ops.Tile(input=x, multiples=[1, 2, 1, 1]))
        return tuple(out)
    return OpCase('', fn, [In((2, 4, 4, 4), dtype, low=0, high=9)], rtol=_rtol(dtype))


def _cpu_types(op, attr='T'):
    """The dtypes TF registers a CPU kernel of ``op`` for (its ``attr`` constraint) that its op def allows."""
    from tensorflow.python.framework import kernels, op_def_registry
    allowed = None
    for attr_def in op_def_registry.get(op).attr:
        if attr_def.name == attr and attr_def.allowed_values.list.type:
            allowed = set(attr_def.allowed_values.list.type)
    found = set()
    for kernel in kernels.get_registered_kernels_for_op(op).kernel:
        if kernel.device_type != 'CPU':
            continue
        for constraint in kernel.constraint:
            if constraint.name == attr:
                for value in constraint.allowed_values.list.type:
                    if allowed is not None and value not in allowed:
                        continue
                    try:
                        found.add(np.dtype(tf.dtypes.as_dtype(value).as_numpy_dtype))
                    except (TypeError, KeyError):  # resource, variant, ...
                        pass
    return found


#: element-wise and reducing ops of one graph per dtype: name -> f(x, y) with y free of zeros (a divisor)
_ARITH = {
    'Add': lambda x, y: tf.raw_ops.Add(x=x, y=y), 'AddV2': lambda x, y: tf.raw_ops.AddV2(x=x, y=y),
    'Sub': lambda x, y: tf.raw_ops.Sub(x=x, y=y), 'Mul': lambda x, y: tf.raw_ops.Mul(x=x, y=y),
    'Div': lambda x, y: tf.raw_ops.Div(x=x, y=y), 'FloorDiv': lambda x, y: tf.raw_ops.FloorDiv(x=x, y=y),
    'FloorMod': lambda x, y: tf.raw_ops.FloorMod(x=x, y=y), 'TruncateDiv': lambda x, y: tf.raw_ops.TruncateDiv(x=x, y=y),
    'TruncateMod': lambda x, y: tf.raw_ops.TruncateMod(x=x, y=y), 'Mod': lambda x, y: tf.raw_ops.Mod(x=x, y=y),
    'Maximum': lambda x, y: tf.raw_ops.Maximum(x=x, y=y), 'Minimum': lambda x, y: tf.raw_ops.Minimum(x=x, y=y),
    'SquaredDifference': lambda x, y: tf.raw_ops.SquaredDifference(x=x, y=y),
    'Equal': lambda x, y: tf.raw_ops.Equal(x=x, y=y), 'NotEqual': lambda x, y: tf.raw_ops.NotEqual(x=x, y=y),
    'Less': lambda x, y: tf.raw_ops.Less(x=x, y=y), 'LessEqual': lambda x, y: tf.raw_ops.LessEqual(x=x, y=y),
    'Greater': lambda x, y: tf.raw_ops.Greater(x=x, y=y),
    'GreaterEqual': lambda x, y: tf.raw_ops.GreaterEqual(x=x, y=y),
    'AddN': lambda x, y: tf.raw_ops.AddN(inputs=[x, x, x]), 'BiasAdd': lambda x, y: tf.raw_ops.BiasAdd(value=x, bias=y[0]),
    'Square': lambda x, y: tf.raw_ops.Square(x=x), 'Neg': lambda x, y: tf.raw_ops.Neg(x=x),
    'Abs': lambda x, y: tf.raw_ops.Abs(x=x), 'Sign': lambda x, y: tf.raw_ops.Sign(x=x),
    'ClipByValue': lambda x, y: tf.raw_ops.ClipByValue(t=x, clip_value_min=y[0, 0], clip_value_max=y[0, 0] + y[0, 0]),
    'Sum': lambda x, y: tf.raw_ops.Sum(input=x, axis=[1]), 'Mean': lambda x, y: tf.raw_ops.Mean(input=x, axis=[0]),
    'Max': lambda x, y: tf.raw_ops.Max(input=x, axis=[1]), 'Min': lambda x, y: tf.raw_ops.Min(input=x, axis=[0]),
    'Prod': lambda x, y: tf.raw_ops.Prod(input=x, axis=[1]),
    'EuclideanNorm': lambda x, y: tf.raw_ops.EuclideanNorm(input=x, axis=[1]),
    'Cumsum': lambda x, y: tf.raw_ops.Cumsum(x=x, axis=1), 'Cumprod': lambda x, y: tf.raw_ops.Cumprod(x=x, axis=0),
    'Select': lambda x, y: tf.raw_ops.Select(condition=tf.raw_ops.Less(x=x, y=y), x=x, y=y),
    'Unique': lambda x, y: tuple(tf.raw_ops.Unique(x=tf.reshape(x, [-1]))),
    'Where': lambda x, y: tf.raw_ops.Where(condition=x),
    'UnsortedSegmentSum': lambda x, y: tf.raw_ops.UnsortedSegmentSum(data=x, segment_ids=[0, 1, 0], num_segments=2),
    'UnsortedSegmentMax': lambda x, y: tf.raw_ops.UnsortedSegmentMax(data=x, segment_ids=[1, 1, 0], num_segments=2),
    'SegmentSum': lambda x, y: tf.raw_ops.SegmentSum(data=x, segment_ids=[0, 0, 1]),
    'SegmentMax': lambda x, y: tf.raw_ops.SegmentMax(data=x, segment_ids=[0, 1, 1]),
    'MatrixBandPart': lambda x, y: tf.raw_ops.MatrixBandPart(input=x, num_lower=1, num_upper=0),
    'ListDiff': lambda x, y: tuple(tf.raw_ops.ListDiff(x=tf.reshape(x, [-1]), y=tf.reshape(y, [-1]))),
}
#: ops whose result TF leaves to overflow differently from OpenVINO in narrow integers (products, squares, sums)
_WIDE_ONLY = ('Mul', 'Square', 'SquaredDifference', 'Prod', 'Cumprod', 'EuclideanNorm', 'AddN', 'Mean')


#: (op, dtype) pairs of ``_ARITH`` left out of the one graph: TF registers no working kernel (float16 Where:
#: "No WhereOp available for float16/half type on CPU"), or the pair is an xfail case of its own
_ARITH_APART = {('Where', np.dtype(np.float16)), ('Sub', np.dtype(np.uint8))}


def _truncate_div_float(dtype):
    """TruncateDiv of floats: TF truncates the quotient toward zero (-7 / 5 = -1, 7 / 2 = 3)."""
    return OpCase('', lambda x, y: tf.raw_ops.TruncateDiv(x=x, y=y),
                  [In((2, 5), dtype, values=lambda rng, s: rng.uniform(-9, 9, s)),
                   In((2, 5), dtype, values=lambda rng, s: rng.uniform(0.5, 3, s) * rng.choice([-1, 1], s))],
                  rtol=_rtol(dtype))


def _sub_uint8():
    """uint8 Sub wraps around in TF (1 - 2 = 255)."""
    return OpCase('dtype/Sub_uint8_wraps', lambda x, y: tf.raw_ops.Sub(x=x, y=y),
                  [In((3, 4), np.uint8, low=0, high=5), In((3, 4), np.uint8, low=0, high=5)])


def _arith(dtype):
    """The ops of ``_ARITH`` TF has a CPU kernel of for ``dtype``, in one graph."""
    dtype = np.dtype(dtype)
    ops = [op for op in sorted(_ARITH) if dtype in _cpu_types(op)
           and not (dtype.itemsize == 1 and op in _WIDE_ONLY)
           and (op, dtype) not in _ARITH_APART and not (op == 'TruncateDiv' and dtype.kind == 'f')]
    if not ops:
        return None

    def fn(x, y):
        out = []
        for op in ops:
            result = _ARITH[op](x, y)
            out.extend(result if isinstance(result, tuple) else [result])
        return tuple(out)
    low = 0 if dtype.kind == 'u' else -4
    nonzero = lambda rng, s: rng.integers(1, 4, s) * (1 if dtype.kind == 'u' else rng.choice([-1, 1], s))  # noqa
    case = OpCase('', fn, [In((3, 4), dtype, low=low, high=5), In((3, 4), dtype, values=nonzero)], rtol=_rtol(dtype))
    case.ops = ops
    return case


def _lists(dtype):
    """Tensor lists (TF2's TensorArray) and TF1's TensorArrayV3 holding ``dtype``: from/split/scatter, read,
    gather, stack, concat, pop; no arithmetic."""
    t = _tfd(dtype)

    def fn(x):
        # x: (6, 3)
        split = tf.TensorArray(t, size=3, infer_shape=False).split(x, [2, 2, 2])
        scattered = tf.TensorArray(t, size=4).scatter([3, 0, 1], x[:3])
        handle = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=[3])
        item = tf.raw_ops.TensorListGetItem(input_handle=handle, index=4, element_shape=[3], element_dtype=t)
        _, last = tf.raw_ops.TensorListPopBack(input_handle=handle, element_shape=[3], element_dtype=t)
        ta, flow = tf.raw_ops.TensorArrayV3(size=3, dtype=t, element_shape=[3], clear_after_read=False)
        flow = tf.raw_ops.TensorArrayScatterV3(handle=ta, indices=[2, 0], value=x[:2], flow_in=flow)
        flow = tf.raw_ops.TensorArrayWriteV3(handle=ta, index=1, value=x[5], flow_in=flow)
        read = tf.raw_ops.TensorArrayReadV3(handle=ta, index=2, flow_in=flow, dtype=t)
        gathered = tf.raw_ops.TensorArrayGatherV3(handle=ta, indices=[1, 2], flow_in=flow, dtype=t)
        ta2, flow2 = tf.raw_ops.TensorArrayV3(size=3, dtype=t, element_shape=tf.TensorShape(None),
                                              clear_after_read=False)
        flow2 = tf.raw_ops.TensorArraySplitV3(handle=ta2, value=x, lengths=tf.constant([2, 2, 2], tf.int64),
                                              flow_in=flow2)
        piece = tf.raw_ops.TensorArrayReadV3(handle=ta2, index=1, flow_in=flow2, dtype=t)
        concat, _ = tf.raw_ops.TensorArrayConcatV3(handle=ta, flow_in=flow, dtype=t, element_shape_except0=[])
        return (split.concat(), split.gather([2, 0]), split.read(1), scattered.stack(), item, last, read, gathered,
                piece, concat)
    return OpCase('', fn, [In((6, 3), dtype, low=0, high=9)], rtol=_rtol(dtype))


#: more ops of one graph per dtype, on x of shape (4, 4): name -> f(x)
_MORE = {
    'PadV2': lambda x: tf.raw_ops.PadV2(input=x, paddings=[[1, 0], [0, 2]],
                                        constant_values=tf.constant(True if x.dtype == tf.bool else 2, x.dtype)),
    'Fill': lambda x: tf.raw_ops.Fill(dims=[2, 3], value=x[1, 1]),
    'OneHot': lambda x: tf.raw_ops.OneHot(indices=[0, 2, -1], depth=3, on_value=x[0, 0], off_value=x[0, 1]),
    'SparseToDense': lambda x: tf.raw_ops.SparseToDense(sparse_indices=[[0, 1], [2, 3]], output_shape=[3, 4],
                                                        sparse_values=x[0, :2], default_value=x[3, 3]),
    'DynamicPartition': lambda x: tuple(tf.raw_ops.DynamicPartition(data=x, partitions=[1, 0, 1, 1],
                                                                    num_partitions=2)),
    'DynamicStitch': lambda x: tf.raw_ops.DynamicStitch(indices=[[2, 0], [1, 3]], data=[x[:2], x[2:]]),
    'ParallelDynamicStitch': lambda x: tf.raw_ops.ParallelDynamicStitch(indices=[[2, 0], [1, 3]],
                                                                        data=[x[:2], x[2:]]),
    'SegmentSum': lambda x: tf.raw_ops.SegmentSum(data=x, segment_ids=[0, 0, 1, 2]),
    'SegmentMean': lambda x: tf.raw_ops.SegmentMean(data=x, segment_ids=[0, 0, 1, 2]),
    'SegmentProd': lambda x: tf.raw_ops.SegmentProd(data=x, segment_ids=[0, 1, 1, 2]),
    'SegmentMin': lambda x: tf.raw_ops.SegmentMin(data=x, segment_ids=[0, 1, 1, 1]),
    'UnsortedSegmentMin': lambda x: tf.raw_ops.UnsortedSegmentMin(data=x, segment_ids=[1, 0, 1, 1], num_segments=2),
    'UnsortedSegmentProd': lambda x: tf.raw_ops.UnsortedSegmentProd(data=x, segment_ids=[1, 0, 1, 1],
                                                                    num_segments=2),
    'MaxPoolV2': lambda x: tf.raw_ops.MaxPoolV2(input=tf.reshape(x, [1, 4, 4, 1]), ksize=[1, 2, 2, 1],
                                                strides=[1, 2, 2, 1], padding='VALID'),
    'BiasAddV1': lambda x: tf.raw_ops.BiasAddV1(value=x, bias=x[0]),
    'MatrixBandPart': lambda x: tf.raw_ops.MatrixBandPart(input=x, num_lower=0, num_upper=1),
    'Equal': lambda x: tf.raw_ops.Equal(x=x, y=x[::-1]), 'NotEqual': lambda x: tf.raw_ops.NotEqual(x=x, y=x[0]),
    'Select': lambda x: tf.raw_ops.Select(condition=[True, False, True, False], x=x, y=x[::-1]),
    'Einsum': lambda x: tf.raw_ops.Einsum(inputs=[x, x], equation='ij,jk->ik'),
    'ExtractImagePatches': lambda x: tf.raw_ops.ExtractImagePatches(
        images=tf.reshape(x, [1, 4, 4, 1]), ksizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
        padding='VALID'),
    'SparseFillEmptyRows': lambda x: tuple(tf.raw_ops.SparseFillEmptyRows(
        indices=tf.constant([[0, 1], [2, 0]], tf.int64), values=x[0, :2], dense_shape=tf.constant([4, 3], tf.int64),
        default_value=x[3, 3])),
    'Bucketize': lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[-1.0, 0.0, 2.0]),
    'L2Loss': lambda x: tf.raw_ops.L2Loss(t=x),
    'Pow': lambda x: tf.raw_ops.Pow(x=x, y=tf.raw_ops.Abs(x=x[::-1]) if x.dtype.is_integer else x[::-1]),
    'AddN': lambda x: tf.raw_ops.AddN(inputs=[x, x[::-1]]),
    'Unique': lambda x: tuple(tf.raw_ops.Unique(x=x[0])),
    'UniqueWithCounts': lambda x: tuple(tf.raw_ops.UniqueWithCounts(x=x[1])),
    'ZerosLike': lambda x: tf.raw_ops.ZerosLike(x=x), 'OnesLike': lambda x: tf.raw_ops.OnesLike(x=x),
}
#: (op, dtype) left out: TF's kernel fails at run time, or an element-wise result that overflows differently
_MORE_APART = {('Pow', np.dtype(np.int8)), ('Pow', np.dtype(np.int16)), ('SegmentProd', np.dtype(np.int8)),
               ('SegmentProd', np.dtype(np.uint8)), ('UnsortedSegmentProd', np.dtype(np.int8)),
               ('UnsortedSegmentProd', np.dtype(np.uint8)), ('Einsum', np.dtype(np.int8))}


def _padv2_computed_value(dtype):
    """PadV2 whose constant_values is computed in the graph (an element of the input)."""
    return OpCase('', lambda x: tf.raw_ops.PadV2(input=x, paddings=[[1, 0], [0, 2]], constant_values=x[0, 0]),
                  [In((4, 4), dtype)])


def _conjugate_transpose_real(dtype):
    """ConjugateTranspose of a real tensor: a Transpose."""
    return OpCase('', lambda x: tf.raw_ops.ConjugateTranspose(x=x, perm=[1, 0]), [In((3, 4), dtype)])


def _more(dtype):
    """The ops of ``_MORE`` TF has a CPU kernel of for ``dtype``, in one graph."""
    dtype = np.dtype(dtype)
    ops = [op for op in sorted(_MORE) if _MORE[op] is not None and dtype in _cpu_types(op)
           and (op, dtype) not in _MORE_APART]
    if not ops:
        return None

    def fn(x):
        out = []
        for op in ops:
            result = _MORE[op](x)
            out.extend(result if isinstance(result, tuple) else [result])
        return tuple(out)
    case = OpCase('', fn, [In((4, 4), dtype, low=0 if dtype.kind == 'u' else -3, high=4)], rtol=_rtol(dtype))
    case.ops = ops
    return case


def _select_bool_const():
    """SelectV2(x, x, ZerosLike(x)) over booleans: a constant branch (ZerosLike of a static shape folds to one)
    beside the condition itself (with another tensor as the condition OpenVINO compiles it)."""
    return OpCase('dtype/select_bool_constant', lambda x: tf.raw_ops.SelectV2(
        condition=x, t=x, e=tf.raw_ops.ZerosLike(x=x)), [In((2, 3), np.bool_)])


_OV_CPU_F64_INF = ('OpenVINO CPU saturates +-inf of a float64 input to +-FLT_MAX when it runs f64 as f32 (Parameter f64 '
                   '-> Multiply by 1 returns 3.4e38), so {} misses the infinities; not mo')
#: the known failures: case name -> reason (pytest xfail, strict)
XFAIL = {
    'dtype/unary[op=Round,dtype=int32]': 'TensorFlow\'s CPU Round kernel returns 0 for every integer (TF bug: tf.round '
                                         'returns integers unchanged in Python; the raw op does not); mo\'s Round '
                                         'is the identity',
    'dtype/unary[op=Round,dtype=int64]': 'TensorFlow\'s CPU Round kernel returns 0 for every integer (TF bug)',
    'dtype/unary[op=IsInf,dtype=float64]': _OV_CPU_F64_INF.format('IsInf'),
    'dtype/unary[op=IsFinite,dtype=float64]': _OV_CPU_F64_INF.format('IsFinite'),
    'dtype/unary[op=Relu,dtype=uint32]': 'OpenVINO CPU computes u32 Relu as i32: values >= 2**31 become 0 (TF: '
                                         'unchanged; an unsigned Relu is the identity)',
    'dtype/unary[op=Relu,dtype=uint64]': 'OpenVINO CPU computes u64 Relu as signed: values >= 2**63 become 0 (TF: '
                                         'unchanged; an unsigned Relu is the identity)',
    'dtype/select_bool_constant': 'OpenVINO CPU refuses Select(boolean, boolean, boolean Const): its precision pass '
                                  'makes the constant u8 ("Argument 1 and 2 element types must match"); the IR is valid',
}

_PAD_VALUE = ('OpenVINO CPU pads with 0 when Pad-1\'s pad_value is not a Constant (Parameter pad_value 7: the '
              'pads come out 0); mo\'s IR feeds PadV2\'s constant_values to port 3 as the opset says')
XFAIL.update({
    'dtype/PadV2_computed_value[dtype=float32]': _PAD_VALUE,
    'dtype/PadV2_computed_value[dtype=int32]': _PAD_VALUE,
    'dtype/Sub_uint8_wraps': 'OpenVINO CPU saturates uint8 Subtract at 0 where TF wraps around (1 - 2: OV 0, TF 255); '
                             'the IR is a plain u8 Subtract',
})

_FLOATS = [F16, F64]

_CASES = (
    grid('dtype/unary', _unary, op=sorted(_UNARY), dtype=_FLOATS + list(INTS + UINTS))
    + grid('dtype/activation', _activation,
           op=['LeakyRelu', 'Softmax', 'LogSoftmax', 'CheckNumerics', 'CheckNumericsV2'],
           dtype=_FLOATS + list(INTS + UINTS))
    + grid('dtype/binary', _binary, op=sorted(_BINARY), dtype=_FLOATS + list(INTS))
    + grid('dtype/Pow_int', _pow_int, dtype=[np.int32, np.int64])
    + grid('dtype/nn', _nn, op=['Conv2D', 'Conv2DBackpropInput', 'Conv3D', 'Conv3DBackpropInputV2',
                                'DepthwiseConv2dNative', 'AvgPool', 'MaxPool', 'MaxPoolWithArgmax', 'LRN', 'BiasAddV1'],
           dtype=_FLOATS + list(INTS + UINTS))
    + grid('dtype/matmul', _matmul, op=['BatchMatMul', 'BatchMatMulV2', 'BatchMatMulV3', 'MatMul'],
           dtype=_FLOATS + [np.int32, np.int64])
    + grid('dtype/BatchMatMulV3_mixed', _matmul_v3_mixed, ta=[np.int8, np.uint8], tout=[np.int32])
    + grid('dtype/topk', _topk, op=['TopK', 'TopKV2'], dtype=_FLOATS + list(INTS + UINTS))
    + grid('dtype/NonMaxSuppression', _nms, version=['V2', 'V3', 'V4', 'V5'], dtype=[F16])
    + grid('dtype/SparseSegment', _sparse_segment, reduction=['Sum', 'Mean', 'SqrtN'],
           dtype=_FLOATS + list(INTS + UINTS), ids_dtype=[np.int32])
    + grid('dtype/move', _move, dtype=_FLOATS + list(INTS + UINTS) + [np.bool_])
    + [_select_bool_const()]
    + grid('dtype/arith', _arith, dtype=_FLOATS + list(INTS + UINTS))
    + grid('dtype/TruncateDiv_float', _truncate_div_float, dtype=[np.float32, F64])
    + [_sub_uint8()]
    + grid('dtype/more', _more, dtype=[np.float32] + _FLOATS + list(INTS + UINTS) + [np.bool_])
    + grid('dtype/ConjugateTranspose_real', _conjugate_transpose_real, dtype=[np.float32])
    + grid('dtype/PadV2_computed_value', _padv2_computed_value, dtype=[np.float32, np.int32])
    + grid('dtype/lists', _lists, dtype=_FLOATS + list(INTS + UINTS) + [np.bool_])
)
for _case in _CASES:
    _case.xfail = XFAIL.get(_case.name, _case.xfail)
assert set(XFAIL) <= {c.name for c in _CASES}, sorted(set(XFAIL) - {c.name for c in _CASES})
register(_CASES)
