"""Extractors for Paddle's shape, indexing, reduction and matrix ops: each becomes ``Paddle_<rule>``, built by
the rules of ``shape_lowering.py``, ``index_lowering.py``, ``math_lowering.py``, ``misc_lowering.py`` and ``parity_lowering.py``, which
read the op's slots and attributes (classic and Paddle 3 spell them differently, and give some as attributes,
tensors or lists of tensors). ``RULES`` says which rule builds which Paddle op."""
from mo.front.extractor import FrontExtractorOp

#: Paddle op type -> the rule (``Paddle_<rule>``) that builds it
RULES = {
    # shapes and layout
    'reshape2': 'reshape', 'reshape': 'reshape', 'transpose2': 'transpose', 'transpose': 'transpose',
    'squeeze2': 'squeeze', 'squeeze': 'squeeze', 'unsqueeze2': 'unsqueeze', 'unsqueeze': 'unsqueeze',
    'flatten_contiguous_range': 'flatten', 'flatten': 'flatten', 'flatten2': 'flatten2',
    'concat': 'concat', 'split': 'split', 'split_with_num': 'split', 'stack': 'stack', 'unstack': 'unstack',
    'expand_v2': 'expand', 'expand': 'expand', 'expand_as_v2': 'expand_as', 'expand_as': 'expand_as',
    'tile': 'tile', 'shape': 'shape', 'shape64': 'shape', 'cast': 'cast',
    # indexing and selection
    'slice': 'slice', 'strided_slice': 'slice', 'gather': 'gather', 'gather_nd': 'gather_nd',
    'scatter': 'scatter', 'where': 'where', 'cumsum': 'cumsum', 'arg_max': 'arg', 'arg_min': 'arg',
    'argmax': 'arg', 'argmin': 'arg', 'top_k': 'top_k', 'top_k_v2': 'top_k', 'topk': 'top_k',
    'one_hot': 'one_hot', 'one_hot_v2': 'one_hot', 'lookup_table_v2': 'embedding', 'lookup_table': 'embedding',
    'embedding': 'embedding', 'range': 'range', 'arange': 'range',
    # reductions, matrices, padding, inference no-ops
    'reduce_sum': 'reduce', 'reduce_mean': 'reduce', 'reduce_max': 'reduce', 'reduce_min': 'reduce',
    'reduce_prod': 'reduce', 'reduce_all': 'reduce', 'reduce_any': 'reduce', 'sum': 'reduce', 'mean': 'reduce',
    'max': 'reduce', 'min': 'reduce', 'prod': 'reduce', 'all': 'reduce', 'any': 'reduce', 'add_n': 'add_n',
    'matmul': 'matmul', 'matmul_v2': 'matmul', 'mul': 'mul', 'fc': 'fc', 'dropout': 'dropout',
    'pad3d': 'pad', 'pad': 'pad',
    # less common ones (misc_lowering.py)
    'bmm': 'matmul', 'flip': 'flip', 'reverse': 'flip', 'index_select': 'index_select', 'take_along_axis': 'take_along_axis',
    'nonzero': 'nonzero', 'where_index': 'nonzero', 'roll': 'roll', 'tril_triu': 'tril_triu', 'tril': 'tril_triu',
    'triu': 'tril_triu', 'p_norm': 'p_norm', 'logsumexp': 'logsumexp', 'meshgrid': 'meshgrid',
    # for parity with OpenVINO's Paddle front end (parity_lowering.py)
    'eye': 'eye', 'linspace': 'linspace', 'atan2': 'atan2', 'scatter_nd_add': 'scatter_nd_add',
    'grid_sampler': 'grid_sample', 'grid_sample': 'grid_sample',
    'quantize_linear': 'quantize_linear', 'dequantize_linear': 'dequantize_linear', 'unique': 'unique',
    'partial_concat': 'partial', 'partial_sum': 'partial',  # partial_lowering.py
}


class TensorOpExtractor(FrontExtractorOp):
    """The ops of ``RULES`` -> ``Paddle_<rule>``, keeping the Paddle op type as ``paddle_op`` for the rule."""
    op = sorted(RULES)

    @classmethod
    def describe(cls, op):
        return 'Paddle_' + RULES[op]

    @classmethod
    def extract(cls, node):
        node['formula'] = node.op
        node['op'] = 'Paddle_' + RULES[node.op]
        return True
