"""A model input or weight given its mo op, as every front end's basic extractors do it: the user's --input,
--input_shape and --batch applied to the shape and type the model declares, a frozen value making the input a
Const."""
import numpy as np

from mo.ops.const import Const
from mo.ops.parameter import Parameter
from mo.utils.error import Error


def users_shape_and_type(node, shape, dtype):
    """``(shape, dtype)`` of input ``node`` after --input/--input_shape (``user_shape``, ``user_dtype``) and
    --batch (``user_batch``, the first dimension), from the model's declared ``shape`` and ``dtype``."""
    if node.soft_get('user_shape', None) is not None:
        shape = list(node.user_shape)
    if node.soft_get('user_dtype', None) is not None:
        dtype = np.dtype(node.user_dtype)
    if node.soft_get('user_batch', None) is not None and shape:
        shape = [node.user_batch] + list(shape[1:])
    return shape, dtype


def make_const(node, value) -> bool:
    """``node`` becomes a Const of ``value`` (kept as it is: often a view of the model's mapped file)."""
    Const.update_node_stat(node, {'value': value, 'shape': np.array(value.shape, dtype=np.int64),
                                  'data_type': value.dtype})
    return True


def make_input(node, shape, dtype, missing_shape: Error = None) -> bool:
    """Input ``node`` of the declared ``shape`` (None: unknown rank) and ``dtype``, with the user's options applied:
    a Parameter, or a Const of the value --input froze it to (an Error where that value's shape is not the
    input's). ``missing_shape``: the Error for an input of unknown rank."""
    name = node.soft_get('name', node.id)
    shape, dtype = users_shape_and_type(node, shape, dtype)
    frozen = node.soft_get('user_value', None)
    if frozen is not None:
        value = np.asarray(frozen, dtype=dtype)
        if shape is not None and list(value.shape) != list(shape):
            if any(d < 0 for d in shape) or value.size != int(np.prod(shape)):
                raise Error('--input: the value for "{}" has shape {} but the input has shape {}', name,
                            list(value.shape), list(shape))
            value = value.reshape(shape)
        return make_const(node, value)
    if shape is None:
        raise missing_shape or Error('Input "{}" has an unknown rank; give its shape with --input "{}[...]"', name,
                                     name)
    Parameter.update_node_stat(node, {'shape': np.array(shape, dtype=np.int64), 'data_type': dtype})
    return True
