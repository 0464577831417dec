"""Transpose sinking: cancel the Transposes the layout replacer put around channels-first ops.

Repeated until nothing changes:

* two Transposes in a row become one with the composed order, or none when it is the identity;
* a Transpose moves below an element-wise unary op;
* a Transpose moves below a binary element-wise op whose other input is constant (the constant
  is permuted into the pre-transpose layout, numpy broadcasting ranks included) or comes from a
  Transpose with the same order;
* a Transpose moves below a Concat all of whose inputs are such Transposes (or constants), with
  the Concat axis remapped;
* a Transpose moves below a Pad (constant pads permuted) and below a reduction or Squeeze with
  constant axes (axes remapped; what remains of the order, if anything, follows the op);
* a Transpose read by several ops is split into one copy per consumer when a look-ahead shows
  the copies cancel or merge (at most one of them would stay): residual Adds, DenseNet's
  concatenations, ``x * sigmoid(x)``;
* when nothing moves any more, a Transpose that only moves size-1 dimensions becomes a Reshape.

A Transpose with a single consumer always moves when it can; it is never duplicated otherwise.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import Const
from mo.ops.reshape import Reshape
from mo.ops.transpose import Transpose, inverse_permutation

UNARY_OPS = {'Sigmoid', 'Tanh', 'Exp', 'Log', 'Sqrt', 'Abs', 'Negative', 'ReLU', 'Erf', 'Floor', 'Ceiling',
             'SoftPlus', 'Mish', 'Swish', 'HSwish', 'Elu', 'Clamp', 'Selu', 'Gelu', 'Sign', 'Cast'}
BINARY_OPS = {'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Maximum', 'Minimum', 'SquaredDifference', 'Less', 'Greater',
              'Equal', 'LogicalAnd'}
#: ops with constant axes on input 1 that drop those axes (reductions unless keep_dims)
AXES_OPS = {'ReduceMean', 'ReduceSum', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'Squeeze'}
#: how far the fan-out look-ahead follows a tensor
LOOKAHEAD_DEPTH = 8
#: ops the fan-out look-ahead follows a Transpose through
PASS_THROUGH_OPS = UNARY_OPS | BINARY_OPS | AXES_OPS | {'Pad'}


def _order(node: Node):
    order = node.in_port(1).data.get_value() if node.is_in_port_connected(1) else None
    shape = node.in_port(0).data.get_shape()
    if order is None or shape is None or np.size(order) != len(shape):
        return None
    order = np.asarray(order, dtype=np.int64).ravel()
    return np.where(order < 0, order + len(shape), order)


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


def _set_const_value(const: Node, value):
    """Give Const ``const`` (and the tensor it writes) a new value; TF's names for the old one go."""
    const.out_port(0).remove_tensor_names()
    const['value'] = value
    const['shape'] = int64_array(value.shape)
    const['data_type'] = value.dtype
    const.out_port(0).data.set_value(value)


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


def _const_value(port):
    return port.data.get_value() if port.is_connected() else None


def _axes_move(node: Node, order):
    """(new axes, order left after the op or None) for a Transpose moved below AXES_OPS ``node``."""
    rank = len(order)
    axes = _const_value(node.in_port(1)) if node.is_in_port_connected(1) else None
    if axes is None:
        return None
    axes = sorted({int(a) + rank if int(a) < 0 else int(a) for a in np.ravel(axes)})
    if any(a < 0 or a >= rank for a in axes):
        return None
    new_axes = sorted(int(order[a]) for a in axes)
    if node.soft_get('op') != 'Squeeze' and node.soft_get('keep_dims', False):
        return new_axes, order
    kept = [int(order[i]) for i in range(rank) if i not in axes]
    ranked = sorted(kept)
    rest = int64_array([ranked.index(d) for d in kept])
    return new_axes, (None if np.array_equal(rest, np.arange(len(rest))) else rest)


