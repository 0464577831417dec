"""Inputs the long fuzzing runs (tools/fuzz.py) found crashing, kept as regression tests."""
import json

from tests.robustness.fuzzing import check_outcome, run_cli
from tests.robustness.test_fuzz_cli import tiny_graph_def


def test_custom_attribute_key_that_is_no_xml_name(tmp_path):
    model = tmp_path / 'tiny.pb'
    model.write_bytes(tiny_graph_def().SerializeToString())
    config = tmp_path / 'cfg.json'
    config.write_text(json.dumps([{'id': 'BlockAsOneOp', 'match_kind': 'scope', 'op': 'Block', 'instances': ['block'],
                                   'custom_attributes': {'a': 1, '{mode': 'fast'}}]))
    out = tmp_path / 'ir'
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(out),
                            '--transformations_config', str(config)])
    check_outcome(code, err, [str(out / 'tiny.xml'), str(out / 'tiny.bin')], 'bad custom attribute key')
    assert code == 1 and '"{mode"' in err
