"""Fold per-channel multiplications into the weights of the convolution before them.

Matches ``Conv -> [Add(b1) -> ...] -> Mul(s)`` where the convolution's weights and every
constant are per output channel (channels-first: all dimensions but axis 1 are 1 once the constant
is aligned to the output's rank). The result is ``Conv(w * s) -> Add(b1 * s)``; consecutive
constant Adds are then merged, so a Conv -> BatchNorm chain ends as Convolution + Add.
Runs after transpose sinking, when the batch-norm constants sit right behind the channels-first op.
"""
import numpy as np

from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import feed_constant
from mo.utils import mapped_files
from mo.utils.ufunc_halves import UfuncBatch
from extensions.middle.transpose_sinking import TransposeSinking

CONV_OPS = ('Convolution', 'GroupConvolution')


def per_channel(value, rank, channels):
    """``value`` as a 1-D array of ``channels`` entries if it broadcasts along axis 1 only, else None."""
    value = np.asarray(value)
    if value.ndim > rank:
        return None
    dims = (1,) * (rank - value.ndim) + value.shape
    if any(d != 1 for i, d in enumerate(dims) if i != 1) or dims[1] not in (1, channels):
        return None
    return np.broadcast_to(value.reshape(-1), (channels,))


def _const_operand(node: Node):
    """(index of the non-constant input, constant value) of a binary op, or None."""
    values = [node.in_port(i).data.get_value() if node.is_in_port_connected(i) else None for i in (0, 1)]
    if values[0] is None and values[1] is not None:
        return 0, values[1]
    if values[1] is None and values[0] is not None:
        return 1, values[0]
    return None


def _single_consumer(node: Node):
    destinations = node.out_port(0).get_destinations()
    return destinations[0].node if len(destinations) == 1 else None


def _replace_const_input(node, port, value, suffix):
    feed_constant(node, port, value, node.soft_get('name', node.id) + suffix)


def _bypass(node: Node, data_port: int):
    """Feed ``node``'s consumers from its input ``data_port``'s source."""
    source = node.in_port(data_port).get_source()
    names = node.out_port(0).get_tensor_names()
    node.out_port(0).get_connection().set_source(source)
    if names:
        source.add_tensor_names(names)
    # drop it now: a dead reader would make its producer look shared to the next match
    graph = node.graph
    for _, data_id in list(graph.out_edges(node.id)):
        graph.remove_node(data_id)
    graph.remove_node(node.id)


class FuseScaleShiftIntoConv(MiddleReplacementPattern):
    id = 'FuseScaleShiftIntoConv'
    #: the scaled weights are filled in batches of about this many bytes of originals (on two cores each)
    BATCH_BYTES = 32 << 20

    def run_after(self):
        return [TransposeSinking]

    def find_and_replace_pattern(self, graph: Graph):
        # the scaled weights are filled in batches between convolutions (a chain of fusions into one convolution
        # reads its own scaled weights, so stays in one batch): nothing else reads them before that
        scalings, replaced = UfuncBatch(), []
        for op in CONV_OPS:
            for conv in graph.get_op_nodes(op=op):
                while conv.id in graph and self._fuse_next(graph, conv, scalings, replaced):
                    self.match_count += 1
                if sum(weights.nbytes for weights in replaced) >= self.BATCH_BYTES:
                    self._scale(scalings, replaced)
        self._scale(scalings, replaced)
        for op in CONV_OPS:
            for conv in graph.get_op_nodes(op=op):
                self._merge_adds(graph, conv)

    @staticmethod
    def _chain(conv: Node):
        """The constant Adds after ``conv`` and the per-channel Mul that ends them, or None."""
        shape = conv.out_port(0).data.get_shape()
        if shape is None or len(shape) < 3:
            return None
        rank, channels = len(shape), int(shape[1])
        adds, node = [], conv
        while True:
            nxt = _single_consumer(node)
            if nxt is None or nxt.soft_get('op') not in ('Add', 'Mul'):
                return None
            operand = _const_operand(nxt)
            if operand is None or nxt.in_port(operand[0]).get_source().node.id != node.id:
                return None
            values = per_channel(operand[1], rank, channels)
            if values is None:
                return None
            if nxt.op == 'Mul':
                return adds, (nxt, operand[0], values)
            adds.append((nxt, operand[0], values))
            node = nxt

    @staticmethod
    def _scale(scalings: UfuncBatch, replaced: list):
        """Fill the scaled weights queued so far, then hand back the pages of the weights they replace.

        Those were read once, just now: when they view a memory-mapped weights file, releasing them keeps at most
        ``BATCH_BYTES`` of originals resident beside the scaled copies, rather than all of a model's weights twice
        until the IR is written."""
        scalings.run()
        for weights in replaced:
            mapped_files.release(weights)
        replaced.clear()

    def _fuse_next(self, graph: Graph, conv: Node, scalings: UfuncBatch, replaced: list) -> bool:
        weights = conv.in_port(1).data.get_value()
        if weights is None:
            return False
        chain = self._chain(conv)
        if chain is None:
            return False
        adds, (mul, mul_data_port, scale) = chain
        if conv.op == 'GroupConvolution':
            factor = scale.reshape((weights.shape[0], weights.shape[1]) + (1,) * (weights.ndim - 2))
        else:
            factor = scale.reshape((-1,) + (1,) * (weights.ndim - 1))
        # the weights are usually a transposed view of TF's layout: the product keeps their memory
        # order (a fast sequential pass; the IR writer's thread makes the C-order copy while it
        # writes). It is computed in the inputs' common type and stored in the weights' type.
        scaled = np.empty_like(weights, order='K')
        scalings.add(np.multiply, (weights, factor), scaled)
        _replace_const_input(conv, 1, scaled, '/weights_scaled')
        replaced.append(weights)
        for add, data_port, bias in adds:
            old = add.in_port(1 - data_port).data.get_value()
            shape = (-1,) + (1,) * (len(conv.out_port(0).data.get_shape()) - 2)
            _replace_const_input(add, 1 - data_port, (bias * scale).reshape(shape).astype(old.dtype),
                                 '/bias_scaled')
        _bypass(mul, mul_data_port)
        return True

    @staticmethod
    def _merge_adds(graph: Graph, conv: Node):
        """Conv -> Add(b1) -> Add(b2) becomes Conv -> Add(b1 + b2)."""
        shape = conv.out_port(0).data.get_shape()
        if shape is None or len(shape) < 3:
            return
        rank, channels = len(shape), int(shape[1])
        first = _single_consumer(conv)
        while first is not None and first.soft_get('op') == 'Add':
            op1 = _const_operand(first)
            second = _single_consumer(first)
            if op1 is None or second is None or second.soft_get('op') != 'Add':
                return
            op2 = _const_operand(second)
            if op2 is None or second.in_port(op2[0]).get_source().node.id != first.id:
                return
            b1, b2 = per_channel(op1[1], rank, channels), per_channel(op2[1], rank, channels)
            if b1 is None or b2 is None:
                return
            total = (b1 + b2).reshape((-1,) + (1,) * (rank - 2)).astype(op1[1].dtype)
            _replace_const_input(first, 1 - op1[0], total, '/bias_merged')
            _bypass(second, op2[0])
            infer_node(first)
