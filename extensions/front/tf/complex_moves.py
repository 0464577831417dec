"""Complex forms of the ops that move, pick or scatter elements (depth/space moves, diagonals and bands, scatters,
stitches and segments, sparse fills, tensor arrays and lists) on the float form [..., 2]: see ``complex_tensors``
for the protocol.

Three ways, from the cheapest:

* in place: ops that only address leading dimensions run on the float form as they are, or with a shape input
  or their element type adjusted (ScatterNd, ReverseSequence, Select, Where, the stitches and segment sums, the
  tensor list and TensorArray ops: a list of complex elements is the dense [n, *element shape, 2]);
* parts in the channels: the NHWC ops that move whole channels in blocks (DepthToSpace, SpaceToDepth,
  ExtractImagePatches) take [N, H, W, 2C] with each channel's parts side by side, and give them back side by side;
* part by part: every other op here is linear and acts on real and imaginary parts alike, so it runs twice, on
  the real parts and on the imaginary parts of its complex inputs (its other inputs shared), and the two results
  are paired. The copies are the TF node itself with the parts' float type, which its lowering then builds.
"""
import numpy as np

from extensions.front.tf.complex_kit import is_complex_type, pair, parts_type
from extensions.front.tf.fft_ext import real_type
from mo.front.common.formula_kit import I64
from extensions.front.tf.tensor_ext import constant_input
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.elementwise import NotEqual
from mo.ops.gather import Gather
from mo.ops.reduce import ReduceOr
from mo.ops.reshape import Reshape
from mo.utils.error import Error


def _part(b, port, index: int, tag: str):
    """The real (``index`` 0) or imaginary (1) part of a float form, without the trailing dimension."""
    return b.op(Gather, [port, b.const(index, tag + '/index', I64), b.const(-1, tag + '/axis', I64)], tag)


def _copy(node: Node, b, suffix: str) -> Node:
    """A new node like ``node`` (same op and attributes, no connections) computing on the parts' float type,
    named ``<name>/<suffix>``; ``b`` counts it among the nodes of the rewrite."""
    attrs = {key: value for key, value in node.attrs().items() if key not in ('_in_ports', '_out_ports', 'name')}
    attrs['name'] = '{}/{}'.format(b.name, suffix)
    attrs['data_type'] = parts_type(node)
    attrs['_in_ports'] = {port: {'control_flow': False} for port in node.in_ports()}
    attrs['_out_ports'] = {port: {'control_flow': False} for port in node.out_ports()}
    node_id = node.graph.unique_id(attrs['name'])
    node.graph.add_node(node_id, **attrs)
    b.created.append(node_id)
    return Node(node.graph, node_id)


def part_by_part(complex_inputs: tuple, complex_outputs: tuple = (0,)):
    """A rewrite running the node on the real parts, then on the imaginary parts, of its ``complex_inputs`` and
    pairing each of its ``complex_outputs``; its real outputs come from the first run. Right for ops that are
    linear in their complex inputs and treat both parts alike (op(a + bi) = op(a) + i op(b))."""
    def rewrite(node: Node, b):
        runs = []
        for index, part in enumerate(('real', 'imag')):
            run = _copy(node, b, part)
            for port, in_port in sorted(node.in_ports().items()):
                if in_port.is_connected():
                    source = _part(b, in_port, index, '{}/in{}'.format(part, port)).out_port(0) \
                        if port in complex_inputs else in_port.get_source()
                    source.connect(run.in_port(port))
            runs.append(run)
        outputs = [pair(b, b.unsqueeze(runs[0].out_port(port), [-1], 'real/out{}'.format(port)),
                        b.unsqueeze(runs[1].out_port(port), [-1], 'imag/out{}'.format(port)),
                        'complex/out{}'.format(port))
                   if port in complex_outputs else runs[0].out_port(port) for port in sorted(node.out_ports())]
        return outputs if len(outputs) > 1 else outputs[0]
    return rewrite


def _parts_in_channels(node: Node, b):
    """[N, H, W, C, 2] as [N, H, W, 2C]: channel c's parts are channels 2c and 2c + 1. DepthToSpace, SpaceToDepth
    and ExtractImagePatches move channel blocks whole and keep the channels' order within a block, so channel
    2c' + p of their output is part p of their output channel c'."""
    if node.soft_get('layout', 'NHWC') != 'NHWC':
        raise Error('Node "{}" ({}) on a complex tensor: mo converts it in the NHWC layout only (TensorFlow runs '
                    'NCHW on GPUs only)', node.soft_get('name', node.id), node.soft_get('tf_op', node.op))
    merged = b.op(Reshape, [node.in_port(0), b.const([0, 0, 0, -1], 'merged_shape', I64)], 'parts_in_channels',
                  special_zero=True)
    run = _copy(node, b, 'moved')
    merged.out_port(0).connect(run.in_port(0))
    return b.op(Reshape, [run, b.const([0, 0, 0, -1, 2], 'split_shape', I64)], 'parts_from_channels',
                special_zero=True)


def _parts_type(node: Node, b):
    """Ops that run on the float form as they are, but make constants of their element type (the stitches'
    zero rows, the segment sums' starts and counts)."""
    node['data_type'] = parts_type(node)


def _scatter_nd(node: Node, b):
    """ScatterNd(indices, updates, shape): the indices address leading dimensions; the float form's shape is
    shape + [2]."""
    node['data_type'] = parts_type(node)
    shape = b.op(Concat, [b.cast(node.in_port(2), I64, 'shape_i64'), b.const([2], 'parts', I64)], 'float_shape',
                 axis=0)
    node.in_port(2).get_connection().set_source(shape.out_port(0))


