"""Extractors for a Paddle program's feeds (``Parameter``), parameters (``Const``) and the ops that only pass a
value on (``assign``, inference ``dropout``, ``share_data``)."""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.ops.const import Const
from mo.ops.identity import Identity
from mo.ops.parameter import Parameter
from mo.utils.error import Error


class ParameterExtractor(FrontExtractorOp):
    """A fed var -> Parameter of the var's shape (-1 dims dynamic) and type; --input/--input_shape/--batch and
    frozen values applied here."""
    op = 'Parameter'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        var = node.soft_get('pb', None)
        shape = list(var.shape) if var is not None and var.shape is not None else None
        dtype = np.dtype(var.dtype) if var is not None and var.dtype is not None else np.dtype(np.float32)
        if node.soft_get('user_shape', None) is not None:
            shape = list(node.user_shape)
        if node.soft_get('user_dtype', None) is not None:
            dtype = np.dtype(node.user_dtype)
        if node.soft_get('user_batch', None) is not None and shape:
            shape = [node.user_batch] + list(shape[1:])
        frozen = node.soft_get('user_value', None)
        if frozen is not None:
            value = np.asarray(frozen, dtype=dtype)
            if shape is not None and list(value.shape) != list(shape):
                if any(d < 0 for d in shape) or value.size != int(np.prod(shape)):
                    raise Error('--input: the value for "{}" has shape {} but the input has shape {}', name,
                                list(value.shape), list(shape))
                value = value.reshape(shape)
            Const.update_node_stat(node, {'value': value, 'shape': np.array(value.shape, np.int64),
                                          'data_type': value.dtype})
            return True
        if shape is None:
            raise Error('Input "{}" has an unknown rank; give its shape with --input "{}[...]"', name, name)
        Parameter.update_node_stat(node, {'shape': np.array(shape, dtype=np.int64), 'data_type': dtype})
        return True


class ParamsExtractor(FrontExtractorOp):
    """A persistable var -> Const (its value, a view of the mapped params file)."""
    op = 'Const'

    @classmethod
    def extract(cls, node):
        value = node.value
        Const.update_node_stat(node, {'value': value, 'shape': np.array(value.shape, dtype=np.int64),
                                      'data_type': value.dtype})
        return True


class PassThroughExtractor(FrontExtractorOp):
    """assign, share_data, memcpy (a copy between devices, left by Paddle's inference passes) -> Identity (removed
    by the front phase)."""
    op = ['assign', 'share_data', 'memcpy', 'memcpy_h2d', 'memcpy_d2h']

    @classmethod
    def extract(cls, node):
        Identity.update_node_stat(node, {})
        return True
