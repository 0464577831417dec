"""The input and output slots of Paddle ops: ``SLOTS = {op type: (input slots, output slots)}``.

One table serves both program formats. A classic op names its slots itself; a PIR op lists its operands and
results by position, in the order of Paddle's op definition, and ``model.Op.named`` gives them these names.
So each entry lists first the slots in PIR's operand order (named as the classic format names them, or after
PIR's argument where the classic op has no such slot: a PIR ``pool2d`` takes its kernel size as an operand,
``KernelSize``), then the slots only the classic op has. The op type is the one ``graph.paddle_op_type`` gives:
no dialect prefix, no trailing ``_`` of an inplace variant.

Ports are numbered in table order for both formats, a slot holding N vars taking N consecutive ports
(``graph.py``). A type that both formats use with different operands (PIR's ``sum`` and ``mean`` reduce; the
classic ones add up a list or average everything) has one entry whose slots serve both.
"""

_X_OUT = (('X',), ('Out',))
_XY_OUT = (('X', 'Y'), ('Out',))

#: activations and other ops of one input ``X`` and one output ``Out``
_UNARY = (
    'relu', 'relu6', 'leaky_relu', 'sigmoid', 'tanh', 'hard_sigmoid', 'hardsigmoid', 'hard_swish', 'hardswish',
    'swish', 'silu', 'gelu', 'mish', 'softplus', 'elu', 'selu', 'log_softmax', 'softmax', 'abs', 'exp', 'log',
    'sqrt', 'rsqrt', 'square', 'cast', 'assign', 'fill_any_like', 'logical_not', 'sign', 'floor', 'ceil', 'round',
    'sin', 'cos', 'erf', 'reciprocal', 'log1p', 'log2', 'log10', 'tanh_shrink', 'softsign', 'hard_shrink',
    'softshrink', 'thresholded_relu', 'brelu', 'hardtanh', 'isnan', 'isinf', 'isfinite', 'transpose', 'flatten2',
    'reduce_sum', 'reduce_mean', 'reduce_max', 'reduce_min', 'reduce_prod', 'reduce_all', 'reduce_any',
    'all', 'any', 'logsumexp', 'p_norm', 'frobenius_norm', 'share_data', 'bitwise_not', 'flip', 'tril_triu',
    'tril', 'triu', 'logsigmoid', 'tanh_shrink', 'hardshrink', 'memcpy', 'memcpy_h2d', 'memcpy_d2h', 'reverse',
)

#: ops of two inputs ``X``, ``Y`` and one output ``Out`` (classic and Paddle 3 names)
_BINARY = (
    'elementwise_add', 'elementwise_sub', 'elementwise_mul', 'elementwise_div', 'elementwise_pow',
    'elementwise_max', 'elementwise_min', 'elementwise_floordiv', 'elementwise_mod',
    'add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum', 'floor_divide', 'remainder',
    'matmul', 'matmul_v2', 'mul', 'equal', 'not_equal', 'less_than', 'less_equal', 'greater_than',
    'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
    'gather_nd', 'expand_as', 'expand_as_v2', 'equal_all', 'bmm',
)