def _reshape_pattern(transpose: Node, order):
    """The Reshape pattern that does what ``transpose`` does, if it only moves size-1 dimensions."""
    shape = transpose.in_port(0).data.get_shape()
    if shape is None or len(shape) != len(order):
        return None
    if any(int(d) < 0 for d in shape[1:]) or (int(shape[0]) < 0 and int(order[0]) != 0):
        return None
    moved = [int(d) for d in order if int(shape[d]) != 1]
    if moved != sorted(moved):
        return None
    pattern = [int(shape[d]) for d in order]
    if int(shape[0]) < 0:
        pattern[0] = 0  # special_zero: copy the dynamic batch
    return int64_array(pattern)


def _op_neighbours(graph: Graph, node_id, direction):
    """Op nodes one tensor away from op ``node_id``: its producers ('in') or consumers ('out')."""
    adjacency = graph._pred if direction == 'in' else graph._succ
    result = set()
    for neighbour in adjacency[node_id]:
        if graph.nodes[neighbour].get('kind') == 'data':
            result.update(adjacency[neighbour])
        else:
            result.add(neighbour)
    return result


def _transposes_seeing(graph: Graph, edited) -> set:
    """Ids of the Transposes whose attempt to move may read one of the ``edited`` nodes.

    A Transpose's attempt reads its producer (a Transpose to merge with?), and the ops
    downstream of it that the move or the fan-out look-ahead passes through (element-wise, Pad,
    axes ops, up to LOOKAHEAD_DEPTH deep, plus the one where that stops) together with their
    other inputs' producers. So from every edited op and its consumers we walk upstream through
    such pass-through ops, collecting the Transposes met.
    """
    ops = set()
    for node_id in edited:
        if node_id not in graph:
            continue
        if graph.nodes[node_id].get('kind') == 'data':
            ops.update(graph._pred[node_id])  # the tensor's producer and consumers
            ops.update(graph._succ[node_id])
        else:
            ops.add(node_id)
    frontier = set(ops)
    for node_id in ops:
        frontier.update(_op_neighbours(graph, node_id, 'out'))
    seen = set(frontier)
    found = {n for n in frontier if graph.nodes[n].get('op') == 'Transpose'}
    for _ in range(LOOKAHEAD_DEPTH + 2):
        producers = set()
        for node_id in frontier:
            producers.update(_op_neighbours(graph, node_id, 'in'))
        frontier = set()
        for node_id in producers - seen:
            seen.add(node_id)
            op = graph.nodes[node_id].get('op')
            if op == 'Transpose':
                found.add(node_id)
            elif op in PASS_THROUGH_OPS:
                frontier.add(node_id)
        if not frontier:
            break
    return found


