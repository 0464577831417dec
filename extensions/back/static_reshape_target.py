"""A Reshape whose target is computed at run time (ShapeOf, Slice, ReduceProd, Concat: ONNX Flatten, exporters'
``x.view(x.size(0), -1)`` and ``x.view(x.size(0), x.size(1), heads, 64)``) but whose entries are all known but one,
or known but the input's own dimensions at their index, gets a constant target: the computation is a
sub-graph the plugin compiles and runs, and the constant says the same."""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import BackOpRule
from mo.ops.reshape import Reshape


def _const(port):
    value = port.data.get_value()
    return None if value is None else np.ravel(np.asarray(value)).astype(np.int64)


def partial_value(source, depth: int = 8):
    """The 1-D int64 value of the output port ``source`` as a masked array, an entry masked where only the run time
    knows it (a dynamic dimension read by ShapeOf); None when it cannot tell. Follows ShapeOf, Slice of constant
    bounds and forward steps, Gather of constant indices, ReduceProd, Concat, Unsqueeze/Squeeze/Reshape of a
    single value, and Consts."""
    value = source.data.get_value()
    if value is not None:
        return np.ma.masked_array(np.ravel(np.asarray(value)).astype(np.int64))
    node = source.node
    op = node.soft_get('op')
    if depth == 0:
        return None
    if op == 'ShapeOf':
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return None
        dims = np.ma.getdata(shape).astype(np.int64)
        return np.ma.masked_array(dims, np.ma.getmaskarray(shape) | (dims < 0))  # -1: dynamic in either form
    inputs = [node.in_port(i).get_source() if node.is_in_port_connected(i) else None
              for i in range(len(node.in_ports()))]
    if op == 'Slice' and inputs[0] is not None and all(p is not None for p in inputs[1:4]):
        data = partial_value(inputs[0], depth - 1)
        bounds = [_const(node.in_port(i)) for i in (1, 2, 3)]
        axes = _const(node.in_port(4)) if len(inputs) > 4 and inputs[4] is not None else np.array([0])
        if data is None or any(b is None or b.size != 1 for b in bounds) or axes is None or \
                axes.tolist() not in ([0], [-1]):
            return None
        start, stop, step = (int(b[0]) for b in bounds)
        # forward steps only: Python's slice clamps its bounds as Slice-8 does for them
        return data[start:stop:step] if step > 0 else None
    if op == 'Gather' and inputs[0] is not None and all(p is not None for p in inputs[1:3]):
        data, indices, axis = partial_value(inputs[0], depth - 1), _const(node.in_port(1)), _const(node.in_port(2))
        if data is None or indices is None or axis is None or axis.tolist() not in ([0], [-1]) or \
                node.soft_get('batch_dims', 0) != 0 or np.any(indices >= data.size) or np.any(indices < -data.size):
            return None
        return data[indices]
    if op == 'ReduceProd' and inputs[0] is not None:
        data = partial_value(inputs[0], depth - 1)
        if data is None:
            return None
        return np.ma.masked_array([int(np.prod(np.ma.getdata(data)))], [bool(np.ma.getmaskarray(data).any())])
    if op == 'Concat' and node.soft_get('axis', None) in (0, -1):
        parts = [partial_value(p, depth - 1) if p is not None else None for p in inputs]
        if any(p is None for p in parts):
            return None
        return np.ma.concatenate(parts)
    if op in ('Unsqueeze', 'Squeeze', 'Reshape') and inputs[0] is not None:
        shape = source.data.get_shape()
        data = partial_value(inputs[0], depth - 1)
        if data is None or shape is None or len(shape) > 1 or data.size != 1:
            return None
        return data
    return None


