"""MXNet's ``_cond``, ``_while_loop`` and ``_foreach`` as OpenVINO's If (opset8), Loop (opset5) and
TensorIterator (opset1)."""
import numpy as np

from extensions.front.mxnet.elementwise_lowering import like
from extensions.front.mxnet.formulas import concat, ints, shape_slice
from mo.front.common.rule import Builder, OpRule
from extensions.ops.tensor_iterator import TensorIterator
from mo.front.mxnet.bodies import build_branch, foreach_body, while_body
from mo.graph.graph import Node
from mo.ops.elementwise import NotEqual
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.loop import If, Loop
from mo.ops.slice import Slice


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


class WhileLoopLowering(OpRule):
    """_while_loop(max_iterations, first condition, loop variables..., inputs only read...) = Loop with MXNet's func
    then cond as its body. Outputs: func's num_out_data per-step outputs, stacked along a new axis 0 and padded with
    zeros to max_iterations rows (MXNet's shape; it leaves the rows past the last step uninitialised), then the
    final loop variables."""
    op = 'MXwhile_loop'

    def rewrite(self, node: Node, b: Builder):
        attr = node.pb.attr
        outputs, count = attr.int('num_out_data', 0), len(attr.tuple('func_var_locs'))
        total = len([p for p in node.in_ports() if node.is_in_port_connected(p)]) - 2
        stacked = {total + i: count + 1 + i for i in range(outputs) if node.is_out_port_connected(i)}
        loop = b.op(Loop, [node.in_port(k) for k in range(2 + total)], 'loop', mxnet_loop=node.pb,
                    build_body=while_body, variable_types=[np.dtype(np.float32)] * total,
                    invariant_variables=set(range(count, total)), declared_shapes=None, stacked_results=stacked,
                    in_ports_count=2 + total, out_ports_count=total + outputs)
        rows = attr.int('max_iterations')
        steps = [_padded(b, loop.out_port(total + i), rows, 'output_{}'.format(i)) if total + i in stacked else None
                 for i in range(outputs)]
        return steps + [loop.out_port(j) for j in range(count)]


def _padded(b: Builder, steps, rows: int, tag: str):
    """``steps`` ([iterations, ...]) with rows of zeros after it up to ``rows`` rows."""
    rest = shape_slice(b, steps, 1, None, tag + '/rest')
    zeros = b.op(Broadcast, [like(b, 0, steps, tag + '/zero'), concat(b, [ints(b, [rows], tag + '/rows'), rest],
                                                                       tag + '/zeros_shape')], tag + '/zeros')
    joined = b.op(Concat, [steps, zeros], tag + '/joined', axis=0, in_ports_count=2)
    return b.op(Slice, [joined, ints(b, [0], tag + '/start'), ints(b, [rows], tag + '/stop'),
                        ints(b, [1], tag + '/step'), ints(b, [0], tag + '/axis')], tag)


class ForeachLowering(OpRule):
    """_foreach(data..., states..., inputs only read...) = TensorIterator over axis 0 of the data inputs, the
    states fed back; outputs: each step's outputs stacked on axis 0, then the final states."""
    op = 'MXforeach'

    def rewrite(self, node: Node, b: Builder):
        attr = node.pb.attr
        data, states = len(attr.tuple('in_data_locs', ()) or ()), len(attr.tuple('in_state_locs', ()) or ())
        outputs = attr.int('num_out_data', 0)
        total = len([p for p in node.in_ports() if node.is_in_port_connected(p)])
        loop = b.op(TensorIterator, [node.in_port(k) for k in range(total)], 'loop', mxnet_foreach=node.pb,
                    build_body=foreach_body, sliced=data, states=states, stacked=outputs, in_ports_count=total,
                    out_ports_count=outputs + states)
        return [loop.out_port(k) for k in range(outputs + states)]