class TransposeSinking(MiddleReplacementPattern):
    id = 'TransposeSinking'

    def find_and_replace_pattern(self, graph: Graph):
        changed = True
        budget = 20 * graph.number_of_nodes() + 100  # every move goes downstream; this only guards bugs
        # Transposes that could not move and whose surroundings have not changed since: trying
        # them again would fail again, so a pass skips them.
        stuck = set()
        while changed and budget > 0:
            changed = False
            for transpose in graph.get_op_nodes(op='Transpose'):
                if transpose.id not in graph or transpose.id in stuck:
                    continue
                # a Transpose that moved is pushed on at once, as far as it goes (it is the same
                # node after a move); the others' skip marks are reviewed once for the whole way
                moves = 0
                with graph.track_edits() as edited:
                    while budget > 0 and transpose.id in graph and self._sink_one(graph, transpose):
                        moves += 1
                        budget -= 1
                if moves:
                    changed = True
                    self.match_count += moves
                    stuck -= _transposes_seeing(graph, edited)
                else:
                    stuck.add(transpose.id)
        for transpose in graph.get_op_nodes(op='Transpose'):
            if transpose.id in graph and self._to_reshape(graph, transpose):
                self.match_count += 1

    @staticmethod
    def _to_reshape(graph: Graph, transpose: Node) -> bool:
        order = _order(transpose)
        pattern = _reshape_pattern(transpose, order) if order is not None else None
        if pattern is None:
            return False
        name = transpose.soft_get('name', transpose.id)
        reshape = Reshape(graph, {'name': name + '/as_reshape', 'special_zero': bool(0 in pattern)}).create_node()
        const = Const(graph, {'name': name + '/as_reshape/shape', 'value': pattern}).create_node()
        const.out_port(0).connect(reshape.in_port(1))
        transpose.in_port(0).get_source().connect(reshape.in_port(0))
        names = transpose.out_port(0).get_tensor_names()
        transpose.out_port(0).get_connection().set_source(reshape.out_port(0))
        if names:
            reshape.out_port(0).add_tensor_names(names)
        transpose.in_port(0).disconnect()
        _remove_if_dead(transpose)
        infer_node(reshape)
        return True

    def _sink_one(self, graph: Graph, transpose: Node) -> bool:
        order = _order(transpose)
        if order is None:
            return False
        if self._merge_with_previous(graph, transpose, order):
            return True
        destinations = transpose.out_port(0).get_destinations()
        consumers = []
        for port in destinations:
            if port.node.id not in [n.id for n in consumers]:
                consumers.append(port.node)
        if len(consumers) > 1:
            return self._fan_out(graph, transpose, order, destinations, consumers)
        if not consumers:
            return False
        consumer = destinations[0]
        node = consumer.node
        op = node.soft_get('op')
        if op in UNARY_OPS and consumer.idx == 0 and all(
                p.idx == 0 or p.data.get_value() is not None for p in node.in_ports().values() if p.is_connected()):
            return self._move_below(graph, transpose, node, order, {})
        if op in BINARY_OPS and len(node.out_ports()) == 1:
            return self._through_binary(graph, transpose, node, consumer.idx, order)
        if op == 'Concat':
            return self._through_concat(graph, transpose, node, order)
        if op == 'Pad' and consumer.idx == 0:
            return self._through_pad(graph, transpose, node, order)
        if op in AXES_OPS and consumer.idx == 0:
            return self._through_axes_op(graph, transpose, node, order)
        return False

    # --- fan-out ---------------------------------------------------------------------------
    def _fan_out(self, graph, transpose, order, destinations, consumers) -> bool:
        """One copy of ``transpose`` per consumer, when at most one copy would be left over."""
        leftover = 0
        for port in destinations:
            leftover += self._fate(port.node, port.idx, order, transpose, 0)
            if leftover > 1:
                return False
        origin = transpose.in_port(0).get_source()
        reader = transpose.out_port(0)
        for node in consumers[1:]:
            copy = Transpose(graph, {'name': '{}/for_{}'.format(transpose.soft_get('name', transpose.id),
                                                               node.soft_get('name', node.id))}).create_node()
            origin.connect(copy.in_port(0))
            _set_order(graph, copy, order)
            for port in [p for p in node.in_ports().values() if p.get_source() == reader]:
                port.disconnect()
                copy.out_port(0).connect(port)
            infer_node(copy)
        return True

    def _fate(self, node, idx, order, transpose, depth) -> int:
        """1 if a Transpose with ``order`` fed to input ``idx`` of ``node`` would stay, 0 if it cancels
        or merges with another Transpose (looking at most LOOKAHEAD_DEPTH ops ahead)."""
        if depth > LOOKAHEAD_DEPTH:
            return 1
        op = node.soft_get('op')
        rank = len(order)
        if op == 'Transpose':
            return 0
        if op in UNARY_OPS and idx == 0 and all(
                p.idx == 0 or p.data.get_value() is not None for p in node.in_ports().values() if p.is_connected()):
            return self._fate_of_output(node, order, depth)
        if op in BINARY_OPS and len(node.out_ports()) == 1 and idx in (0, 1):
            other = node.in_port(1 - idx)
            if other.data.get_value() is not None:
                return self._fate_of_output(node, order, depth)
            return 0 if self._same_transpose(other, order, transpose) else 1
        if op == 'Concat':
            for port in node.in_ports().values():
                if port.idx == idx or not port.is_connected():
                    continue
                value = port.data.get_value()
                if not (self._same_transpose(port, order, transpose) or (value is not None and value.ndim == rank)):
                    return 1
            return 0
        if op == 'Pad' and idx == 0:
            if all(node.is_in_port_connected(i) and _const_value(node.in_port(i)) is not None for i in (1, 2)):
                return self._fate_of_output(node, order, depth)
            return 1
        if op in AXES_OPS and idx == 0:
            move = _axes_move(node, order)
            if move is None:
                return 1
            return 0 if move[1] is None else self._fate_of_output(node, move[1], depth)
        return 1

    def _fate_of_output(self, node, order, depth) -> int:
        total = sum(self._fate(p.node, p.idx, order, None, depth + 1) for p in node.out_port(0).get_destinations())
        return min(1, total)

    @staticmethod
    def _same_transpose(port, order, transpose) -> bool:
        source = port.get_source()
        if source is None or source.node.soft_get('op') != 'Transpose':
            return False
        if transpose is not None and source.node.id == transpose.id:
            return True
        twin_order = _order(source.node)
        return twin_order is not None and np.array_equal(twin_order, order)

    # --- ops that take axes or per-axis constants ------------------------------------------
    def _through_pad(self, graph, transpose, node, order) -> bool:
        begin, end = (_const_value(node.in_port(i)) if node.is_in_port_connected(i) else None for i in (1, 2))
        rank = len(order)
        if begin is None or end is None or np.size(begin) != rank or np.size(end) != rank:
            return False
        new_inputs = {}
        for i, value in ((1, begin), (2, end)):
            moved = np.empty_like(np.ravel(value))
            moved[order] = np.ravel(value)
            const = Const(graph, {'name': '{}/pads_in_layout_{}'.format(node.soft_get('name', node.id), i),
                                  'value': moved}).create_node()
            new_inputs[i] = const.out_port(0)
        return self._move_below(graph, transpose, node, order, new_inputs)

    @staticmethod
    def _through_axes_op(graph, transpose, node, order) -> bool:
        move = _axes_move(node, order)
        if move is None:
            return False
        new_axes, rest = move
        name = node.soft_get('name', node.id)
        origin = transpose.in_port(0).get_source()
        node.in_port(0).disconnect()
        origin.connect(node.in_port(0))
        node.in_port(1).disconnect()
        axes = Const(graph, {'name': name + '/axes_in_layout', 'value': int64_array(new_axes)}).create_node()
        axes.out_port(0).connect(node.in_port(1))
        _remove_if_dead(transpose)
        infer_node(node)
        if rest is not None:
            moved = Transpose(graph, {'name': name + '/transpose'}).create_node()
            names = node.out_port(0).remove_tensor_names()
            node.out_port(0).get_connection().insert_node(moved)
            _set_order(graph, moved, rest)
            if names:
                moved.out_port(0).add_tensor_names(names)
            infer_node(moved)
        return True

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
        and move ``transpose``, order and all, to ``node``'s output."""
        origin = transpose.in_port(0).get_source()
        reader = transpose.out_port(0)
        for port in [p for p in node.in_ports().values() if p.get_source() == reader]:
            port.disconnect()
            origin.connect(port)
        for idx, source in new_inputs.items():
            node.in_port(idx).disconnect()
            source.connect(node.in_port(idx))
        # moved rather than rebuilt: a new Transpose and order Const per step cost more than the rest;
        # what described the tensor it wrote where it was (names, type, shape) goes with the old place
        transpose.in_port(0).disconnect()
        reader.remove_tensor_names()
        written = reader.data
        transpose['name'] = node.soft_get('name', node.id) + '/transpose'
        names = node.out_port(0).remove_tensor_names()  # TF's names now mean the transposed result
        node.out_port(0).get_connection().insert_node(transpose)
        if names:
            reader.add_tensor_names(names)
        infer_node(node)
        written._store()['data_type'] = None  # set anew from the op's output by inference
        infer_node(transpose)
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
            new_value = new_value.astype(value.dtype, copy=False)
            source = other.get_source()
            if source is not None and source.node.soft_get('op') == 'Const' and len(source.get_destinations()) == 1:
                _set_const_value(source.node, new_value)  # read by this op only: permuted where it is
                return self._move_below(graph, transpose, node, order, {})
            const = Const(graph, {'name': node.soft_get('name', node.id) + '/const_in_layout',
                                  'value': new_value}).create_node()
            return self._move_below(graph, transpose, node, order, {1 - idx: const.out_port(0)})
        source = other.get_source()
        twin = source.node if source is not None else None
        if twin is not None and twin.id == transpose.id:
            return self._move_below(graph, transpose, node, order, {})
        if twin is None or twin.soft_get('op') != 'Transpose':
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
