"""Transpose sinking: cancel the Transposes the layout replacer put around channels-first ops.

The layout replacer wraps every channels-first op in Transposes (channels-last -> first before
it, back after it). One pass over the ops in topological order then carries each Transpose down
the graph as a *pending* permutation of the edges that read its input, instead of moving Transpose
nodes step by step:

* a Transpose's consumers read its input directly, with the Transpose's order composed onto what
  that input was still to be permuted by (nothing, when the orders cancel);
* an op whose inputs all carry the same pending order runs on the un-permuted tensors when it does
  not care about the layout, and hands the order on to its own readers: element-wise unary ops,
  binary element-wise ops (a constant other input is permuted into the pre-transpose layout,
  numpy broadcasting ranks included), a Concat (axis remapped, constant inputs permuted), a Pad
  with constant pads, and reductions or Squeeze with constant axes (axes remapped; what remains of
  the order, if anything, follows the op);
* any other reader gets one Transpose per tensor and order, shared by all such readers.

So a tensor read by a residual Add and by the next convolution, DenseNet's concatenations and
``x * sigmoid(x)`` end with no Transpose at all, and each Transpose left is one that some op
really needs. Afterwards a Transpose that only moves size-1 dimensions becomes a Reshape.
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import feed_constant, set_const_value
from mo.ops.reshape import Reshape
from mo.ops.transpose import Transpose, inverse_permutation

UNARY_OPS = {'Sigmoid', 'Tanh', 'Exp', 'Log', 'Sqrt', 'Abs', 'Negative', 'ReLU', 'Erf', 'Floor', 'Ceiling',
             'SoftPlus', 'Mish', 'Swish', 'HSwish', 'Elu', 'Clamp', 'Selu', 'Gelu', 'Sign', 'Cast'}
BINARY_OPS = {'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Maximum', 'Minimum', 'SquaredDifference', 'Less', 'Greater',
              'Equal', 'LogicalAnd'}
#: ops with constant axes on input 1 that drop those axes (reductions unless keep_dims)
AXES_OPS = {'ReduceMean', 'ReduceSum', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'Squeeze'}


def _order(node: Node):
    tensors = node.in_tensors()  # both inputs' data nodes, read off the edges once
    order = tensors[1].get('value') if 1 in tensors else None
    shape = tensors[0].get('shape') if 0 in tensors else None
    if order is None or shape is None or np.size(order) != len(shape):
        return None
    order = np.asarray(order, dtype=np.int64).ravel()
    return np.where(order < 0, order + len(shape), order)


def _set_order(transpose: Node, order):
    feed_constant(transpose, 1, int64_array(order), transpose.soft_get('name', transpose.id) + '/order')


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
    return new_axes, (None if _is_identity(rest) else rest)


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


def _is_identity(order) -> bool:
    # lists of Python ints: numpy's array_equal costs more than the comparison itself on four elements
    return order is None or np.asarray(order).tolist() == list(range(len(order)))


def _as_key(order) -> tuple:
    """An order as a tuple of Python ints, to key dicts by."""
    return tuple(np.asarray(order).tolist())


def _replace_const_input(node: Node, idx: int, value, suffix: str):
    """Feed input ``idx`` of ``node`` the constant ``value``: the Const there is changed in place
    when ``node`` is its only reader, else a new Const is made."""
    source = node.in_port(idx).get_source()
    if source is not None and source.node.soft_get('op') == 'Const' and len(source.get_destinations()) == 1:
        set_const_value(source.node, value)
    else:
        feed_constant(node, idx, value, node.soft_get('name', node.id) + suffix)


class _Sinking:
    """One pass of transpose sinking over a middle-phase graph (see the module docstring)."""

    def __init__(self, graph: Graph):
        self.graph = graph
        #: (consumer id, input index) -> the order that input must still be permuted by
        self.pending = {}
        #: ids of the consumers in ``pending``
        self.waiting = set()
        #: (producer id, output index, order) -> the Transpose made for the readers that need it
        self.materialized = {}
        #: (producer id, output index, order) -> a dissolved Transpose that can serve as that one
        self.reusable = {}
        #: (producer id, output index, order) -> TF's names of that permuted tensor
        self.names = {}
        self.moves = 0

    def run(self):
        graph = self.graph
        waiting = self.waiting
        # a list of its own: the visits edit the graph (and so its cached order)
        for node_id in list(graph.topological_ids()):
            if node_id not in graph:
                continue
            attrs = graph.node_attrs(node_id)
            # the common case, told without a Node: nothing is pending on it and it is no Transpose
            if attrs.get('kind') == 'op' and (node_id in waiting or attrs.get('op') == 'Transpose'):
                self.visit(Node(graph, node_id))

    def visit(self, node: Node):
        node_id = node.id
        op = node.soft_get('op')
        if node_id not in self.waiting and op != 'Transpose':
            return  # nothing to do here
        pending = self.pending
        # the connected inputs in index order, read off the edges once
        inputs = {idx: pending.pop((node_id, idx), None) for idx in node.in_tensors()}
        if op != 'Transpose' and not any(order is not None for order in inputs.values()):
            return
        if op == 'Transpose' and self._dissolve(node, inputs.get(0)):
            return
        if self._absorb(node, op, inputs):
            return
        for idx, order in inputs.items():
            if order is not None:
                self._materialize(node, idx, order)

    def _set_pending(self, port, order):
        self.pending[(port.node.id, port.idx)] = order
        self.waiting.add(port.node.id)

    # --- a Transpose becomes a pending order of its readers ----------------------------------
    def _dissolve(self, transpose: Node, pending) -> bool:
        order = _order(transpose)
        if order is None or len(transpose.out_ports()) != 1:
            return False
        composed = order if pending is None else pending[order]
        source = transpose.in_port(0).get_source()
        names = transpose.out_port(0).remove_tensor_names()
        readers = transpose.out_port(0).get_destinations()
        key = (source.node.id, source.idx, _as_key(composed))
        # a reader that needs the permuted tensor gets this Transpose back (name and all)
        self.reusable.setdefault(key, (transpose, key[2] == _as_key(order)))
        for port in readers:
            port.disconnect()
            source.connect(port)
            if not _is_identity(composed):
                self._set_pending(port, composed)
        if names:
            if _is_identity(composed):
                source.add_tensor_names(names)
            else:
                self.names.setdefault(key, []).extend(names)
        # the Transpose itself is left unread: clean-up removes it
        if not readers:
            self._keep_unread(transpose, pending)
        self.moves += 1
        return True

    def _keep_unread(self, transpose: Node, pending):
        """A Transpose nothing reads (rare: a dangling output) keeps computing what it did."""
        if pending is not None:
            self._materialize(transpose, 0, pending)

    # --- ops that do not care about the layout run on the un-permuted tensors ------------------
    def _absorb(self, node: Node, op: str, inputs: dict) -> bool:
        orders = {_as_key(o) for o in inputs.values() if o is not None}
        if len(orders) != 1 or len(node.out_ports()) != 1:
            return False
        order = np.array(next(iter(orders)), dtype=np.int64)
        rank = len(order)
        if op in UNARY_OPS:
            # the data on input 0; any other input is a constant parameter (Clamp's bounds, ...)
            if inputs.get(0) is None or any(idx != 0 and (o is not None or node.in_port(idx).data.get_value() is None)
                                            for idx, o in inputs.items()):
                return False
            return self._hand_on(node, order)
        if op in BINARY_OPS:
            return self._absorb_binary(node, inputs, order, rank)
        if op == 'Concat':
            return self._absorb_concat(node, inputs, order, rank)
        if op == 'Pad':
            return self._absorb_pad(node, inputs, order, rank)
        if op in AXES_OPS:
            return self._absorb_axes_op(node, inputs, order)
        return False

    def _hand_on(self, node: Node, out_order) -> bool:
        """``node`` now runs on un-permuted inputs: re-infer it; its readers must still apply
        ``out_order`` (None: nothing, the op's output is already in TensorFlow's layout)."""
        infer_node(node)
        port = node.out_port(0)
        if not _is_identity(out_order):
            names = port.remove_tensor_names()  # TF's names mean the permuted result
            if names:
                key = (node.id, 0, _as_key(out_order))
                self.names.setdefault(key, []).extend(names)
            for reader in port.get_destinations():
                self._set_pending(reader, out_order)
        self.moves += 1
        return True

    def _absorb_binary(self, node, inputs, order, rank) -> bool:
        if set(inputs) != {0, 1}:
            return False
        plain = [idx for idx, o in inputs.items() if o is None]
        if not plain:
            return self._hand_on(node, order)
        other = plain[0]
        value = node.in_port(other).data.get_value()
        shape = node.in_port(1 - other).data.get_shape()
        if value is None or shape is None or len(shape) != rank:
            return False
        new_value = _const_in_layout(value, order, rank)
        if new_value is None:
            return False
        _replace_const_input(node, other, new_value.astype(value.dtype, copy=False), '/const_in_layout')
        return self._hand_on(node, order)

    def _absorb_concat(self, node, inputs, order, rank) -> bool:
        constants = {}
        for idx, o in inputs.items():
            if o is None:
                value = node.in_port(idx).data.get_value()
                if value is None or np.ndim(value) != rank:
                    return False
                constants[idx] = value
        axis = int(node.axis)
        node['axis'] = int(order[axis + rank if axis < 0 else axis])
        for idx, value in constants.items():
            _replace_const_input(node, idx, np.transpose(value, inverse_permutation(order)),
                                 '/const_in_layout_{}'.format(idx))
        return self._hand_on(node, order)

    def _absorb_pad(self, node, inputs, order, rank) -> bool:
        if inputs.get(0) is None or any(inputs.get(i) is not None for i in inputs if i != 0):
            return False
        pads = [node.in_port(i).data.get_value() if i in inputs else None for i in (1, 2)]
        if any(p is None or np.size(p) != rank for p in pads):
            return False
        for i, value in zip((1, 2), pads):
            moved = np.empty_like(np.ravel(value))
            moved[order] = np.ravel(value)
            _replace_const_input(node, i, moved, '/pads_in_layout_{}'.format(i))
        return self._hand_on(node, order)

    def _absorb_axes_op(self, node, inputs, order) -> bool:
        if inputs.get(0) is None or any(inputs.get(i) is not None for i in inputs if i != 0):
            return False
        move = _axes_move(node, order)
        if move is None:
            return False
        new_axes, rest = move
        _replace_const_input(node, 1, int64_array(new_axes), '/axes_in_layout')
        return self._hand_on(node, rest)

    # --- readers that need the permuted tensor get a Transpose -----------------------------
    def _materialize(self, node: Node, idx: int, order):
        source = node.in_port(idx).get_source()
        key = (source.node.id, source.idx, _as_key(order))
        transpose = self.materialized.get(key)
        if transpose is None:
            transpose, same_order = self.reusable.pop(key, (None, False))
            if transpose is None or transpose.id not in self.graph:
                name = '{}/transpose'.format(source.node.soft_get('name', source.node.id))
                transpose, same_order = Transpose(self.graph, {'name': name}).create_node(), False
            if transpose.in_port(0).get_source() != source:
                source.connect(transpose.in_port(0))
            if not same_order:
                _set_order(transpose, order)
            infer_node(transpose)
            names = self.names.pop(key, None)
            if names:
                transpose.out_port(0).add_tensor_names(names)
            self.materialized[key] = transpose
        transpose.out_port(0).connect(node.in_port(idx))


class TransposeSinking(MiddleReplacementPattern):
    id = 'TransposeSinking'

    def find_and_replace_pattern(self, graph: Graph):
        if not graph.count_by_attr('op', 'Transpose'):
            return
        sinking = _Sinking(graph)
        sinking.run()
        self.match_count = sinking.moves
        for transpose in graph.get_op_nodes(op='Transpose'):
            # dissolved Transposes are left unread (clean-up removes them), the rest may be Reshapes
            if transpose.out_port(0).get_destinations() and self._to_reshape(graph, transpose):
                self.match_count += 1

    @staticmethod
    def _to_reshape(graph: Graph, transpose: Node) -> bool:
        order = _order(transpose)
        pattern = _reshape_pattern(transpose, order) if order is not None else None
        if pattern is None:
            return False
        name = transpose.soft_get('name', transpose.id)
        reshape = Reshape(graph, {'name': name + '/as_reshape', 'special_zero': bool(0 in pattern)}).create_node()
        feed_constant(reshape, 1, pattern, name + '/as_reshape/shape')
        transpose.in_port(0).get_source().connect(reshape.in_port(0))
        names = transpose.out_port(0).get_tensor_names()
        transpose.out_port(0).get_connection().set_source(reshape.out_port(0))
        if names:
            reshape.out_port(0).add_tensor_names(names)
        transpose.in_port(0).disconnect()
        infer_node(reshape)
        return True
