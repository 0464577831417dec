"""Extractors for ONNX graph inputs, initializers, Constant nodes and Identity."""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.front.common.model_inputs import make_const, make_input
from mo.ops.identity import Identity
from mo.utils.error import Error


def declared_shape_and_type(value_info, what: str):
    """``(shape with -1 for symbolic or unknown dims, or None for an unknown rank; numpy dtype)`` of a
    ValueInfoProto's tensor type."""
    kind = value_info.type.WhichOneof('value')
    if kind != 'tensor_type':
        raise Error('{} is a{} {}, not a tensor: mo converts tensor inputs only', what,
                    'n' if (kind or 'x')[0] in 'aeiou' else '', (kind or 'value of no type').replace('_type', ''))
    tensor_type = value_info.type.tensor_type
    dtype = np_dtype(tensor_type.elem_type, what)
    if not tensor_type.HasField('shape'):
        return None, dtype
    shape = [int(d.dim_value) if d.WhichOneof('value') == 'dim_value' else -1 for d in tensor_type.shape.dim]
    return shape, dtype


class ParameterExtractor(FrontExtractorOp):
    """A graph input -> Parameter (its declared shape, symbolic dims dynamic); --input/--input_shape/--batch and
    frozen values applied here."""
    op = 'Parameter'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        shape, dtype = None, np.dtype(np.float32)
        if node.soft_get('pb', None) is not None:
            shape, dtype = declared_shape_and_type(node.pb, 'Input "{}"'.format(node.soft_get('name', node.id)))
        return make_input(node, shape, dtype)


class InitializerExtractor(FrontExtractorOp):
    """An initializer -> Const (its value, a view of the file's bytes)."""
    op = 'Const'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return make_const(node, node.value)


class ConstantExtractor(FrontExtractorOp):
    """Constant -> Const from whichever attribute holds the value (value, sparse_value, value_float(s),
    value_int(s), value_string(s))."""
    op = 'Constant'
    framework = 'onnx'

    _SCALARS = (('value_float', 'f', np.float32), ('value_floats', 'floats', np.float32),
                ('value_int', 'i', np.int64), ('value_ints', 'ints', np.int64),
                ('value_string', 's', object), ('value_strings', 'strings', object))

    @classmethod
    def extract(cls, node):
        value = onnx_attr(node, 'value', 't')
        if value is None:
            value = onnx_attr(node, 'sparse_value', 'sparse_tensor')
        for name, field, dtype in cls._SCALARS:
            if value is None:
                found = onnx_attr(node, name, field)
                if found is not None:
                    value = np.array(found, dtype=dtype)
        if value is None:
            raise Error('Constant node "{}" has no value attribute', node.soft_get('name', node.id))
        return make_const(node, value)


class IdentityExtractor(FrontExtractorOp):
    """Identity -> Identity (removed by the front phase)."""
    op = 'Identity'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        Identity.update_node_stat(node, {})
        return True
