"""mo's Paddle schema (``mo/front/paddle/schema.py``) against the ``framework.proto`` compiled into the installed
``paddle`` wheel: same messages, field names, numbers, types and enums (``OpProto`` is left out on purpose;
``required`` fields are declared optional on purpose, see the schema's docstring)."""
import importlib.util
import os

from google.protobuf import descriptor_pb2

from mo.front.paddle import messages


def _paddle_file():
    """Paddle's ``framework_pb2`` loaded from its file, without importing ``paddle`` (its start-up is seconds)."""
    spec = importlib.util.find_spec('paddle')
    assert spec is not None, 'paddle is a test dependency (setup.cfg, extra "test")'
    path = os.path.join(spec.submodule_search_locations[0], 'base', 'proto', 'framework_pb2.py')
    module_spec = importlib.util.spec_from_file_location('_paddle_framework_pb2', path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    proto = descriptor_pb2.FileDescriptorProto()
    module.DESCRIPTOR.CopyToProto(proto)
    return proto


def _index(messages_, scope=''):
    for m in messages_:
        yield scope + m.name, m
        yield from _index(m.nested_type, scope + m.name + '.')


def test_schema_matches_paddles_framework_proto():
    ours, = messages.file_descriptor_protos()
    theirs = _paddle_file()
    assert (ours.name, ours.package, ours.syntax) == (theirs.name, theirs.package, theirs.syntax or 'proto2')
    their_messages = dict(_index(theirs.message_type))
    our_messages = dict(_index(ours.message_type))
    assert sorted(set(their_messages) - set(our_messages)) == ['OpProto', 'OpProto.Attr', 'OpProto.Var']
    checked = 0
    for name, message in our_messages.items():
        other = their_messages[name]
        assert sorted(f.name for f in message.field) == sorted(f.name for f in other.field), name
        their_fields = {f.name: f for f in other.field}
        for field in message.field:
            them = their_fields[field.name]
            assert (field.number, field.type, field.type_name) == (them.number, them.type, them.type_name), \
                (name, field.name)
            assert (field.label == field.LABEL_REPEATED) == (them.label == them.LABEL_REPEATED), (name, field.name)
            checked += 1
        assert [(e.name, [(v.name, v.number) for v in e.value]) for e in message.enum_type] == \
            [(e.name, [(v.name, v.number) for v in e.value]) for e in other.enum_type], name
        assert [(r.start, r.end) for r in message.reserved_range] == [(r.start, r.end) for r in other.reserved_range]
    assert [(e.name, [(v.name, v.number) for v in e.value]) for e in ours.enum_type] == \
        [(e.name, [(v.name, v.number) for v in e.value]) for e in theirs.enum_type]
    assert checked > 60


def test_pool_is_private():
    """Our classes live in their own pool: Paddle's generated module may be loaded in the same process."""
    from google.protobuf import descriptor_pool
    ours = messages.message_class('ProgramDesc').DESCRIPTOR
    assert ours.file.pool is not descriptor_pool.Default()