def _where(node: Node, b):
    """Where(z): the coordinates of the elements with either part non-zero."""
    non_zero = b.op(NotEqual, [node.in_port(0), b.const(0, 'zero', parts_type(node))], 'parts_non_zero')
    either = b.op(ReduceOr, [non_zero, b.const([-1], 'parts_axis', I64)], 'non_zero', keep_dims=False)
    node.in_port(0).get_connection().set_source(either.out_port(0))


def _unchanged(node: Node, b):
    """TF's Select: its lowering reshapes the condition to the rank of the values, the trailing 2 included;
    ReverseSequence: its axes are leading ones (TF refuses negative axes)."""


def _element_type(node: Node, b):
    """Tensor list and TensorArray ops: the dense list [n, *element shape] holds the float form [n, *element shape,
    2] as it is; the zeros of an unwritten or grown list take the parts' type."""
    if is_complex_type(node.soft_get('element_dtype', None)):
        node['element_dtype'] = real_type(node.element_dtype)


def _list_maker(port: int):
    """A maker of an empty tensor list (TensorListReserve, EmptyTensorList; element shape on input ``port``) whose
    elements are complex: zeros of the parts' type, the element shape with the trailing 2 when its rank is known."""
    def make(node: Node, b) -> list:
        if not is_complex_type(node.soft_get('element_dtype', None)):
            return []
        _element_type(node, b)
        shape = constant_input(node, port)
        if shape is not None and np.ndim(shape) == 1:
            node.in_port(port).get_connection().set_source(
                b.const(np.append(shape, 2).astype(np.asarray(shape).dtype), 'float_element_shape').out_port(0))
        return [node.out_port(0)]
    return make


def _array_maker(node: Node, b) -> list:
    """TensorArrayV3 of complex elements: its flow (output 1, the dense array) holds the float form."""
    if not is_complex_type(node.soft_get('element_dtype', None)):
        return []
    _element_type(node, b)
    if node.soft_get('element_sizes', None) is not None:
        node['element_sizes'] = list(node.element_sizes) + [2]
    return [node.out_port(1)]


#: the tensor list and TensorArray ops that read a list or array (TensorListElementShape is not among them: it
#: would report the float form's element shape)
_LIST_OPS = ('TensorListFromTensor', 'TensorListStack', 'TensorListGetItem', 'TensorListGather', 'TensorListSetItem',
             'TensorListPushBack', 'TensorListPopBack', 'TensorListLength', 'TensorListConcatV2', 'TensorListSplit',
             'TensorListScatterIntoExistingList', 'TensorListResize', 'TensorArrayScatterV3', 'TensorArrayGatherV3',
             'TensorArrayReadV3', 'TensorArrayWriteV3', 'TensorArrayConcatV3', 'TensorArraySplitV3',
             'TensorArraySizeV3')

#: SparseFillEmptyRows' outputs: indices, values (complex), empty_row_indicator, reverse_index_map
_SPARSE_FILL_OUTPUTS = (1,)
#: the diagonal and band ops -> their complex inputs
_DIAGONAL_OPS = {'MatrixDiag': (0,), 'MatrixDiagV2': (0, 4), 'MatrixDiagV3': (0, 4), 'MatrixDiagPart': (0,),
                 'MatrixDiagPartV2': (0, 2), 'MatrixDiagPartV3': (0, 2), 'MatrixSetDiag': (0, 1),
                 'MatrixSetDiagV2': (0, 1), 'MatrixSetDiagV3': (0, 1), 'MatrixBandPart': (0,)}

#: op -> rewrite(node, b): builds the float form of the node's output 0 and returns that node (or output port; for
#: an op of COMPLEX_OUTPUTS, a list of one replacement per output)
REWRITES = dict({op: part_by_part(ports) for op, ports in _DIAGONAL_OPS.items()},
                DepthToSpace=_parts_in_channels, SpaceToDepth=_parts_in_channels,
                ExtractImagePatches=_parts_in_channels,
                OneHot=part_by_part((2, 3)),  # on_value, off_value
                SparseToDense=part_by_part((2, 3)),  # sparse_values, default_value
                SparseTensorDenseAdd=part_by_part((1, 3)),  # a_values, b
                SparseFillEmptyRows=part_by_part((1, 3), _SPARSE_FILL_OUTPUTS))  # values, default_value
#: op -> edit(node, b): adjusts the node in place for the float form; its connected outputs hold float forms
IN_PLACE = dict({op: _parts_type for op in ('DynamicStitch', 'ParallelDynamicStitch', 'SegmentSum', 'SegmentMean',
                                             'UnsortedSegmentSum')},
                **{op: _element_type for op in _LIST_OPS},
                ScatterNd=_scatter_nd, ReverseSequence=_unchanged, Where=_where, TFSelect=_unchanged)
#: ops among the above whose outputs are not complex (a boolean or an index result)
REAL_OUTPUTS = {'Where', 'TensorListLength', 'TensorArraySizeV3'}
#: ops among the above with complex and real outputs -> their complex outputs (a rewrite of one of them returns
#: one replacement per output)
COMPLEX_OUTPUTS = {'SparseFillEmptyRows': _SPARSE_FILL_OUTPUTS, 'TensorListConcatV2': (0,), 'TensorArrayConcatV3': (0,)}
#: op -> make(node, b): for a node without complex inputs that makes complex tensors (an empty list or array of
#: complex elements), adjusts it for the float form and returns its outputs that hold float forms
MAKERS = {'TensorListReserve': _list_maker(0), 'EmptyTensorList': _list_maker(0), 'TensorArrayV3': _array_maker}
