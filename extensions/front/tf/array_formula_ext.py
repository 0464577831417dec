"""Extractors for TensorFlow's array ops that take several opset ops: shape arithmetic (BroadcastArgs, ShapeN,
UnravelIndex), permutations and sequences (InvertPermutation, LinSpace, Cumprod), set operations (ListDiff,
Unique, UniqueWithCounts), ToBool, XLA's dynamic slices and Multinomial sampling.

The nodes keep their TensorFlow op name (prefixed ``TF`` where an opset op of the same name exists) with
their element types and attributes; ``array_lowering`` builds each from opset ops. Unique and UniqueWithCounts
become the ``FrameworkUnique`` that every framework's Unique becomes (``extensions/front/common_lowering.py``).
"""
import numpy as np

from extensions.front.tf.lowered_ext import LoweredExtractor
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr

#: TF op -> what array_lowering makes of it
LOWERED = {
    'BroadcastArgs': 'Select(a == 1, b, a) on the shapes padded with leading 1s to one length',
    'ShapeN': 'one ShapeOf (out_type) per input',
    'UnravelIndex': 'FloorMod(Divide(indices, strides), dims), strides from a masked ReduceProd of dims',
    'InvertPermutation': 'ScatterNDUpdate(zeros, x, Range(n))',
    'LinSpace': 'start + Range(num) * (stop - start) / (num - 1), the last element stop',
    'Cumprod': 'ReduceProd over a triangular mask of the axis (exclusive, reverse; memory n^2 along the axis); '
               'the axis must be constant',
    'ListDiff': 'Gather(x, NonZero(no element of y equals x[i])): the kept values and their positions',
    'Unique': 'Unique (opset10, unsorted): the distinct values and each element\'s index into them',
    'UniqueWithCounts': 'Unique (opset10, unsorted): the distinct values, the indices, the counts',
    'ToBool': 'x != 0 for a scalar, else Size(x) > 0',
    'XlaDynamicSlice': 'Slice at the start indices clamped into the input, as XLA',
    'XlaDynamicUpdateSlice': 'Select(a Pad-ded mask, the update Pad-ded to the clamped indices, the input)',
    'Multinomial': 'Multinomial (opset13, with replacement) of the logits less their row maximum (exp cannot '
                   'overflow); seed and seed2 as its seeds: TF\'s distribution, not TF\'s draws',
}

#: the outputs of the opset's Unique (values, first indices, each element's index, counts) TF's ops have
UNIQUE_OUTPUTS = {'Unique': [0, 2], 'UniqueWithCounts': [0, 2, 3]}


class LoweredArrayExtractor(LoweredExtractor):
    """Array ops built from several opset ops by ``array_lowering``."""
    op = sorted(LOWERED)
    table = LOWERED
    # both are the shared FrameworkUnique (extensions/front/common_lowering.py)
    renamed = {'Unique': 'FrameworkUnique', 'UniqueWithCounts': 'FrameworkUnique'}

    @classmethod
    def attributes(cls, node):
        if node.op in UNIQUE_OUTPUTS:  # unsorted, of the flattened input, indices of out_idx (below)
            return {'unique_outputs': UNIQUE_OUTPUTS[node.op], 'sorted': False, 'axis': None,
                    'out_type': tf_dtype_attr(node, 'out_idx', None)}
        return {'out_type': tf_dtype_attr(node, 'out_type', None) or tf_dtype_attr(node, 'out_idx', None),
                'index_type': tf_dtype_attr(node, 'Tidx', None),
                'exclusive': bool(tf_attr(node, 'exclusive', False)), 'reverse': bool(tf_attr(node, 'reverse', False)),
                'input_count': int(tf_attr(node, 'N', 1)),
                'output_dtype': tf_dtype_attr(node, 'output_dtype', None),
                'seed': int(tf_attr(node, 'seed', 0)), 'seed2': int(tf_attr(node, 'seed2', 0))}


def output_type(node, default=np.int32) -> np.dtype:
    """The node's ``out_type``/``out_idx`` (TF's default int32)."""
    return np.dtype(node.soft_get('out_type', None) or default)