def dimension_origins(source, depth: int = 8):
    """Per entry of the 1-D value of the output port ``source``: ``(node id, port, k)`` when the entry is dimension k
    of that output port's tensor as ShapeOf read it, else None; None when it cannot tell. Follows the steps
    ``partial_value`` follows (and only where it gives a value: it checks their attributes)."""
    if source.data.get_value() is not None:
        return [None] * int(np.asarray(source.data.get_value()).size)
    node = source.node
    op = node.soft_get('op')
    if depth == 0:
        return None
    inputs = [node.in_port(i).get_source() if node.is_in_port_connected(i) else None
              for i in range(len(node.in_ports()))]
    if op == 'ShapeOf' and inputs[0] is not None:
        shape = inputs[0].data.get_shape()
        return None if shape is None else [(inputs[0].node.id, inputs[0].idx, k) for k in range(len(shape))]
    if op == 'Slice' and inputs[0] is not None:
        data = dimension_origins(inputs[0], depth - 1)
        start, stop, step = (_const(node.in_port(i)) for i in (1, 2, 3))
        if data is None or any(b is None or b.size != 1 for b in (start, stop, step)) or int(step[0]) <= 0:
            return None
        return data[int(start[0]):int(stop[0]):int(step[0])]
    if op == 'Gather' and inputs[0] is not None:
        data, indices = dimension_origins(inputs[0], depth - 1), _const(node.in_port(1))
        if data is None or indices is None or np.any(indices >= len(data)) or np.any(indices < -len(data)):
            return None
        return [data[int(i)] for i in indices]
    if op == 'Concat':
        parts = [dimension_origins(p, depth - 1) if p is not None else None for p in inputs]
        return None if any(p is None for p in parts) else [o for part in parts for o in part]
    if op in ('Unsqueeze', 'Squeeze', 'Reshape') and inputs[0] is not None:
        data = dimension_origins(inputs[0], depth - 1)
        return data if data is not None and len(data) == 1 else None
    return None


#: ops whose output has their first input's shape
SHAPE_KEEPING_OPS = frozenset({'Relu', 'Gelu', 'Tanh', 'Sigmoid', 'Swish', 'HSwish', 'Mish', 'Erf', 'Exp', 'Sqrt',
                               'Softmax', 'LogSoftmax', 'Convert', 'Negative', 'Abs', 'Clamp', 'Elu', 'MVN'})
#: elementwise ops of two inputs (numpy broadcast)
ELEMENTWISE_OPS = frozenset({'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Maximum', 'Minimum'})


def _rank(port):
    shape = port.data.get_shape()
    return None if shape is None else len(shape)


def _same_dimension_upstream(node: Node, k: int):
    """The input port whose dimension k ``node``'s output dimension k is by construction, or None: a split's input
    off the split axis; a shape-keeping op's input; an elementwise op's non-constant input where the constant's
    broadcast leaves dimension k alone; a MatMul's first input for the dimensions before its last when the weights
    are a constant matrix."""
    op = node.soft_get('op')
    if not node.is_in_port_connected(0):
        return None
    rank = _rank(node.out_port(0)) if node.is_out_port_connected(0) else None
    if rank is None or not 0 <= k < rank:
        return None
    if op in ('Split', 'VariadicSplit'):
        axis = _const(node.in_port(1))
        return node.in_port(0) if axis is not None and axis.size == 1 and k != int(axis[0]) % rank and \
            _rank(node.in_port(0)) == rank else None
    if op in SHAPE_KEEPING_OPS:
        return node.in_port(0) if _rank(node.in_port(0)) == rank else None
    if op in ELEMENTWISE_OPS and node.is_in_port_connected(1) and node.soft_get('auto_broadcast', 'numpy') == 'numpy':
        for data, other in ((0, 1), (1, 0)):
            value = node.in_port(other).data.get_value()
            data_rank = _rank(node.in_port(data))
            if value is None or data_rank != rank or np.ndim(value) > data_rank:
                continue
            aligned = k - (data_rank - np.ndim(value))
            if aligned < 0 or np.shape(value)[aligned] == 1:
                return node.in_port(data)
        return None
    if op == 'MatMul' and node.is_in_port_connected(1) and not node.soft_get('transpose_a', False) and rank >= 2 and \
            k < rank - 1:
        weights = node.in_port(1).data.get_value()
        return node.in_port(0) if weights is not None and np.ndim(weights) == 2 and \
            _rank(node.in_port(0)) == rank else None
    return None


def _dimension_source(graph, origin):
    """``origin`` (node id, port, k) followed up through ops whose output dimension k is their input's dimension k
    (``_same_dimension_upstream``): two tensors whose dimension k leads to the same origin have it equal."""
    node_id, port, k = origin
    for _ in range(16):
        upstream = _same_dimension_upstream(Node(graph, node_id), k)
        if upstream is None:
            break
        source = upstream.get_source()
        node_id, port = source.node.id, source.idx
    return node_id, port, k


