"""Builds descriptors and message classes from ``schema.FILES`` without protoc.

The classes live in a private ``DescriptorPool``: TensorFlow registers the very same
``tensorflow.*`` names in protobuf's default pool, and both must coexist in one process (tests
use TensorFlow as the reference). No generated ``*_pb2`` code is involved, so protobuf's gencode
version checks cannot break us across protobuf 3.20 .. 7.x.
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from mo.front.tf.proto import schema

_FDP = descriptor_pb2.FieldDescriptorProto

_SCALAR_TYPES = {
    'double': _FDP.TYPE_DOUBLE,
    'float': _FDP.TYPE_FLOAT,
    'int64': _FDP.TYPE_INT64,
    'uint64': _FDP.TYPE_UINT64,
    'int32': _FDP.TYPE_INT32,
    'uint32': _FDP.TYPE_UINT32,
    'fixed64': _FDP.TYPE_FIXED64,
    'fixed32': _FDP.TYPE_FIXED32,
    'bool': _FDP.TYPE_BOOL,
    'string': _FDP.TYPE_STRING,
    'bytes': _FDP.TYPE_BYTES,
}

PACKAGE = 'tensorflow'


def _camel(name):
    """``arg_attr`` -> ``ArgAttr``: how protoc names the entry type of a map field."""
    return ''.join(part[:1].upper() + part[1:] for part in name.split('_'))


def _enum_full_names(files):
    """Full names (``.tensorflow.DataType``) of every enum in the schema, nested ones included."""
    names = set()

    def visit(scope, msg):
        for e in msg.enums:
            names.add('{}.{}.{}'.format(scope, msg.name, e.name))
        for n in msg.nested:
            visit(scope + '.' + msg.name, n)

    for f in files:
        for e in f.enums:
            names.add('.{}.{}'.format(PACKAGE, e.name))
        for m in f.messages:
            visit('.' + PACKAGE, m)
    return names


def _fill_field(fp, name, number, type_, label, enums):
    fp.name = name
    fp.number = number
    fp.label = label
    if type_ in _SCALAR_TYPES:
        fp.type = _SCALAR_TYPES[type_]
    else:
        fp.type_name = type_
        fp.type = _FDP.TYPE_ENUM if type_ in enums else _FDP.TYPE_MESSAGE


def _fill_enum(ep, enum):
    ep.name = enum.name
    for value_name, number in enum.values:
        v = ep.value.add()
        v.name = value_name
        v.number = number


def _fill_message(mp, msg, scope, enums):
    mp.name = msg.name
    full_name = '{}.{}'.format(scope, msg.name)
    oneof_index = {}
    for i, oneof_name in enumerate(msg.oneofs):
        mp.oneof_decl.add().name = oneof_name
        oneof_index[oneof_name] = i
    for f in msg.fields:
        fp = mp.field.add()
        if isinstance(f, schema.MapField):
            entry = mp.nested_type.add()
            entry.name = _camel(f.name) + 'Entry'
            entry.options.map_entry = True
            _fill_field(entry.field.add(), 'key', 1, f.key_type, _FDP.LABEL_OPTIONAL, enums)
            _fill_field(entry.field.add(), 'value', 2, f.value_type, _FDP.LABEL_OPTIONAL, enums)
            _fill_field(fp, f.name, f.number, '{}.{}'.format(full_name, entry.name),
                        _FDP.LABEL_REPEATED, enums)
            continue
        _fill_field(fp, f.name, f.number, f.type,
                    _FDP.LABEL_REPEATED if f.repeated else _FDP.LABEL_OPTIONAL, enums)
        if f.oneof is not None:
            fp.oneof_index = oneof_index[f.oneof]
        if f.packed is not None:
            fp.options.packed = f.packed
        if f.deprecated:
            fp.options.deprecated = True
    for nested in msg.nested:
        _fill_message(mp.nested_type.add(), nested, full_name, enums)
    for e in msg.enums:
        _fill_enum(mp.enum_type.add(), e)
    for start, end in msg.reserved:
        r = mp.reserved_range.add()
        r.start = start
        r.end = end


def file_descriptor_protos():
    """The schema as a list of ``FileDescriptorProto`` messages, in dependency order."""
    enums = _enum_full_names(schema.FILES)
    result = []
    for f in schema.FILES:
        fdp = descriptor_pb2.FileDescriptorProto()
        fdp.name = f.name
        fdp.package = PACKAGE
        fdp.syntax = f.syntax
        fdp.dependency.extend(f.dependencies)
        for e in f.enums:
            _fill_enum(fdp.enum_type.add(), e)
        for m in f.messages:
            _fill_message(fdp.message_type.add(), m, '.' + PACKAGE, enums)
        result.append(fdp)
    return result


def build_pool():
    """A fresh private ``DescriptorPool`` holding the whole schema."""
    pool = descriptor_pool.DescriptorPool()
    for fdp in file_descriptor_protos():
        add_serialized = getattr(pool, 'AddSerializedFile', None)
        if add_serialized is not None:
            add_serialized(fdp.SerializeToString())
        else:  # pragma: no cover - very old protobuf
            pool.Add(fdp)
    return pool


class MessageClasses:
    """Looks up message classes of one pool, always handing out the same class per type."""

    def __init__(self, pool):
        self.pool = pool
        self._get_class = getattr(message_factory, 'GetMessageClass', None)
        # protobuf < 4.21 has no GetMessageClass. One factory must serve every lookup there:
        # classes from two factories would not accept each other's sub-messages.
        self._factory = None if self._get_class else message_factory.MessageFactory(pool)

    def __call__(self, full_name):
        """The class for ``full_name`` (``tensorflow.GraphDef``)."""
        desc = self.pool.FindMessageTypeByName(full_name)
        if self._get_class is not None:
            return self._get_class(desc)
        return self._factory.GetPrototype(desc)
