"""Extractors for TensorFlow's tensor, shape and reduction ops.

Where TensorFlow orders inputs differently from the opset op (Split's axis first, SplitV's sizes
before the axis, Fill's dims before the value, Concat's axis first), the extractor renumbers the
node's input edges so the node is directly the opset op. Ops that need more than one opset op
(Slice, Pad, Select, Unpack, Identity-likes) get an internal op that a front replacer lowers.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.ops import reduce
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.identity import Identity
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.split import Split, VariadicSplit
from mo.ops.squeeze import Squeeze
from mo.ops.strided_slice import MASKS, StridedSlice, bits_to_list
from mo.ops.tile import Tile
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error
from mo.ops.transpose import Transpose

#: TF ops that only forward their inputs (removed by IdentityEraser)
IDENTITY_LIKE = ('Identity', 'IdentityN', 'StopGradient', 'Snapshot', 'PreventGradient', 'CheckNumerics')


def _data_in_edges(node):
    return [attrs for _, _, attrs in node.graph.in_edge_list(node.id, data_only=True) if 'in' in attrs]


def permute_inputs(node, new_port_of: dict):
    """Renumber the data inputs of ``node``: input ``old`` becomes input ``new_port_of[old]``."""
    for attrs in _data_in_edges(node):
        attrs['in'] = new_port_of.get(attrs['in'], attrs['in'])
    node.attrs().pop('_in_ports', None)  # re-derived from the edges


def set_op(node, op: str, attrs: dict = None):
    """Give ``node`` an internal op with no Op class (a front replacer lowers it)."""
    node['op'] = op
    node.attrs().update(attrs or {})


def constant_input(node, port: int):
    """The value of input ``port`` when it is a Const (through Identity-like nodes), else None."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    while source.soft_get('op') in IDENTITY_LIKE and source.is_in_port_connected(0):
        source = source.in_port(0).get_source().node
    return source.soft_get('value', None) if source.soft_get('op') == 'Const' else None


def _port_count(node) -> int:
    return len(_data_in_edges(node))


class CastExtractor(FrontExtractorOp):
    """Cast -> Convert; floats to bool as NotEqual(x, 0) (NaN is true, as in TF)."""
    op = 'Cast'

    @classmethod
    def extract(cls, node):
        Convert.update_node_stat(node, {'dst_type': tf_dtype_attr(node, 'DstT'),
                                        'src_type': tf_dtype_attr(node, 'SrcT')})
        return True


_REDUCTIONS = {'Mean': reduce.ReduceMean, 'Sum': reduce.ReduceSum, 'Max': reduce.ReduceMax,
               'Min': reduce.ReduceMin, 'Prod': reduce.ReduceProd, 'All': reduce.ReduceLogicalAnd,
               'Any': reduce.ReduceLogicalOr}


class ReduceExtractor(FrontExtractorOp):
    """TF reductions -> the opset reduction (keep_dims; axes constant or computed at run time)."""
    op = sorted(_REDUCTIONS)

    @classmethod
    def describe(cls, op):
        return opset_type(_REDUCTIONS[op]) + ' (keep_dims; empty axes return the input)'

    @classmethod
    def extract(cls, node):
        _REDUCTIONS[node.op].update_node_stat(node, {'keep_dims': bool(tf_attr(node, 'keep_dims', False))})
        return True


class ReshapeExtractor(FrontExtractorOp):
    """Reshape -> Reshape (special_zero false)."""
    op = 'Reshape'

    @classmethod
    def extract(cls, node):
        Reshape.update_node_stat(node, {'special_zero': False})
        return True


class SqueezeExtractor(FrontExtractorOp):
    """Squeeze -> Squeeze; ``squeeze_dims`` is always set, as the Model Optimizer's extractor did (empty:
    every size-1 dimension), and goes to input 1 in SqueezeNormalize."""
    op = 'Squeeze'

    @classmethod
    def extract(cls, node):
        dims = tf_attr(node, 'squeeze_dims', None) or []
        Squeeze.update_node_stat(node, {'squeeze_dims': np.array(dims, dtype=np.int64)})
        return True