def entries_are_dimensions(values, data, dims) -> np.ndarray:
    """Per entry i of the 1-D value of the output port ``values`` (a shape computation): whether it is, at run time,
    dimension ``dims[i]`` of the tensor of the output port ``data`` (``dims[i]`` None: not asked, False). An entry is
    when ShapeOf read it from that dimension or from one equal to it by construction (``_dimension_source``), or
    when it is a known number and that dimension is static and the same number. All False when the value's length
    is not ``len(dims)`` or cannot be told."""
    equal = np.zeros(len(dims), bool)
    known = partial_value(values)
    origins = dimension_origins(values)
    if known is None or known.size != len(dims):
        return equal
    shape = data.data.get_shape()
    rank = None if shape is None else len(shape)
    graph = data.node.graph
    for i, k in enumerate(dims):
        if k is None or rank is None or not 0 <= k < rank:
            continue
        static = None if np.ma.is_masked(shape[k]) or int(shape[k]) < 0 else int(shape[k])
        if not np.ma.getmaskarray(known)[i]:
            equal[i] = static is not None and int(np.ma.getdata(known)[i]) == static
        elif origins is not None and len(origins) == len(dims) and origins[i] is not None:
            equal[i] = _dimension_source(graph, origins[i]) == _dimension_source(graph, (data.node.id, data.idx, k))
    return equal


def _copied_dimensions(node: Node, target) -> np.ndarray:
    """Per target entry: whether it is, at run time, the dimension of the same index of the Reshape's own input
    (``x.view(x.size(0), x.size(1), 4, 64)``; also ``k.view(q.size(0), ...)`` for q, k, v split from one tensor on
    another axis, and ``linear(h).view(h.size(0), ...)``), which special_zero's 0 copies."""
    return entries_are_dimensions(node.in_port(1).get_source(), node.in_port(0).get_source(), range(target.size))


def constant_target(node: Node):
    """The target of ``node`` as constants and the special_zero it needs, or None.

    Entries only the run time knows become 0 (special_zero) where each is the input's own dimension at its index,
    provided all other entries are known (a 0 among them already meaning 'copy'): the output dimensions are then the
    same numbers, and a -1 of the target is resolved from the same numbers. Otherwise a single unknown entry becomes
    -1. None when the target is a Const already, more than one entry is unknown or -1, a 0 stands for an input
    dimension (special_zero), or one is 0 beside the unknown or a -1 (then -1 would be 0 / 0, which OpenVINO resolves
    as 0 where the computed target said otherwise)."""
    if not node.is_in_port_connected(1) or node.in_port(1).get_source().node.soft_get('op') == 'Const':
        return None
    target = partial_value(node.in_port(1).get_source())
    if target is None:
        return None
    unknown = np.ma.getmaskarray(target)
    values = np.ma.getdata(target)
    copied = unknown & _copied_dimensions(node, target)
    if copied.any():
        # the other entries as they are: the exporter's own -1 then sees the same dimensions as before
        rest = values[~copied]
        if np.any(unknown[~copied]) or np.any(rest < -1) or np.sum(rest == -1) > 1 or \
                (np.any(rest == 0) and not node.soft_get('special_zero', False)):
            return None
        return np.where(copied, 0, values).astype(np.int64), True
    known = values[~unknown]
    inferred = int(unknown.sum()) + int(np.sum(known == -1))  # entries the element count decides
    if inferred > 1 or np.any(known < -1) or (np.any(known == 0) and (node.soft_get('special_zero', False) or
                                                                      inferred)):
        return None
    return np.where(unknown, -1, values).astype(np.int64), False


class StaticReshapeTarget(BackOpRule):
    """Reshape(x, target computed at run time) = Reshape(x, the target's known entries, 0 (special_zero) for x's own
    dimensions at their index, else -1 for its one unknown): special_zero copies those dimensions from x, and the
    element count fixes the -1 entry to what the computed target said."""
    id = 'StaticReshapeTarget'
    op = 'Reshape'

    def matches(self, node: Node) -> bool:
        return constant_target(node) is not None

    def rewrite(self, node: Node, b: Builder):
        value, special_zero = constant_target(node)
        target = b.const(value, 'target', np.int64)
        return b.op(Reshape, [node.in_port(0), target], 'reshape', special_zero=special_zero)