SLOTS = {op: _X_OUT for op in _UNARY}
SLOTS.update({op: _XY_OUT for op in _BINARY})
SLOTS.update({
    # convolutions and pooling
    'conv2d': (('Input', 'Filter', 'Bias', 'ResidualData'), ('Output',)),
    'depthwise_conv2d': (('Input', 'Filter', 'Bias', 'ResidualData'), ('Output',)),
    'conv2d_transpose': (('Input', 'Filter', 'OutputSize', 'Bias'), ('Output',)),
    'depthwise_conv2d_transpose': (('Input', 'Filter', 'OutputSize', 'Bias'), ('Output',)),
    'pool2d': (('X', 'KernelSize'), ('Out',)),
    'max_pool2d_with_index': (('X',), ('Out', 'Mask')),
    'pool3d': _X_OUT,
    'max_pool3d_with_index': (('X',), ('Out', 'Mask')),
    'partial_concat': _X_OUT,
    'partial_sum': _X_OUT,
    # normalizations
    'batch_norm': (('X', 'Mean', 'Variance', 'Scale', 'Bias', 'MomentumTensor'),
                   ('Y', 'MeanOut', 'VarianceOut', 'SavedMean', 'SavedVariance', 'ReserveSpace')),
    'layer_norm': (('X', 'Scale', 'Bias'), ('Y', 'Mean', 'Variance')),
    'sync_batch_norm': (('X', 'Mean', 'Variance', 'Scale', 'Bias', 'MomentumTensor'),
                        ('Y', 'MeanOut', 'VarianceOut', 'SavedMean', 'SavedVariance', 'ReserveSpace')),
    'group_norm': (('X', 'Scale', 'Bias'), ('Y', 'Mean', 'Variance')),
    'instance_norm': (('X', 'Scale', 'Bias'), ('Y', 'SavedMean', 'SavedVariance')),
    # activations with more than one input
    'prelu': (('X', 'Alpha'), ('Out',)),
    'clip': (('X', 'Min', 'Max'), ('Out',)),
    'pow': (('X', 'FactorTensor'), ('Out',)),
    'scale': (('X', 'ScaleTensor'), ('Out',)),
    'fc': (('Input', 'W', 'Bias'), ('Out',)),
    # reductions: PIR's take their axes as an operand; the classic sum adds its list X up, mean averages all
    'sum': (('X', 'Axis'), ('Out',)),
    'mean': (('X', 'Axis'), ('Out',)),
    'max': (('X', 'Axis'), ('Out',)),
    'min': (('X', 'Axis'), ('Out',)),
    'prod': (('X', 'Axis'), ('Out',)),
    'add_n': (('X',), ('Out',)),
    # shapes and layout
    'reshape2': (('X', 'Shape', 'ShapeTensor'), ('Out', 'XShape')),
    'reshape': (('X', 'Shape', 'ShapeTensor'), ('Out', 'XShape')),
    'transpose2': (('X',), ('Out', 'XShape')),
    'squeeze2': (('X', 'AxesTensor', 'AxesTensorList'), ('Out', 'XShape')),
    'squeeze': (('X', 'AxesTensor', 'AxesTensorList'), ('Out', 'XShape')),
    'unsqueeze2': (('X', 'AxesTensor', 'AxesTensorList'), ('Out', 'XShape')),
    'unsqueeze': (('X', 'AxesTensor', 'AxesTensorList'), ('Out', 'XShape')),
    'flatten_contiguous_range': (('X',), ('Out', 'XShape')),
    'flatten': (('X',), ('Out', 'XShape')),
    'concat': (('X', 'AxisTensor'), ('Out',)),
    'split': (('X', 'Sections', 'AxisTensor', 'SectionsTensorList'), ('Out',)),
    'split_with_num': (('X', 'AxisTensor'), ('Out',)),
    'stack': (('X',), ('Y',)),
    'unstack': (('X',), ('Y',)),
    'meshgrid': (('X',), ('Out',)),
    'eye': (('num_rows', 'num_columns'), ('Out',)),
    'fill_constant_batch_size_like': (('Input',), ('Out',)),
    'linspace': (('Start', 'Stop', 'Num'), ('Out',)),
    'atan2': (('X1', 'X2'), ('Out',)),
    'scatter_nd_add': (('X', 'Index', 'Updates'), ('Out',)),
    'grid_sampler': (('X', 'Grid'), ('Output',)),
    'grid_sample': (('X', 'Grid'), ('Output',)),
    'unique': (('X',), ('Out', 'Indices', 'Index', 'Counts')),
    **{op: (('X', 'Scale', 'ZeroPoint', 'InAccum', 'InState'), ('Y', 'OutState', 'OutAccum', 'OutScale'))
       for op in ('quantize_linear', 'dequantize_linear')},
    'slice': (('Input', 'StartsTensor', 'EndsTensor', 'StartsTensorList', 'EndsTensorList'), ('Out',)),
    'strided_slice': (('Input', 'StartsTensor', 'EndsTensor', 'StridesTensor', 'StartsTensorList',
                       'EndsTensorList', 'StridesTensorList'), ('Out',)),
    'gather': (('X', 'Index', 'Axis'), ('Out',)),
    'index_select': (('X', 'Index'), ('Out',)),
    'take_along_axis': (('Input', 'Index'), ('Result',)),
    'nonzero': (('Condition',), ('Out',)),
    'where_index': (('Condition',), ('Out',)),
    'roll': (('X', 'ShiftsTensor'), ('Out',)),
    'scatter': (('X', 'Ids', 'Updates'), ('Out',)),
    'expand_v2': (('X', 'Shape', 'expand_shapes_tensor'), ('Out',)),
    'expand': (('X', 'Shape', 'expand_shapes_tensor', 'ExpandTimes', 'expand_times_tensor'), ('Out',)),
    'tile': (('X', 'RepeatTimes', 'repeat_times_tensor'), ('Out',)),
    'shape': (('Input',), ('Out',)),
    'shape64': (('Input',), ('Out',)),
    'pad3d': (('X', 'Paddings'), ('Out',)),
    'pad': (('X',), ('Out',)),
    # constants and ranges
    'fill_constant': (('ValueTensor', 'ShapeTensor', 'ShapeTensorList'), ('Out',)),
    'full': ((), ('Out',)),
    'full_int_array': ((), ('Out',)),
    'full_with_tensor': (('ValueTensor', 'ShapeTensor'), ('Out',)),
    'assign_value': (('X',), ('Out',)),
    'full_like': (('X', 'ValueTensor'), ('Out',)),
    'range': (('Start', 'End', 'Step'), ('Out',)),
    'arange': (('Start', 'End', 'Step'), ('Out',)),
    # selection and indices
    'where': (('Condition', 'X', 'Y'), ('Out',)),
    'cumsum': (('X', 'AxisTensor'), ('Out',)),
    'arg_max': (('X',), ('Out',)),
    'arg_min': (('X',), ('Out',)),
    'argmax': (('X', 'AxisTensor'), ('Out',)),
    'argmin': (('X', 'AxisTensor'), ('Out',)),
    'top_k': (('X', 'K'), ('Out', 'Indices')),
    'top_k_v2': (('X', 'K'), ('Out', 'Indices')),
    'topk': (('X', 'K'), ('Out', 'Indices')),
    'one_hot': (('X', 'depth_tensor'), ('Out',)),
    'one_hot_v2': (('X', 'depth_tensor'), ('Out',)),
    'lookup_table_v2': (('Ids', 'W'), ('Out',)),
    'lookup_table': (('Ids', 'W'), ('Out',)),
    'embedding': (('Ids', 'W'), ('Out',)),
    # inference no-ops
    'dropout': (('X', 'Seed', 'P'), ('Out', 'Mask')),
})


# the interpolate, recurrent, detection and control-flow families (a module of their own, so that the two tables
# grow apart)
from mo.front.paddle.op_slots_more import SLOTS_MORE  # noqa: E402
SLOTS.update({op: slots for op, slots in SLOTS_MORE.items() if op not in SLOTS})


def slots_of(op_type: str, op=None):
    """``(input slots, output slots)`` of ``op_type``: the table's, else (an op it lacks) the classic op's own
    slots sorted by name (a PIR op it lacks gets ``in0``, ``in1``..., ``out0``...), so that extraction can still
    report the op as unknown."""
    found = SLOTS.get(op_type)
    if found is not None:
        return found
    if op is None:
        return (), ()
    if op.operands or op.results:
        return (tuple('in{}'.format(i) for i in range(len(op.operands))),
                tuple('out{}'.format(i) for i in range(len(op.results))))
    return tuple(sorted(op.inputs)), tuple(sorted(op.outputs))
