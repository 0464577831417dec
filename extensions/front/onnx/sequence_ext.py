"""Extractors for ONNX's sequence and optional ops: each keeps its ONNX meaning under an ``ONNX`` name
(``ONNXSequenceAt``, ...) and its attributes, for ``extensions.front.onnx.sequence_lowering`` to resolve the
sequences at conversion time, as the TF tensor lists are."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr

SEQUENCE_OPS = ('SequenceEmpty', 'SequenceConstruct', 'SequenceInsert', 'SequenceErase', 'SequenceAt',
                'SequenceLength', 'SplitToSequence', 'ConcatFromSequence', 'Optional', 'OptionalHasElement',
                'OptionalGetElement')


class SequenceOpExtractor(FrontExtractorOp):
    """A sequence or optional op -> ``ONNX<op>`` with ``axis``, ``keepdims`` and ``new_axis``, resolved by
    ``ONNXSequenceResolution``."""
    op = list(SEQUENCE_OPS)
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node.attrs().update(op='ONNX' + node.op, axis=onnx_attr(node, 'axis', 'i', 0),
                            keepdims=onnx_attr(node, 'keepdims', 'i', 1), new_axis=onnx_attr(node, 'new_axis', 'i', 0))
        return True
