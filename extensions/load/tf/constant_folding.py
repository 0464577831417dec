"""Load phase: TensorFlow sub-graphs that always compute the same value become Const nodes.

A frozen Keras model is about half constant computation: every weight is read through an
``Identity``, and each batch norm computes ``gamma * rsqrt(variance + epsilon)`` and
``beta - mean * scale`` from its frozen variables. Folding those here, right after the model is
read and cut, with the numpy kernels that reproduce TensorFlow's CPU kernels
(:mod:`mo.front.tf.kernels`), halves the graph that extraction, inference and every later pass
walk. The middle phase's ``ConstantFolding`` still folds what only becomes constant later
(inputs frozen with ``--input``, shapes known after inference).

A folded node keeps its name, so its TF tensor names stay on the Const that replaces it. An
Identity-like node that forwards a constant is bypassed as ``IdentityEraser`` would do later: its
readers read the forwarded tensor, which takes over its TF names (``TFExtractor`` later puts the
tensor's own names first), so a weight read by many nodes stays one Const.
A functional conditional whose predicate folds becomes its taken branch
(:mod:`extensions.load.tf.constant_conditionals`), which is folded in turn.
It does not run with ``--transformations_config`` or ``--extensions``: sub-graph descriptions
and users' replacers name and match the nodes of the model as TensorFlow wrote it. Nor with
``--dump_ops``: the dump is how an extension's author sees the graph the extension will get.
"""
import logging as log

import numpy as np

from extensions.front.tf.tensor_ext import IDENTITY_LIKE
from extensions.load.tf.constant_conditionals import take_constant_branches
from extensions.load.tf.loader import TFAddResults, TFExtractor, _is_tf, tf_tensor_names
from mo.utils.shape import max_constant_bytes
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf import dtypes, folding, kernels
from mo.graph.graph import Graph, Node
from mo.graph.port import DEBUG_INFO, add_names_to_record as add_names, own_port_table, port_record, \
    writable_port_record

#: TF types whose tensors the kernels and the rest of mo hold as plain numpy values (bfloat16
#: and the quantized types are bit patterns of another numpy type; strings are objects)
FOLDABLE_TF_TYPES = frozenset((dtypes.DT_FLOAT, dtypes.DT_DOUBLE, dtypes.DT_HALF, dtypes.DT_BOOL,
                               dtypes.DT_INT8, dtypes.DT_INT16, dtypes.DT_INT32, dtypes.DT_INT64,
                               dtypes.DT_UINT8, dtypes.DT_UINT16, dtypes.DT_UINT32, dtypes.DT_UINT64))
_FOLDABLE_NUMPY_KINDS = 'biuf'


def _without_user_rewrites(graph: Graph) -> bool:
    params = graph.graph.get('cmd_params') or {}
    return not (params.get('transformations_config') or params.get('extensions') or params.get('dump_ops'))


def _types_foldable(pb) -> bool:
    """Whether every type attribute of the NodeDef is one the kernels compute in plain numpy."""
    for attr in pb.attr.values():
        kind = attr.WhichOneof('value')
        if kind == 'type' and attr.type not in FOLDABLE_TF_TYPES:
            return False
        if kind == 'list' and any(t not in FOLDABLE_TF_TYPES for t in attr.list.type):
            return False
    return True


def compute_constants(graph: Graph, limit: int) -> dict:
    """node id -> output values, for every TF node whose data inputs all are constant (``mo.front.tf.folding``)."""
    def foldable(node_id, attrs) -> bool:
        op = attrs.get('op')
        if op == 'Const':
            value = attrs.get('value')
            return isinstance(value, np.ndarray) and value.dtype.kind in _FOLDABLE_NUMPY_KINDS
        # only the Consts are sources: any other node looked at reads a constant, so it has a data input
        if attrs.get('pb') is None:
            return False
        return op in IDENTITY_LIKE or (kernels.is_supported(op) and _types_foldable(attrs['pb']))

    # an input's NodeDef shape may be one --input_shape or --batch replaced: shapes are not read here
    order, _ = folding.constant_nodes(graph, foldable, static_shapes=False, sources=graph.nodes_by_attr('op', 'Const'))
    values, _ = folding.compute_values(
        graph, order, {}, limit, lambda message: log.debug('load-phase folding: ' + message),
        forwarding=IDENTITY_LIKE, accept=lambda outputs: all(o.dtype.kind in _FOLDABLE_NUMPY_KINDS for o in outputs))
    return values


