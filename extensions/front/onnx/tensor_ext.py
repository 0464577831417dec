"""Extractors for ONNX's tensor and shape ops that are one opset op each (Cast, Reshape, Transpose, Squeeze,
Gather, Split, TopK, ...).

Where an old opset version gives as an attribute what the opset op takes as an input (Squeeze's axes before
13, Transpose's perm, TopK's k before 10), the extractor attaches a Const to that input, so the node is
directly the opset op. Ops that need several opset ops get an internal op (``ONNX...``) that
``tensor_lowering`` lowers.
"""
import numpy as np

from extensions.front.onnx.cast_e8m0_lowering import E8M0_NAME, ROUND_MODES
from extensions.front.onnx.cast_lowering import DIRECT_TYPES, F32_ONLY_TYPES, FLOAT8_MAX, FLOAT_NAMES
from extensions.front.onnx.elementwise_ext import input_dtype
from extensions.ops.opset_tensor import GatherElements, ScatterElementsUpdate
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.ops.convert import Convert, ConvertLike
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.split import Split, VariadicSplit
from mo.ops.squeeze import Squeeze
from mo.ops.tensor_ops import DepthToSpace, GatherND, NonZero, ReverseSequence, ScatterNDUpdate, SpaceToDepth
from mo.ops.tile import Tile
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def node_name(node: Node) -> str:
    return node.soft_get('name', node.id)


def attach_const(node: Node, port: int, value, suffix: str):
    """Feed input ``port`` of ``node`` from a new Const holding ``value`` (an attribute made an input)."""
    const = Const(node.graph, {'name': '{}/{}'.format(node_name(node), suffix), 'value': np.asarray(value)}).create_node()
    const.out_port(0).connect(node.in_port(port))
    return const


def onnx_type_attr(node: Node, name: str, default=None):
    """The numpy dtype of an element-type attribute (Cast's ``to``); an Error for types mo cannot write."""
    number = onnx_attr(node, name, 'i', None)
    if number is None:
        return default
    return np_dtype(number, 'Attribute "{}" of node "{}"'.format(name, node_name(node)))


def connected_inputs(node: Node):
    return [i for i in sorted(node.in_ports()) if node.is_in_port_connected(i)]


def _saturating(node: Node, dst_type) -> bool:
    """True when a cast to ``dst_type`` must clamp to the type's range: float8 with ``saturate`` (default 1)."""
    return np.dtype(dst_type).name in FLOAT8_MAX and bool(onnx_attr(node, 'saturate', 'i', 1))


def _special_cast(node: Node, dst_type) -> bool:
    """Make the node the internal op of a cast ``Convert`` does not do as ONNX does, if ``dst_type`` needs one:
    ONNXSaturatingCast (float8 with ``saturate``), ONNXCastE8M0 (float8e8m0's ``round_mode`` and ``saturate``)."""
    if np.dtype(dst_type).name == E8M0_NAME:
        round_mode = onnx_attr(node, 'round_mode', 's', b'up')
        round_mode = round_mode.decode() if isinstance(round_mode, bytes) else str(round_mode)
        if round_mode not in ROUND_MODES:
            raise Error('{} "{}": round_mode "{}" is not one of {}', node.soft_get('op'), node_name(node),
                        round_mode, ', '.join(ROUND_MODES))
        node['op'], node['round_mode'] = 'ONNXCastE8M0', round_mode
        node['saturate'] = bool(onnx_attr(node, 'saturate', 'i', 1))
        return True
    if _saturating(node, dst_type):
        node['op'], node['dst_type'] = 'ONNXSaturatingCast', np.dtype(dst_type)
        return True
    if _clamped_to_nibbles(node, dst_type):
        node['op'], node['dst_type'] = 'ONNXClampedCast', np.dtype(dst_type)
        return True
    if _via_f32(node, dst_type):
        node['op'], node['dst_type'] = 'ONNXCastViaF32', np.dtype(dst_type)
        return True
    return False


def _clamped_to_nibbles(node: Node, dst_type) -> bool:
    """Whether a cast to int4/uint4 must clamp to the type's range first: ONNX saturates a float out of range (-9 is
    -8 in int4), OpenVINO's Convert keeps the low four bits of the integer (-9 is 7)."""
    if np.dtype(dst_type).name not in ('int4', 'uint4'):
        return False
    src_type = input_dtype(node, 0)
    return src_type is None or np.dtype(src_type).kind == 'f' or np.dtype(src_type).name in FLOAT_NAMES


