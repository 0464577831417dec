"""onnxruntime's attention-side contrib ops (``extensions.front.onnx.microsoft_attention_ext``) as opset ops, written
in the middle phase because their layouts are told apart by the ranks of their inputs."""
import numpy as np

from extensions.front.onnx.attention_lowering import rotate_heads
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.elementwise import Add
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

I64 = np.int64


def _i64(b: Builder, value, tag: str):
    return b.const(np.array(value, I64), tag, I64)


def _dim(b: Builder, x, axis: int, tag: str):
    """``shape(x)[axis]``, an int64 scalar."""
    return b.op(Gather, [b.op(ShapeOf, [x], tag + '/shape', output_type=np.dtype(I64)), _i64(b, axis, tag + '/index'),
                         _i64(b, 0, tag + '/axis')], tag)


def _shape(node: Node, port: int, op: str, what: str, ranks):
    shape = node.in_port(port).data.get_shape()
    if shape is None or len(shape) not in ranks:
        raise Error('{} "{}": {} must be of rank {}, not of shape {}', op, node.soft_get('name', node.id), what,
                    ' or '.join(str(r) for r in ranks), None if shape is None else list(shape))
    return [int(d) for d in shape]


class ONNXMSRotaryEmbeddingLowering(MiddleOpRule):
    """RotaryEmbedding(input, position_ids, cos_cache, sin_cache): the heads of input as [B, S, H, D] (3-D
    [B, S, H * D] split, 4-D [B, H, S, D] transposed) have their first rotary_embedding_dim features (all for 0)
    rotated by the cache rows at position_ids ([B, S], or one offset p: rows p .. p + S - 1)."""
    id = 'ONNXMSRotaryEmbeddingLowering'
    op = 'ONNXMSRotaryEmbedding'

    def rewrite(self, node: Node, b: Builder):
        op = 'RotaryEmbedding'
        shape = _shape(node, 0, op, 'input', (3, 4))
        half = _shape(node, 2, op, 'cos_cache', (2,))[1]
        positions = node.in_port(1).data.get_shape()
        if positions is None or len(positions) > 2 or (len(positions) < 2 and int(np.prod(positions)) != 1):
            raise Error('{} "{}": position_ids must be [batch, sequence] or one offset, not of shape {}', op, b.name,
                        None if positions is None else list(positions))
        # the head size: twice the cache's width, or hidden / num_heads with a rotary_embedding_dim
        head = 2 * half if not node.rotary_dim else shape[2] // node.num_heads if len(shape) == 3 else shape[3]
        if head <= 0:
            raise Error('{} "{}": the head size is unknown (input of shape {}, cache width {})', op, b.name, shape,
                        half)
        x = node.in_port(0).get_source()
        if len(shape) == 3:
            heads = b.op(Reshape, [x, _i64(b, [0, 0, -1, head], 'split_shape')], 'split_heads', special_zero=True)
        else:
            heads = b.op(Transpose, [x, _i64(b, [0, 2, 1, 3], 'to_bshd')], 'bshd')
        if len(positions) == 2:
            rows = node.in_port(1).get_source()
        else:
            # one offset: positions offset + [0, S) for every batch, as [1, S]
            length = _dim(b, x, 1 if len(shape) == 3 else 2, 'sequence_length')
            steps = b.op(Range, [_i64(b, 0, 'start'), length, _i64(b, 1, 'step')], 'steps', output_type=np.dtype(I64))
            offset = b.op(Reshape, [node.in_port(1), _i64(b, [1], 'offset_shape')], 'offset', special_zero=False)
            rows = b.op(Unsqueeze, [b.op(Add, [steps, offset], 'positions'), _i64(b, [0], 'batch_axis')], 'rows')
        axis = _i64(b, 0, 'cache_axis')
        cos = b.op(Gather, [node.in_port(2), rows, axis], 'cos_at')
        sin = b.op(Gather, [node.in_port(3), rows, axis], 'sin_at')
        rotary = node.rotary_dim if 0 < node.rotary_dim < head else 0
        result = rotate_heads(b, heads, cos, sin, rotary, node.interleaved)
        if len(shape) == 3:
            return b.op(Reshape, [result, b.op(ShapeOf, [x], 'input_shape', output_type=np.dtype(I64))],
                        'merge_heads', special_zero=False)
        return b.op(Transpose, [result, _i64(b, [0, 2, 1, 3], 'to_bhsd')], 'bhsd')
