"""The constant-folding engine for TensorFlow graphs: which nodes always compute the same value, and that value.

Both folders of TensorFlow graphs use it: the load phase of ``mo convert``
(``extensions/load/tf/constant_folding.py``) and ``mo transform``'s ``fold_constants``
(``extensions/transforms/fold_constants.py``). They differ in which nodes they may fold and in what they do with
the values (a Const in place of the node, the control edges TensorFlow's tool keeps, ...); what is constant, how
a value is computed (the numpy kernels of ``mo.front.tf.kernels``, which reproduce TensorFlow's CPU kernels) and
how big a constant may get (one limit: ``--max_constant_size``, ``DEFAULT_MAX_CONSTANT_BYTES``) is decided here.
The middle phase's folding (``mo.middle.passes.constant_folding``) only turns the values shape inference already
computed into Consts, under the same limit.
"""
from collections import deque
from typing import Callable, Dict, List, Optional, Set, Tuple

import numpy as np

from mo.front.tf import dtypes, kernels
from mo.front.tf.attrs import node_attrs
from mo.utils.error import Error

#: a node's outputs, computed
Values = List[np.ndarray]

#: ops that answer from the static shape of their input, which a Placeholder's ``shape`` may give
SHAPE_OPS = frozenset({'Shape', 'Size', 'Rank', 'ShapeN'})


def static_shape(attrs: dict) -> Optional[Tuple[tuple, int]]:
    """``(shape, TF dtype)`` of a Placeholder whose shape is fully known, else None."""
    pb = attrs.get('pb')
    if attrs.get('op') != 'Placeholder' or pb is None or 'shape' not in pb.attr:
        return None
    shape = pb.attr['shape'].shape
    if shape.unknown_rank or any(d.size < 0 for d in shape.dim):
        return None
    return tuple(int(d.size) for d in shape.dim), pb.attr['dtype'].type


def data_inputs(graph, node_id) -> list:
    """``(source, out_port, in_port)`` of the data inputs of ``node_id``, by input position."""
    edges = [(u, attrs.get('out', 0), attrs['in']) for u, keyed in graph.in_adjacency(node_id).items()
             for attrs in keyed.values() if not attrs.get('control_flow_edge')]
    if len(edges) > 1:
        edges.sort(key=_in_port)
    return edges


def _in_port(edge) -> int:
    return edge[2]


def _data_input_count(graph, node_id) -> int:
    return sum(1 for keyed in graph.in_adjacency(node_id).values() for attrs in keyed.values()
               if not attrs.get('control_flow_edge'))


def data_outputs(graph, node_id) -> list:
    """``(consumer, out_port, in_port)`` of every data use of ``node_id``'s outputs."""
    return [(v, attrs.get('out', 0), attrs['in']) for v, _, attrs in graph.out_edge_list(node_id, data_only=True)]


def constant_nodes(graph, foldable: Callable[[str, dict], bool], static_shapes: bool = True,
                   sources: Optional[list] = None) -> Tuple[list, Dict[str, Set[str]]]:
    """The nodes whose every data input is constant, in topological order (Kahn's: no sort of the whole graph),
    and for Shape-like nodes the inputs whose static shape is all they read.

    ``foldable(node_id, attrs)`` says which nodes may count as constant at all (a Const with a value, or an op the
    kernels compute); with ``static_shapes``, a Shape-like node reading a Placeholder whose NodeDef gives its whole
    shape is constant too.

    ``sources``, when given, are the ids (in the graph's insertion order) of every node that may be constant
    without a constant input (the Consts, say, when ``foldable`` refuses other nodes without data inputs): then
    only the sources and the readers of constant nodes are looked at, not the whole graph, and the order is the
    same as without them."""
    if sources is not None:
        return _constant_nodes_from(graph, foldable, static_shapes, sources)
    remaining, shape_only = {}, {}
    ready = deque()
    for node_id, attrs in graph.node_items():
        if not foldable(node_id, attrs):
            continue
        count = _pending_inputs(graph, node_id, attrs, static_shapes, shape_only)
        remaining[node_id] = count
        if count == 0:
            ready.append(node_id)
    return _drain(graph, ready, remaining), shape_only


def _drain(graph, ready, remaining, pending=None, foldable_now=None) -> list:
    """Kahn's walk from the ``ready`` nodes: each node taken lowers the count of constant inputs its readers still
    wait for (``remaining``; a reader not in it is counted by ``pending`` first, or skipped without it), and one
    that waits for none (and passes ``foldable_now``, when given) is ready in turn. Returns the order taken."""
    order = []
    out_adjacency = graph.out_adjacency  # the edges read in place: this walk visits every constant of a model
    while ready:
        node_id = ready.popleft()
        order.append(node_id)
        for consumer, keyed in out_adjacency(node_id).items():
            for attrs in keyed.values():
                if attrs.get('control_flow_edge'):
                    continue
                count = remaining.get(consumer)
                if count is None:
                    if pending is None:
                        continue
                    count = pending(consumer)
                remaining[consumer] = count = count - 1
                if count == 0 and (foldable_now is None or foldable_now(consumer)):
                    ready.append(consumer)
    return order


