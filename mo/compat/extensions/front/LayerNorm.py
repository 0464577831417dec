"""The Model Optimizer's ``extensions.front.LayerNorm`` (``openvino.tools.mo.front.`` later), kept for authors' unit
tests.

The normalizing half of a layer normalization as exporters spell it,
``(x - ReduceMean(x)) / Pow(ReduceMean(Pow(x - ReduceMean(x), p)) + eps, 0.5)`` (BERT's ONNX export puts a Cast
after the Sub), becomes ``MVN(x, axes)`` with ``eps``, ``normalize_variance=1`` and ``eps_mode='inside_sqrt'``,
named as the Div, when the square root is a power of exactly 0.5, ``eps`` is one value of at most 1e-5 and both
means reduce over the same axes. mo's pipeline passes such formulas on as they are, so the class is
``legacy_only``.
"""
import logging as log

import numpy as np

from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.middle.pattern_match import apply_pattern
from mo.ops.mvn import MVN

_NODES = [('pool0', dict(op='ReduceMean')), ('pool1', dict(op='ReduceMean')), ('pow', dict(op='Pow')),
          ('div', dict(op='Div')), ('sqrt', dict(op='Pow')), ('add', dict(op='Add')), ('sub', dict(op='Sub')),
          ('pool0_param', dict(op='Const')), ('pool1_param', dict(op='Const')), ('add_param', dict(op='Const')),
          ('pow_param', dict(op='Const'))]
_EDGES = [('pool0', 'sub'), ('pow', 'pool1'), ('pool1', 'add'), ('add', 'sqrt'), ('sqrt', 'div'), ('sub', 'div'),
          ('pool0_param', 'pool0'), ('pool1_param', 'pool1'), ('pow_param', 'sqrt'), ('add_param', 'add')]


class LayerNorm(FrontReplacementPattern):
    """``(x - mean) / sqrt(mean((x - mean)^p) + eps)`` -> ``MVN``."""
    legacy_only = True
    enabled = True

    def pattern1(self):
        """The Sub feeds the Pow directly."""
        return dict(nodes=list(_NODES), edges=_EDGES + [('sub', 'pow')])

    def pattern2(self):
        """BERT's ONNX export: a Cast between the Sub and the Pow."""
        return dict(nodes=_NODES + [('cast', dict(op='Cast'))], edges=_EDGES + [('sub', 'cast'), ('cast', 'pow')])

    def find_and_replace_pattern(self, graph: Graph):
        apply_pattern(graph, **self.pattern1(), action=self.replace_layer_norm)
        apply_pattern(graph, **self.pattern2(), action=self.replace_layer_norm)

    def replace_layer_norm(self, graph: Graph, match: dict):
        mean = match['pool0']
        eps, root = match['add_param'].value, match['pow_param'].value
        if not (np.size(eps) == 1 and np.size(root) == 1 and eps.item() <= 1e-05 and root.item() == 0.5 and
                np.array_equal(match['pool0_param'].value, match['pool1_param'].value)):
            return
        source = mean.in_port(0).get_source().node
        log.debug('LayerNorm after {} "{}" becomes an MVN'.format(source.soft_get('op'), source.soft_get('name')))
        mvn = create_op_with_const_inputs(graph, MVN, {1: match['pool1_param'].value},
                                          {'eps': eps.item(), 'normalize_variance': 1, 'eps_mode': 'inside_sqrt'})
        div = match['div']
        div_name = div.soft_get('name', div.id)
        rename_nodes([(div, div_name + '/to_be_removed'), (mvn, div_name)])
        mean.in_port(0).get_connection().set_destination(mvn.in_port(0))
        div.out_port(0).get_connection().set_source(mvn.out_port(0))
