# front/onnx/hswish_fusion.py: PyTorch (opset < 14) exports hardswish as x * Clip(x + 3, 0, 6) / 6;
# `mo convert ... --dump_ops front` shows the ops a pattern sees: Add, ONNXClip, Mul, Div
import numpy as np

from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, rename_nodes
from mo.ops.activation_ops import HSwish


def constant_is(port, value) -> bool:
    source = port.get_source() if port.is_connected() else None
    if source is None or source.node.soft_get('op') != 'Const':
        return False
    const = np.asarray(source.node.value)
    return const.size == 1 and float(const.reshape(-1)[0]) == value


class HSwishFusion(FrontReplacementSubgraph):
    enabled = True

    def pattern(self):
        return dict(
            nodes=[('add', dict(op='Add')), ('clip', dict(op='ONNXClip')), ('mul', dict(op='Mul')),
                   ('div', dict(op='Div'))],
            edges=[('add', 'clip', {'in': 0}), ('clip', 'mul'), ('mul', 'div', {'in': 0})])

    def replace_sub_graph(self, graph: Graph, match: dict):
        add, clip, mul, div = match['add'], match['clip'], match['mul'], match['div']
        x = add.in_port(0).get_source()
        other = 1 - [port.get_source().node.id for port in (mul.in_port(0), mul.in_port(1))].index(clip.id)
        if mul.in_port(other).get_source() != x or not (
                constant_is(add.in_port(1), 3) and constant_is(clip.in_port(1), 0) and
                constant_is(clip.in_port(2), 6) and constant_is(div.in_port(1), 6)):
            return
        div_name = div.soft_get('name', div.id)
        hswish = HSwish(graph, {}).create_node()
        hswish.in_port(0).connect(x)
        div.out_port(0).get_connection().set_source(hswish.out_port(0))
        rename_nodes([(div, div_name + '/TBR'), (hswish, div_name)])
