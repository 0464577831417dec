"""The little language the schema modules write ``.proto`` files in (TensorFlow's in ``mo.front.tf.proto``,
ONNX's in ``mo.front.onnx.proto``): a file, its messages and enums, and their fields, as plain tuples."""
from collections import namedtuple

Field = namedtuple('Field', 'name number type repeated oneof packed deprecated')
MapField = namedtuple('MapField', 'name number key_type value_type')
Message = namedtuple('Message', 'name fields nested enums oneofs reserved')
Enum = namedtuple('Enum', 'name values')
ProtoFile = namedtuple('ProtoFile', 'name syntax dependencies messages enums')



def field(name, number, type_, oneof=None, packed=None, deprecated=False):
    """A singular field (``optional`` in proto2 terms), optionally member of a ``oneof``."""
    return Field(name, number, type_, False, oneof, packed, deprecated)


def repeated(name, number, type_, packed=None):
    """A repeated field; ``packed`` is set only where the original ``.proto`` states it explicitly."""
    return Field(name, number, type_, True, None, packed, False)


def map_field(name, number, key_type, value_type):
    """A ``map<key, value>`` field; the builder adds the ``<Name>Entry`` nested type."""
    return MapField(name, number, key_type, value_type)


def message(name, *fields, nested=(), enums=(), oneofs=(), reserved=()):
    """A message type; ``reserved`` holds (start, end_exclusive) ranges of retired numbers."""
    return Message(name, tuple(fields), tuple(nested), tuple(enums), tuple(oneofs), tuple(reserved))


def enum(name, *values):
    """An enum from (NAME, number) pairs."""
    return Enum(name, tuple(values))


def proto_file(name, dependencies, *contents, syntax='proto3'):
    """One ``.proto`` file (its package is the schema's: see ``pool.build_pool``)."""
    messages = tuple(c for c in contents if isinstance(c, Message))
    enums = tuple(c for c in contents if isinstance(c, Enum))
    return ProtoFile(name, syntax, tuple(dependencies), messages, enums)
