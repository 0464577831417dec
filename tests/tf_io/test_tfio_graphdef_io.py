"""Reading and writing GraphDef files: formats, interchange with TensorFlow, errors, atomic writes."""
import os

import numpy as np
import pytest
from google.protobuf import text_format

from mo.front.tf import graphdef_io
from mo.front.tf.graphdef_io import parse_graph_def_bytes, read_graph_def, write_graph_def
from mo.front.tf.proto import GraphDef
from mo.utils.error import Error


def _det(msg):
    return msg.SerializeToString(deterministic=True)


def test_binary_and_text_written_by_tensorflow(tf, tmp_path, v1_graph_def):
    tf.io.write_graph(v1_graph_def, str(tmp_path), 'g.pb', as_text=False)
    tf.io.write_graph(v1_graph_def, str(tmp_path), 'g.pbtxt', as_text=True)
    for name in ('g.pb', 'g.pbtxt'):
        assert _det(read_graph_def(tmp_path / name)) == _det(v1_graph_def), name


def test_format_is_found_by_content_when_extension_lies(tmp_path, v1_graph_def):
    ours = GraphDef.FromString(v1_graph_def.SerializeToString())
    (tmp_path / 'binary.pbtxt').write_bytes(ours.SerializeToString())
    (tmp_path / 'text.pb').write_text(text_format.MessageToString(ours))
    (tmp_path / 'text.model').write_text(text_format.MessageToString(ours))
    for name in ('binary.pbtxt', 'text.pb', 'text.model'):
        assert _det(read_graph_def(str(tmp_path / name))) == _det(ours), name


def test_written_files_read_back_in_tensorflow(tf, tmp_path, v1_graph_def):
    ours = GraphDef.FromString(v1_graph_def.SerializeToString())
    write_graph_def(ours, tmp_path / 'out.pb')
    write_graph_def(ours, tmp_path / 'out.pbtxt', as_text=True)
    binary = (tmp_path / 'out.pb').read_bytes()
    assert binary == _det(v1_graph_def)
    theirs = text_format.Parse((tmp_path / 'out.pbtxt').read_text(encoding='utf-8'), tf.compat.v1.GraphDef())
    assert _det(theirs) == _det(v1_graph_def)
    # Deterministic: the same graph gives the same bytes again.
    write_graph_def(GraphDef.FromString(binary), tmp_path / 'again.pb')
    assert (tmp_path / 'again.pb').read_bytes() == binary


def test_tensorflow_graph_def_objects_can_be_written(tmp_path, v1_graph_def):
    write_graph_def(v1_graph_def, tmp_path / 'tfobj.pb')
    assert (tmp_path / 'tfobj.pb').read_bytes() == _det(v1_graph_def)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(Error, match='nope.pb.*does not exist'):
        read_graph_def(tmp_path / 'nope.pb')
    with pytest.raises(Error, match='is a directory'):
        read_graph_def(tmp_path)


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / 'locked.pb'
    path.write_bytes(b'\n\x05\n\x01a\x12\x00')

    def denied(*args, **kwargs):
        raise PermissionError(13, 'Permission denied')

    # Tests may run as root, which ignores file modes: simulate the refusal instead.
    monkeypatch.setattr(graphdef_io, 'open', denied, raising=False)
    with pytest.raises(Error, match='locked.pb.*Permission denied'):
        read_graph_def(path)


def test_empty_file(tmp_path):
    (tmp_path / 'empty.pb').write_bytes(b'')
    with pytest.raises(Error, match='empty.pb.*empty'):
        read_graph_def(tmp_path / 'empty.pb')


