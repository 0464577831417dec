"""Extractor for ONNX's BitShift."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.bitwise import IntegerShift
from mo.utils.error import Error


class BitShiftExtractor(FrontExtractorOp):
    """BitShift(X, Y, direction=LEFT|RIGHT) -> IntegerShift (``extensions/middle/bitshift_lowering.py`` writes it
    with opset13 ops). Opset 11 defines it on unsigned types; later opsets add the signed ones with an arithmetic
    right shift and define amounts outside ``[0, bits)``: the sign extension alone (0, or -1 for a right shift of a
    negative X), which is also what onnxruntime gives for unsigned types in opset 11."""
    op = 'BitShift'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        direction = onnx_attr(node, 'direction', 's', b'')
        direction = direction.decode() if isinstance(direction, bytes) else str(direction)
        if direction not in ('LEFT', 'RIGHT'):
            raise Error('BitShift "{}": direction must be LEFT or RIGHT, not "{}"', node.soft_get('name', node.id),
                        direction)
        IntegerShift.update_node_stat(node, {'direction': direction.lower(), 'out_of_range': 'fill'})
        return True
