"""Finding Const weights in the serialized GraphDef agrees with the protobuf parser, or stays out."""
import random

import numpy as np
import pytest

from mo.front.tf.proto import GraphDef
from mo.front.tf.tensor import numpy_to_tensor
from mo.front.tf.wire import const_contents


def _contents_by_parser(data: bytes) -> dict:
    graph_def = GraphDef.FromString(data)
    return {n.name: n.attr['value'].tensor.tensor_content for n in graph_def.node
            if n.op == 'Const' and n.attr['value'].tensor.tensor_content}


@pytest.mark.parametrize('fixture', ['v1_graph_def', 'keras_graph_def'])
def test_spans_equal_what_the_parser_reads_in_tensorflows_files(request, fixture):
    data = request.getfixturevalue(fixture).SerializeToString()
    expected = _contents_by_parser(data)
    found = const_contents(data)
    assert expected, 'the fixture should have weights in tensor_content'
    assert {name: bytes(view) for name, view in found.items()} == expected


def _const(graph_def, name, array):
    node = graph_def.node.add(name=name, op='Const')
    node.attr['dtype'].type = 1
    node.attr['value'].tensor.CopyFrom(numpy_to_tensor(array))
    return node


def _field(number: int, payload: bytes) -> bytes:
    """One length-delimited field (lengths below 128 here)."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def test_views_share_the_file_bytes():
    graph_def = GraphDef()
    _const(graph_def, 'w', np.arange(12, dtype=np.float32).reshape(3, 4))
    data = graph_def.SerializeToString()
    view = const_contents(data)['w']
    assert np.shares_memory(np.frombuffer(view, np.uint8), np.frombuffer(data, np.uint8))
    assert np.array_equal(np.frombuffer(view, np.float32), np.arange(12, dtype=np.float32))


def test_name_after_the_attributes_is_found():
    graph_def = GraphDef()
    node = _const(graph_def, 'w', np.ones(4, np.float32))
    entry = node.attr['value'].SerializeToString()
    data = _field(1, _field(2, b'Const') + _field(5, _field(1, b'value') + _field(2, entry)) + _field(1, b'late'))
    assert bytes(const_contents(data)['late']) == _contents_by_parser(data)['late']


def test_a_repeated_value_entry_is_left_to_the_parser():
    graph_def = GraphDef()
    first = _const(graph_def, 'a', np.ones(2, np.float32)).attr['value'].SerializeToString()
    second = _const(graph_def, 'b', np.zeros(2, np.float32)).attr['value'].SerializeToString()
    value_entry = lambda v: _field(5, _field(1, b'value') + _field(2, v))  # noqa: E731
    data = _field(1, _field(1, b'x') + _field(2, b'Const') + value_entry(first) + value_entry(second))
    assert 'x' not in const_contents(data)
    assert _contents_by_parser(data)['x'] == np.zeros(2, np.float32).tobytes()  # the map's last entry wins


def test_other_ops_and_typed_values_have_no_span():
    graph_def = GraphDef()
    _const(graph_def, 'scalar', np.float32(3.0))  # float_val, no tensor_content
    graph_def.node.add(name='x', op='Placeholder')
    assert const_contents(graph_def.SerializeToString()) == {}


def _damaged_graph_defs(seed: int, count: int = 400):
    """``count`` damaged copies of a small GraphDef of four Consts: a few bytes changed, and some cut short."""
    graph_def = GraphDef()
    for i in range(4):
        _const(graph_def, 'w{}'.format(i), np.arange(8 + i, dtype=np.float32))
        graph_def.node.add(name='op{}'.format(i), op='Relu', input=['w{}'.format(i)])
    data = graph_def.SerializeToString()
    rng = random.Random(seed)
    for _ in range(count):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        yield bytes(damaged[:rng.randint(len(damaged) // 2, len(damaged))] if rng.random() < 0.3 else damaged)


def test_damaged_data_never_raises_and_never_disagrees_with_the_parser():
    for damaged in _damaged_graph_defs(seed=7):
        found = const_contents(damaged)
        try:
            expected = _contents_by_parser(damaged)
        except Exception:  # the loader rejects such a file before looking at spans
            continue
        for name, view in found.items():
            assert expected.get(name) == bytes(view), name


@pytest.mark.parametrize('fixture', ['v1_graph_def', 'function_graph_def', 'keras_graph_def'])
@pytest.mark.parametrize('part_nodes', [1, 3, 4096])
def test_parts_hold_what_tensorflow_wrote(request, fixture, part_nodes):
    """A GraphDef read in parts: TensorFlow's nodes, in order, and its other fields (a function library too)."""
    from mo.front.tf.wire import graph_def_in_parts
    theirs = request.getfixturevalue(fixture)
    data = theirs.SerializeToString()
    rest, nodes, largest = graph_def_in_parts(data, part_nodes=part_nodes)
    assert [node.SerializeToString(deterministic=True) for node in nodes] == \
        [node.SerializeToString(deterministic=True) for node in theirs.node]
    without_nodes = type(theirs)()
    without_nodes.CopyFrom(theirs)
    del without_nodes.node[:]
    assert rest.SerializeToString(deterministic=True) == without_nodes.SerializeToString(deterministic=True)
    assert largest == max(node.ByteSize() for node in theirs.node)