class ExpandDimsExtractor(FrontExtractorOp):
    """ExpandDims -> Unsqueeze."""
    op = 'ExpandDims'

    @classmethod
    def extract(cls, node):
        Unsqueeze.update_node_stat(node, {})
        return True


class TransposeExtractor(FrontExtractorOp):
    """Transpose -> Transpose."""
    op = 'Transpose'

    @classmethod
    def extract(cls, node):
        Transpose.update_node_stat(node, {})
        return True


class ConcatV2Extractor(FrontExtractorOp):
    """ConcatV2(x0..xn-1, axis) and Concat(axis, x0..xn-1): the constant axis becomes an attribute."""
    op = ['ConcatV2', 'Concat']

    @classmethod
    def extract(cls, node):
        count = _port_count(node)
        axis_port = count - 1 if node.op == 'ConcatV2' else 0
        axis = constant_input(node, axis_port)
        if axis is None:
            raise Error('{} "{}": the concatenation axis must be a constant', node.op, node.soft_get('name', node.id))
        node.in_port(axis_port).disconnect()
        if axis_port == 0:
            permute_inputs(node, {i: i - 1 for i in range(1, count)})
        Concat.update_node_stat(node, {'axis': int(np.ravel(axis)[0]), 'in_ports_count': count - 1})
        node.attrs().pop('_in_ports', None)
        return True


class PackExtractor(FrontExtractorOp):
    """Pack keeps its op name; the Pack front replacer lowers it to Unsqueeze + Concat."""
    op = 'Pack'

    @classmethod
    def extract(cls, node):
        set_op(node, 'Pack', {'axis': int(tf_attr(node, 'axis', 0)), 'in_ports_count': _port_count(node),
                              'out_ports_count': 1})
        return True


class UnpackExtractor(FrontExtractorOp):
    """Unpack keeps its op name; the Unpack front replacer lowers it to Split + Squeezes."""
    op = 'Unpack'

    @classmethod
    def extract(cls, node):
        num = int(tf_attr(node, 'num'))
        set_op(node, 'Unpack', {'axis': int(tf_attr(node, 'axis', 0)), 'num': num, 'in_ports_count': 1,
                                'out_ports_count': num})
        return True


class SplitExtractor(FrontExtractorOp):
    """Split(axis, value) -> Split(value, axis)."""
    op = 'Split'

    @classmethod
    def extract(cls, node):
        permute_inputs(node, {0: 1, 1: 0})
        Split.update_node_stat(node, {'num_splits': int(tf_attr(node, 'num_split'))})
        return True


class SplitVExtractor(FrontExtractorOp):
    """SplitV(value, size_splits, axis) -> VariadicSplit(value, axis, size_splits)."""
    op = 'SplitV'

    @classmethod
    def extract(cls, node):
        permute_inputs(node, {1: 2, 2: 1})
        VariadicSplit.update_node_stat(node, {'out_ports_count': int(tf_attr(node, 'num_split'))})
        return True


class StridedSliceExtractor(FrontExtractorOp):
    """TF bit masks -> the opset's 0/1 lists (same meaning per entry; see mo.ops.strided_slice)."""
    op = 'StridedSlice'

    @classmethod
    def extract(cls, node):
        bits = {mask: int(tf_attr(node, mask, 0)) for mask in MASKS}
        begin = constant_input(node, 1)
        length = np.size(begin) if begin is not None else max([b.bit_length() for b in bits.values()] + [1])
        StridedSlice.update_node_stat(node, {mask: bits_to_list(bits[mask], length) for mask in MASKS})
        return True


class SliceExtractor(FrontExtractorOp):
    """Slice(input, begin, size) is lowered to an opset8 Slice by TFSliceToSlice."""
    op = 'Slice'

    @classmethod
    def extract(cls, node):
        set_op(node, 'TFSlice', {'index_type': tf_dtype_attr(node, 'Index', np.dtype(np.int32)),
                                 'in_ports_count': 3, 'out_ports_count': 1})
        return True


