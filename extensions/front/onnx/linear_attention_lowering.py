"""ONNX's LinearAttention (the internal op ``ONNXLinearAttention`` of ``linear_attention_ext.py``) as a recurrence
over the sequence: a TensorIterator (``ONNXScan``, the converter of ONNX's Scan) whose body is an ONNX graph
written here, one step per token, in float32 (as ONNX's reference accumulates whatever the input type)::

    S = exp(g_t) * S                                   (gated, gated_delta; g per key dimension or per head)
    w = beta_t * (v_t - S^T k_t)   or   w = v_t        (delta, gated_delta)
    S = S + k_t (x) w;   o_t = q_t^T S                 (query head h reads key/value head h // (H_q / H_kv))

Around it: the packed [B, T, H * D] inputs split into heads ([B, T, H, D]: the body gets [B, H, D] per step),
the state started from past_state or zeros [B, H_kv, d_k, d_v], the outputs scaled (scale, or 1 / sqrt(d_k) with
d_k = query's last dimension / q_num_heads) and cast back: output to query's type, present_state to past_state's
(query's without one).

The body is an ONNX graph so that the Scan converter gives its inputs their shapes and types and converts it
as any body; it reads nothing of the enclosing graph, so every shape in it is known when the outer ones are.
"""
import numpy as np

from extensions.front.onnx.linear_attention_ext import UPDATE_RULES
from mo.front.common.nn_formulas import I64
from mo.front.onnx.control_flow_ops import ONNXScan
from mo.front.common.rule import Builder, OpRule
from mo.front.onnx.proto import ATTRIBUTE_TYPE, DATA_TYPE, GraphProto
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Div, Mul
from mo.ops.reshape import Reshape
from mo.utils.error import Error

F32 = np.float32


class _BodyWriter:
    """Writes the nodes of an ONNX graph: ``node(op_type, inputs)`` returns the output's name."""

    def __init__(self, name: str):
        self.graph = GraphProto()
        self.graph.name = name
        self.count = 0

    def input(self, name: str) -> str:
        self.graph.input.add().name = name  # no type: the Scan converter gives the enclosing graph's
        return name

    def node(self, op_type: str, inputs, **attrs) -> str:
        self.count += 1
        pb = self.graph.node.add()
        pb.op_type, pb.name = op_type, '{}_{}'.format(op_type, self.count)
        output = 't{}_{}'.format(self.count, op_type)
        pb.input.extend(inputs)
        pb.output.append(output)
        for key, value in attrs.items():
            attr = pb.attribute.add()
            attr.name = key
            attr.type = ATTRIBUTE_TYPE.values_by_name['INTS'].number
            attr.ints.extend(value)
        return output

    def ints(self, values) -> str:
        """A Constant node holding ``values`` (int64, 1-D)."""
        self.count += 1
        pb = self.graph.node.add()
        pb.op_type, pb.name = 'Constant', 'Constant_{}'.format(self.count)
        output = 't{}_const'.format(self.count)
        pb.output.append(output)
        attr = pb.attribute.add()
        attr.name, attr.type = 'value', ATTRIBUTE_TYPE.values_by_name['TENSOR'].number
        attr.t.data_type = DATA_TYPE.values_by_name['INT64'].number
        attr.t.dims.append(len(values))
        attr.t.int64_data.extend(int(v) for v in values)
        return output

    def output(self, name: str):
        self.graph.output.add().name = name


