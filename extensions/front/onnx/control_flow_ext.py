"""Extractors for ONNX's control flow: If -> If (opset8), Loop -> Loop (opset5), Scan -> TensorIterator
(opset1), their bodies still GraphProtos (converted when the op is inferred, see
``mo.front.onnx.control_flow_ops``). The tensors of the enclosing graphs a body reads are inputs of the node
after its own (``onnx_outer_inputs``, added by the loader)."""
import numpy as np

from mo.front.onnx.control_flow_ops import ONNXIf, ONNXLoop, ONNXScan
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.graph.graph import Node
from mo.utils.error import Error


def _body(node, attr: str):
    body = onnx_attr(node, attr, 'g')
    if body is None:
        raise Error('{} "{}" has no {} attribute', node.op, node.soft_get('name', node.id), attr)
    return body


def _ports(node) -> dict:
    return {'in_ports_count': len(node.pb.input) + len(node.soft_get('onnx_outer_inputs', None) or []),
            'out_ports_count': len(node.pb.output)}


class IfExtractor(FrontExtractorOp):
    """If -> If (opset8): then_branch and else_branch become then_body and else_body."""
    op = 'If'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        ONNXIf.update_node_stat(node, dict(_ports(node), then_graph_proto=_body(node, 'then_branch'),
                                           else_graph_proto=_body(node, 'else_branch')))
        return True


class LoopExtractor(FrontExtractorOp):
    """Loop -> Loop (opset5), once ``ONNXLoopInputs`` has given it OpenVINO's inputs."""
    op = 'Loop'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        if len(node.pb.input) < 2:
            raise Error('Loop "{}" has {} inputs; ONNX\'s Loop has at least 2 (M and cond, either left empty)',
                        node.soft_get('name', node.id), len(node.pb.input))
        node.attrs().update(_ports(node), op='ONNXLoopNode', body_proto=_body(node, 'body'),
                            carried_count=len(node.pb.input) - 2)
        return True


class ONNXLoopInputs(OpRule):
    """Loop(M, cond, v..., outer...) -> Loop(M or -1, cond or true, the same cond for the body's cond input,
    v..., outer...): a trip count and a first condition always given, as OpenVINO's Loop takes them."""
    op = 'ONNXLoopNode'

    def rewrite(self, node: Node, b: Builder):
        trips = b.input(0) if b.input(0) is not None else b.const(-1, 'no_trip_count', np.int64)
        condition = b.input(1) if b.input(1) is not None else b.const(True, 'always', np.bool_)
        carried = int(node.carried_count)
        rest = [b.input(2 + k) for k in range(carried + len(node.soft_get('onnx_outer_inputs', None) or []))]
        if any(item is None for item in rest[:carried]):
            raise Error('Loop "{}": a loop-carried value\'s initial value is left empty', b.name)
        loop = b.op(ONNXLoop, [trips, condition, condition] + rest, 'loop', body_proto=node.body_proto,
                    carried_count=carried, onnx_outer_inputs=node.soft_get('onnx_outer_inputs', None) or [],
                    in_ports_count=3 + len(rest), out_ports_count=len(node.pb.output))
        return [loop.out_port(k) for k in range(len(node.pb.output))]


class ScanExtractor(FrontExtractorOp):
    """Scan (opset 9+) -> TensorIterator (opset1): num_scan_inputs, scan_input_axes/directions,
    scan_output_axes/directions become the port maps' slicing."""
    op = 'Scan'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        if get_onnx_opset_version(node) < 9:
            raise Error('Scan "{}": Scan-8 (a batch axis and sequence_lens) is not supported; re-export the model '
                        'with opset 9 or newer', name)
        scans = onnx_attr(node, 'num_scan_inputs', 'i')
        if scans is None or not 0 < scans <= len(node.pb.input):
            raise Error('Scan "{}": num_scan_inputs is {} for {} inputs', name, scans, len(node.pb.input))
        states = len(node.pb.input) - scans
        attrs = {'scan_input_axes': onnx_attr(node, 'scan_input_axes', 'ints', []),
                 'scan_input_directions': onnx_attr(node, 'scan_input_directions', 'ints', []),
                 'scan_output_axes': onnx_attr(node, 'scan_output_axes', 'ints', []),
                 'scan_output_directions': onnx_attr(node, 'scan_output_directions', 'ints', [])}
        for key, values in attrs.items():
            if key.endswith('directions') and any(v not in (0, 1) for v in values):
                raise Error('Scan "{}": {} must hold 0 (forward) or 1 (reverse), not {}', name, key, values)
        ONNXScan.update_node_stat(node, dict(_ports(node), body_proto=_body(node, 'body'), state_count=states,
                                             scan_input_count=scans, **attrs))
        return True
