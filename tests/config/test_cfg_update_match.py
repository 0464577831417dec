"""Scope and points matching on the test models, and --tensorflow_custom_operations_config_update."""
import json
import os
import stat

import pytest

from mo.main import main
from mo.utils.config_update import update_config
from mo.utils.custom_replacement_config import load_config
from mo.utils.error import Error
from tests.config.conftest import loaded_graph, write_json

SCOPES = ['.*InceptionV4/Mixed_5b', '.*InceptionV4/Mixed_5c', '.*InceptionV4/Mixed_5d']


def template(tmp_path, **extra):
    item = {'custom_attributes': {'attr1_key': 'attr1_value', 'attr2_key': 123456}, 'id': 'InceptionBlockReplacer',
            'op': 'InceptionBlock', 'instances': SCOPES, 'match_kind': 'scope'}
    item.update(extra)
    return write_json(tmp_path / 'inception.json', [item])


def test_update_fills_inputs_and_outputs_like_the_seed(inception, tmp_path):
    record, pb = inception
    path = template(tmp_path)
    os.chmod(path, 0o640)
    assert update_config(loaded_graph(pb), path) == ['InceptionBlockReplacer']
    data = json.load(open(path))
    assert len(data) == 1
    item = data[0]
    # every other key kept, in its order; inputs/outputs added
    assert list(item) == ['custom_attributes', 'id', 'op', 'instances', 'match_kind', 'inputs', 'outputs']
    assert item['custom_attributes'] == {'attr1_key': 'attr1_value', 'attr2_key': 123456}
    assert len(item['inputs']) == 1  # one unique input tensor, four consumers
    assert sorted(c['node'] for c in item['inputs'][0]) == sorted(n + '$' for n in record.meta['block_inputs'])
    assert all(c['port'] == 0 for c in item['inputs'][0])
    assert item['outputs'] == [{'node': record.meta['block_output'] + '$', 'port': 0}]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    # the updated file drives matching: each instance's inputs are the consumers of the previous block
    graph = loaded_graph(pb)
    desc = load_config(path)[0]
    for match, scope in zip(desc.matches(graph), record.meta['scopes']):
        assert match.scope == scope
        producers = {node.in_port(port).get_source().node.name for node, port in match.input_nodes(0)}
        assert producers == {record.meta['block_input_producer'][scope]}
        assert match.output_node(0)[0].name == scope + '/concat'
        assert all(graph.nodes[n]['name'].startswith(scope + '/') for n in match.matched_nodes_names())
        assert match.node_by_pattern('Branch_3/AvgPool').name == scope + '/Branch_3/AvgPool_0a_3x3/AvgPool'


def test_update_regex_is_anchored_when_a_suffix_is_ambiguous(tmp_path):
    from mo.utils.config_update import _node_regex
    names = [['concat', 'Branch_0/concat', 'x']]
    assert _node_regex('concat', names) == '^concat$'
    assert _node_regex('Branch_0/concat', names) == 'Branch_0/concat$'


def test_update_through_the_cli_writes_no_ir(inception, tmp_path):
    _, pb = inception
    path = template(tmp_path)
    out = tmp_path / 'out'
    assert main(['convert', '--input_model', pb, '--output_dir', str(out),
                 '--tensorflow_custom_operations_config_update', path]) == 0
    assert 'inputs' in json.load(open(path))[0]
    assert not out.exists() or not os.listdir(str(out))


def test_update_reports_descriptions_that_match_nothing_and_keeps_the_file(inception, tmp_path):
    _, pb = inception
    path = write_json(tmp_path / 'c.json', [
        {'id': 'Good', 'match_kind': 'scope', 'instances': SCOPES[:1]},
        {'id': 'Nothing', 'match_kind': 'scope', 'instances': ['.*InceptionV4/Mixed_9z']},
        {'id': 'PartlyNothing', 'match_kind': 'scope', 'instances': [SCOPES[0], '.*Nowhere']},
    ])
    before = open(path).read()
    with pytest.raises(Error) as info:
        update_config(loaded_graph(pb), path)
    message = str(info.value)
    assert '"Nothing": instances[0] ".*InceptionV4/Mixed_9z" matches no node' in message
    assert '"PartlyNothing": instances[1] ".*Nowhere" matches no node' in message
    assert '"Good"' not in message and 'was not changed' in message
    assert open(path).read() == before