def bypass_identity(graph: Graph, node_id) -> None:
    """Readers of output k of an Identity-like node read the tensor its input k reads instead."""
    sources = {attrs['in']: (source, attrs.get('out', 0)) for source, _, attrs in graph.in_edge_list(node_id, True)}
    readers = graph.out_edge_list(node_id, data_only=True)
    for reader, key, attrs in readers:
        source, port = sources[attrs.get('out', 0)]
        graph.remove_edge(node_id, reader, key)
        graph.add_edge(source, reader, **dict(attrs, out=port))
    names = tf_tensor_names(graph.node_attrs(node_id).get('name', node_id),
                            {attrs.get('out', 0) for _, _, attrs in readers})
    for out, port_names in names.items():
        # the bypassed output's names (a signature's, say) come after the node's own; no edge is left on it
        own = ((graph.node_attrs(node_id).get('_out_ports') or {}).get(out) or {}).get('tensor_names')
        source, port = sources[out]
        _add_front_tensor_names(graph, source, port, port_names + list(own or ()))


def _writable_out_record(graph: Graph, node_id, port: int) -> dict:
    """The port-table record of output ``port`` of ``node_id`` made writable, as ``out_port(port).tensor(True)``
    makes it in the front phase when no data node is behind the port."""
    table = own_port_table(graph.node_attrs(node_id), '_out_ports')
    table.setdefault(port, port_record())
    return writable_port_record(table, port)


def _add_front_tensor_names(graph: Graph, node_id, port: int, names: list) -> None:
    """``Node(graph, node_id).out_port(port).add_tensor_names(names)`` without Node and Port objects, for a
    front-phase output none of whose edges carries the Model Optimizer's debug records (those take the
    general path), as the load phase's outputs are."""
    if graph.phase == 'front':
        first_reader = None
        for reader, _, attrs in graph.out_edge_list(node_id, data_only=True):
            if attrs.get('out') == port:
                if attrs.get(DEBUG_INFO):
                    break
                if first_reader is None:
                    first_reader = reader
        else:
            if first_reader is None or graph.node_attrs(first_reader).get('kind') != 'data':
                add_names(_writable_out_record(graph, node_id, port), names)
                return
    Node(graph, node_id).out_port(port).add_tensor_names(names)


def fold_constant_subgraphs(graph: Graph, limit: int) -> int:
    """Turn each computed node that something non-constant reads into a Const; returns how many.

    Identity-like nodes that forward a constant are bypassed first. The computation upstream of
    the Consts is left unread, for clean-up to remove. A node whose readers use an output other
    than its first cannot become one Const and stays a computation.
    """
    values = compute_constants(graph, limit)
    nodes = graph.node_attrs
    # in the order values were computed, which is topological: a chain of Identities ends up
    # read at its first source, which gets the names of all of them
    for node_id in values:
        if nodes(node_id).get('op') in IDENTITY_LIKE:
            bypass_identity(graph, node_id)

    out_adjacency = graph.out_adjacency

    def single_output(node_id):
        return len(values[node_id]) == 1 and all(
            attrs.get('out', 0) == 0 for keyed in out_adjacency(node_id).values() for attrs in keyed.values()
            if not attrs.get('control_flow_edge'))

    computed = [n for n in values if nodes(n).get('op') != 'Const']  # in the order computed
    replaceable = {n for n in computed if single_output(n)}
    boundaries = [n for n in computed if n in replaceable and
                  any(reader not in replaceable for reader in graph.consumer_ids(n))]
    for node_id in boundaries:
        graph.remove_edges_from([(source, node_id, key) for source, key, _ in graph.in_edge_list(node_id)])
        data = nodes(node_id)
        data['op'] = 'Const'
        data['value'] = values[node_id][0]
    return len(boundaries)


class TFConstantFolding(LoadReplacementPattern):
    """Sub-graphs that compute constants are replaced by their values before extraction."""
    id = 'TFConstantFolding'
    graph_condition = [_is_tf, _without_user_rewrites]

    def run_after(self):
        return [TFAddResults]

    def run_before(self):
        return super().run_before() + [TFExtractor]

    def find_and_replace_pattern(self, graph: Graph):
        limit = max_constant_bytes(graph)
        self.match_count = fold_constant_subgraphs(graph, limit)
        # a conditional on a folded predicate is its branch, which may fold further (nested conditionals)
        while take_constant_branches(graph):
            self.match_count += fold_constant_subgraphs(graph, limit)
