"""ONNX's FlexAttention (the internal op ``ONNXFlexAttention`` of ``flex_attention_ext.py``) as opset ops::

    scores = (Q * sqrt(scale)) @ (K * sqrt(scale))^T          in the inputs' type, K and V heads repeated (GQA)
    Y = (prob_mod(Softmax(score_mod(scores in P))) @ V in P) in V's type

with P the softmax precision (the attribute, else float32, double for double inputs; the scale's square root
taken in float32, as ONNX's reference does). The modifier graphs are inlined: their nodes are loaded and extracted
as the model's are and put in the graph, their input bound to the scores (probabilities), the enclosing tensors
they read to the node's inputs after Q, K, V (``onnx_outer_inputs``). This rule runs first among the front steps,
so the other front rules see the inlined nodes.
"""
import numpy as np

from extensions.front.onnx.attention_lowering import _repeat_heads
from extensions.load.onnx.loader import ONNXExtractor
from mo.front.common.rule import Builder, OpRule
from mo.front.onnx.loader import OPSETS, TENSORS, protobuf2nx
from mo.graph.graph import Graph, Node
from mo.ops.activation_ops import Sqrt
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Div, Mul
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import Softmax
from mo.ops.op import Op
from mo.utils.error import Error

F32 = np.float32


class ONNXSoftmaxPrecisionZero(Op):
    """A zero scalar in FlexAttention's default softmax precision for input 0's type: double for double, float32
    otherwise. Its value is known at inference, so it folds to a Const (it never reaches the IR)."""
    op = 'ONNXSoftmaxPrecisionZero'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': self.op, 'infer': self.infer, 'type_infer': self.type_infer,
                                 'in_ports_count': 1, 'out_ports_count': 1}, attrs)

    @staticmethod
    def _dtype(node):
        dtype = node.in_port(0).data.get_data_type()
        return None if dtype is None else np.dtype(np.float64 if np.dtype(dtype) == np.float64 else F32)

    @staticmethod
    def infer(node):
        dtype = ONNXSoftmaxPrecisionZero._dtype(node)
        if dtype is None:
            raise Error('FlexAttention "{}": the type of Q is unknown', node.soft_get('name', node.id))
        node.out_port(0).data.set_value(np.zeros((), dtype))

    @staticmethod
    def type_infer(node):
        dtype = ONNXSoftmaxPrecisionZero._dtype(node)
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)


class ONNXFlexAttentionLowering(OpRule):
    """FlexAttention = Softmax of the scaled, modified scores, modified, times V (see the module docstring)."""
    op = 'ONNXFlexAttention'

    def rewrite(self, node: Node, b: Builder):
        q, k, v = node.in_port(0), node.in_port(1), node.in_port(2)
        if node.scale is None:
            size = b.op(Convert, [b.dim_of(q, 3, 'head_size')], 'head_size_f32', dst_type=F32)
            scale = b.op(Div, [b.const(1.0, 'one', F32), b.op(Sqrt, [size], 'sqrt_head_size')], 'default_scale')
        else:
            scale = b.const(node.scale, 'scale', F32)
        root = b.op(ConvertLike, [b.op(Sqrt, [scale], 'sqrt_scale_f32'), q], 'sqrt_scale')
        q_scaled = b.op(Mul, [q, root], 'q_scaled')
        k_scaled = b.op(Mul, [k, root], 'k_scaled')
        k_grouped, v_grouped = _repeat_heads(b, k_scaled, q, 'key_groups'), _repeat_heads(b, v, q, 'value_groups')
        scores = b.op(MatMul, [q_scaled, k_grouped], 'qk', transpose_b=True)
        if node.softmax_precision is not None:
            precision = b.const(np.zeros((), node.softmax_precision), 'softmax_precision')
        else:
            precision = b.op(ONNXSoftmaxPrecisionZero, [q], 'softmax_precision')
        scores = b.op(ConvertLike, [scores, precision], 'scores')
        if node.score_mod is not None:
            scores = inline_modifier(b, node, node.score_mod, scores, 'score_mod')
        probs = b.op(Softmax, [scores], 'probs', axis=-1)
        if node.prob_mod is not None:
            probs = inline_modifier(b, node, node.prob_mod, probs, 'prob_mod')
        values = b.op(ConvertLike, [v_grouped, precision], 'values')
        y = b.op(MatMul, [probs, values], 'attention')
        return b.op(ConvertLike, [y, v], 'output')


def inline_modifier(b: Builder, node: Node, graph_proto, source, tag: str):
    """The nodes of ``graph_proto`` (one input, one output) put in ``node``'s graph with the input bound to
    ``source`` (a node or output port); returns the output port. Its nodes are named ``<node name>/<tag>/...``."""
    graph = node.graph
    outer_names = list(node.soft_get('onnx_outer_inputs', None) or [])
    body = Graph(cmd_params=graph.graph.get('cmd_params'), source_format='onnx', layout='NCHW')
    for attr in (OPSETS, 'onnx_functions', 'onnx_ir_version', 'onnx_model_path'):
        if attr in graph.graph:
            body.graph[attr] = graph.graph[attr]
    protobuf2nx(body, graph_proto, outer_tensors=set(outer_names))
    tensors = body.graph[TENSORS]
    # the modifier's input and the enclosing tensors it reads: (node, output port) here
    source = source.out_port(0) if isinstance(source, Node) else source
    bound = {tensors[graph_proto.input[0].name][0]: (source.node.id, source.idx)}
    for name, param_id in body.graph.get('onnx_outer_tensors', {}).items():
        outer = node.in_port(3 + outer_names.index(name)).get_source()
        bound[param_id] = (outer.node.id, outer.idx)
    reads = [(src, dst, attrs) for src, dst, attrs in body.edges(data=True) if src in bound]
    body.remove_nodes_from(list(bound))
    ONNXExtractor().find_and_replace_pattern(body)
    output_name = graph_proto.output[0].name
    if output_name not in tensors:
        raise Error('FlexAttention "{}": {} returns "{}", which none of its nodes produces', b.name, tag,
                    output_name)
    ids = {}
    for old_id, attrs in list(body.nodes(data=True)):
        new_id = graph.unique_id('{}/{}/{}'.format(b.name, tag, attrs.get('name', old_id)))
        graph.add_node(new_id, **dict(attrs, name=new_id))
        ids[old_id] = new_id
    for src, dst, attrs in body.edges(data=True):
        graph.add_edge(ids[src], ids[dst], **attrs)
    for src, dst, attrs in reads:
        outer_id, port = bound[src]
        graph.add_edge(outer_id, ids[dst], **dict(attrs, out=port))
    source_id, port = tensors[output_name]
    if source_id in bound:
        source_id, port = bound[source_id]
        return Node(graph, source_id).out_port(port)
    return Node(graph, ids[source_id]).out_port(port)
