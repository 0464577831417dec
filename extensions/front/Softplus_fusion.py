"""SoftplusFusion: ``log(exp(x) + 1)`` becomes one SoftPlus."""
import numpy as np

from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, rename_nodes
from mo.ops.activation_ops import SoftPlus


def _is_one(value):
    return value is not None and np.size(value) == 1 and np.allclose(value, 1.0)


class SoftplusFusion(FrontReplacementSubgraph):
    """Fuses ``Log(Add(Exp(x), 1))`` into ``SoftPlus(x)``."""
    enabled = True

    def pattern(self):
        return dict(
            nodes=[
                ('exp', dict(op='Exp')),
                ('one', dict(op='Const', value=_is_one)),
                ('add', dict(op='Add')),
                ('log', dict(op='Log')),
            ],
            edges=[('exp', 'add'), ('one', 'add'), ('add', 'log')])

    def replace_sub_graph(self, graph: Graph, match: dict):
        exp, add, log = match['exp'], match['add'], match['log']
        if len(exp.out_port(0).get_destinations()) != 1 or len(add.out_port(0).get_destinations()) != 1:
            return  # the intermediate values are used elsewhere too
        name = log.soft_get('name', log.id)
        softplus = SoftPlus(graph, {}).create_node()
        softplus.in_port(0).connect(exp.in_port(0).get_source())
        log.out_port(0).get_connection().set_source(softplus.out_port(0))
        rename_nodes([(log, name + '/TBR'), (softplus, name)])
        graph.remove_nodes_from([exp.id, add.id, log.id])
        self.match_count += 1
