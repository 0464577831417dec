"""A sequence built inside an ONNX Loop (a Mamba-style scan exported from a Python loop appending to a list): the
loop-carried sequence starts as SequenceEmpty, the body appends one tensor to it per iteration (SequenceInsert
without a position) and after the loop ConcatFromSequence joins it. That is a Loop scan output (each iteration's
tensor stacked on a new axis 0), moved to the concatenation's axis: the sequence leaves the Loop, whose body then
outputs the appended tensor as a scan output instead of carrying the sequence.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.rule import rewrite_node
from mo.front.onnx.control_flow_ops import ONNXLoop
from mo.front.common.stacked_formulas import stacked_to_joined
from mo.graph.graph import Graph, Node


def _appended(body, k: int):
    """The name of the tensor the Loop body appends to loop-carried value ``k`` each iteration, when all it does
    with that value is ``SequenceInsert(value, tensor)`` returned as the value's next state; else None."""
    state, result = body.input[2 + k].name, body.output[1 + k].name
    readers = [n for n in body.node if state in n.input]
    producers = [n for n in body.node if result in n.output]
    if len(readers) != 1 or len(producers) != 1 or readers[0] is not producers[0]:
        return None
    insert = readers[0]
    inputs = list(insert.input)
    if insert.op_type != 'SequenceInsert' or insert.domain not in ('', 'ai.onnx') or len(inputs) < 2 or \
            inputs[0] != state or any(inputs[2:]) or state in [o.name for o in body.output]:
        return None
    if any(result in n.input for n in body.node):
        return None
    return insert


class ONNXLoopSequenceScan(FrontReplacementPattern):
    """Loop(..., SequenceEmpty, ...) whose body appends one tensor to that value per iteration and whose final
    sequence only ConcatFromSequence reads -> the same Loop with the tensor as a scan output instead, the
    ConcatFromSequence a Transpose (and a Reshape without new_axis) of it."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for loop in graph.get_op_nodes(op='ONNXLoop'):
            k = 0
            while k < int(loop.carried_count):
                if self._scan(loop, k):
                    loop = self._replace(loop, k)
                    self.match_count += 1
                else:
                    k += 1

    @staticmethod
    def _scan(loop: Node, k: int) -> bool:
        port = ONNXLoop.FIRST_VALUE + k
        if not loop.is_in_port_connected(port):
            return False
        if loop.in_port(port).get_source().node.soft_get('op') != 'ONNXSequenceEmpty':
            return False
        if loop.is_out_port_connected(k) and any(d.node.soft_get('op') != 'ONNXConcatFromSequence'
                                                 for d in loop.out_port(k).get_destinations()):
            return False
        return _appended(loop.body_proto, k) is not None

    @staticmethod
    def _replace(loop: Node, k: int) -> Node:
        body = type(loop.body_proto)()
        body.CopyFrom(loop.body_proto)
        carried = int(loop.carried_count)
        insert = _appended(body, k)
        element = insert.input[1]
        output = body.output[1 + k]
        scan_name = '{}/scan_{}'.format(output.name, k)
        # the scan output's value: an Identity, so that it is the body's own tensor even when the appended one is
        # a body input or an enclosing graph's
        # (built with the body's own protobuf classes: mo may read models with its own copy of ONNX's schema)
        body.node.remove(insert)
        identity = body.node.add()
        identity.op_type, identity.name = 'Identity', scan_name
        identity.input.append(element)
        identity.output.append(scan_name)
        element_type = output.type.sequence_type.elem_type if output.type.HasField('sequence_type') else None
        scan = body.output.add()
        scan.name = scan_name
        if element_type is not None:
            scan.type.CopyFrom(element_type)
        del body.output[1 + k]
        del body.input[2 + k]
        consumers = [d.node for d in loop.out_port(k).get_destinations()] if loop.is_out_port_connected(k) else []
        outputs = len(loop.out_ports())
        made = {}

        def rewrite(node, b):
            inputs = [node.in_port(p) if node.is_in_port_connected(p) else None for p in sorted(node.in_ports())]
            del inputs[ONNXLoop.FIRST_VALUE + k]
            new = b.op(ONNXLoop, inputs, 'loop', body_proto=body, carried_count=carried - 1,
                       onnx_outer_inputs=node.soft_get('onnx_outer_inputs', None) or [],
                       in_ports_count=len(inputs), out_ports_count=outputs)
            made['loop'] = new
            stacked = new.out_port(outputs - 1)
            for concat in consumers:
                joined = stacked_to_joined(b, stacked, int(concat.axis), bool(concat.new_axis), concat.soft_get('name'))
                concat.out_port(0).get_connection().set_source(joined.out_port(0))
                concat.graph.remove_node(concat.id)
            ports = [new.out_port(j) for j in range(outputs - 1)]
            return ports[:k] + [None] + ports[k:]
        rewrite_node(loop, rewrite, 'ONNXLoopSequenceScan')
        return made['loop']
