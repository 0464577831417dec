"""Reading --transformations_config files: JSON errors, schema problems with their JSON paths."""
import pytest

from mo.utils.custom_replacement_config import load_config, load_configs
from mo.utils.error import Error
from tests.config.conftest import CONFIGS, write_json


def problems_of(path):
    with pytest.raises(Error) as info:
        load_config(path)
    return str(info.value)


def test_malformed_json_names_file_line_and_column(tmp_path):
    path = tmp_path / 'bad.json'
    path.write_text('[\n  {"id": "x",\n   "match_kind": "scope" "instances": []}\n]\n')
    message = problems_of(str(path))
    assert str(path) in message and 'not valid JSON' in message and 'line 3' in message
    assert 'Traceback' not in message


def test_every_schema_problem_has_its_json_path(tmp_path):
    path = write_json(tmp_path / 'c.json', [
        {'id': 'A', 'match_kind': 'scope', 'instances': ['.*a']},
        {'id': 'B', 'match_kind': 'points', 'instances': {'start_points': ['x', 3], 'end_points': []}},
        {'match_kind': 'scop', 'custom_atributes': {}},
        {'id': 'D', 'match_kind': 'scope', 'instances': ['ok'], 'inputs': [[{'node': 'n$', 'port': -1}]],
         'outputs': [{'node': 'm$'}]},
        {'id': 'E', 'match_kind': 'points'},
    ])
    message = problems_of(path)
    for expected in ('[1].instances.start_points[1] must be string (found integer)',
                     '[1].instances.end_points needs at least 1 item',
                     '[2] is missing "id"',
                     "[2].match_kind must be one of 'scope', 'points', 'general' (found 'scop')",
                     '[2].custom_atributes is not a known key',
                     '[3].inputs[0][0].port must be at least 0',
                     '[3].outputs[0] is missing "port"',
                     '[4] is missing "instances"'):
        assert expected in message, (expected, message)
    assert '; [0]' not in message and ': [0]' not in message  # the valid description is not blamed


def test_top_level_must_be_a_list(tmp_path):
    assert '<top> must be array (found object)' in problems_of(write_json(tmp_path / 'c.json', {'id': 'x'}))


def test_bad_regex_is_reported_with_its_path(tmp_path):
    path = write_json(tmp_path / 'c.json', [{'id': 'A', 'match_kind': 'scope', 'instances': ['ok', '(unclosed']}])
    assert '[0].instances[1] is not a valid regular expression' in problems_of(path)


def test_duplicate_ids_within_and_across_files(tmp_path):
    one = write_json(tmp_path / 'one.json', [{'id': 'A', 'match_kind': 'general'}])
    same = write_json(tmp_path / 'same.json', [{'id': 'A', 'match_kind': 'general'}] * 2)
    assert '[1].id "A" repeats [0].id' in problems_of(same)
    with pytest.raises(Error, match=r'\[0\]\.id "A" is also the id of .*one\.json \[0\]'):
        load_configs([one, write_json(tmp_path / 'two.json', [{'id': 'A', 'match_kind': 'general'}])])


def test_missing_file(tmp_path):
    assert 'Cannot read the transformations config' in problems_of(str(tmp_path / 'nope.json'))


@pytest.mark.parametrize('name', ['inception_block.json', 'ssd_postprocessor.json', 'yolo_region.json',
                                  'yolo_v3_mobilenet1_voc.json'])
def test_shipped_configs_are_valid(name):
    import os
    descriptions = load_config(os.path.join(CONFIGS, name))
    assert len(descriptions) == 1 and descriptions[0].id
