"""``fold_constants``: replace every sub-graph that always computes the same value by Const nodes.

Values are computed with the numpy kernels of :mod:`mo.front.tf.kernels`, so no TensorFlow is
needed. As in TensorFlow's tool, the graph is then cut down to what ``--outputs`` need (the
``--inputs`` stay even when unused), ``--inputs``/``--outputs`` nodes themselves are never
replaced, and a folded node keeps the control dependencies its value depended on.

Where this differs from TensorFlow's tool: ``FoldConstants.differences``.
"""
import logging as log

import numpy as np

# constants larger than the converter's limit are left unfolded (with a warning): one size policy
from mo.utils.shape import DEFAULT_MAX_CONSTANT_BYTES
from mo.front.tf import dtypes, folding, kernels
from mo.front.tf.attrs import node_attrs
from mo.front.common.input_spec import split_port
from mo.front.tf.node_def import make_node_def
from mo.transforms.base import GraphTransform


# ----- helpers shared by the numeric transforms ----------------------------------------------

def node_names(names) -> set:
    """Node names of ``--inputs``/``--outputs`` entries (ports and ``^`` stripped)."""
    return {split_port(name.lstrip('^'))[0] for name in names}


#: the data edges of a node, as the numeric transforms read them (``(node, out_port, in_port)``)
data_in_edges, data_out_edges = folding.data_inputs, folding.data_outputs


def tf_dtype_of(value: np.ndarray, attrs: dict = None) -> int:
    """The TF dtype of a kernel result; uint16 stands for bfloat16 when the node works in bfloat16."""
    if value.dtype == np.uint16 and attrs and dtypes.DT_BFLOAT16 in \
            [v for v in attrs.values() if isinstance(v, int) and not isinstance(v, bool)]:
        return dtypes.DT_BFLOAT16
    return dtypes.tf_dtype_from_numpy(value.dtype)


def make_const(graph, node_id, value: np.ndarray, tf_dtype: int = None, control_sources=()) -> None:
    """Turn ``node_id`` (kept: name, device, consumers) into a Const holding ``value``.

    Its inputs are dropped; ``control_sources`` become its control inputs.
    """
    attrs = graph.nodes[node_id]
    if tf_dtype is None:
        tf_dtype = dtypes.tf_dtype_from_numpy(value.dtype)
    pb = make_node_def(attrs.get('name', node_id), 'Const', device=attrs.get('device', '') or '')
    pb.attr['dtype'].type = tf_dtype
    graph.remove_edges_from([(u, node_id, k) for u, _, k in graph.in_edges(node_id, keys=True)])
    attrs['op'] = 'Const'
    attrs['pb'] = pb
    attrs.pop('tf_attrs', None)
    # pb_value differs from value, so the writer encodes the tensor (only once, at the end)
    attrs['pb_value'] = None
    attrs['value'] = value
    for position, source in enumerate(graph.in_insertion_order(control_sources)):
        graph.add_edge(source, node_id, control_flow_edge=True, control_index=position)


def prune_to_outputs(graph, inputs, outputs) -> int:
    """Remove every node that no ``outputs`` node needs (over data and control edges); ``inputs``
    stay. Nothing is removed without outputs. Returns the number of nodes removed."""
    roots = [n for n in node_names(outputs) | node_names(inputs) if n in graph]
    if not outputs or not roots:
        return 0
    seen = set(roots)
    stack = list(roots)
    pred = graph.pred
    while stack:
        for source in pred[stack.pop()]:
            if source not in seen:
                seen.add(source)
                stack.append(source)
    dead = [n for n in graph.nodes if n not in seen]
    graph.remove_nodes_from(dead)
    return len(dead)


# ----- the transform -------------------------------------------------------------------------

class FoldConstants(GraphTransform):
    """Replace every sub-graph that always computes the same value by Const nodes holding it."""
    transform_name = 'fold_constants'
    differences = ('A folded node keeps its own name (TF\'s tool names it <name>/_0__cf__0), so names other '
                   'tools refer to survive. A constant only a control edge still reaches (a frozen model\'s '
                   'NoOp over its weight reads) goes, the control edge moving to what it waited for (TF\'s '
                   'tool keeps it, and computes it on every run). Without --outputs every node nothing reads '
                   'stays an output (TF\'s tool fails: "Must specify at least one target").')
    arguments = ('clear_output_shapes', 'max_constant_bytes')

    def transform(self, graph, context):
        if context.get_bool('clear_output_shapes', True):
            for _, attrs in graph.nodes(data=True):
                pb = attrs.get('pb')
                if pb is not None and '_output_shapes' in pb.attr:
                    del pb.attr['_output_shapes']
        limit = context.get_one_int('max_constant_bytes', DEFAULT_MAX_CONSTANT_BYTES)
        inputs, outputs = context.input_names, context.output_names
        prune_to_outputs(graph, inputs, outputs)
        fold_constants(graph, node_names(inputs), node_names(outputs), limit, keep_sinks=not outputs)
        prune_to_outputs(graph, inputs, outputs)


