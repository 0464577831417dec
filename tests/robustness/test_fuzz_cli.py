"""Fuzzing the CLI with mutated GraphDefs, transform strings and JSON configs (fixed seed and budget).

Every run must end with exit 0 and whole outputs, or exit 1/2 with an ``[ ERROR ]`` line, no
traceback and no partial file. ``tools/fuzz.py`` runs the same mutations for longer.
"""
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mo.front.tf.node_def import make_node_def
from mo.front.tf.proto import GraphDef
from mo.front.tf.attrs import encode_attr
from tests.robustness.fuzzing import BYTE_MUTATIONS, check_outcome, mutate_graph_def, mutate_text, run_cli

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'examples',
                       'small_cnn.pb')
FUZZ = settings(max_examples=int(os.environ.get('MO_FUZZ_EXAMPLES', 25)), derandomize=True, deadline=None,
                suppress_health_check=list(HealthCheck))


def tiny_graph_def() -> GraphDef:
    """x -> block/Add(c) -> block/Relu -> Identity: converts in milliseconds, exercises
    load/extract/infer/IR, and has a scope for the config fuzzing."""
    gd = GraphDef()
    gd.node.add().CopyFrom(make_node_def('x', 'Placeholder', {'dtype': encode_attr(1, 'type'),
                                                              'shape': encode_attr([1, 4], 'shape')}))
    gd.node.add().CopyFrom(make_node_def('c', 'Const', {'dtype': encode_attr(1, 'type'),
                                                        'value': encode_attr(np.ones((1, 4), np.float32))}))
    gd.node.add().CopyFrom(make_node_def('block/add', 'AddV2', {'T': encode_attr(1, 'type')}, inputs=['x', 'c']))
    gd.node.add().CopyFrom(make_node_def('block/relu', 'Relu', {'T': encode_attr(1, 'type')}, inputs=['block/add']))
    gd.node.add().CopyFrom(make_node_def('out', 'Identity', {'T': encode_attr(1, 'type')}, inputs=['block/relu']))
    return gd


@pytest.mark.ir_not_compiled('the config makes a custom layer (opset "extension") OpenVINO runs only with its '
                               'extension')
def test_the_seed_inputs_are_valid(tmp_path):
    model = tmp_path / 'tiny.pb'
    model.write_bytes(tiny_graph_def().SerializeToString())
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'ir')])
    assert code == 0, err
    code, _, err = run_cli(['transform', '--in_graph', EXAMPLE, '--out_graph', str(tmp_path / 'o.pb'),
                            '--inputs', 'input', '--outputs', 'Identity', '--transforms', TRANSFORMS])
    assert code == 0, err
    config = tmp_path / 'cfg.json'
    config.write_text(CONFIG)
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'cfg_ir'),
                            '--transformations_config', str(config)])
    assert code == 0, err
    assert 'type="Block"' in (tmp_path / 'cfg_ir' / 'tiny.xml').read_text()


def _convert(tmp_path, data: bytes, what: str):
    model = tmp_path / 'model.pb'
    model.write_bytes(data)
    out_dir = tmp_path / 'ir'
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(out_dir)])
    check_outcome(code, err, [str(out_dir / 'model.xml'), str(out_dir / 'model.bin')] if code else [], what)
    for name in ('model.xml', 'model.bin'):
        if (out_dir / name).exists():
            (out_dir / name).unlink()


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), mutation=st.sampled_from(BYTE_MUTATIONS))
def test_convert_survives_corrupt_bytes(tmp_path_factory, seed, mutation):
    tmp_path = tmp_path_factory.mktemp('bytes')
    data = mutation(tiny_graph_def().SerializeToString(), random.Random(seed))
    _convert(tmp_path, data, '{} seed {}'.format(mutation.__name__, seed))


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_convert_survives_odd_graphs(tmp_path_factory, seed):
    tmp_path = tmp_path_factory.mktemp('graph')
    rng = random.Random(seed)
    gd = tiny_graph_def()
    for _ in range(rng.randrange(1, 3)):
        gd = mutate_graph_def(gd, rng)
    _convert(tmp_path, gd.SerializeToString(), 'graph mutation seed {}'.format(seed))


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), mutation=st.sampled_from(BYTE_MUTATIONS))
def test_transform_and_summarize_survive_corrupt_bytes(tmp_path_factory, seed, mutation):
    tmp_path = tmp_path_factory.mktemp('gtt')
    with open(EXAMPLE, 'rb') as handle:
        data = mutation(handle.read(), random.Random(seed))
    model, out = tmp_path / 'in.pb', tmp_path / 'out.pb'
    model.write_bytes(data)
    code, _, err = run_cli(['transform', '--in_graph', str(model), '--out_graph', str(out), '--outputs', 'Identity',
                            '--transforms', 'strip_unused_nodes remove_nodes(op=Identity) fold_constants '
                                            'fold_batch_norms fold_old_batch_norms'])
    check_outcome(code, err, [str(out)] if code else [], 'transform {} seed {}'.format(mutation.__name__, seed))
    code, _, err = run_cli(['summarize', '--in_graph', str(model)])
    check_outcome(code, err, [], 'summarize {} seed {}'.format(mutation.__name__, seed))


TRANSFORMS = 'strip_unused_nodes(type=float, shape="1,32,32,3") remove_nodes(op=Identity) ' \
             'fold_constants(ignore_errors=true) fold_batch_norms rename_op(old_op_name=Relu, new_op_name=Relu)'


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), steps=st.integers(1, 4))
def test_transform_survives_mutated_transform_strings(tmp_path_factory, seed, steps):
    tmp_path = tmp_path_factory.mktemp('ts')
    rng = random.Random(seed)
    text = TRANSFORMS
    for _ in range(steps):
        text = mutate_text(text, rng)
    out = tmp_path / 'out.pb'
    code, _, err = run_cli(['transform', '--in_graph', EXAMPLE, '--out_graph', str(out), '--inputs', 'input',
                            '--outputs', 'Identity', '--transforms', text])
    check_outcome(code, err, [str(out)] if code else [], 'transforms {!r}'.format(text))


CONFIG = '[{"id": "BlockAsOneOp", "match_kind": "scope", "op": "Block", "instances": ["block"],\n' \
         ' "custom_attributes": {"a": 1, "mode": "fast"}}]'


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), steps=st.integers(1, 4))
def test_convert_survives_mutated_json_configs(tmp_path_factory, seed, steps):
    tmp_path = tmp_path_factory.mktemp('cfg')
    rng = random.Random(seed)
    text = CONFIG
    for _ in range(steps):
        text = mutate_text(text, rng)
    config = tmp_path / 'cfg.json'
    config.write_text(text)
    model = tmp_path / 'tiny.pb'
    model.write_bytes(tiny_graph_def().SerializeToString())
    out_dir = tmp_path / 'ir'
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(out_dir),
                            '--transformations_config', str(config)])
    check_outcome(code, err, [str(out_dir / 'tiny.xml'), str(out_dir / 'tiny.bin')] if code else [],
                  'config {!r}'.format(text))
