"""Extractors for Paddle's constant makers: ``full``, ``full_int_array``, ``fill_constant`` and ``assign_value``
with their values in attributes become ``Const``; ``fill_constant`` with a shape or value given as a tensor,
``full_like`` and ``fill_any_like`` become ``Paddle_*`` ops that ``constant_lowering.py`` builds from Broadcast."""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.paddle.dtypes import from_name, from_var_type
from mo.front.paddle.extractor_utils import has_input, node_name, output_dtype, paddle_attr
from mo.ops.const import Const
from mo.utils.error import Error


def attr_dtype(node, name: str = 'dtype', default=None):
    """A dtype attribute as numpy dtype: PIR gives one already, the classic format a ``VarType`` number (-1 or an
    unknown one: ``default``, else the output var's type)."""
    value = paddle_attr(node, name, None)
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, str):
        found = from_name(value)
        if found is not None:
            return found
    if isinstance(value, (int, np.integer)) and value >= 0:
        found = from_var_type(int(value))
        if found is not None:
            return found
    return default if default is not None else output_dtype(node, 'Out', default=np.dtype(np.float32))


def scalar_value(node, dtype):
    """The fill value of ``full``/``fill_constant``: ``str_value`` when set (it keeps an int64's digits exactly),
    else ``value``."""
    text = paddle_attr(node, 'str_value', '')
    if isinstance(text, str) and text:
        try:
            return int(text) if np.dtype(dtype).kind in 'iu' else float(text)
        except ValueError:
            pass
    return paddle_attr(node, 'value', 0.0)


def set_const(node, value):
    value = np.asarray(value)
    Const.update_node_stat(node, {'value': value, 'shape': np.array(value.shape, np.int64),
                                  'data_type': value.dtype})


class FullExtractor(FrontExtractorOp):
    """full (Paddle 3), fill_constant (classic) -> Const of ``shape`` filled with ``value``; a classic one whose
    shape or value is a tensor, and Paddle 3's full_with_tensor, -> ``Paddle_fill_constant`` (Broadcast)."""
    op = ['full', 'fill_constant', 'full_with_tensor']

    @classmethod
    def extract(cls, node):
        dtype = attr_dtype(node)
        if any(has_input(node, slot) for slot in ('ValueTensor', 'ShapeTensor', 'ShapeTensorList')):
            node['fill_dtype'] = dtype
            node['fill_value'] = scalar_value(node, dtype)
            node['fill_shape'] = [int(d) for d in paddle_attr(node, 'shape', []) or []]
            node['op'] = 'Paddle_fill_constant'
            return True
        shape = [int(d) for d in paddle_attr(node, 'shape', []) or []]
        if any(d < 0 for d in shape):
            raise Error('Paddle op "{}" ({}) fills the shape {} with a dynamic dimension but no shape tensor',
                        node_name(node), node.op, shape)
        value = scalar_value(node, dtype)
        set_const(node, np.full(shape, value, dtype=dtype))
        return True


class FillBatchSizeLikeExtractor(FrontExtractorOp):
    """fill_constant_batch_size_like -> ``Paddle_fill_batch_size_like``: ``value`` broadcast to ``shape`` whose
    dimension ``output_dim_idx`` is Input's dimension ``input_dim_idx`` (``constant_lowering.py``)."""
    op = 'fill_constant_batch_size_like'

    @classmethod
    def extract(cls, node):
        dtype = attr_dtype(node)
        node['fill_dtype'] = dtype
        node['fill_value'] = scalar_value(node, dtype)
        node['fill_shape'] = [int(v) for v in paddle_attr(node, 'shape', [])]
        node['input_dim_idx'] = int(paddle_attr(node, 'input_dim_idx', 0))
        node['output_dim_idx'] = int(paddle_attr(node, 'output_dim_idx', 0))
        node['op'] = 'Paddle_fill_batch_size_like'
        return True


class FullIntArrayExtractor(FrontExtractorOp):
    """full_int_array -> a 1-D Const of ``value`` (int64 unless ``dtype`` says otherwise)."""
    op = 'full_int_array'

    @classmethod
    def extract(cls, node):
        dtype = attr_dtype(node, default=np.dtype(np.int64))
        set_const(node, np.array(paddle_attr(node, 'value', []), dtype=dtype).reshape(-1))
        return True


#: the classic assign_value attributes that hold its values, by what they hold
_VALUE_ATTRS = ('fp32_values', 'int32_values', 'int64_values', 'bool_values', 'fp64_values', 'values')


class AssignValueExtractor(FrontExtractorOp):
    """assign_value -> Const of ``shape`` from whichever values attribute is set, in ``dtype``."""
    op = 'assign_value'

    @classmethod
    def extract(cls, node):
        dtype = attr_dtype(node)
        values = None
        for attr in _VALUE_ATTRS:
            found = paddle_attr(node, attr, None)
            if found:
                values = found
                break
        shape = [int(d) for d in paddle_attr(node, 'shape', []) or []]
        array = np.array(values if values is not None else [], dtype=dtype)
        if array.size != int(np.prod(shape)):
            raise Error('Paddle op "{}" (assign_value) has {} values for the shape {}', node_name(node), array.size,
                        shape)
        set_const(node, array.reshape(shape))
        return True


class FillLikeExtractor(FrontExtractorOp):
    """full_like, fill_any_like -> ``Paddle_full_like``: ``value`` (attribute, or PIR's value operand) broadcast
    to X's shape, in ``dtype`` (X's when unset)."""
    op = ['full_like', 'fill_any_like']

    @classmethod
    def extract(cls, node):
        value = paddle_attr(node, 'value', 0.0)
        node['fill_value'] = value
        dtype = attr_dtype(node, default=None)
        node['fill_dtype'] = dtype
        node['op'] = 'Paddle_full_like'
        return True
