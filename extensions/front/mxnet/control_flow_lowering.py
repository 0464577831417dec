"""MXNet's ``_cond`` as OpenVINO's If (opset8); ``_foreach`` and ``_while_loop`` are not converted yet."""
import numpy as np

from extensions.front.mxnet.elementwise_lowering import like
from mo.front.common.rule import Builder, OpRule
from mo.front.mxnet.bodies import build_branch
from mo.graph.graph import Node
from mo.ops.elementwise import NotEqual
from mo.ops.loop import If


class CondLowering(OpRule):
    """_cond(predicate, inputs...) = If(predicate != 0, inputs...), its then and else symbols the branches (the
    loader put the condition graph's output before the node's inputs)."""
    op = 'MXcond'

    def rewrite(self, node: Node, b: Builder):
        predicate = node.in_port(0)
        test = b.op(NotEqual, [predicate, like(b, 0, predicate, 'zero')], 'predicate')
        count = len([p for p in node.in_ports() if node.is_in_port_connected(p)]) - 1
        outputs = node.pb.attr.int('num_outputs', 1)
        result = b.op(If, [test] + [node.in_port(1 + k) for k in range(count)], 'if', mxnet_cond=node.pb,
                      build_branch=build_branch, input_types=[np.dtype(np.float32)] * count,
                      output_types=[np.dtype(np.float32)] * outputs, in_ports_count=1 + count,
                      out_ports_count=outputs)
        return [result.out_port(k) for k in range(outputs)]