def _pending_inputs(graph, node_id, attrs, static_shapes, shape_only) -> int:
    """How many data inputs of ``node_id`` must be constant for it to be (recording its shape-only sources)."""
    if not (static_shapes and attrs.get('op') in SHAPE_OPS):
        return _data_input_count(graph, node_id)
    count = 0
    for source, _, _ in data_inputs(graph, node_id):
        if static_shape(graph.node_attrs(source)) is not None:
            shape_only.setdefault(node_id, set()).add(source)
        else:
            count += 1
    return count


def _constant_nodes_from(graph, foldable, static_shapes, sources) -> Tuple[list, Dict[str, Set[str]]]:
    """``constant_nodes`` walking from ``sources``: a reader's inputs are counted when the first of them turns out
    constant, and ``foldable`` is asked once they all are, so the rest of the graph costs nothing."""
    node_attrs = graph.node_attrs
    remaining, shape_only = {}, {}
    ready = deque()
    for node_id in sources:
        attrs = node_attrs(node_id)
        if foldable(node_id, attrs) and _pending_inputs(graph, node_id, attrs, static_shapes, shape_only) == 0:
            remaining[node_id] = 0
            ready.append(node_id)
    order = _drain(graph, ready, remaining,
                   lambda node_id: _pending_inputs(graph, node_id, node_attrs(node_id), static_shapes, shape_only),
                   lambda node_id: foldable(node_id, node_attrs(node_id)))
    return order, shape_only


def evaluate(op: str, attrs: dict, inputs: list, limit: int, name: str, report: Callable[[str], None]) -> \
        Optional[Values]:
    """The outputs of one node of ``op`` from its inputs' values, or None (said through ``report``) when the
    kernels cannot compute it or a value would be over ``limit`` bytes."""
    if kernels.too_big(op, inputs, limit):
        report('node "{}" ({}) would make a constant over {} bytes; left unfolded'.format(name, op, limit))
        return None
    try:
        outputs = kernels.evaluate(op, attrs, inputs)
    except (Error, MemoryError) as exc:  # kernels.KernelError and UnsupportedOp are Errors
        report('cannot evaluate node "{}" ({}): {}'.format(name, op, exc))
        return None
    size = sum(getattr(output, 'nbytes', 0) for output in outputs)
    if size > limit:
        report('node "{}" ({}) would make a constant of {} bytes (limit {}); left unfolded'.format(
            name, op, size, limit))
        return None
    return outputs


def compute_values(graph, order: list, shape_only: Dict[str, Set[str]], limit: int, report: Callable[[str], None],
                   needed: Set[str] = None, kept: Set[str] = frozenset(), forwarding: frozenset = frozenset(),
                   accept: Callable[[Values], bool] = None) -> Tuple[Dict[str, Values], Set[str]]:
    """``(values, failed)``: the outputs of the nodes of ``order`` (``constant_nodes``), and the nodes that turned
    out not to be computable (so neither is anything that reads them).

    Only the ``needed`` nodes are computed (default: all), and a value is dropped once every needed node that
    reads it has its own, unless it is ``kept``: the working set stays small on big graphs. Nodes whose op is in
    ``forwarding`` (Identity-like) give their inputs as their outputs, whatever their type; ``accept(outputs)``,
    when given, may refuse a computed value (a type the caller cannot hold), which then counts as a failure."""
    values, failed = {}, set()
    users = None
    if needed is not None:
        users = {n: sum(1 for v, _, _ in data_outputs(graph, n) if v in needed) for n in needed}
    for node_id in order:
        if needed is not None and node_id not in needed:
            continue
        attrs = graph.node_attrs(node_id)
        if attrs['op'] == 'Const':
            values[node_id] = [attrs['value']]
            continue
        edges = data_inputs(graph, node_id)
        shape_sources = shape_only.get(node_id, ())
        if failed and any(source in failed for source, _, _ in edges if source not in shape_sources):
            failed.add(node_id)
            continue
        inputs = _inputs(graph, node_id, edges, values, shape_sources, report)
        outputs = None
        if inputs is not None:
            outputs = inputs if attrs['op'] in forwarding else \
                evaluate(attrs['op'], node_attrs(attrs['pb']), inputs, limit, attrs.get('name', node_id), report)
        if outputs is None or (accept is not None and attrs['op'] not in forwarding and not accept(outputs)):
            failed.add(node_id)  # its inputs' values stay: they become Consts
            continue
        values[node_id] = outputs
        if users is not None:
            for source, _, _ in edges:
                if source in users:
                    users[source] -= 1
                    if users[source] == 0 and source not in kept:
                        values.pop(source, None)
    return values, failed


def _inputs(graph, node_id, edges, values, shape_sources, report) -> Optional[list]:
    inputs = []
    for source, port, _ in edges:
        if source in shape_sources:
            shape, tf_dtype = static_shape(graph.node_attrs(source))
            # a zero-strided stand-in: Shape-like kernels only look at .shape and .dtype
            inputs.append(np.broadcast_to(np.zeros((), dtypes.np_dtype(tf_dtype)), shape))
            continue
        outputs = values[source]
        if port >= len(outputs):
            report('node "{}" reads output {} of "{}", which has {}'.format(
                graph.node_attrs(node_id).get('name', node_id), port, source, len(outputs)))
            return None
        inputs.append(outputs[port])
    return inputs
