"""The Model Optimizer's shape helpers, for extension authors (``openvino.tools.mo.front.common.partial_infer.utils``).

A shape is a masked int64 array whose masked entries are the dynamic dimensions: ``dynamic_dimension`` is numpy's
masked constant, so ``shape[i] is dynamic_dimension`` tests one dimension and arithmetic on dimensions propagates
the mask (``shape[0] * shape[1]`` is masked when either is). ``dynamic_dimension_value`` is the integer that
``shape_array`` turns into a masked entry; any other value, ``-1`` included, is an ordinary number.

mo's own passes keep shapes in another form (``mo.utils.shape``: plain arrays, ``-1`` for an unknown dimension).
The two meet in ``mo.graph.author_view``: authors' code (extension modules, their ops' infer functions and
replacers, tests on ``mo.utils.unittest.graph.build_graph`` graphs) reads shapes in this masked form through
``node.shape``, ``node['shape']``, ``port.data.get_shape()`` and ``graph.node[id]``, and whatever it writes, masked
or plain, is stored in mo's form.
"""
from typing import Iterable, List

import numpy as np

from mo.utils.error import Error
# not part of the Model Optimizer's module, kept importable here for code written against mo's earlier helpers
from mo.utils.shape import (DEFAULT_MAX_CONSTANT_BYTES, fold_allowed, max_constant_bytes,  # noqa: F401
                            shape_to_str)
# the Model Optimizer's array constructors: the same as mo's own
from mo.utils.shape import float32_array, float_array, int64_array  # noqa: F401

#: a dynamic dimension: the masked entry of a shape array
dynamic_dimension = np.ma.masked
#: the integer ``shape_array`` masks (a large negative prime: no real size or index is ever equal to it)
dynamic_dimension_value = -1000000007


def shape_array(value, dtype=np.int64):
    """``value`` (a list, tuple, array or scalar) as a masked array of ``dtype`` whose ``dynamic_dimension`` and
    ``dynamic_dimension_value`` entries are masked (None entries too, which the Model Optimizer refused)."""
    if value is None:
        return None
    if isinstance(value, Iterable) and not (isinstance(value, np.ndarray) and value.ndim == 0):
        # masked entries must become the marker value first: masking by value would turn them into NaNs
        value = [dynamic_dimension_value if item is dynamic_dimension or item is None else item for item in value]
    return np.ma.masked_equal(value, dynamic_dimension_value).astype(dtype=dtype)


def undefined_shape_of_rank(rank: int):
    """A shape of ``rank`` dynamic dimensions."""
    return shape_array([dynamic_dimension_value] * rank)


def compatible_dims(dim1, dim2) -> bool:
    """Equal, or at least one of them dynamic."""
    return dim1 is dynamic_dimension or dim2 is dynamic_dimension or bool(dim1 == dim2)


def _as_array(value):
    return value if isinstance(value, np.ndarray) else shape_array(value)


def compatible_shapes(shape1, shape2) -> bool:
    """Same rank and size, and every pair of dimensions compatible (equal, or one dynamic)."""
    shape1, shape2 = _as_array(shape1), _as_array(shape2)
    if shape1.ndim != shape2.ndim or shape1.size != shape2.size:
        return False
    return all(compatible_dims(d1, d2) for d1, d2 in zip(shape1, shape2))


def strict_compare_tensors(tensor1, tensor2) -> bool:
    """Equal element by element, a dynamic entry matching only a dynamic entry; None equals only None."""
    if tensor1 is None or tensor2 is None:
        return tensor1 is None and tensor2 is None
    if not isinstance(tensor1, np.ma.MaskedArray):
        tensor1 = shape_array(tensor1)
    if not isinstance(tensor2, np.ma.MaskedArray):
        tensor2 = shape_array(tensor2)
    if tensor1.ndim != tensor2.ndim or tensor1.size != tensor2.size:
        return False
    if tensor1.ndim == 0:
        return tensor1.item() == tensor2.item()
    if tensor1.shape != tensor2.shape:
        return False
    for d1, d2 in zip(tensor1.flatten(), tensor2.flatten()):
        if (d1 is dynamic_dimension) != (d2 is dynamic_dimension):
            return False
        if d1 is not dynamic_dimension and d1 != d2:
            return False
    return True


def shape_delete(shape, obj):
    """``shape`` without the element(s) at index ``obj`` (an int, a list or an array of them; negative counts from
    the end), keeping which dimensions are dynamic (``np.delete`` loses the mask)."""
    if isinstance(obj, (int, np.integer)):
        obj = [int(obj)]
    elif isinstance(obj, np.ndarray):
        obj = np.ravel(obj).tolist()
    elif not isinstance(obj, list):
        raise Error('Incorrect parameter type of "obj": {}', type(obj))
    shape = shape if isinstance(shape, np.ma.MaskedArray) else np.ma.asarray(shape)
    rank = len(shape)
    keep = np.ones(rank, dtype=bool)
    for index in obj:
        position = index + rank if index < 0 else index
        if not 0 <= position < rank:
            raise Error('Incorrect element index {} to remove from {}', index, shape)
        keep[position] = False
    return shape[keep]