def _via_f32(node: Node, dst_type) -> bool:
    """Whether a cast to ``dst_type`` needs to go through f32 on OpenVINO: to float4e2m1 from a type other than
    f32/f16/bf16 (or one the model does not state), from float4e2m1/float8e8m0 to a type other than floats."""
    src_type = input_dtype(node, 0)
    if np.dtype(dst_type).name in F32_ONLY_TYPES:
        return src_type is None or np.dtype(src_type).name not in DIRECT_TYPES
    return src_type is not None and np.dtype(src_type).name in F32_ONLY_TYPES and \
        np.dtype(dst_type).name not in DIRECT_TYPES + ('float64',)


class CastExtractor(FrontExtractorOp):
    """Cast -> Convert to ``to``; to float8 with ``saturate`` (opset 19, default 1) ONNXSaturatingCast
    (cast_lowering: a clamp, then Convert); to float8e8m0 ONNXCastE8M0 (cast_e8m0_lowering: ``round_mode``).
    float4e2m1 is a Convert: OpenVINO's rounds to nearest even and saturates to +-6 (NaN to 6), as ONNX's (through
    f32 where OpenVINO needs: ONNXCastViaF32)."""
    op = 'Cast'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        dst_type = onnx_type_attr(node, 'to')
        if _special_cast(node, dst_type):
            return True
        Convert.update_node_stat(node, {'dst_type': dst_type})
        return True


class CastLikeExtractor(FrontExtractorOp):
    """CastLike -> ConvertLike (input 0 to input 1's element type); to a float8 type the model states, as for
    Cast: ONNXSaturatingCast with ``saturate``, ONNXCastE8M0 (where the type is unknown here, ConvertLike:
    no saturation, OpenVINO's rounding)."""
    op = 'CastLike'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        like_type = input_dtype(node, 1)
        if like_type is not None and _special_cast(node, like_type):
            node.in_port(1).disconnect()
            return True
        ConvertLike.update_node_stat(node, {})
        return True


class ShapeExtractor(FrontExtractorOp):
    """Shape -> ShapeOf (int64); with ``start``/``end`` (opset 15) Slice of it (``ONNXShape``, lowered)."""
    op = 'Shape'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        start, end = onnx_attr(node, 'start', 'i', 0), onnx_attr(node, 'end', 'i', None)
        if start == 0 and end is None:
            ShapeOf.update_node_stat(node, {'output_type': np.int64})
        else:
            node['op'] = 'ONNXShape'
            node['start'], node['end'] = start, end
        return True


class ReshapeExtractor(FrontExtractorOp):
    """Reshape -> Reshape; a 0 in the shape copies the input's dimension unless ``allowzero`` (opset 14) is set
    (special_zero); before opset 5 the shape is an attribute."""
    op = 'Reshape'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Reshape.update_node_stat(node, {'special_zero': not onnx_attr(node, 'allowzero', 'i', 0)})
        if get_onnx_opset_version(node) < 5:
            attach_const(node, 1, np.array(onnx_attr(node, 'shape', 'ints', []), dtype=np.int64), 'shape')
        return True


class ConcatExtractor(FrontExtractorOp):
    """Concat -> Concat along ``axis`` (negative counts from the end)."""
    op = 'Concat'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        axis = onnx_attr(node, 'axis', 'i', None)
        if axis is None:
            if get_onnx_opset_version(node) >= 4:
                raise Error('Concat "{}" has no axis attribute', node_name(node))
            axis = 1
        Concat.update_node_stat(node, {'axis': axis, 'in_ports_count': len(node.pb.input)})
        return True


class TransposeExtractor(FrontExtractorOp):
    """Transpose -> Transpose with ``perm`` as input 1; without ``perm`` the axes are reversed (ONNXTranspose,
    lowered: an empty order constant does not compile in OpenVINO)."""
    op = 'Transpose'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        perm = onnx_attr(node, 'perm', 'ints', None)
        if perm is None:
            node['op'] = 'ONNXTranspose'  # the reversed order, built from the rank at run time
            return True
        Transpose.update_node_stat(node, {})
        attach_const(node, 1, np.array(perm, dtype=np.int64), 'order')
        return True


class SqueezeUnsqueezeExtractor(FrontExtractorOp):
    """Squeeze, Unsqueeze -> the opset op; ``axes`` is an attribute before opset 13 and input 1 from it (a
    Squeeze without axes removes every dimension of size 1)."""
    op = ['Squeeze', 'Unsqueeze']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        op_class = Squeeze if node.op == 'Squeeze' else Unsqueeze
        op_class.update_node_stat(node, {})
        if get_onnx_opset_version(node) < 13:
            axes = onnx_attr(node, 'axes', 'ints', None)
            if axes is not None:
                attach_const(node, 1, np.array(axes, dtype=np.int64), 'axes')
            elif node.op == 'Unsqueeze':
                raise Error('Unsqueeze "{}" has no axes attribute', node_name(node))
        return True


