"""Convert (opset1): casts a tensor to ``destination_type``, with TensorFlow's Cast semantics.

Float to integer truncates toward zero and anything to bool is ``x != 0``; numpy's ``astype`` does
both, so it folds constants exactly as TensorFlow computes them.
"""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.utils.error import Error

#: numpy dtype -> IR element type name
_IR_TYPES = {
    np.dtype(np.float16): 'f16', np.dtype(np.float32): 'f32', np.dtype(np.float64): 'f64',
    np.dtype(np.int8): 'i8', np.dtype(np.int16): 'i16', np.dtype(np.int32): 'i32', np.dtype(np.int64): 'i64',
    np.dtype(np.uint8): 'u8', np.dtype(np.uint16): 'u16', np.dtype(np.uint32): 'u32', np.dtype(np.uint64): 'u64',
    np.dtype(np.bool_): 'boolean',
}


def ir_element_type(dtype) -> str:
    """The IR's name (``f32``, ``i64``, ``boolean``...) of numpy ``dtype``."""
    try:
        return _IR_TYPES[np.dtype(dtype)]
    except KeyError:
        raise Error('Data type {} has no IR element type', np.dtype(dtype)) from None


class Convert(Op):
    """Output 0 is input 0 converted to ``dst_type`` (a numpy dtype)."""
    op = 'Cast'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Convert', 'op': 'Cast', 'version': 'opset1', 'dst_type': np.float32,
            'infer': Convert.infer, 'type_infer': Convert.type_infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('destination_type', lambda node: ir_element_type(node.dst_type))]

    @staticmethod
    def infer(node):
        dst_type = np.dtype(node.dst_type)
        copy_shape_infer(node, lambda value: np.asarray(value).astype(dst_type))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.dst_type)
