"""Transpose sinking: cancel the Transposes the layout replacer put around channels-first ops.

Repeated until nothing changes:

* two Transposes in a row become one with the composed order, or none when it is the identity;
* a Transpose moves below an element-wise unary op;
* a Transpose moves below a binary element-wise op whose other input is constant (the constant
  is permuted into the pre-transpose layout, numpy broadcasting ranks included) or comes from a
  Transpose with the same order;
* a Transpose moves below a Concat all of whose inputs are such Transposes (or constants), with
  the Concat axis remapped.

Moves only happen when the Transpose has a single consumer, so no Transpose is ever duplicated.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import Const
from mo.ops.transpose import Transpose, inverse_permutation

UNARY_OPS = {'Sigmoid', 'Tanh', 'Exp', 'Log', 'Sqrt', 'Abs', 'Negative', 'ReLU', 'Erf', 'Floor', 'Ceiling',
             'SoftPlus', 'Mish', 'Swish', 'HSwish', 'Elu', 'Clamp', 'Selu', 'Gelu', 'Sign', 'Cast'}
BINARY_OPS = {'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Maximum', 'Minimum', 'SquaredDifference', 'Less', 'Greater',
              'Equal', 'LogicalAnd'}


def _order(node: Node):
    order = node.in_port(1).data.get_value() if node.is_in_port_connected(1) else None
    shape = node.in_port(0).data.get_shape()
    if order is None or shape is None or np.size(order) != len(shape):
        return None
    order = np.asarray(order, dtype=np.int64).ravel()
    return np.where(order < 0, order + len(shape), order)


def _single_consumer(node: Node):
    destinations = node.out_port(0).get_destinations()
    return destinations[0] if len(destinations) == 1 else None


def _remove_if_dead(node: Node):
    """Drop ``node`` and its output data nodes when nothing reads them (keeps counts honest)."""
    graph = node.graph
    if node.id not in graph or any(p.get_destinations() for p in node.out_ports().values()):
        return
    for _, data_id in list(graph.out_edges(node.id)):
        graph.remove_node(data_id)
    graph.remove_node(node.id)


def _set_order(graph: Graph, transpose: Node, order):
    const = Const(graph, {'name': transpose.soft_get('name', transpose.id) + '/order',
                          'value': int64_array(order)}).create_node()
    const.out_port(0).connect(transpose.in_port(1))


def _const_in_layout(value, order, rank):
    """The constant ``c`` with ``op(transpose(x, order), value) == transpose(op(x, c), order)``."""
    value = np.asarray(value)
    if value.ndim > rank:
        return None
    expanded = value.reshape((1,) * (rank - value.ndim) + value.shape)
    moved = np.transpose(expanded, inverse_permutation(order))
    # leading 1s carry no information under numpy broadcasting (the other input has full rank)
    dims = list(moved.shape)
    while len(dims) > 1 and dims[0] == 1:
        dims.pop(0)
    return moved.reshape(dims)


class TransposeSinking(MiddleReplacementPattern):
    id = 'TransposeSinking'

    def find_and_replace_pattern(self, graph: Graph):
        changed = True
        while changed:
            changed = False
            for transpose in graph.get_op_nodes(op='Transpose'):
                if transpose.id not in graph:
                    continue
                if self._sink_one(graph, transpose):
                    changed = True
                    self.match_count += 1

    def _sink_one(self, graph: Graph, transpose: Node) -> bool:
        order = _order(transpose)
        if order is None:
            return False
        if self._merge_with_previous(graph, transpose, order):
            return True
        consumer = _single_consumer(transpose)
        if consumer is None:
            return False
        node = consumer.node
        op = node.soft_get('op')
        if op in UNARY_OPS and consumer.idx == 0 and all(
                p.idx == 0 or p.data.get_value() is not None for p in node.in_ports().values() if p.is_connected()):
            return self._move_below(graph, transpose, node, order, {})
        if op in BINARY_OPS and len(node.out_ports()) == 1:
            return self._through_binary(graph, transpose, node, consumer.idx, order)
        if op == 'Concat':
            return self._through_concat(graph, transpose, node, order)
        return False

    @staticmethod
    def _merge_with_previous(graph, transpose, order) -> bool:
        source = transpose.in_port(0).get_source()
        previous = source.node if source is not None else None
        if previous is None or previous.soft_get('op') != 'Transpose':
            return False
        first = _order(previous)
        if first is None:
            return False
        composed = first[order]
        origin = previous.in_port(0).get_source()
        if np.array_equal(composed, np.arange(len(composed))):
            names = transpose.out_port(0).get_tensor_names()
            transpose.out_port(0).get_connection().set_source(origin)
            if names:
                origin.add_tensor_names(names)
            _remove_if_dead(transpose)
        else:
            transpose.in_port(0).disconnect()
            origin.connect(transpose.in_port(0))
            _set_order(graph, transpose, composed)
            infer_node(transpose)
        _remove_if_dead(previous)
        return True

    @staticmethod
    def _move_below(graph, transpose, node, order, new_inputs) -> bool:
        """Feed ``node`` from ``transpose``'s input (and ``new_inputs``: port -> output port),
        and put a Transpose with the same order after it."""
        origin = transpose.in_port(0).get_source()
        for port in [p for p in node.in_ports().values() if p.get_source() == transpose.out_port(0)]:
            port.disconnect()
            origin.connect(port)
        for idx, source in new_inputs.items():
            node.in_port(idx).disconnect()
            source.connect(node.in_port(idx))
        moved = Transpose(graph, {'name': node.soft_get('name', node.id) + '/transpose'}).create_node()
        node.out_port(0).get_connection().insert_node(moved)
        _set_order(graph, moved, order)
        names = node.out_port(0).get_tensor_names()
        if names:
            moved.out_port(0).add_tensor_names(names)
        _remove_if_dead(transpose)
        infer_node(node)
        infer_node(moved)
        return True

    def _through_binary(self, graph, transpose, node, idx, order) -> bool:
        other = node.in_port(1 - idx)
        rank = len(order)
        value = other.data.get_value()
        if value is not None:
            if node.in_port(idx).data.get_shape() is None or len(node.in_port(idx).data.get_shape()) != rank:
                return False
            new_value = _const_in_layout(value, order, rank)
            if new_value is None:
                return False
            const = Const(graph, {'name': node.soft_get('name', node.id) + '/const_in_layout',
                                  'value': new_value.astype(value.dtype)}).create_node()
            return self._move_below(graph, transpose, node, order, {1 - idx: const.out_port(0)})
        source = other.get_source()
        twin = source.node if source is not None else None
        if twin is None or twin.soft_get('op') != 'Transpose' or twin.id == transpose.id:
            return False
        twin_order = _order(twin)
        if twin_order is None or not np.array_equal(twin_order, order):
            return False
        twin_origin = twin.in_port(0).get_source()
        self._move_below(graph, transpose, node, order, {1 - idx: twin_origin})
        _remove_if_dead(twin)
        return True

    def _through_concat(self, graph, transpose, node, order) -> bool:
        rank = len(order)
        inputs = {}
        for idx, port in node.in_ports().items():
            if not port.is_connected():
                continue
            source = port.get_source()
            value = port.data.get_value()
            if source.node.soft_get('op') == 'Transpose':
                twin_order = _order(source.node)
                if twin_order is None or not np.array_equal(twin_order, order) or \
                        len(source.get_destinations()) != 1:
                    return False
                inputs[idx] = ('transpose', source.node)
            elif value is not None and value.ndim == rank:
                inputs[idx] = ('const', value)
            else:
                return False
        axis = int(node.axis)
        axis = axis + rank if axis < 0 else axis
        node['axis'] = int(order[axis])
        new_inputs = {}
        for idx, (kind, item) in inputs.items():
            if kind == 'transpose':
                new_inputs[idx] = item.in_port(0).get_source()
            else:
                const = Const(graph, {'name': '{}/const_in_layout_{}'.format(node.soft_get('name', node.id), idx),
                                      'value': np.transpose(item, inverse_permutation(order))}).create_node()
                new_inputs[idx] = const.out_port(0)
        twins = [item for kind, item in inputs.values() if kind == 'transpose']
        self._move_below(graph, transpose, node, order, new_inputs)
        for twin in twins:
            _remove_if_dead(twin)
        return True
