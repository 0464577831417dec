"""Extractors for TensorFlow's indexing and rearranging ops: OneHot, Cumsum, ReverseV2, GatherNd,
ScatterNd, Where (one input), DepthToSpace and SpaceToDepth, SpaceToBatchND and BatchToSpaceND, LRN."""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import data_format, tf_attr, tf_dtype_attr
from mo.ops.tensor_ops import LRN, CumSum, DepthToSpace, GatherND, OneHot, Reverse, ReverseSequence, SpaceToDepth


class OneHotExtractor(FrontExtractorOp):
    """OneHot -> OneHot (axis; negative indices give rows of off_value, as in TF); int8/uint8 indices are
    Converted to i32 (indexing_lowering.OneHotIndicesToI32)."""
    op = 'OneHot'

    @classmethod
    def extract(cls, node):
        OneHot.update_node_stat(node, {'axis': int(tf_attr(node, 'axis', -1))})
        indices_type = tf_dtype_attr(node, 'TI', None)
        if indices_type is not None and indices_type not in (np.int32, np.int64):
            node['tf_indices_type'] = indices_type
        return True


class CumsumExtractor(FrontExtractorOp):
    """Cumsum -> CumSum (opset3; exclusive, reverse; the axis may be computed at run time)."""
    op = 'Cumsum'

    @classmethod
    def extract(cls, node):
        CumSum.update_node_stat(node, {'exclusive': bool(tf_attr(node, 'exclusive', False)),
                                       'reverse': bool(tf_attr(node, 'reverse', False))})
        return True


class ReverseV2Extractor(FrontExtractorOp):
    """ReverseV2 -> Reverse (index mode)."""
    op = 'ReverseV2'

    @classmethod
    def extract(cls, node):
        Reverse.update_node_stat(node, {'mode': 'index'})
        return True


class ReverseSequenceExtractor(FrontExtractorOp):
    """ReverseSequence -> ReverseSequence (opset1; seq_dim, batch_dim as seq_axis, batch_axis)."""
    op = 'ReverseSequence'

    @classmethod
    def extract(cls, node):
        ReverseSequence.update_node_stat(node, {'seq_axis': int(tf_attr(node, 'seq_dim', 1)),
                                                'batch_axis': int(tf_attr(node, 'batch_dim', 0))})
        return True


class GatherNdExtractor(FrontExtractorOp):
    """GatherNd -> GatherND (opset8, batch_dims 0)."""
    op = 'GatherNd'

    @classmethod
    def extract(cls, node):
        GatherND.update_node_stat(node, {'batch_dims': 0})
        return True


class ScatterNdExtractor(FrontExtractorOp):
    """ScatterNd -> ScatterNDUpdate(Broadcast(0, shape), indices, updates) adding duplicates (opset15 sum)."""
    op = 'ScatterNd'

    @classmethod
    def extract(cls, node):
        node['data_type'] = tf_dtype_attr(node, 'T', None)
        return True


class WhereExtractor(FrontExtractorOp):
    """Where (one input) -> Transpose(NonZero(x)): the [count, rank] int64 coordinates of the true
    (non-zero) elements in row-major order."""
    op = 'Where'

    @classmethod
    def extract(cls, node):
        return True


class DepthToSpaceExtractor(FrontExtractorOp):
    """DepthToSpace, SpaceToDepth -> DepthToSpace, SpaceToDepth (blocks_first, TF's depth order) between
    Transposes for NHWC."""
    op = ['DepthToSpace', 'SpaceToDepth']

    @classmethod
    def extract(cls, node):
        op_class = DepthToSpace if node.op == 'DepthToSpace' else SpaceToDepth
        op_class.update_node_stat(node, {'block_size': int(tf_attr(node, 'block_size')), 'mode': 'blocks_first',
                                         'layout': data_format(node)})
        return True


class SpaceBatchExtractor(FrontExtractorOp):
    """SpaceToBatchND, BatchToSpaceND -> SpaceToBatch, BatchToSpace (opset2); block shape and paddings/crops
    must be constant (they are widened to every dimension)."""
    op = ['SpaceToBatchND', 'BatchToSpaceND']

    @classmethod
    def extract(cls, node):
        return True


class LRNExtractor(FrontExtractorOp):
    """LRN -> LRN over the channels (size 2 * depth_radius + 1, alpha scaled by the size: TF's alpha is per
    element, the opset's per window)."""
    op = 'LRN'

    @classmethod
    def extract(cls, node):
        radius = int(tf_attr(node, 'depth_radius', 5))
        size = 2 * radius + 1
        LRN.update_node_stat(node, {'size': size, 'alpha': float(tf_attr(node, 'alpha', 1.0)) * size,
                                    'beta': float(tf_attr(node, 'beta', 0.5)), 'bias': float(tf_attr(node, 'bias', 1.0)),
                                    'layout': 'NHWC'})
        return True
