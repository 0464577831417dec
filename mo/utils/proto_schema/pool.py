"""Builds descriptors and message classes from a schema's files (``dsl``) without protoc.

The classes live in a private ``DescriptorPool`` per schema: TensorFlow and ONNX register the very
same ``tensorflow.*`` and ``onnx.*`` names in protobuf's default pool, and both must coexist in one
process (tests use them as the reference). No generated ``*_pb2`` code is involved, so protobuf's gencode
version checks cannot break us across protobuf 3.20 .. 7.x.

The schema is encoded straight into serialized ``FileDescriptorProto`` bytes (descriptor.proto's
field numbers below), which every protobuf backend's pool accepts. With the upb backend (the
default since protobuf 4.21) the pool and the classes come from ``google._upb._message``
directly, so ``mo convert`` does not import ``descriptor_pb2``, ``descriptor_pool`` and
the pure-Python message machinery they pull in (about 25 ms of start-up); other backends go
through protobuf's public ``descriptor_pool`` and ``message_factory``.
"""
from mo.utils.proto_schema.dsl import MapField
from mo.utils.proto_wire import encode_varint as _varint

# descriptor.proto's numbers: FieldDescriptorProto.Type and .Label
_SCALAR_TYPES = {
    'double': 1, 'float': 2, 'int64': 3, 'uint64': 4, 'int32': 5, 'fixed64': 6, 'fixed32': 7,
    'bool': 8, 'string': 9, 'bytes': 12, 'uint32': 13,
}
_TYPE_MESSAGE, _TYPE_ENUM = 11, 14
_LABEL_OPTIONAL, _LABEL_REPEATED = 1, 3


class _Writer:
    """Appends protobuf fields to a byte buffer: just the two wire types descriptors use."""

    def __init__(self):
        self.parts = []

    def int(self, number: int, value: int):
        self.parts += (_varint(number << 3), _varint(value))

    def bytes(self, number: int, payload: bytes):
        # the parts are joined once per message: a nested message's bytes are not copied again at every level
        self.parts += (_varint(number << 3 | 2), _varint(len(payload)), payload)

    def str(self, number: int, text: str):
        self.bytes(number, text.encode('utf-8'))

    def message(self, number: int, writer: '_Writer'):
        self.bytes(number, writer.value())

    def value(self) -> bytes:
        return b''.join(self.parts)


def _enum_full_names(package, files):
    """Full names (``.tensorflow.DataType``) of every enum in the schema, nested ones included."""
    names = set()

    def visit(scope, msg):
        for e in msg.enums:
            names.add('{}.{}.{}'.format(scope, msg.name, e.name))
        for n in msg.nested:
            visit(scope + '.' + msg.name, n)

    for f in files:
        for e in f.enums:
            names.add('.{}.{}'.format(package, e.name))
        for m in f.messages:
            visit('.' + package, m)
    return names


def _field(name, number, type_, label, enums, oneof_index=None, packed=None, deprecated=False):
    """A ``FieldDescriptorProto``."""
    w = _Writer()
    w.str(1, name)
    w.int(3, number)
    w.int(4, label)
    if type_ in _SCALAR_TYPES:
        w.int(5, _SCALAR_TYPES[type_])
    else:
        w.int(5, _TYPE_ENUM if type_ in enums else _TYPE_MESSAGE)
        w.str(6, type_)
    if packed is not None or deprecated:
        options = _Writer()  # FieldOptions
        if packed is not None:
            options.int(2, int(packed))
        if deprecated:
            options.int(3, 1)
        w.message(8, options)
    if oneof_index is not None:
        w.int(9, oneof_index)
    return w


def _enum(enum):
    """An ``EnumDescriptorProto``."""
    w = _Writer()
    w.str(1, enum.name)
    for value_name, number in enum.values:
        value = _Writer()
        value.str(1, value_name)
        value.int(2, number)
        w.message(2, value)
    return w


def _map_entry_name(f) -> str:
    """``arg_attr`` -> ``ArgAttrEntry``: how protoc names the entry type of a map field."""
    return ''.join(part[:1].upper() + part[1:] for part in f.name.split('_')) + 'Entry'


def _map_entry(f, enums):
    """The ``<Name>Entry`` nested type protoc generates for a map field."""
    w = _Writer()
    w.str(1, _map_entry_name(f))
    w.message(2, _field('key', 1, f.key_type, _LABEL_OPTIONAL, enums))
    w.message(2, _field('value', 2, f.value_type, _LABEL_OPTIONAL, enums))
    options = _Writer()  # MessageOptions.map_entry
    options.int(7, 1)
    w.message(7, options)
    return w


