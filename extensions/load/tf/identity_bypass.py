"""Load phase: TensorFlow ``Identity`` nodes are bypassed before extraction, as ``IdentityEraser`` would
remove them after it.

A frozen Keras model reads every weight and many activations through an Identity: a third of its nodes.
Extracting each into a full mo op only for ``IdentityEraser`` to drop it costs a third of the extraction,
and at a million nodes leaves a third of the ops' memory in pieces no later allocation fits. Here each
plain one (one data input, readers of its only output, which read it as data) goes before extraction:
its readers read its input's tensor, which takes over its TF names after its own, in the order and with
the graph edits ``IdentityEraser`` gives (``TFExtractor`` puts a tensor's own names first). The other
Identity-like nodes are left to ``IdentityEraser``.

Like the load-phase folding it does not run with ``--transformations_config``, ``--extensions`` or
``--dump_ops``: sub-graph descriptions and users' replacers see the model as TensorFlow wrote it. Nor on a
graph with control flow, TF1's (Switch, Merge, loop frames) or functional (ops with bodies): turning those
into conditionals and loops reads the Identities that mark a branch or a body's outputs.
"""
from extensions.load.tf.constant_folding import TFConstantFolding, _without_user_rewrites, bypass_identity
from extensions.load.tf.loader import TFExtractor, _is_tf
from mo.front.loader_replacement import LoadReplacementPattern
from mo.graph.graph import Graph
from mo.graph.port import DEBUG_INFO


#: the TF1 control-flow ops whose conversion reads the Identities around them
CONTROL_FLOW_OPS = ('Switch', 'RefSwitch', 'Merge', 'RefMerge', 'Enter', 'RefEnter', 'Exit', 'RefExit',
                    'NextIteration', 'RefNextIteration', 'LoopCond')


def _without_control_flow(graph: Graph) -> bool:
    return not graph.nodes_with_sub_graphs() and not any(graph.count_by_attr('op', op) for op in CONTROL_FLOW_OPS)


def _plain_identity(graph: Graph, node_id) -> bool:
    """One data input, from an op, into port 0; data readers of output 0 only, at least one, none of whose
    edges, nor the input's, carry the Model Optimizer's debug records; no control edges out."""
    attrs = graph.node_attrs(node_id)
    if attrs.get('op') != 'Identity' or attrs.get('kind') != 'op':
        return False
    inputs = graph.in_edge_list(node_id, data_only=True)
    if len(inputs) != 1 or inputs[0][2].get('in') != 0 or inputs[0][2].get(DEBUG_INFO):
        return False
    readers = [attrs for _, keyed in graph.out_adjacency(node_id).items() for attrs in keyed.values()]
    return bool(readers) and all(r.get('out') == 0 and 'in' in r and not r.get('control_flow_edge')
                                 and not r.get(DEBUG_INFO) for r in readers)


class TFIdentityBypass(LoadReplacementPattern):
    """Readers of a plain TF Identity read its input instead; the Identity goes."""
    id = 'TFIdentityBypass'
    graph_condition = [_is_tf, _without_user_rewrites, _without_control_flow]
    run_not_recursively = True  # bodies keep theirs (a body's outputs are read through them)

    def run_after(self):
        return [TFConstantFolding]

    def run_before(self):
        return super().run_before() + [TFExtractor]

    def find_and_replace_pattern(self, graph: Graph):
        # in IdentityEraser's order (the nodes' insertion order), so that a chain's names come out alike
        plain = [n for n in graph.nodes_by_attr('op', 'Identity') if _plain_identity(graph, n)]
        for node_id in plain:
            if _plain_identity(graph, node_id):  # an earlier bypass may have changed its neighbours
                bypass_identity(graph, node_id)
                graph.remove_node(node_id)
        self.match_count = len(plain)
