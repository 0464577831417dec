"""Reading an ONNX node's attributes in an extractor, with the Model Optimizer's names.

``onnx_attr(node, 'kernel_shape', 'ints', default=[1, 1])`` reads attribute ``kernel_shape`` of ``node.pb``
(the NodeProto) from the AttributeProto field named ``field`` (``f``, ``i``, ``s``, ``t``, ``g``, ``floats``,
``ints``, ``strings``, ``tensors``, ``graphs``, ...); ``dst_type`` converts what is found.
"""
import numpy as np

from mo.front.onnx.sparse import sparse_to_dense
from mo.front.onnx.tensor import np_dtype, tensor_to_numpy
from mo.utils.error import Error

_REPEATED = ('floats', 'ints', 'strings', 'tensors', 'graphs', 'sparse_tensors', 'type_protos')


def _attribute(node, name):
    found = [a for a in node.pb.attribute if a.name == name]
    if len(found) > 1:
        raise Error('Node "{}" ({}) has attribute "{}" {} times', node.soft_get('name', node.id), node.soft_get('op'),
                    name, len(found))
    return found[0] if found else None


def onnx_node_has_attr(node, name: str) -> bool:
    """True when the node's NodeProto has attribute ``name``."""
    return _attribute(node, name) is not None


def onnx_attr(node, name: str, field: str, default=None, dst_type=None):
    """Attribute ``name`` of the node from the AttributeProto field ``field``; ``default`` when absent.

    A tensor (``t``) is returned as a numpy array; repeated fields as lists; ``dst_type`` is applied to the
    value found (not to the default). For tensor fields (``t``, ``tensors``, ``sparse_tensor``) ``dst_type``
    receives the TensorProto(s) themselves, as in the Model Optimizer, whose extensions read tensors with
    ``onnx_attr(node, 'value', 't', dst_type=numpy_helper.to_array)``.
    """
    attr = _attribute(node, name)
    if attr is None:
        return default
    if dst_type is not None and field in ('t', 'tensors', 'sparse_tensor'):
        if field != 'tensors' and not attr.HasField(field):
            return default
        return dst_type(getattr(attr, field))
    if field in _REPEATED:
        value = list(getattr(attr, field))
        if field == 'tensors':
            value = [tensor_to_numpy(t) for t in value]
    else:
        if field in ('t', 'g', 'sparse_tensor', 'tp') and not attr.HasField(field):
            return default
        value = getattr(attr, field)
        if field == 't':
            value = tensor_to_numpy(value, what='Attribute "{}" of node "{}"'.format(name, node.soft_get('name')))
        elif field == 'sparse_tensor':
            value = sparse_to_dense(value)
    return dst_type(value) if dst_type is not None else value


def onnx_get_num_outputs(node) -> int:
    """How many outputs the ONNX node declares (empty names included)."""
    return len(node.pb.output)


def get_onnx_opset_version(node) -> int:
    """The model's opset of the default domain (the Model Optimizer's meaning, also for a custom-domain node);
    ``node.onnx_opset`` is the version of the node's own domain."""
    opsets = node.graph.graph.get('onnx_opsets') or {}
    return int(opsets.get('', node.soft_get('onnx_opset', None) or 1))


def get_onnx_autopad(auto_pad) -> str:
    """ONNX ``auto_pad`` (bytes or str) -> the opset's ``auto_pad``; None for NOTSET (explicit pads)."""
    text = auto_pad.decode() if isinstance(auto_pad, bytes) else str(auto_pad)
    text = text.lower()
    return None if text in ('notset', '') else text


def get_backend_pad(pads, spatial_dims, axis):
    """The Model Optimizer's helper: the ``axis`` (0: begin, 1: end) pads of ``pads`` ([rank, 2]) at the
    spatial dimensions."""
    return [int(pads[dim][axis]) for dim in spatial_dims]


def get_onnx_datatype_as_numpy(value) -> np.dtype:
    """The numpy dtype of ONNX element type number ``value``."""
    return np_dtype(int(value))
