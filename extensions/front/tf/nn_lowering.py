"""Front replacers that finish TF ops whose opset form needs extra inputs or nodes:
Selu's constants, LeakyRelu as PRelu, the resize axes of Interpolate, ArgMax/ArgMin as TopK, BatchMatMulV3's
Tout and TopKV2's int16 index_type as Converts.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.convert import Convert
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import Interpolate, PRelu, TopK
from mo.ops.squeeze import Squeeze
from mo.utils.error import Error


class SeluConstInputs(OpRule):
    """opset Selu reads alpha and lambda from inputs 1 and 2; the extractor left them as attributes. They are of
    the data's type (opset Selu requires one type: float16 and float64 Selu with float32 constants is refused)."""
    op = 'Selu'

    def matches(self, node: Node) -> bool:
        return not node.is_in_port_connected(1) and node.has_valid('alpha')

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.soft_get('selu_type', None) or node_dtype(node))
        for port, attr in ((1, 'alpha'), (2, 'lambda')):
            b.const([node[attr]], attr, dtype).out_port(0).connect(node.in_port(port))
        return node


class LeakyReluToPRelu(OpRule):
    """LeakyRelu(alpha) is PRelu with a one-element slope (also right for alpha > 1)."""
    op = 'LeakyReLU'

    def rewrite(self, node: Node, b: Builder):
        return b.op(PRelu, [node.in_port(0), b.const([node.alpha], 'PRelu/port_1', np.float32)], 'PRelu')


#: the image types OpenVINO's Interpolate takes (TF's nearest resize also takes int16 and uint16)
_INTERPOLATE_TYPES = {np.dtype(t) for t in (np.float32, np.float16, np.float64, np.int8, np.uint8, np.int32,
                                            np.int64)}
_F32 = np.dtype(np.float32)


class ResizeAxesInput(OpRule):
    """TF resizes act on the image axes of NHWC data: give Interpolate those axes on input 2.

    And TF's output type: ResizeBilinear returns float32 whatever the image's type (its kernel reads each pixel
    as a float), ResizeNearestNeighbor the image's type. So a bilinear resize of another type resizes the image
    Converted to f32, and a nearest resize of a type Interpolate does not take (int16, uint16) resizes it as
    int32 (lossless: nearest only copies pixels) and Converts the result back.
    """
    op = 'Interpolate'

    def matches(self, node: Node) -> bool:
        return node.soft_get('tf_resize_axes', None) is not None and not node.is_in_port_connected(2)

    def rewrite(self, node: Node, b: Builder):
        axes = b.const(node.tf_resize_axes, 'axes', np.int64)
        node['tf_resize_axes'] = None
        image_type = node_dtype(node)
        output_type = image_type if node.mode == 'nearest' else _F32
        compute_type = output_type if output_type in _INTERPOLATE_TYPES else np.dtype(np.int32)
        if image_type == compute_type == output_type:
            axes.out_port(0).connect(node.in_port(2))
            return node
        image = b.op(Convert, [node.in_port(0)], 'image', dst_type=compute_type)
        attrs = {k: node[k] for k in ('mode', 'shape_calculation_mode', 'coordinate_transformation_mode',
                                      'nearest_mode', 'antialias', 'cube_coeff', 'data_type')}
        resized = b.op(Interpolate, [image, node.in_port(1), axes], 'resize', **attrs)
        if compute_type == output_type:
            return resized
        return b.op(Convert, [resized], 'output', dst_type=output_type)


class ArgMaxToTopK(OpRule):
    """ArgMax(x, axis) = Squeeze(TopK(x, k=1, axis).indices, axis); TopK is stable, so ties pick
    the first index as TensorFlow does. The axis must be constant.

    TopK's indices are i32 or i64 only: TF's int16/uint16 ``output_type`` takes i32 indices Converted
    (TF's kernel casts the same way, and an axis longer than the type wraps there too). TopK does not
    order booleans, so bool data is compared as u8 (false < true, as TF orders them).
    """
    op = 'ArgMax'

    def rewrite(self, node: Node, b: Builder):
        axis_src = b.input(1)
        if axis_src is None or axis_src.node.soft_get('op') != 'Const' or not axis_src.node.has_valid('value'):
            raise Error('{} "{}": the axis must be a constant to be converted', node.op, b.name)
        axis = int(np.ravel(axis_src.node.value)[0])
        index_type = np.dtype(node.output_type)
        if index_type not in _INDEX_TYPES:
            raise Error('ArgMax "{}": output type {} is not supported (int16, uint16, int32 or int64)', b.name,
                        index_type)
        data = node.in_port(0)
        if np.dtype(node.soft_get('data_type', None) or np.float32) == np.bool_:
            data = b.op(Convert, [data], 'as_u8', dst_type=np.dtype(np.uint8))
        topk_type = np.dtype(np.int64) if index_type == np.int64 else np.dtype(np.int32)
        topk = b.op(TopK, [data, b.const(1, 'TopK/port_1', np.int64)], 'TopK', axis=axis,
                    mode=node.mode, sort='value', stable=True,
                    index_element_type='i32' if topk_type == np.int32 else 'i64')
        indices = b.op(Squeeze, [topk.out_port(1), b.const([axis], 'squeeze/port_1', np.int64)], 'squeeze')
        if index_type != topk_type:
            indices = b.op(Convert, [indices], 'as_output_type', dst_type=index_type)
        return indices


#: the ``output_type``s TF registers ArgMax kernels for
_INDEX_TYPES = tuple(np.dtype(t) for t in (np.int16, np.uint16, np.int32, np.int64))


class MatMulResultType(OpRule):
    """BatchMatMulV3 with a Tout other than its operands' types (int8 or uint8 operands, int32 result):
    MatMul(Convert(x, Tout), Convert(y, Tout)). TF's kernel accumulates in Tout the same way, so the products
    of 8-bit operands cannot overflow before they are summed."""
    op = 'MatMul'

    def matches(self, node: Node) -> bool:
        return node.soft_get('tf_result_type', None) is not None

    def rewrite(self, node: Node, b: Builder):
        result_type = np.dtype(node.tf_result_type)
        operands = [b.op(Convert, [node.in_port(port)], name, dst_type=result_type)
                    for port, name in ((0, 'x'), (1, 'y'))]
        return b.op(MatMul, operands, 'matmul', transpose_a=node.transpose_a, transpose_b=node.transpose_b)


class TopKIndexType(OpRule):
    """TopKV2 with index_type int16: opset TopK writes i32 or i64 indices only, so the i32 indices are
    Converted to int16 (TF's kernel narrows its indices the same way)."""
    op = 'TopK'

    def matches(self, node: Node) -> bool:
        return node.soft_get('tf_index_type', None) is not None

    def rewrite(self, node: Node, b: Builder):
        attrs = {k: node[k] for k in ('axis', 'mode', 'sort', 'stable')}
        topk = b.op(TopK, [node.in_port(0), node.in_port(1)], 'TopK', index_element_type='i32', **attrs)
        indices = b.op(Convert, [topk.out_port(1)], 'indices', dst_type=np.dtype(node.tf_index_type))
        return [topk.out_port(0), indices]