def _foldable(fed):
    def foldable(node_id, attrs) -> bool:
        if node_id in fed:
            return False
        if attrs.get('op') == 'Const':
            return attrs.get('value') is not None
        return kernels.is_supported(attrs.get('op')) and attrs.get('pb') is not None
    return foldable


def _warn(message):
    log.warning('fold_constants: ' + message)


def fold_constants(graph, fed: set = (), kept: set = (), limit: int = DEFAULT_MAX_CONSTANT_BYTES,
                   keep_sinks=False) -> int:
    """Fold every constant sub-graph of ``graph`` into Const nodes. ``fed`` nodes (the inputs)
    are not constant whatever they are; ``kept`` nodes (the outputs) are computed for their
    consumers but stay as they are. Returns the number of nodes replaced by Consts."""
    order, shape_only = folding.constant_nodes(graph, _foldable(set(fed)))
    # `constant`: nodes that may be replaced or removed; the kept ones are constant for their
    # consumers only, through `values`
    constant = set(order) - set(kept)
    protected = set(kept)
    nodes = graph.node_attrs
    # without outputs, what nothing reads in the graph as given may be an output: it stays
    # (told now: folding cuts edges and would make every folded node's inputs look like sinks)
    sinks = {n for n in order if not graph.consumer_ids(n)} if keep_sinks else set()

    # boundaries: computed constants something non-constant consumes (they become Consts)
    boundaries = set()
    for node_id in order:
        if nodes(node_id)['op'] == 'Const' or node_id in protected:
            continue
        uses = data_out_edges(graph, node_id)
        if any(v not in constant for v, _, _ in uses) or node_id in sinks:
            boundaries.add(node_id)
    if not boundaries:
        return 0

    # only the ancestors of the boundaries need computing
    computable = set(order)
    needed = set(boundaries)
    stack = list(boundaries)
    while stack:
        for source, _, _ in data_in_edges(graph, stack.pop()):
            if source in computable and source not in needed:
                needed.add(source)
                stack.append(source)
    values, failed = folding.compute_values(graph, order, shape_only, limit, _warn, needed=needed, kept=boundaries)

    # a failed node is not constant after all: its inputs become boundaries instead
    for node_id in failed:
        constant.discard(node_id)
        for source, _, _ in data_in_edges(graph, node_id):
            if source in values and nodes(source)['op'] != 'Const' and source not in protected:
                boundaries.add(source)
    boundaries -= failed
    computable -= failed

    # the control dependencies each folded value stands for (constants have no side effects)
    controls = {}
    for node_id in order:
        if node_id not in computable:
            continue
        deps = set()
        for source, _, d in graph.in_edges(node_id, data=True):
            if source in computable:
                deps |= controls.get(source, set())
            elif d.get('control_flow_edge'):
                deps.add(source)
        controls[node_id] = deps

    folded = 0
    for node_id in order:
        if node_id in boundaries:
            outputs = values[node_id]
            ports = {p for _, p, _ in data_out_edges(graph, node_id)}
            if len(outputs) > 1 or ports - {0}:
                continue  # a multi-output node cannot become one Const: its constant consumers stay
            value = outputs[0]
            make_const(graph, node_id, value, tf_dtype_of(value, node_attrs(nodes(node_id)['pb'])),
                       controls[node_id])
            folded += 1
    _fold_multi_output(graph, order, boundaries, values, controls, constant)

    # what is left of the constant sub-graphs is dead: re-route its control uses, then remove it
    dead = {n for n in order if n in constant and n not in protected
            and not any(v not in constant for v, _, _ in data_out_edges(graph, n))
            and n not in sinks}
    for node_id in dead:
        for _, consumer, d in list(graph.out_edges(node_id, data=True)):
            if d.get('control_flow_edge') and consumer not in dead:
                for source in controls.get(node_id, ()):
                    if not graph.has_edge(source, consumer):
                        graph.add_edge(source, consumer, control_flow_edge=True, control_index=None)
    graph.remove_nodes_from(dead)
    return folded


def _fold_multi_output(graph, order, boundaries, values, controls, constant):
    """Give each used output of a constant multi-output node (Split, Unpack...) its own Const."""
    for node_id in order:
        attrs = graph.node_attrs(node_id)
        if node_id not in boundaries or attrs['op'] == 'Const':
            continue
        outputs = values[node_id]
        uses = [(v, p, i) for v, p, i in data_out_edges(graph, node_id) if v not in constant]
        node_attr = node_attrs(attrs['pb'])
        made = {}
        for consumer, port, in_port in uses:
            if port not in made:
                name = graph.unique_id('{}/output_{}'.format(attrs['name'], port))
                graph.add_node(name, kind='op', name=name, op='Placeholder', device=attrs.get('device', ''))
                make_const(graph, name, outputs[port], tf_dtype_of(outputs[port], node_attr), controls[node_id])
                made[port] = name
            for key, d in list(graph[node_id][consumer].items()):
                if not d.get('control_flow_edge') and d.get('out', 0) == port and d['in'] == in_port:
                    graph.remove_edge(node_id, consumer, key)
            graph.add_edge(made[port], consumer, out=0, **{'in': in_port})
        constant.add(node_id)
        boundaries.discard(node_id)
