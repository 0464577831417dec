"""Layout ops of dequantized weights move onto the integer Constant, so the dequantization feeds the layer itself.

TF's convolution weights are HWIO, the opset's OIHW: mo reads them through a Transpose (and an Unsqueeze or a
Reshape for grouped ones), which a float Const folds into. Weights stored as integers plus a dequantization
(``Convert -> [Subtract] -> Multiply``, TF's Dequantize) do not fold (the Convert is kept so that they stay
integers), and would leave ``Multiply -> Transpose -> Convolution``. Transposing or reshaping the integers
themselves gives the same values with the dequantization last, in the form OpenVINO reads as compressed weights:
a Transpose moves when the zero point and scale are per tensor or broadcast against the full rank (they are
transposed too), a Reshape, Unsqueeze or Squeeze when they are per tensor.
"""
import numpy as np

from extensions.middle.constant_folding import ConstantFolding
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import set_const_value
from mo.utils.anchors import MiddleStart

LAYOUT_OPS = ('Transpose', 'Reshape', 'Unsqueeze', 'Squeeze')


def _read_only_by(node: Node, reader: Node) -> bool:
    """Whether ``reader`` is the one node reading the node's output 0."""
    destinations = node.out_port(0).get_destinations()
    return len(destinations) == 1 and destinations[0].node.id == reader.id


def _constant(node: Node, port: int):
    return node.in_port(port).data.get_value() if node.is_in_port_connected(port) else None


def _dequantization(multiply: Node):
    """``(integer Const, Convert, [Subtract], Multiply)`` when ``multiply`` ends a dequantization of a Const read by
    nothing else, with constant zero point and scale as input 1; else None."""
    if multiply.soft_get('op') != 'Mul' or _constant(multiply, 1) is None or _constant(multiply, 0) is not None:
        return None
    chain = [multiply]
    node = multiply.in_port(0).get_source().node
    if node.soft_get('op') == 'Sub':
        if _constant(node, 1) is None or not _read_only_by(node, multiply):
            return None
        chain.insert(0, node)
        node = node.in_port(0).get_source().node
    if node.soft_get('op') != 'Cast' or not _read_only_by(node, chain[0]):
        return None
    source = node.in_port(0).get_source().node
    value = source.soft_get('value', None)
    if source.soft_get('op') != 'Const' or value is None or np.asarray(value).dtype.kind not in 'iu' or \
            not _read_only_by(source, node):
        return None
    return [source, node] + chain


def _moved_parameter(value, layout: Node, rank: int, order):
    """A zero point or scale after ``layout``: the same per tensor; transposed along with a full-rank tensor; None
    when it cannot follow."""
    value = np.asarray(value)
    if value.size == 1:
        return value
    if order is None or value.ndim > rank:
        return None
    return np.transpose(value.reshape((1,) * (rank - value.ndim) + value.shape), order)


def move_layout_op(layout: Node) -> bool:
    """Apply the layout op ``layout`` to the integers of the dequantization it reads; True when it did."""
    if layout.soft_get('op') not in LAYOUT_OPS or not layout.is_in_port_connected(0):
        return False
    chain = _dequantization(layout.in_port(0).get_source().node)
    if chain is None or not _read_only_by(chain[-1], layout):
        return False
    integers = np.asarray(chain[0].value)
    shape = layout.out_port(0).data.get_shape()
    if shape is None or any(int(d) < 0 for d in shape):
        return False
    order = None
    if layout.soft_get('op') == 'Transpose':
        order = _constant(layout, 1)
        if order is None:
            return False
        moved = np.transpose(integers, [int(i) for i in np.ravel(order)])
    else:
        moved = integers.reshape([int(d) for d in shape])
    parameters = [(node, _moved_parameter(_constant(node, 1), layout, integers.ndim, order)) for node in chain[2:]]
    if any(value is None for _, value in parameters):
        return False
    for node, value in parameters:
        parameter = node.in_port(1).get_source().node
        if value is not _constant(node, 1) and (parameter.soft_get('op') != 'Const' or
                                                not _read_only_by(parameter, node)):
            return False
    set_const_value(chain[0], moved)
    for node, value in parameters:
        if value.shape != np.shape(_constant(node, 1)) or not np.array_equal(value, _constant(node, 1)):
            set_const_value(node.in_port(1).get_source().node, value)
    for node in chain[1:]:
        infer_node(node)
    names = layout.out_port(0).get_tensor_names()
    layout.out_port(0).get_connection().set_source(chain[-1].out_port(0))
    if names:
        chain[-1].out_port(0).add_tensor_names(names)
    layout.in_port(0).disconnect()
    return True


class DequantizedWeightsLayout(MiddleReplacementPattern):
    """Transpose/Reshape/Unsqueeze/Squeeze(dequantize(integer Const)) -> dequantize(layout op(Const), folded)."""
    enabled = True
    # a dequantization starts with a Convert (mo's Cast) of the integers: without one there is nothing to move
    graph_condition = [lambda graph: bool(graph.count_by_attr('op', 'Cast'))]

    def run_after(self):
        return [ConstantFolding, MiddleStart]

    def find_and_replace_pattern(self, graph: Graph):
        moved = True
        while moved:  # a grouped convolution's weights: a Transpose, then an Unsqueeze
            moved = False
            for layout in graph.get_op_nodes():
                if layout.soft_get('op') in LAYOUT_OPS and move_layout_op(layout):
                    moved = True
                    self.match_count += 1