def test_update_refuses_a_read_only_config(inception, tmp_path, capsys):
    _, pb = inception
    path = template(tmp_path)
    os.chmod(path, 0o444)
    before = open(path).read()
    code = main(['convert', '--input_model', pb, '--tensorflow_custom_operations_config_update', path])
    err = capsys.readouterr().err
    assert code == 1 and '[ ERROR ]' in err and 'not writable' in err and 'Traceback' not in err
    assert open(path).read() == before


def test_ambiguous_scope_regex(inception, tmp_path):
    _, pb = inception
    path = template(tmp_path, instances=['.*InceptionV4/Mixed_5[bc]'])
    with pytest.raises(Error, match='is ambiguous: it matches the scopes "InceptionV4/Mixed_5b", '
                                    '"InceptionV4/Mixed_5c"'):
        load_config(path)[0].matches(loaded_graph(pb))


def points(start, end):
    return [{'id': 'P', 'match_kind': 'points', 'instances': {'start_points': start, 'end_points': end}}]


def test_points_match_is_the_sub_graph_between_start_and_end(ssd, tmp_path):
    record, pb = ssd
    graph = loaded_graph(pb)
    path = write_json(tmp_path / 'p.json', points(record.meta['start_points'], record.meta['end_points']))
    (match,) = load_config(path)[0].matches(graph)
    names = {graph.nodes[n]['name'] for n in match.matched_nodes_names()}
    # everything computed under Postprocessor/ from the start points, plus its constants and the end points
    assert {'Postprocessor/Decode/concat', 'Postprocessor/Decode/truediv_ty/y', 'Postprocessor/convert_scores',
            'Postprocessor/Cast_1', 'detection_boxes', 'num_detections'} <= names
    assert not names & {'input', 'Squeeze', 'concat_1', 'anchors', 'Postprocessor/ExpandDims'}
    assert all(n.startswith('Postprocessor/') or n in record.meta['end_points'] for n in names)
    assert [match.single_input_node(i)[0].name for i in range(match.inputs_count())] == record.meta['start_points']
    assert [match.output_node(i)[0].name for i in range(match.outputs_count())] == record.meta['end_points']


def test_points_end_point_not_reachable(ssd, tmp_path):
    _, pb = ssd
    path = write_json(tmp_path / 'p.json', points(['Postprocessor/scale_logits'], ['detection_scores', 'detection_boxes']))
    with pytest.raises(Error, match=r'end point instances.end_points\[1\] "detection_boxes" is not reachable from the '
                                    r'start points "Postprocessor/scale_logits"'):
        load_config(path)[0].matches(loaded_graph(pb))


def side_input_model(path):
    """input -> start -> end, with a side branch from the input into ``end`` (not via a start point)."""
    import tensorflow as tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='input')
        start = tf.multiply(x, 2.0, name='start')
        side = tf.reduce_mean(tf.abs(x, name='side_abs'), name='side_mean')
        tf.add(tf.exp(start, name='body'), side, name='end')
    with open(path, 'wb') as handle:
        handle.write(graph.as_graph_def().SerializeToString())
    return str(path)


def test_points_sub_graph_must_not_depend_on_a_model_input(tmp_path):
    pb = side_input_model(tmp_path / 'side.pb')
    path = write_json(tmp_path / 'p.json', points(['start'], ['end']))
    with pytest.raises(Error) as info:
        load_config(path)[0].matches(loaded_graph(pb))
    message = str(info.value)
    assert 'reaches the model input "input" by input -> side_abs -> side_mean -> end' in message
    assert 'a start point is missing' in message
    # with the side branch's entry as a start point too, the sub-graph is fine
    path = write_json(tmp_path / 'q.json', points(['start', 'side_abs'], ['end']))
    (match,) = load_config(path)[0].matches(loaded_graph(pb))
    names = set(match.matched_nodes_names())
    assert {'body', 'end', 'side_abs', 'side_mean', 'start'} <= names and 'input' not in names


def test_points_unknown_node(ssd, tmp_path):
    _, pb = ssd
    path = write_json(tmp_path / 'p.json', points(['Postprocessor/Nope'], ['detection_boxes']))
    with pytest.raises(Error, match=r'instances.start_points\[0\] names node "Postprocessor/Nope", which is not in'):
        load_config(path)[0].matches(loaded_graph(pb))
