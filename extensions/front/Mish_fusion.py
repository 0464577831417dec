"""MishFusion: ``x * tanh(softplus(x))`` becomes one Mish."""
from extensions.front.Softplus_fusion import SoftplusFusion
from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, rename_nodes
from mo.ops.activation_ops import Mish


class MishFusion(FrontReplacementSubgraph):
    """Fuses ``Mul(x, Tanh(SoftPlus(x)))`` into ``Mish(x)`` (either Mul input order)."""
    enabled = True

    def run_after(self):
        return [SoftplusFusion]

    def pattern(self):
        return dict(
            nodes=[('mul', dict(op='Mul')), ('tanh', dict(op='Tanh')), ('softplus', dict(op='SoftPlus'))],
            edges=[('softplus', 'tanh'), ('tanh', 'mul')])

    def replace_sub_graph(self, graph: Graph, match: dict):
        mul, tanh, softplus = match['mul'], match['tanh'], match['softplus']
        x_port = 0 if mul.in_port(1).get_source().node.id == tanh.id else 1
        if mul.in_port(x_port).get_source() != softplus.in_port(0).get_source():
            return
        name = mul.soft_get('name', mul.id)
        mish = Mish(graph, {}).create_node()
        mish.in_port(0).connect(mul.in_port(x_port).get_source())
        mul.out_port(0).get_connection().set_source(mish.out_port(0))
        rename_nodes([(mul, name + '/TBR'), (mish, name)])
        self.match_count += 1
