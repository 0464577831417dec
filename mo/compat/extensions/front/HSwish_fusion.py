"""The Model Optimizer's ``extensions.front.HSwish_fusion`` (``openvino.tools.mo.front.`` later), kept for authors'
unit tests.

Two spellings of ``HSwish(x) = x * Relu6(x + 3) / 6`` become one ``HSwish`` node that takes the name of the
last Mul: ``x * Clamp(x + 3, 0, 6) * (1/6)`` (a Clamp with its bounds on inputs 1 and 2, as the Model
Optimizer's ``AttributedClampNormalizer`` left it) and ``x * Minimum(Maximum(x + 3, 0), 6) * (1/6)``. The
constants must be within 1e-6 of 3, 0, 6 and 1/6, and the Add and the first Mul must read the same tensor;
otherwise the graph is left as it is. mo's pipeline keeps these formulas as the framework wrote them, so the
classes are ``legacy_only``.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, rename_nodes
from mo.ops.activation_ops import HSwish


def _const_close_to(expected: float):
    """A pattern constraint: a Const value within 1e-6 of ``expected`` everywhere."""
    def check(value):
        return value is not None and np.size(value) > 0 and bool(np.allclose(value, expected, atol=1e-6))
    return check


def _const(expected: float):
    return dict(op='Const', value=_const_close_to(expected))


def replace_with_hswish(graph: Graph, match: dict):
    """Feed a new HSwish from the tensor both the Add and the first Mul read, and let it take the consumers and
    the name of the last Mul (a no-op when the two read different tensors)."""
    add, mul, last_mul = match['add'], match['mul'], match['mul_2']
    # the port of each node that the common input feeds: the other one holds the Const or the clamped branch
    add_port = int(add.in_port(0).get_source().node.soft_get('op') == 'Const')
    mul_port = int(mul.in_port(0).get_source().node.soft_get('op') in ('Clamp', 'Minimum'))
    source = add.in_port(add_port).get_source()
    if source != mul.in_port(mul_port).get_source():
        return
    name = last_mul.soft_get('name', last_mul.id)
    hswish = HSwish(graph, {}).create_node()
    hswish.in_port(0).connect(source)
    last_mul.out_port(0).get_connection().set_source(hswish.out_port(0))
    rename_nodes([(last_mul, name + '/TBR'), (hswish, name)])


class HSwishWithClamp(FrontReplacementSubgraph):
    """``x * Clamp(x + 3, 0, 6) * (1/6)`` -> ``HSwish(x)``."""
    legacy_only = True
    enabled = True

    def pattern(self):
        return dict(
            nodes=[('input', dict()), ('add', dict(op='Add')), ('const_0', _const(0.0)), ('const_3', _const(3.0)),
                   ('const_6', _const(6.0)), ('const_1_6', _const(1.0 / 6.0)), ('clamp', dict(op='Clamp')),
                   ('mul', dict(op='Mul')), ('mul_2', dict(op='Mul'))],
            edges=[('input', 'add'), ('input', 'mul'), ('const_3', 'add'), ('add', 'clamp', {'in': 0}),
                   ('const_0', 'clamp', {'in': 1}), ('const_6', 'clamp', {'in': 2}), ('clamp', 'mul'),
                   ('mul', 'mul_2'), ('const_1_6', 'mul_2')])

    def replace_sub_graph(self, graph: Graph, match: dict):
        replace_with_hswish(graph, match)


class HSwishWithMinMax(FrontReplacementSubgraph):
    """``x * Minimum(Maximum(x + 3, 0), 6) * (1/6)`` -> ``HSwish(x)``."""
    legacy_only = True
    enabled = True

    def pattern(self):
        return dict(
            nodes=[('input', dict()), ('add', dict(op='Add')), ('const_0', _const(0.0)), ('const_3', _const(3.0)),
                   ('const_6', _const(6.0)), ('const_1_6', _const(1.0 / 6.0)), ('max', dict(op='Maximum')),
                   ('min', dict(op='Minimum')), ('mul', dict(op='Mul')), ('mul_2', dict(op='Mul'))],
            edges=[('input', 'add', {'out': 0}), ('input', 'mul', {'out': 0}), ('const_3', 'add'), ('add', 'max'),
                   ('const_0', 'max'), ('max', 'min'), ('const_6', 'min'), ('min', 'mul'), ('mul', 'mul_2'),
                   ('const_1_6', 'mul_2')])

    def replace_sub_graph(self, graph: Graph, match: dict):
        replace_with_hswish(graph, match)