class ExpandExtractor(FrontExtractorOp):
    """Expand -> Broadcast (bidirectional: the shapes broadcast both ways, as numpy's ``x * ones(shape)``)."""
    op = 'Expand'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Broadcast.update_node_stat(node, {'mode': 'bidirectional'})
        return True


class GatherExtractor(FrontExtractorOp):
    """Gather -> Gather-8 along ``axis`` (input 2; negative indices count from the end, as in ONNX)."""
    op = 'Gather'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Gather.update_node_stat(node, {'batch_dims': 0})
        attach_const(node, 2, np.array(onnx_attr(node, 'axis', 'i', 0), dtype=np.int64), 'axis')
        return True


class GatherElementsExtractor(FrontExtractorOp):
    """GatherElements -> GatherElements-6 along ``axis``."""
    op = 'GatherElements'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        GatherElements.update_node_stat(node, {'axis': onnx_attr(node, 'axis', 'i', 0)})
        return True


class GatherNDExtractor(FrontExtractorOp):
    """GatherND -> GatherND-8 (``batch_dims`` from opset 12)."""
    op = 'GatherND'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        GatherND.update_node_stat(node, {'batch_dims': onnx_attr(node, 'batch_dims', 'i', 0)})
        return True


#: ONNX's reduction attribute -> the opset's
_REDUCTIONS = {'none': 'none', 'add': 'sum', 'mul': 'prod', 'max': 'max', 'min': 'min'}


def _reduction(node: Node) -> str:
    reduction = onnx_attr(node, 'reduction', 's', b'none').decode()
    if reduction not in _REDUCTIONS:
        raise Error('{} "{}": unknown reduction "{}"', node.op, node_name(node), reduction)
    return _REDUCTIONS[reduction]


class ScatterElementsExtractor(FrontExtractorOp):
    """ScatterElements, Scatter (its old name) -> ScatterElementsUpdate along ``axis``, with ``reduction``
    (opset 16/18) none/add/mul/max/min."""
    op = ['ScatterElements', 'Scatter']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        ScatterElementsUpdate.update_node_stat(node, {'reduction': _reduction(node), 'use_init_val': True})
        if node.reduction != 'none':
            node['version'] = 'opset12'
        attach_const(node, 3, np.array(onnx_attr(node, 'axis', 'i', 0), dtype=np.int64), 'axis')
        return True


class ScatterNDExtractor(FrontExtractorOp):
    """ScatterND -> ScatterNDUpdate, with ``reduction`` (opset 16/18) none/add/mul/max/min."""
    op = 'ScatterND'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        reduction = _reduction(node)
        ScatterNDUpdate.update_node_stat(node, {'reduction': reduction})
        if reduction != 'none':
            node['version'] = 'opset15'
        return True


class RangeExtractor(FrontExtractorOp):
    """Range -> Range-4 of its inputs' element type."""
    op = 'Range'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        ONNXRange.update_node_stat(node, {})
        return True


class SplitExtractor(FrontExtractorOp):
    """Split -> Split into equal parts (one per output), or VariadicSplit by ``split`` (an attribute before
    opset 13, input 1 from it); opset 18's ``num_outputs`` with a dimension it does not divide -> ONNXSplit."""
    op = 'Split'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        axis = onnx_attr(node, 'axis', 'i', 0)
        outputs = len(node.pb.output)
        sizes = onnx_attr(node, 'split', 'ints', None) if get_onnx_opset_version(node) < 13 else None
        if node.is_in_port_connected(1):
            VariadicSplit.update_node_stat(node, {'out_ports_count': outputs})
            # the lengths move to input 2, the axis comes in as input 1
            edge = node.in_edges()[1]
            edge['in'] = 2
            node.attrs().pop('_in_ports', None)
            attach_const(node, 1, np.array(axis, dtype=np.int64), 'axis')
        elif sizes:
            VariadicSplit.update_node_stat(node, {'out_ports_count': outputs})
            attach_const(node, 1, np.array(axis, dtype=np.int64), 'axis')
            attach_const(node, 2, np.array(sizes, dtype=np.int64), 'lengths')
        elif onnx_attr(node, 'num_outputs', 'i', None) is not None:
            node['op'] = 'ONNXSplit'
        else:
            Split.update_node_stat(node, {'num_splits': outputs, 'out_ports_count': outputs})
            attach_const(node, 1, np.array(axis, dtype=np.int64), 'axis')
        return True


class WhereExtractor(FrontExtractorOp):
    """Where -> Select (numpy broadcasting)."""
    op = 'Where'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Select.update_node_stat(node, {'auto_broadcast': 'numpy'})
        return True


