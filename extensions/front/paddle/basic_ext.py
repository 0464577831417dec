"""Extractors for a Paddle program's feeds (``Parameter``), parameters (``Const``) and the ops that only pass a
value on (``assign``, inference ``dropout``, ``share_data``)."""
import numpy as np

from mo.front.common.model_inputs import make_const, make_input
from mo.front.extractor import FrontExtractorOp
from mo.ops.const import Const
from mo.ops.identity import Identity
from mo.ops.parameter import Parameter


class ParameterExtractor(FrontExtractorOp):
    """A fed var -> Parameter of the var's shape (-1 dims dynamic) and type; --input/--input_shape/--batch and
    frozen values applied here."""
    op = 'Parameter'

    @classmethod
    def extract(cls, node):
        var = node.soft_get('pb', None)
        shape = list(var.shape) if var is not None and var.shape is not None else None
        dtype = np.dtype(var.dtype) if var is not None and var.dtype is not None else np.dtype(np.float32)
        return make_input(node, shape, dtype)


class ParamsExtractor(FrontExtractorOp):
    """A persistable var -> Const (its value, a view of the mapped params file)."""
    op = 'Const'

    @classmethod
    def extract(cls, node):
        return make_const(node, node.value)


class PassThroughExtractor(FrontExtractorOp):
    """assign, share_data, memcpy (a copy between devices, left by Paddle's inference passes) -> Identity (removed
    by the front phase)."""
    op = ['assign', 'share_data', 'memcpy', 'memcpy_h2d', 'memcpy_d2h']

    @classmethod
    def extract(cls, node):
        Identity.update_node_stat(node, {})
        return True