def shape_insert(shape, pos: int, obj):
    """``shape`` with ``obj`` (a dimension, ``dynamic_dimension``, or a list or array of them) inserted at ``pos``,
    keeping which dimensions are dynamic (``np.insert`` loses the mask)."""
    if obj is dynamic_dimension or obj is dynamic_dimension_value or isinstance(obj, (int, np.integer)):
        obj = [obj]
    elif not isinstance(obj, (np.ndarray, list)):
        raise Error('Incorrect parameter type of "obj": {}', type(obj))
    return np.ma.concatenate((shape_array(shape[:pos]), shape_array(obj), shape_array(shape[pos:])))


def unmask_shape(value):
    """A masked shape as a list with ``-1`` for each dynamic dimension (the IR's form); anything else as is."""
    if isinstance(value, np.ma.MaskedArray):
        return value.tolist(-1)
    return value


def is_fully_defined(value) -> bool:
    """No dynamic entry: None and ``dynamic_dimension`` are not defined, a masked array is when nothing is masked,
    a list or tuple when no item is ``dynamic_dimension``, and a plain array or number always is."""
    if value is None or value is dynamic_dimension:
        return False
    if isinstance(value, np.ma.MaskedArray):
        return not np.ma.is_masked(value)
    if isinstance(value, (list, tuple)):
        return not any(item is dynamic_dimension for item in value)
    return True


def clarify_partial_shape(*shapes):
    """The most precise shape that agrees with all ``shapes`` (a list of them, or several arguments): each
    dimension known in any of them; an Error when two disagree."""
    if len(shapes) == 1 and isinstance(shapes[0], (list, tuple)):
        shapes = shapes[0]
    if not shapes:
        raise Error('clarify_partial_shape needs at least one shape')
    shapes = [_as_array(shape) for shape in shapes]
    result = shape_array(shapes[0])
    for shape in shapes[1:]:
        if not compatible_shapes(shape, result):
            raise Error('Shapes {} and {} are not compatible', unmask_shape(shape), unmask_shape(result))
        for i, dim in enumerate(shape):
            if dim is not dynamic_dimension:
                result[i] = dim
    return result




def int8_array(value) -> np.ndarray:
    return np.array(value, dtype=np.int8)


def mo_array(value, dtype=None) -> np.ndarray:
    """``np.array(value, dtype)``, except that a float64 result made from a Python number or list (not from an
    array) without an explicit float64 ``dtype`` is float32."""
    array = np.array(value, dtype=dtype)
    if not isinstance(value, np.ndarray) and array.dtype == np.float64 and dtype != np.float64:
        array = array.astype(np.float32)
    return array


def copy_or_none(value):
    return None if value is None else value.copy()


def convert_tf_padding_to_str(padding: str) -> str:
    """TensorFlow's padding name as the IR's ``auto_pad`` of a convolution or pooling."""
    return {'SAME': 'same_upper', 'VALID': 'valid'}[padding]


def convert_deconv_tf_padding_to_str(padding: str) -> str:
    """TensorFlow's padding name as the IR's ``auto_pad`` of a transposed convolution."""
    return {'SAME': 'same_lower', 'VALID': 'valid'}[padding]


def is_dynamic_slice(s) -> bool:
    """Is ``s`` a slice with a dynamic start, stop or step?"""
    return isinstance(s, slice) and any(part is dynamic_dimension for part in (s.start, s.stop, s.step))


def reverse_bypass_infer(node, in_ports: List[int]):
    """Give each of ``in_ports`` whose shape is unknown the shape of output 0."""
    if node.out_port(0).disconnected():
        return
    output_shape = node.out_port(0).data.get_shape()
    if output_shape is None:
        return
    for port in in_ports:
        if not node.is_in_port_connected(port):
            raise Error('Input {} of "{}" is not connected', port, node.soft_get('name', node.id))
        if node.in_port(port).data.get_shape() is None:
            node.in_port(port).data.set_shape(output_shape)


def set_input_shapes(node, *shapes):
    """Give input ``i`` the shape ``shapes[i]`` where it is connected and has no shape yet."""
    if len(shapes) > len(node.in_ports()):
        raise Error('"{}" has {} inputs, not {}', node.soft_get('name', node.id), len(node.in_ports()), len(shapes))
    for i, shape in enumerate(shapes):
        if node.is_in_port_connected(i) and node.in_port(i).data.get_shape() is None:
            node.in_port(i).data.set_shape(shape)
