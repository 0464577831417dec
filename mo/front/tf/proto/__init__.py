"""TensorFlow's GraphDef protobuf messages, without TensorFlow.

The classes are built at import time from the declarative schema in ``schema.py`` inside a
private descriptor pool (see ``mo.utils.proto_schema.pool``). Their wire format is TensorFlow's, so bytes written
by TensorFlow parse here and the other way round; they are *different classes* from
TensorFlow's ``*_pb2`` ones, so convert between the two through ``SerializeToString()``.
"""
from mo.front.tf.proto import saved_model_schema, schema
from mo.utils.proto_schema import pool as _pool

#: every file of the schema, in dependency order: the GraphDef's, then the SavedModel's and checkpoints'
FILES = schema.FILES + saved_model_schema.FILES

#: The private pool holding every ``tensorflow.*`` type of the schema.
POOL = _pool.build_pool('tensorflow', FILES)
MessageClasses = _pool.MessageClasses
_classes = MessageClasses(POOL)

GraphDef = _classes('tensorflow.GraphDef')
NodeDef = _classes('tensorflow.NodeDef')
AttrValue = _classes('tensorflow.AttrValue')
NameAttrList = _classes('tensorflow.NameAttrList')
TensorProto = _classes('tensorflow.TensorProto')
VariantTensorDataProto = _classes('tensorflow.VariantTensorDataProto')
ResourceHandleProto = _classes('tensorflow.ResourceHandleProto')
TensorShapeProto = _classes('tensorflow.TensorShapeProto')
SerializedDType = _classes('tensorflow.SerializedDType')
FunctionDefLibrary = _classes('tensorflow.FunctionDefLibrary')
FunctionDef = _classes('tensorflow.FunctionDef')
GradientDef = _classes('tensorflow.GradientDef')
RegisteredGradient = _classes('tensorflow.RegisteredGradient')
OpDef = _classes('tensorflow.OpDef')
OpDeprecation = _classes('tensorflow.OpDeprecation')
OpList = _classes('tensorflow.OpList')
VersionDef = _classes('tensorflow.VersionDef')
FullTypeDef = _classes('tensorflow.FullTypeDef')
GraphDebugInfo = _classes('tensorflow.GraphDebugInfo')
# SavedModels and checkpoints
SavedModel = _classes('tensorflow.SavedModel')
MetaGraphDef = _classes('tensorflow.MetaGraphDef')
SignatureDef = _classes('tensorflow.SignatureDef')
TensorInfo = _classes('tensorflow.TensorInfo')
SavedObjectGraph = _classes('tensorflow.SavedObjectGraph')
TrackableObjectGraph = _classes('tensorflow.TrackableObjectGraph')
BundleHeaderProto = _classes('tensorflow.BundleHeaderProto')
BundleEntryProto = _classes('tensorflow.BundleEntryProto')

#: Enum descriptors, e.g. ``DATA_TYPE.values_by_number[1].name == 'DT_FLOAT'``.
DATA_TYPE = POOL.FindEnumTypeByName('tensorflow.DataType')
FULL_TYPE_ID = POOL.FindEnumTypeByName('tensorflow.FullTypeId')


def file_descriptor_protos():
    """The schema as ``descriptor_pb2.FileDescriptorProto`` messages (for inspection and tests)."""
    return _pool.file_descriptor_protos('tensorflow', FILES)


def message_class(full_name: str):
    """The class of any message of the schema by full name, e.g. ``'tensorflow.OpDef.ArgDef'``."""
    return _classes(full_name)


def coerce(message, cls):
    """``message`` as an instance of our ``cls``.

    Returns ``message`` itself when it already is one; a message of the same protobuf type from
    another pool (TensorFlow's ``graph_pb2.GraphDef``, say) is converted through its bytes.
    """
    if isinstance(message, cls):
        return message
    if getattr(getattr(message, 'DESCRIPTOR', None), 'full_name', None) != cls.DESCRIPTOR.full_name:
        raise TypeError('expected a {} message, got {}'.format(cls.DESCRIPTOR.full_name, type(message).__name__))
    return cls.FromString(message.SerializeToString())


__all__ = [
    'POOL', 'GraphDef', 'NodeDef', 'AttrValue', 'NameAttrList', 'TensorProto', 'VariantTensorDataProto',
    'ResourceHandleProto', 'TensorShapeProto', 'SerializedDType', 'FunctionDefLibrary', 'FunctionDef',
    'GradientDef', 'RegisteredGradient', 'OpDef', 'OpDeprecation', 'OpList', 'VersionDef', 'FullTypeDef',
    'GraphDebugInfo', 'SavedModel', 'MetaGraphDef', 'SignatureDef', 'TensorInfo', 'SavedObjectGraph',
    'TrackableObjectGraph', 'BundleHeaderProto', 'BundleEntryProto', 'DATA_TYPE', 'FULL_TYPE_ID', 'message_class',
    'coerce', 'file_descriptor_protos',
]
