"""The Model Optimizer's ``extensions.front.binary_quantize_normalization`` (``openvino.tools.mo.front.`` later),
kept for authors' unit tests.

A binary ``FakeQuantize`` (``levels=2``) quantizes at one threshold, so its input low and high (inputs 1 and 2)
must be equal: both become ``(input_low + input_high) * 0.5``, one Mul feeding both ports. mo's pipeline passes
FakeQuantize to the IR as the framework wrote it, so the class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.ops.elementwise import Add, Mul


class BinaryFakeQuantizeNormalization(FrontReplacementPattern):
    """``FakeQuantize(x, lo, hi, ...)`` with ``levels=2`` -> ``FakeQuantize(x, m, m, ...)``, ``m = (lo + hi) * 0.5``."""
    legacy_only = True
    enabled = True

    @staticmethod
    def pattern():
        return dict(nodes=[('min_in', dict()), ('max_in', dict()), ('quantize', dict(op='FakeQuantize', levels=2))],
                    edges=[('min_in', 'quantize', {'in': 1}), ('max_in', 'quantize', {'in': 2})])

    def replace_pattern(self, graph: Graph, match: dict):
        quantize = match['quantize']
        total = Add(graph, {}).create_node()
        half = Const(graph, {'value': np.array(0.5)}).create_node()
        midpoint = Mul(graph, {}).create_node()
        total.out_port(0).connect(midpoint.in_port(0))
        half.out_port(0).connect(midpoint.in_port(1))

        quantize.in_port(1).get_source().connect(total.in_port(0))
        quantize.in_port(2).get_source().connect(total.in_port(1))
        quantize.in_port(1).disconnect()
        quantize.in_port(2).disconnect()
        midpoint.out_port(0).connect(quantize.in_port(1))
        midpoint.out_port(0).connect(quantize.in_port(2))
