"""Extractor for ONNX's reductions (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
ReduceLogSum, ReduceLogSumExp, ReduceSumSquare).

The axes are an attribute up to a version and the optional input 1 after it (ReduceSum from opset 13, the others
from 18); ``noop_with_empty_axes`` came with the input. The node becomes the internal op ``ONNXReduce`` and
``math_lowering.ReduceLowering`` builds it.
"""
from extensions.front.onnx.elementwise_ext import input_dtype
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr

#: reduction -> the first opset in which its axes are input 1
AXES_INPUT_SINCE = {'ReduceSum': 13, 'ReduceMean': 18, 'ReduceMax': 18, 'ReduceMin': 18, 'ReduceProd': 18,
                    'ReduceL1': 18, 'ReduceL2': 18, 'ReduceLogSum': 18, 'ReduceLogSumExp': 18,
                    'ReduceSumSquare': 18}


class ReduceExtractor(FrontExtractorOp):
    """ReduceX -> ``ONNXReduce`` (``reduction``, ``keep_dims``, ``axes`` from the attribute or None,
    ``noop_with_empty_axes``, the data's element type where the model states it)."""
    op = sorted(AXES_INPUT_SINCE)
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        axes_input = get_onnx_opset_version(node) >= AXES_INPUT_SINCE[node.op]
        node.attrs().update({
            'reduction': node.op, 'keep_dims': bool(onnx_attr(node, 'keepdims', 'i', 1)),
            'axes': None if axes_input else onnx_attr(node, 'axes', 'ints', None),
            'noop_with_empty_axes': axes_input and bool(onnx_attr(node, 'noop_with_empty_axes', 'i', 0)),
            'data_type': input_dtype(node, 0),  # bool ReduceMax/Min (opset 20) are any/all
        })
        node['op'] = 'ONNXReduce'
        return True