class TileExtractor(FrontExtractorOp):
    """Tile -> Tile (``repeats`` one per dimension)."""
    op = 'Tile'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        if get_onnx_opset_version(node) < 6:
            raise Error('Tile "{}": opset {} Tile (tiles, axis inputs) is not supported; mo reads opset 6 on',
                        node_name(node), get_onnx_opset_version(node))
        Tile.update_node_stat(node, {})
        return True


class NonZeroExtractor(FrontExtractorOp):
    """NonZero -> NonZero (int64 indices, ``[rank, count]``)."""
    op = 'NonZero'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        NonZero.update_node_stat(node, {'output_type': np.int64})
        return True


class DepthToSpaceExtractor(FrontExtractorOp):
    """DepthToSpace -> DepthToSpace; mode DCR is blocks_first, CRD depth_first."""
    op = 'DepthToSpace'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        mode = onnx_attr(node, 'mode', 's', b'DCR').decode()
        if mode not in ('DCR', 'CRD'):
            raise Error('DepthToSpace "{}": unknown mode "{}"', node_name(node), mode)
        DepthToSpace.update_node_stat(node, {'block_size': onnx_attr(node, 'blocksize', 'i'),
                                             'mode': 'blocks_first' if mode == 'DCR' else 'depth_first'})
        return True


class SpaceToDepthExtractor(FrontExtractorOp):
    """SpaceToDepth -> SpaceToDepth; mode DCR (the default: block offsets before channels) is blocks_first, CRD
    (opset 25) depth_first."""
    op = 'SpaceToDepth'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        mode = onnx_attr(node, 'mode', 's', b'DCR').decode()
        if mode not in ('DCR', 'CRD'):
            raise Error('SpaceToDepth "{}": unknown mode "{}"', node_name(node), mode)
        SpaceToDepth.update_node_stat(node, {'block_size': onnx_attr(node, 'blocksize', 'i'),
                                             'mode': 'blocks_first' if mode == 'DCR' else 'depth_first'})
        return True


class ReverseSequenceExtractor(FrontExtractorOp):
    """ReverseSequence -> ReverseSequence (``time_axis`` is the opset's seq_axis)."""
    op = 'ReverseSequence'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        ReverseSequence.update_node_stat(node, {'batch_axis': onnx_attr(node, 'batch_axis', 'i', 1),
                                                'seq_axis': onnx_attr(node, 'time_axis', 'i', 0)})
        return True


class TopKExtractor(FrontExtractorOp):
    """TopK -> TopK-11 with int64 indices, stable (equal values keep their order, as ONNX requires); ``k`` is an
    attribute before opset 10, a 1-element input from it (reshaped to the scalar the opset takes, ONNXTopK)."""
    op = 'TopK'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = {'axis': onnx_attr(node, 'axis', 'i', -1), 'index_element_type': 'i64', 'stable': True,
                 'mode': 'max' if onnx_attr(node, 'largest', 'i', 1) else 'min',
                 # sorted=0 leaves the order free: sorted is one of the orders ONNX allows
                 'sort': 'value'}
        if get_onnx_opset_version(node) < 10:
            TopK.update_node_stat(node, attrs)
            attach_const(node, 1, np.array(onnx_attr(node, 'k', 'i'), dtype=np.int64), 'k')
        else:
            node['op'] = 'ONNXTopK'
            node.attrs().update(attrs)
        return True


#: ONNX ops that ``tensor_lowering`` builds from several opset ops (the node becomes ``ONNX<op>``; the rule reads
#: the ONNX attributes itself)
LOWERED = ('Flatten', 'ConstantOfShape', 'Slice', 'Pad', 'OneHot', 'Trilu', 'Compress', 'EyeLike',
           'CumSum', 'CumProd')


class LoweredTensorExtractor(FrontExtractorOp):
    """Flatten, ConstantOfShape, Slice, Pad, OneHot, Trilu, Compress, EyeLike, CumSum, CumProd -> ONNX<op>,
    lowered to opset ops by ``tensor_lowering``."""
    op = list(LOWERED)
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNX' + node.op
        return True


class ONNXRange(Range):
    """ONNX's Range: Range-4 whose ``output_type`` is the type of its inputs, known once they are inferred."""
    op = 'ONNXRange'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'type': 'Range', 'op': 'ONNXRange', 'infer': ONNXRange.infer}, **(attrs or {})))

    @staticmethod
    def infer(node):
        dtype = node.in_port(0).data.get_data_type()
        if dtype is not None:
            node['output_type'] = np.dtype(dtype)
        Range.infer(node)


class SizeExtractor(FrontExtractorOp):
    """Size -> ``Size`` with an int64 ``out_type``, which ``extensions.front.common_lowering`` builds for every
    framework."""
    op = 'Size'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'ReduceProd(ShapeOf(x))'

    @classmethod
    def extract(cls, node):
        node['out_type'] = np.dtype(np.int64)
        return True