def test_parts_of_damaged_data_are_none_or_what_the_parser_reads(v1_graph_def):
    """Bytes the parts reader cannot take give None (the caller parses them whole and reports them)."""
    from google.protobuf import message as pb_message
    from mo.front.tf.wire import graph_def_in_parts
    data = v1_graph_def.SerializeToString()
    rng = random.Random(5)
    for _ in range(200):
        damaged = bytearray(data[:rng.randrange(1, len(data))])
        for _ in range(rng.randrange(0, 3)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        parts = graph_def_in_parts(bytes(damaged), part_nodes=2)
        try:
            whole = GraphDef.FromString(bytes(damaged))
        except pb_message.DecodeError:
            whole = None
        if parts is None:
            continue
        assert whole is not None, 'the parts reader took bytes the parser refuses'
        rest, nodes, _ = parts
        assert [n.SerializeToString() for n in nodes] == [n.SerializeToString() for n in whole.node]


def _without_contents(graph_def_bytes: bytes, names) -> bytes:
    """What the parser reads from ``graph_def_bytes`` once the tensor_content of ``names`` is cleared."""
    graph_def = GraphDef.FromString(graph_def_bytes)
    for node in graph_def.node:
        if node.name in names:
            node.attr['value'].tensor.ClearField('tensor_content')
    return graph_def.SerializeToString(deterministic=True)


@pytest.mark.parametrize('fixture', ['v1_graph_def', 'keras_graph_def', 'function_graph_def'])
def test_weights_apart_is_the_graph_without_its_contents(request, fixture):
    """Parsed, the bytes without weights are TensorFlow's GraphDef but for the tensor_content of its Consts, whose
    bytes are the views given beside them (a function library and the other fields untouched)."""
    from mo.front.tf.wire import weights_apart
    data = request.getfixturevalue(fixture).SerializeToString()
    expected = _contents_by_parser(data)
    apart = weights_apart(data)
    if not expected:
        assert apart is None
        return
    rest, contents = apart
    assert {name: bytes(view) for name, view in contents.items()} == expected
    assert all(np.shares_memory(np.frombuffer(view, np.uint8), np.frombuffer(data, np.uint8))
               for view in contents.values())
    assert len(rest) < len(data) - sum(map(len, expected.values()))
    assert GraphDef.FromString(rest).SerializeToString(deterministic=True) == _without_contents(data, expected)


def test_weights_apart_keeps_small_nodes_and_lengths_of_every_size():
    """Only NodeDefs of ``min_node_bytes`` or more lose their content; enclosing lengths that shrink from two varint
    bytes to one (and stay long) are rewritten right."""
    from mo.front.tf.wire import weights_apart
    graph_def = GraphDef()
    for size in (3, 10, 40, 300, 5000):  # contents of 12 B to 20 KB: lengths of one to three varint bytes
        _const(graph_def, 'w{}'.format(size), np.arange(size, dtype=np.float32))
        graph_def.node.add(name='relu{}'.format(size), op='Relu', input=['w{}'.format(size)])
    data = graph_def.SerializeToString()
    rest, contents = weights_apart(data, min_node_bytes=100)
    assert sorted(contents) == ['w300', 'w40', 'w5000']
    assert GraphDef.FromString(rest).SerializeToString(deterministic=True) == \
        _without_contents(data, {'w40', 'w300', 'w5000'})


def test_weights_apart_leaves_duplicates_and_repeated_entries_to_the_parser():
    from mo.front.tf.wire import weights_apart
    graph_def = GraphDef()
    _const(graph_def, 'twice', np.ones(64, np.float32))
    _const(graph_def, 'twice', np.zeros(64, np.float32))
    _const(graph_def, 'once', np.full(64, 2.0, np.float32))
    data = graph_def.SerializeToString()
    rest, contents = weights_apart(data)
    assert list(contents) == ['once']
    parsed = GraphDef.FromString(rest)
    assert [bool(n.attr['value'].tensor.tensor_content) for n in parsed.node] == [True, True, False]


def test_weights_apart_of_damaged_data_is_none_or_agrees_with_the_parser():
    """Bytes that do not walk give None; where they do, the contents are what the parser reads and the rest parses
    as the parser reads the whole but for those contents."""
    from google.protobuf import message as pb_message
    from mo.front.tf.wire import weights_apart
    for damaged in _damaged_graph_defs(seed=11):
        apart = weights_apart(damaged)
        try:
            expected = _contents_by_parser(damaged)
        except pb_message.DecodeError:
            continue  # the loader parses the rest and, when it does not parse, the whole file, and reports that
        if apart is None:
            continue
        rest, contents = apart
        assert {name: bytes(view) for name, view in contents.items()} == \
            {name: expected[name] for name in contents}
        assert GraphDef.FromString(rest).SerializeToString(deterministic=True) == \
            _without_contents(damaged, set(contents))