def test_truncated_binary(tmp_path, v1_graph_def):
    data = _det(v1_graph_def)
    for cut in (len(data) - 3, len(data) // 2 + 1, 7):
        (tmp_path / 'cut.pb').write_bytes(data[:cut])
        with pytest.raises(Error, match='cut.pb.*truncated or corrupt'):
            read_graph_def(tmp_path / 'cut.pb')


def test_random_bytes(tmp_path):
    rng = np.random.default_rng(0)
    for i in range(20):
        path = tmp_path / 'random{}.pb'.format(i)
        path.write_bytes(rng.integers(0, 256, size=int(rng.integers(1, 4000)), dtype=np.uint8).tobytes())
        with pytest.raises(Error, match='random{}.pb.*(truncated or corrupt|not a GraphDef)'.format(i)):
            read_graph_def(path)


def test_other_protobuf_is_not_a_graph_def(tf, tmp_path, v1_graph_def):
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    sm.meta_graphs.add().graph_def.CopyFrom(v1_graph_def)
    (tmp_path / 'saved_model.pb').write_bytes(sm.SerializeToString())
    with pytest.raises(Error, match='saved_model.pb.*not a (valid binary )?GraphDef'):
        read_graph_def(tmp_path / 'saved_model.pb')
    # A lone NodeDef parses as a GraphDef of garbage: rejected too.
    (tmp_path / 'node.pb').write_bytes(v1_graph_def.node[1].SerializeToString())
    with pytest.raises(Error, match='node.pb'):
        read_graph_def(tmp_path / 'node.pb')


def test_bad_text_reports_line_and_column(tmp_path):
    text = 'node {\n  name: "a"\n  op: "Const"\n  bogus_field: 1\n}\n'
    (tmp_path / 'bad.pbtxt').write_text(text)
    with pytest.raises(Error, match=r'bad.pbtxt.*line 4, column 3.*bogus_field') as info:
        read_graph_def(tmp_path / 'bad.pbtxt')
    assert '\n' not in str(info.value)
    # The same text without a telling extension: still reported as text.
    (tmp_path / 'bad.model').write_text('node {\n  name: "a"\n  op: "Const"\n')
    with pytest.raises(Error, match=r'bad.model.*text GraphDef does not parse at line 3'):
        read_graph_def(tmp_path / 'bad.model')


def test_parse_bytes_with_forced_format(v1_graph_def):
    data = _det(v1_graph_def)
    assert _det(parse_graph_def_bytes(data, 'x', text=False)) == data
    text = text_format.MessageToString(GraphDef.FromString(data)).encode()
    assert _det(parse_graph_def_bytes(text, 'x', text=True)) == data
    with pytest.raises(Error, match='"mem"'):
        parse_graph_def_bytes(b'\x08', 'mem')


def test_write_failure_leaves_existing_file_and_no_temp(tmp_path, monkeypatch, v1_graph_def):
    target = tmp_path / 'model.pb'
    target.write_bytes(b'original')
    ours = GraphDef.FromString(v1_graph_def.SerializeToString())

    def failing_replace(src, dst):
        raise OSError(28, 'No space left on device')

    monkeypatch.setattr(graphdef_io.os, 'replace', failing_replace)
    with pytest.raises(Error, match='model.pb.*No space left'):
        write_graph_def(ours, target)
    monkeypatch.undo()
    assert target.read_bytes() == b'original'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['model.pb']

    def failing_fsync(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(graphdef_io.os, 'fsync', failing_fsync)
    with pytest.raises(KeyboardInterrupt):
        write_graph_def(ours, target)
    monkeypatch.undo()
    assert target.read_bytes() == b'original'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['model.pb']


def test_write_into_missing_directory(tmp_path, v1_graph_def):
    with pytest.raises(Error, match='missing'):
        write_graph_def(v1_graph_def, tmp_path / 'missing' / 'x.pb')


def test_written_file_mode_follows_umask(tmp_path, v1_graph_def):
    old = os.umask(0o022)
    try:
        write_graph_def(v1_graph_def, tmp_path / 'm.pb')
    finally:
        os.umask(old)
    assert (tmp_path / 'm.pb').stat().st_mode & 0o777 == 0o644


def test_in_parts_reads_what_read_graph_def_reads(tmp_path, v1_graph_def):
    """A binary file comes in parts (the nodes apart from the other fields); a text file whole."""
    (tmp_path / 'm.pb').write_bytes(_det(v1_graph_def))
    rest, nodes, data, binary, largest, contents = graphdef_io.read_graph_def_in_parts(tmp_path / 'm.pb', min_nodes=1)
    whole = read_graph_def(tmp_path / 'm.pb')
    assert binary and data == _det(v1_graph_def) and not rest.node
    assert [_det(n) for n in nodes] == [_det(n) for n in whole.node]
    assert largest == max(n.ByteSize() for n in whole.node) and contents is None
    (tmp_path / 'm.pbtxt').write_text(text_format.MessageToString(GraphDef.FromString(_det(v1_graph_def))))
    graph_def, nodes, _, binary, largest, _ = graphdef_io.read_graph_def_in_parts(tmp_path / 'm.pbtxt', min_nodes=1)
    assert nodes is None and largest is None and not binary and _det(graph_def) == _det(whole)


def test_in_parts_reports_bad_files_as_read_graph_def_does(tf, tmp_path, v1_graph_def):
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    sm.meta_graphs.add().graph_def.CopyFrom(v1_graph_def)
    rng = np.random.default_rng(1)
    files = {'empty.pb': b'', 'cut.pb': _det(v1_graph_def)[:-3], 'saved_model.pb': sm.SerializeToString(),
             'node.pb': v1_graph_def.node[1].SerializeToString(),
             'random.pb': rng.integers(0, 256, size=3000, dtype=np.uint8).tobytes()}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(Error) as whole:
            read_graph_def(tmp_path / name)
        with pytest.raises(Error) as parts:
            graphdef_io.read_graph_def_in_parts(tmp_path / name, min_nodes=1)
        assert str(parts.value) == str(whole.value)
        with pytest.raises(Error) as apart:  # the bytes without weights do not parse: the whole file's error
            graphdef_io.read_graph_def_in_parts(tmp_path / name, weights_apart_from=0)
        assert str(apart.value) == str(whole.value)



def test_only_graphs_of_many_small_nodes_are_read_in_parts(tmp_path, v1_graph_def):
    """Parts pay for a graph of tens of thousands of nodes; a typical model's weights would only be copied more."""
    from mo.front.tf import wire
    data = _det(v1_graph_def)
    count = len(v1_graph_def.node)
    assert wire.many_small_nodes(data, min_nodes=count)
    assert not wire.many_small_nodes(data, min_nodes=count + 1)
    assert not wire.many_small_nodes(data, min_nodes=count, max_mean_bytes=1)
    (tmp_path / 'm.pb').write_bytes(data)
    assert graphdef_io.read_graph_def_in_parts(tmp_path / 'm.pb').nodes is None  # a few nodes: parsed whole
    assert graphdef_io.read_graph_def_in_parts(tmp_path / 'm.pb', min_nodes=count).nodes is not None
