"""Extractor for ONNX's BitCast (opset 26)."""
from extensions.front.onnx.tensor_ext import node_name, onnx_type_attr
from extensions.ops.bitcast import Bitcast
from mo.front.extractor import FrontExtractorOp
from mo.utils.error import Error


class BitCastExtractor(FrontExtractorOp):
    """BitCast(x, to) -> the internal Bitcast (``extensions/middle/bitcast_lowering.py`` writes it with opset13 ops
    once the input's type is known: a Convert between integers, exact formulas between float16/float32 and
    16/32-bit integers). ONNX requires ``to`` to have the input's width; the middle rule checks it."""
    op = 'BitCast'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        dst_type = onnx_type_attr(node, 'to')
        if dst_type is None:
            raise Error('BitCast "{}" has no "to" attribute', node_name(node))
        Bitcast.update_node_stat(node, {'dst_type': dst_type})
        return True