def _message(msg, scope, enums):
    """A ``DescriptorProto``: fields (2), nested types (3), enums (4), oneofs (8), reserved (9)."""
    full_name = '{}.{}'.format(scope, msg.name)
    oneof_index = {name: i for i, name in enumerate(msg.oneofs)}
    fields, nested = [], []
    for f in msg.fields:
        if isinstance(f, MapField):
            nested.append(_map_entry(f, enums))
            entry_name = '{}.{}'.format(full_name, _map_entry_name(f))
            fields.append(_field(f.name, f.number, entry_name, _LABEL_REPEATED, enums))
            continue
        fields.append(_field(f.name, f.number, f.type, _LABEL_REPEATED if f.repeated else _LABEL_OPTIONAL,
                             enums, oneof_index.get(f.oneof), f.packed, f.deprecated))
    nested.extend(_message(n, full_name, enums) for n in msg.nested)
    w = _Writer()
    w.str(1, msg.name)
    for f in fields:
        w.message(2, f)
    for n in nested:
        w.message(3, n)
    for e in msg.enums:
        w.message(4, _enum(e))
    for name in msg.oneofs:
        oneof = _Writer()
        oneof.str(1, name)
        w.message(8, oneof)
    for start, end in msg.reserved:
        reserved = _Writer()
        reserved.int(1, start)
        reserved.int(2, end)
        w.message(9, reserved)
    return w


def serialized_files(package, files):
    """The schema ``files`` of ``package`` as serialized ``FileDescriptorProto``s, in dependency order."""
    enums = _enum_full_names(package, files)
    result = []
    for f in files:
        w = _Writer()
        w.str(1, f.name)
        w.str(2, package)
        for dependency in f.dependencies:
            w.str(3, dependency)
        for m in f.messages:
            w.message(4, _message(m, '.' + package, enums))
        for e in f.enums:
            w.message(5, _enum(e))
        w.str(12, f.syntax)
        result.append(w.value())
    return result


def file_descriptor_protos(package, files):
    """The schema as ``descriptor_pb2.FileDescriptorProto`` messages (for inspection and tests)."""
    from google.protobuf import descriptor_pb2
    return [descriptor_pb2.FileDescriptorProto.FromString(data) for data in serialized_files(package, files)]


def _upb():
    """protobuf's upb module when that is the backend in use, else None."""
    try:
        from google._upb import _message
        from google.protobuf.internal import api_implementation
    except ImportError:
        return None
    return _message if api_implementation.Type() == 'upb' else None


def build_pool(package, files):
    """A fresh private ``DescriptorPool`` holding the schema ``files`` of ``package``."""
    upb = _upb()
    if upb is not None:
        pool = upb.DescriptorPool()
    else:
        from google.protobuf import descriptor_pool
        pool = descriptor_pool.DescriptorPool()
    for data in serialized_files(package, files):
        pool.AddSerializedFile(data)
    return pool


class MessageClasses:
    """Looks up message classes of one pool, always handing out the same class per type."""

    def __init__(self, pool):
        self.pool = pool
        self._classes = {}
        upb = _upb()
        if upb is not None:
            from google.protobuf import message
            self._make = lambda desc: upb.MessageMeta(desc.name, (message.Message,),
                                                      {'DESCRIPTOR': desc, '__module__': None})
        else:
            from google.protobuf import message_factory
            get_class = getattr(message_factory, 'GetMessageClass', None)
            if get_class is None:  # protobuf < 4.21: one factory must serve every lookup
                get_class = message_factory.MessageFactory(pool).GetPrototype
            self._make = get_class

    def __call__(self, full_name):
        """The class for ``full_name`` (``tensorflow.GraphDef``)."""
        return self._class_of(self.pool.FindMessageTypeByName(full_name))

    def _class_of(self, desc):
        cls = self._classes.get(desc.full_name)
        if cls is None:
            cls = self._classes[desc.full_name] = self._make(desc)
            # as protobuf's message_factory does: the classes of sub-messages exist before
            # a message hands one out (upb would otherwise ask message_factory for them)
            for field in desc.fields:
                if field.message_type is not None:
                    self._class_of(field.message_type)
        return cls