class GatherV2Extractor(FrontExtractorOp):
    """GatherV2 -> Gather (opset8, batch_dims)."""
    op = 'GatherV2'

    @classmethod
    def extract(cls, node):
        Gather.update_node_stat(node, {'batch_dims': int(tf_attr(node, 'batch_dims', 0))})
        return True


class GatherExtractor(FrontExtractorOp):
    """Gather (v1) is GatherV2 on axis 0."""
    op = 'Gather'

    @classmethod
    def extract(cls, node):
        Gather.update_node_stat(node, {'batch_dims': 0})
        axis = Const(node.graph, {'name': node.soft_get('name', node.id) + '/axis',
                                  'value': np.array(0, dtype=np.int32)}).create_node()
        axis.out_port(0).connect(node.in_port(2))
        return True


_PAD_MODES = {b'REFLECT': 'reflect', b'SYMMETRIC': 'symmetric', 'REFLECT': 'reflect', 'SYMMETRIC': 'symmetric'}


class PadExtractor(FrontExtractorOp):
    """Pad/PadV2/MirrorPad(input, paddings[, constant]) are lowered to Pad-1 by TFPadToPad."""
    op = ['Pad', 'PadV2', 'MirrorPad']

    @classmethod
    def extract(cls, node):
        mode = 'constant'
        if node.op == 'MirrorPad':
            tf_mode = tf_attr(node, 'mode')
            if tf_mode not in _PAD_MODES:
                raise Error('MirrorPad "{}": unknown mode {}', node.soft_get('name', node.id), tf_mode)
            mode = _PAD_MODES[tf_mode]
        set_op(node, 'TFPad', {'pad_mode': mode, 'in_ports_count': 3, 'out_ports_count': 1})
        return True


class ShapeExtractor(FrontExtractorOp):
    """Shape -> ShapeOf (opset3, out_type)."""
    op = 'Shape'

    @classmethod
    def extract(cls, node):
        ShapeOf.update_node_stat(node, {'output_type': tf_dtype_attr(node, 'out_type', np.dtype(np.int32))})
        return True


class FillExtractor(FrontExtractorOp):
    """Fill(dims, value) -> Broadcast(value, dims)."""
    op = 'Fill'

    @classmethod
    def extract(cls, node):
        permute_inputs(node, {0: 1, 1: 0})
        Broadcast.update_node_stat(node, {'mode': 'numpy'})
        return True


class RangeExtractor(FrontExtractorOp):
    """Range -> Range (opset4)."""
    op = 'Range'

    @classmethod
    def extract(cls, node):
        Range.update_node_stat(node, {'output_type': tf_dtype_attr(node, 'Tidx', np.dtype(np.int32))})
        return True


class TileExtractor(FrontExtractorOp):
    """Tile -> Tile."""
    op = 'Tile'

    @classmethod
    def extract(cls, node):
        Tile.update_node_stat(node, {})
        return True


class SelectV2Extractor(FrontExtractorOp):
    """SelectV2 -> Select (numpy broadcasting)."""
    op = 'SelectV2'

    @classmethod
    def extract(cls, node):
        Select.update_node_stat(node, {})
        return True


class SelectExtractor(FrontExtractorOp):
    """Select (v1) lets a vector condition pick rows; TFSelectToSelect reshapes it for broadcasting."""
    op = 'Select'

    @classmethod
    def extract(cls, node):
        set_op(node, 'TFSelect', {'in_ports_count': 3, 'out_ports_count': 1})
        return True


class IdentityExtractor(FrontExtractorOp):
    """Identity-like ops forward input ``i`` to output ``i``; IdentityEraser removes them."""
    op = list(IDENTITY_LIKE)

    @classmethod
    def extract(cls, node):
        count = max(_port_count(node), 1)
        Identity.update_node_stat(node, {'in_ports_count': count, 'out_ports_count': count})
        return True
