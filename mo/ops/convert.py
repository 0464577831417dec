"""Convert (opset1): casts a tensor to ``destination_type``, with TensorFlow's Cast semantics.

Float to integer truncates toward zero and anything to bool is ``x != 0``; numpy's ``astype`` does
both, so it folds constants exactly as TensorFlow computes them.

The narrow types (``ml_dtypes``' bfloat16, float8_e4m3fn, float8_e5m2, int4, uint4) fold as OpenVINO's CPU
plugin converts: to bf16 and f8 round to nearest even, with no saturation (f8e4m3 overflows to NaN, f8e5m2
to inf; ONNX Cast's ``saturate`` is a clamp before the Convert); to i4/u4 keeps the low 4 bits of the
integer (truncated toward zero). ``astype`` computes exactly these, but for NaN to f4e2m1 (no NaN in the type):
the plugin gives 6, as ONNX's float4 spec does, ``astype`` -0.
"""
import numpy as np

from mo.back.ir.ir_types import element_type
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.utils.error import Error


def ir_element_type(dtype) -> str:
    """The IR's name (``f32``, ``i64``, ``boolean``, ``bf16``, ``i4``...) of numpy ``dtype``."""
    try:
        return element_type(dtype)
    except Error:
        raise Error('Data type {} has no IR element type', np.dtype(dtype)) from None


def _converted(value: np.ndarray, dst_type: np.dtype) -> np.ndarray:
    if dst_type.name == 'float4_e2m1fn' and value.dtype.kind not in 'biu':
        with np.errstate(invalid='ignore'):
            value = np.where(np.isnan(value.astype(np.float32)), np.float32(6), value)
    return value.astype(dst_type)



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
        copy_shape_infer(node, lambda value: _converted(np.asarray(value), dst_type))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.dst_type)


class ConvertLike(Op):
    """Input 0 converted to the element type of input 1 (ONNX's CastLike)."""
    op = 'ConvertLike'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ConvertLike', 'op': 'ConvertLike', 'version': 'opset1',
            'infer': ConvertLike.infer, 'type_infer': ConvertLike.type_infer,
            'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        value = node.in_port(0).data.get_value()
        dtype = node.in_port(1).data.get_data_type()
        if value is not None and dtype is not None:
            node.out_port(0).data.set_value(np.asarray(value).astype(dtype))
        else:
            node.out_port(0).data.set_shape(shape)

    @staticmethod
    def type_infer(node):
        dtype = node.in_port(1).data.get_data_type()
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)
