"""ONNX's protobuf messages, without the ``onnx`` package.

The classes are built at import time from the declarative schema in ``schema.py`` inside a private
descriptor pool (``mo.utils.proto_schema.pool``). Their wire format is ONNX's, so any ONNX file parses
here; they are *different classes* from ``onnx.ModelProto`` and friends: convert between the two
through ``SerializeToString()`` (``coerce`` does).
"""
from mo.front.onnx.proto import schema
from mo.utils.proto_schema import pool as _pool

POOL = _pool.build_pool('onnx', schema.FILES)
_classes = _pool.MessageClasses(POOL)

ModelProto = _classes('onnx.ModelProto')
GraphProto = _classes('onnx.GraphProto')
NodeProto = _classes('onnx.NodeProto')
AttributeProto = _classes('onnx.AttributeProto')
TensorProto = _classes('onnx.TensorProto')
SparseTensorProto = _classes('onnx.SparseTensorProto')
ValueInfoProto = _classes('onnx.ValueInfoProto')
TypeProto = _classes('onnx.TypeProto')
TensorShapeProto = _classes('onnx.TensorShapeProto')
FunctionProto = _classes('onnx.FunctionProto')
OperatorSetIdProto = _classes('onnx.OperatorSetIdProto')

#: ``DATA_TYPE.values_by_number[1].name == 'FLOAT'``
DATA_TYPE = POOL.FindEnumTypeByName('onnx.TensorProto.DataType')
ATTRIBUTE_TYPE = POOL.FindEnumTypeByName('onnx.AttributeProto.AttributeType')


def file_descriptor_protos():
    """The schema as ``descriptor_pb2.FileDescriptorProto`` messages (for inspection and tests)."""
    return _pool.file_descriptor_protos('onnx', schema.FILES)


def coerce(message, cls):
    """``message`` as an instance of our ``cls`` (an ``onnx`` package message goes through its bytes)."""
    if isinstance(message, cls):
        return message
    if getattr(getattr(message, 'DESCRIPTOR', None), 'full_name', None) != cls.DESCRIPTOR.full_name:
        raise TypeError('expected a {}, got {}'.format(cls.DESCRIPTOR.full_name, type(message).__name__))
    return cls.FromString(message.SerializeToString())
