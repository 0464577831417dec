"""The Model Optimizer's ``extensions.front.PowerToEltwises`` (``openvino.tools.mo.front.`` later), kept for authors'
unit tests.

The Model Optimizer's ``AttributedPower`` (``(x * scale + shift) ^ power``, the three as attributes) becomes a
chain of the elementwise ops it needs: ``Mul`` by ``scale`` (``<name>/mul_``) unless it is 1, ``Add`` of ``shift``
(``<name>/add_``) unless it is 0, ``Pow`` by ``power`` (``<name>/pow_``) unless it is 1; the last takes the node's
consumers. mo keeps that op as ``Power`` (``mo.ops.power``) and lowers it in the back phase, so the class is
``legacy_only``.
"""
from mo.front.common.partial_infer.utils import mo_array
from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.ops.elementwise import Add, Mul, Pow


class PowerToEltwises(FrontReplacementOp):
    """``AttributedPower(x)`` -> ``Pow(Add(Mul(x, scale), shift), power)`` without the steps that change nothing."""
    legacy_only = True
    op = 'AttributedPower'
    enabled = True
    force_clean_up = True

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['op']
        source = node.in_port(0).get_source()
        for attr, neutral, op_class, suffix in (('scale', 1, Mul, '/mul_'), ('shift', 0, Add, '/add_'),
                                                ('power', 1, Pow, '/pow_')):
            if node.soft_get(attr, neutral) == neutral:
                continue
            const = Const(graph, {'value': mo_array(node[attr])}).create_node()
            step = op_class(graph, {'name': node.name + suffix}).create_node()
            const.out_port(0).connect(step.in_port(1))
            source.connect(step.in_port(0))
            source = step.out_port(0)
        node.out_port(0).get_connection().set_source(source)
        graph.remove_node(node.id)
