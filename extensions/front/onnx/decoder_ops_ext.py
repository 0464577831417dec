"""Extractors for the decoder building blocks of the newest opsets: CausalConvWithState (opset 27), SwiGLU (opset 28)
and TensorScatter (opset 24, the KV-cache update). Each becomes an internal op (``ONNX`` prefix) that
``decoder_ops_lowering.py`` writes as opset ops."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error


def _string_attr(node, attr: str, default: str, allowed) -> str:
    """A string attribute (case matters, as in ONNX's reference); an ``Error`` naming the node when it is not one of
    ``allowed``."""
    value = onnx_attr(node, attr, 's', default.encode())
    value = value.decode() if isinstance(value, bytes) else str(value)
    if value not in allowed:
        raise Error('{} "{}": {} "{}" is not one of {}', node.soft_get('op'), node.soft_get('name', node.id), attr,
                    value, ', '.join(allowed))
    return value


class CausalConvWithStateExtractor(FrontExtractorOp):
    """CausalConvWithState(input, weight, bias, past_state) -> Concat(past_state or zeros, input) along the length,
    a depthwise GroupConvolution without padding (+ the bias, + Swish for activation silu/swish); present_state is
    the last k - 1 positions of the concatenated sequence."""
    op = 'CausalConvWithState'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Concat, GroupConvolution (+ Add, Swish), Slice'

    @classmethod
    def extract(cls, node):
        activation = _string_attr(node, 'activation', 'none', ('none', 'silu', 'swish'))
        node['fused_swish'] = activation != 'none'
        node['op'] = 'ONNXCausalConvWithState'
        return True


class SwiGLUExtractor(FrontExtractorOp):
    """SwiGLU(A, B) = A * Sigmoid(alpha * A) * B: Swish(A) * B for alpha 1."""
    op = 'SwiGLU'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Swish (or Multiply, Sigmoid), Multiply'

    @classmethod
    def extract(cls, node):
        node['alpha'] = float(onnx_attr(node, 'alpha', 'f', 1.0))
        node['op'] = 'ONNXSwiGLU'
        return True


class TensorScatterExtractor(FrontExtractorOp):
    """TensorScatter(past_cache, update, write_indices) -> the cache with the update written along ``axis`` from each
    batch's write index (wrapping round for mode circular): a Gather (batch_dims 1) from Concat(past_cache, update);
    without write_indices, Concat(update, the rest of past_cache)."""
    op = 'TensorScatter'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Gather from Concat (or Concat, Slice)'

    @classmethod
    def extract(cls, node):
        mode = _string_attr(node, 'mode', 'linear', ('linear', 'circular'))
        axis = int(onnx_attr(node, 'axis', 'i', -2))
        if axis == 0:
            raise Error('TensorScatter "{}": axis 0 is the batch axis, it cannot be the sequence axis',
                        node.soft_get('name', node.id))
        node.attrs().update({'circular': mode == 'circular', 'axis': axis})
        node['op'] = 'ONNXTensorScatter'
        return True
