"""Lowers the legacy Eltwise and Power ops, which old extensions create, to opset operations."""
import functools

import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.middle.partial_infer import infer_node
from mo.ops.elementwise import Add, Maximum, Minimum, Mul, Pow, Sub, Div

_ELTWISE_OPS = {'sum': Add, 'mul': Mul, 'max': Maximum, 'min': Minimum, 'sub': Sub, 'div': Div, 'pow': Pow}


def _scalar(node, value):
    """A scalar constant in the element type of ``node``'s input (float32 when unknown)."""
    data = node.in_port(0).data
    source_value = data.get_value()
    dtype = source_value.dtype if source_value is not None else (data.get_data_type() or np.float32)
    return np.array(value, dtype=dtype)


class EltwiseLowering(BackReplacementPattern):
    """``Eltwise(operation, x0, x1, ...)`` becomes a left-to-right chain of the opset op."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Eltwise'):
            op_class = _ELTWISE_OPS[node.operation]
            ports = [p for i, p in sorted(node.in_ports().items()) if p.is_connected()]
            name = node.soft_get('name', node.id)
            sources = [p.get_source() for p in ports]
            for p in ports:
                p.disconnect()
            result = functools.reduce(lambda acc, src: self._binary(graph, op_class, name, acc, src), sources[1:],
                                      sources[0])
            node.out_port(0).get_connection().set_source(result)
            rename_nodes([(node, name + '/TBR'), (result.node, name)])
            graph.remove_node(node.id)
            self.match_count += 1

    @staticmethod
    def _binary(graph, op_class, name, left, right):
        new = op_class(graph, {'name': graph.unique_id(name + '/' + op_class.op)}).create_node()
        left.connect(new.in_port(0))
        right.connect(new.in_port(1))
        infer_node(new)  # shapes and element types: the IR needs both
        return new.out_port(0)


class PowerLowering(BackReplacementPattern):
    """``Power(x; scale, shift, power)`` becomes Multiply, Add and Power, skipping identity steps."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Power'):
            name = node.soft_get('name', node.id)
            current = node.in_port(0).get_source()
            node.in_port(0).disconnect()
            steps = [(Mul, node.scale, 1.0), (Add, node.shift, 0.0), (Pow, node.power, 1.0)]
            last = None
            for op_class, value, identity in steps:
                if np.all(np.asarray(value) == identity):
                    continue
                last = create_op_with_const_inputs(graph, op_class, {1: _scalar(node, value)},
                                                   {'name': graph.unique_id('{}/{}'.format(name, op_class.op))})
                current.connect(last.in_port(0))
                infer_node(last)  # shapes and element types: the IR needs both
                current = last.out_port(0)
            node.out_port(0).get_connection().set_source(current)
            if last is not None:
                rename_nodes([(node, name + '/TBR'), (last, name)])
            graph.remove_node(node.id)
            self.match_count += 1