def step_body(gated: bool, delta: bool, q_heads: int, kv_heads: int) -> GraphProto:
    """The Scan body of one step: inputs S [B, Hkv, dk, dv], q [B, Hq, dk], k [B, Hkv, dk], v [B, Hkv, dv], then
    decay [B, Hkv, dk or 1] (gated) and beta [B, Hkv or 1, 1] (delta); outputs the new S and o [B, Hq, dv]."""
    w = _BodyWriter('linear_attention_step')
    state, q, k, v = (w.input(n) for n in ('state', 'q_t', 'k_t', 'v_t'))
    decay = w.input('decay_t') if gated else None
    beta = w.input('beta_t') if delta else None
    last, before_last = w.ints([-1]), w.ints([-2])
    v_row = w.node('Unsqueeze', [v, before_last])                     # [B, Hkv, 1, dv]
    if gated:
        # exp(g) scales the rows of S (one per key dimension, or all rows of a head alike)
        state = w.node('Mul', [state, w.node('Unsqueeze', [w.node('Exp', [decay]), last])])
    write = v_row
    if delta:
        retrieved = w.node('MatMul', [w.node('Unsqueeze', [k, before_last]), state])    # (S^T k)^T: [B, Hkv, 1, dv]
        write = w.node('Mul', [w.node('Sub', [v_row, retrieved]), w.node('Unsqueeze', [beta, last])])
    new_state = w.node('Add', [state, w.node('MatMul', [w.node('Unsqueeze', [k, last]), write])])
    # the query heads of a group read their key/value head's state: [B, Hkv, G, dk] @ [B, Hkv, dk, dv]
    grouped = w.node('Reshape', [q, w.ints([0, kv_heads, q_heads // kv_heads, -1])])
    read = w.node('MatMul', [grouped, new_state])
    w.output(new_state)
    w.output(w.node('Reshape', [read, w.ints([0, q_heads, -1])]))
    return w.graph


class ONNXLinearAttentionLowering(OpRule):
    """LinearAttention = the step recurrence of the module docstring over the sequence (a TensorIterator)."""
    op = 'ONNXLinearAttention'

    def rewrite(self, node: Node, b: Builder):
        gated, delta = UPDATE_RULES[node.update_rule]
        for port, needed, what in ((4, gated, 'decay'), (5, delta, 'beta')):
            if needed and not node.is_in_port_connected(port):
                raise Error('LinearAttention "{}": update_rule "{}" needs the {} input', b.name, node.update_rule,
                            what)
        q_heads, kv_heads = node.q_num_heads, node.kv_num_heads

        def heads(port, count, tag):
            """Input ``port`` [B, T, count * D] as float32 [B, T, count, D]."""
            x = b.op(Convert, [node.in_port(port)], tag + '_f32', dst_type=F32)
            return b.op(Reshape, [x, b.const([0, 0, count, -1], tag + '_heads_shape', I64)], tag + '_heads',
                        special_zero=True)

        q, k, v = heads(0, q_heads, 'query'), heads(1, kv_heads, 'key'), heads(2, kv_heads, 'value')
        steps = [q, k, v]
        if gated:
            steps.append(heads(4, kv_heads, 'decay'))       # [B, T, Hkv, dk or 1]
        if delta:
            beta = b.op(Convert, [node.in_port(5)], 'beta_f32', dst_type=F32)
            steps.append(b.op(Reshape, [beta, b.const([0, 0, -1, 1], 'beta_shape', I64)], 'beta_heads',
                              special_zero=True))           # [B, T, Hkv or 1, 1]
        if node.is_in_port_connected(3):
            state = b.op(Convert, [node.in_port(3)], 'past_state_f32', dst_type=F32)
        else:
            shape = b.concat([b.dim_of(k, [0], 'batch'), b.const([kv_heads], 'kv_heads', I64),
                               b.dim_of(q, [3], 'd_k'),
                               b.dim_of(v, [3], 'd_v')], 'state_shape')
            state = b.op(Broadcast, [b.const(0.0, 'zero_state', F32), shape], 'initial_state')
        body = step_body(gated, delta, q_heads, kv_heads)
        scan = b.op(ONNXScan, [state] + steps, 'recurrence', body_proto=body, state_count=1,
                    scan_input_count=len(steps), scan_input_axes=[1] * len(steps), scan_input_directions=[],
                    scan_output_axes=[1], scan_output_directions=[], onnx_outer_inputs=[],
                    in_ports_count=1 + len(steps), out_ports_count=2)
        if node.scale:
            scale = b.const(node.scale, 'scale', F32)
        else:
            size = b.op(Convert, [b.dim_of(q, 3, 'head_size')], 'head_size_f32', dst_type=F32)
            scale = b.op(Div, [b.const(1.0, 'one', F32), b.op(Sqrt, [size], 'sqrt_head_size')], 'default_scale')
        merged = b.op(Reshape, [scan.out_port(1), b.const([0, 0, -1], 'merge_shape', I64)], 'merge_heads',
                      special_zero=True)
        output = b.op(ConvertLike, [b.op(Mul, [merged, scale], 'scaled'), node.in_port(0)], 'output')
        state_type = node.in_port(3) if node.is_in_port_connected(3) else node.in_port(0)
        present = b.op(ConvertLike, [scan.out_port(0), state_type], 'present_state')
        return [output, present]
