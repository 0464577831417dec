"""The Model Optimizer's ``openvino.tools.mo.front.ArgOpsSqueeze`` (releases 2022-2024; 2020-2021 had the ArgMax-only
``extensions.front.ArgMaxSqueeze``), kept for authors' unit tests.

An ``ArgMax``/``ArgMin`` with ``keepdims=0`` must drop its reduced axis, which the Model Optimizer's IR ops kept:
a ``Squeeze`` named ``<name>/Squeeze`` goes after it, its axes from the node's second input when it has one,
else a Const of the ``axis`` attribute. mo lowers ArgMax/ArgMin to TopK with the squeeze built in
(``extensions.front.tf.nn_lowering.ArgMaxToTopK``), so the class is ``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.ops.squeeze import Squeeze


class ArgOpsSqueeze(FrontReplacementSubgraph):
    """``ArgMax``/``ArgMin`` with ``keepdims=0`` -> the node followed by a Squeeze of its axis."""
    legacy_only = True
    enabled = True

    def pattern(self):
        return dict(nodes=[('node', dict(op=lambda op: op in ('ArgMax', 'ArgMin'), keepdims=0))], edges=[])

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['node']
        connected = [port for port in node.in_ports().values() if not port.disconnected()]
        squeeze = Squeeze(graph, {}).create_node([], {'name': node.soft_get('name', node.id) + '/Squeeze'})
        if len(connected) == 2:
            node.in_port(1).get_source().connect(squeeze.in_port(1))
        else:
            Const(graph, {'value': node.axis}).create_node().out_port(0).connect(squeeze.in_port(1))
        node.out_port(0).get_connection().set_source(squeeze.out_port(0))
        node.out_port(0).connect(squeeze.in_port(0))
