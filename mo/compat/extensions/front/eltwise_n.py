"""The Model Optimizer's ``extensions.front.eltwise_n`` (``openvino.tools.mo.front.`` later), kept for authors' unit
tests.

``EltwiseN`` (an elementwise ``operation`` of more than two inputs: ``sum``, ``min``, ``max`` or ``mul``) becomes a
left-to-right chain of two-input ops (Add, Minimum, Maximum, Mul) named ``<name>/<operation>_<input index>``,
each carrying the node's ``axis`` when it has one; the last one takes the node's consumers. mo's front ends
make two-input ops from the start (TensorFlow's AddN too), so the class is ``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph, Node
from mo.ops.elementwise import Add, Maximum, Minimum, Mul
from mo.utils.error import Error


class EltwiseNReplacement(FrontReplacementOp):
    """``EltwiseN(x0, x1, ..., xn)`` -> ``op(...op(op(x0, x1), x2)..., xn)``."""
    legacy_only = True
    op = 'EltwiseN'
    enabled = True

    op_to_class_map = {'sum': Add, 'min': Minimum, 'max': Maximum, 'mul': Mul}

    def replace_op(self, graph: Graph, node: Node):
        operation = node.soft_get('operation')
        if operation not in self.op_to_class_map:
            raise Error('EltwiseN "{}": operation {!r} is not one of {}', node.soft_get('name', node.id), operation,
                        sorted(self.op_to_class_map))
        op_class = self.op_to_class_map[operation]
        last = node
        left = node.in_port(0).get_connection()
        for index in sorted(node.in_ports())[1:]:
            attrs = {'name': '{}/{}_{}'.format(node.name, operation, index)}
            if node.has_valid('axis'):
                attrs['axis'] = node.axis
            step = op_class(graph, attrs).create_node()
            left.set_destination(step.in_port(0))
            left = step.out_port(0).get_connection()
            node.in_port(index).get_connection().set_destination(step.in_port(1))
            last = step
        return [last.id]
