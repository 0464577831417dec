"""Self-tests of the reference oracles and the small test models (they prove the oracles work).

The keras.applications models are not built here (too slow for a self-test); set
``MO_SELFTEST_ALL_MODELS=1`` to check every model of ``MODEL_NAMES`` against OpenVINO's own
converter as well.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.support import models, oracles

ROOT = Path(__file__).resolve().parents[2]
GTT_PIPELINE = 'strip_unused_nodes fold_constants(ignore_errors=true)'
QUICK = ('small_cnn_bn', 'small_cnn_bn_funclib', 'transformer_encoder', 'lstm_gru',
         'inception_blocks', 'ssd_like_postprocessor', 'yolo_like_head')


# ----------------------------------------------------------------------------------- run_tf

def test_run_tf_small_cnn_bn_is_deterministic():
    rec = models.small_cnn_bn()
    feeds = rec.random_feeds(seed=0)
    first = oracles.run_tf(rec.graph_def, feeds, rec.outputs)
    second = oracles.run_tf(rec.graph_def, feeds, [o + ':0' for o in rec.outputs])
    assert len(first) == 1
    assert first[0].shape == (2, 10) and first[0].dtype == np.float32
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_allclose(first[0].sum(axis=1), 1.0, rtol=1e-5)   # Softmax
    assert not np.allclose(first[0][0], first[0][1])                    # inputs matter
    ref = oracles.reference(rec, feeds)
    np.testing.assert_array_equal(ref['Identity'], first[0])


def test_run_tf_accepts_graph_def_and_path(tmp_path):
    rec = models.small_cnn_bn()
    feeds = rec.random_feeds(seed=1)
    want = oracles.run_tf(rec.graph_def, feeds, rec.outputs)[0]
    path = rec.write_pb(tmp_path / 'm.pb')
    for source in (rec.graph_def_proto(), path, str(path), rec):
        np.testing.assert_array_equal(oracles.run_tf(source, feeds, rec.outputs)[0], want)
    with oracles.TFRunner(rec.graph_def) as runner:
        np.testing.assert_array_equal(runner.run(feeds, rec.outputs)[0], want)


# ------------------------------------------------------------------------------ run_tf_gtt

def test_gtt_keeps_the_numbers():
    rec = models.small_cnn_bn()
    out = oracles.run_tf_gtt(rec.graph_def, rec.input_names, rec.output_names, GTT_PIPELINE)
    assert isinstance(out, bytes)
    before = oracles.summarize_tf(rec.graph_def)
    after = oracles.summarize_tf(out)
    assert sum(after.values()) < sum(before.values()), (before, after)
    assert after.get('Rsqrt', 0) == 0          # BN statistics were folded into constants
    for seed in range(2):
        feeds = rec.random_feeds(seed)
        want = oracles.run_tf(rec.graph_def, feeds, rec.outputs)
        got = oracles.run_tf(out, feeds, rec.outputs)
        for g, w in zip(got, want):
            assert oracles.compare(g, w) < 1e-6


def test_gtt_accepts_comma_joined_names():
    rec = models.ssd_like_postprocessor()
    out = oracles.run_tf_gtt(rec.graph_def, 'input', ','.join(rec.outputs), 'strip_unused_nodes')
    assert 'detection_boxes' in {n.name for n in oracles.graph_def_from(out).node}


@pytest.mark.parametrize('transforms, inputs, outputs, message', [
    ('no_such_transform', 'input', 'Identity', "Transform 'no_such_transform' not recognized"),
    ('strip_unused_nodes', 'input', 'no_such_node', 'no_such_node'),
])
def test_gtt_errors_become_exceptions(transforms, inputs, outputs, message):
    rec = models.small_cnn_bn()
    with pytest.raises(oracles.GTTError, match=message):
        oracles.run_tf_gtt(rec.graph_def, inputs, outputs, transforms)


def test_gtt_rejects_garbage():
    with pytest.raises(oracles.GTTError, match='GraphDef'):
        oracles.run_tf_gtt(b'\x00\x01garbage', 'a', 'b', 'strip_unused_nodes')


# ---------------------------------------------------------------------------- run_openvino

def test_openvino_oracle_matches_tf(tmp_path):
    rec = models.small_cnn_bn()
    xml = oracles.ov_convert_tf(rec.graph_def, tmp_path / 'small_cnn_bn.xml')
    assert xml.exists() and xml.with_suffix('.bin').exists()
    for seed in range(2):
        feeds = rec.random_feeds(seed)
        want = oracles.run_tf(rec.graph_def, feeds, rec.outputs)
        got = oracles.run_openvino(xml, feeds)
        assert [g.shape for g in got] == [w.shape for w in want]
        for g, w in zip(got, want):
            assert oracles.compare(g, w) < 1e-4
    # by name with ':0', and by order when names do not match
    feeds = rec.random_feeds(5)
    want = oracles.run_openvino(xml, feeds)[0]
    np.testing.assert_array_equal(oracles.run_openvino(xml, {'input:0': feeds['input']})[0], want)
    np.testing.assert_array_equal(oracles.run_openvino(xml, {'whatever': feeds['input']})[0], want)


def test_openvino_oracle_multiple_outputs_in_model_order(tmp_path):
    rec = models.ssd_like_postprocessor()
    xml = oracles.ov_convert_tf(rec.graph_def, tmp_path / 'ssd.xml')
    feeds = rec.random_feeds(0)
    want = oracles.run_tf(rec.graph_def, feeds, rec.outputs)
    got = oracles.run_openvino(xml, feeds)
    assert len(got) == 3
    import openvino as ov
    names = [sorted(o.get_names()) for o in ov.Core().read_model(str(xml)).outputs]
    for name, g in zip(names, got):
        i = next(i for i, o in enumerate(rec.outputs) if o in name or o + ':0' in name)
        assert g.shape == want[i].shape
        assert oracles.compare(g, want[i]) < 1e-4


def test_openvino_oracle_compiles_in_exact_f32():
    """The CPU plugin's default inference precision is bf16 on CPUs with AVX512_BF16 or AMX (0.4%
    off on a small Keras CNN); the oracle pins f32, so a dense layer matches float64 numpy."""
    import openvino as ov
    import openvino.opset13 as opset
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 144)).astype(np.float32)
    w = rng.standard_normal((144, 10)).astype(np.float32)
    param = opset.parameter([2, 144], np.float32)
    model = ov.Model([opset.matmul(param, opset.constant(w), False, False)], [param])
    compiled = oracles.compile_openvino(model)
    assert compiled.get_property('INFERENCE_PRECISION_HINT') == ov.Type.f32
    got = compiled({0: x})[compiled.outputs[0]]
    assert oracles.compare(got, x.astype(np.float64) @ w.astype(np.float64)) < 1e-5
    assert oracles.compare(oracles.run_openvino(model, {'x': x})[0], got) == 0.0


def test_tests_compile_ir_only_through_the_oracle():
    """Every test runs an IR through ``compile_openvino`` (exact f32): a bare ``compile_model``
    gets the plugin's default precision, which is bf16 on some CPUs."""
    offenders = []
    # tests of openvino's own functions on mo's results (every call passes exact f32), and of the precision the
    # CPU plugin picks for compressed weights
    about_openvino = {ROOT / 'tests' / 'convert' / 'test_api_openvino_habits.py',
                      ROOT / 'tests' / 'gtt_quantize' / 'test_dequantize_convert.py'}
    for path in sorted((ROOT / 'tests').rglob('*.py')):
        if path in (ROOT / 'tests' / 'support' / 'oracles.py', Path(__file__).resolve()) or path in about_openvino:
            continue
        for number, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
            if '.compile_model(' in line:
                offenders.append('{}:{}'.format(path.relative_to(ROOT), number))
    assert not offenders, offenders


# --------------------------------------------------------------------------------- compare

def test_compare():
    e = np.array([1.0, -2.0, 4.0], np.float32)
    assert oracles.compare(e, e) == 0.0
    assert oracles.compare(e + np.float32(0.04), e) == pytest.approx(0.01)
    assert oracles.compare(np.zeros(3), np.zeros(3)) == 0.0
    assert oracles.compare(np.full(3, 1e-3), np.zeros(3)) == pytest.approx(1e-3)  # absolute at 0
    assert oracles.compare(np.array([np.nan, 1.0]), np.array([np.nan, 1.0])) == 0.0
    assert oracles.compare(np.array([np.nan, 1.0]), np.array([0.0, 1.0])) == float('inf')
    assert oracles.compare(np.array([np.inf, 1.0]), np.array([np.inf, 1.0])) == 0.0
    assert oracles.compare(np.array([3, 4]), np.array([3, 5])) == pytest.approx(0.2)  # integers
    assert oracles.compare(np.zeros((0, 3)), np.zeros((0, 3))) == 0.0
    with pytest.raises(ValueError, match='shape'):
        oracles.compare(np.zeros((1, 3)), np.zeros(3))


def test_summarize_tf():
    rec = models.small_cnn_bn_funclib()
    top = oracles.summarize_tf(rec.graph_def)
    assert top == {'Identity': 1, 'Placeholder': 1, 'StatefulPartitionedCall': 1}
    full = oracles.summarize_tf(rec.graph_def, include_functions=True)
    assert full['PartitionedCall'] == 1 and full['Conv2D'] == 2 and full['Relu6'] == 1


# ---------------------------------------------------------------------------------- models

@pytest.mark.parametrize('name', QUICK)
def test_model_record_is_consistent(name):
    rec = models.get_model(name)
    assert rec is models.get_model(name)               # built once per session
    gd = rec.graph_def_proto()
    nodes = {n.name: n for n in gd.node}
    assert rec.node_count == len(gd.node)
    for info in rec.inputs:
        assert nodes[info.name].op == 'Placeholder'
    for out in rec.outputs:
        assert out.split(':')[0] in nodes
    values = oracles.run_tf(rec.graph_def, rec.random_feeds(0), rec.outputs)
    assert [tuple(v.shape) for v in values] == [tuple(s) for s in rec.output_shapes]
    assert all(np.isfinite(v).all() for v in values)
    if name != 'small_cnn_bn_funclib':
        assert not gd.library.function
        assert not any(n.op.endswith('PartitionedCall') for n in gd.node)


def test_keras_graphs_have_random_batch_norm_statistics():
    gd = models.small_cnn_bn().graph_def_proto()
    import tensorflow as tf
    consts = {n.name: tf.make_ndarray(n.attr['value'].tensor) for n in gd.node if n.op == 'Const'}
    bn = [k for k in consts if '/bn1' in k and k.endswith('ReadVariableOp/resource')]
    assert len(bn) == 4                       # gamma, beta, moving mean, moving variance
    for k in bn:
        v = consts[k]
        assert not np.allclose(v, 0.0) and not np.allclose(v, 1.0), k


def test_named_scopes():
    rec = models.inception_blocks()
    names = {n.name for n in rec.graph_def_proto().node}
    for scope in rec.meta['scopes']:
        for suffix in rec.meta['block_inputs'] + [rec.meta['block_output']]:
            assert scope + '/' + suffix in names
        assert scope + '/Branch_0/Conv2d_0a_1x1/BatchNorm/FusedBatchNormV3' in names
    ssd = models.ssd_like_postprocessor()
    names = {n.name for n in ssd.graph_def_proto().node}
    assert set(ssd.meta['start_points']) <= names and set(ssd.meta['end_points']) <= names
    yolo = models.yolo_like_head()
    r = yolo.meta['region_yolo']
    assert yolo.output_shapes[0][-1] == r['num'] * (r['coords'] + 1 + r['classes'])


def test_record_save_load_and_disk_cache(tmp_path, monkeypatch):
    rec = models.yolo_like_head()
    rec.save(tmp_path)
    loaded = models.ModelRecord.load(tmp_path, rec.name)
    assert loaded.graph_def == rec.graph_def
    assert loaded.inputs == rec.inputs and loaded.outputs == rec.outputs
    assert loaded.output_shapes == rec.output_shapes and loaded.meta == json.loads(
        json.dumps(rec.to_json()['meta']))
    np.testing.assert_array_equal(loaded.random_feeds(3)['input'], rec.random_feeds(3)['input'])
    # $MO_TEST_CACHE: the first get_model writes, a later process would read
    cache = tmp_path / 'cache'
    monkeypatch.setenv(models.CACHE_ENV, str(cache))
    models.get_model.cache_clear()
    try:
        first = models.get_model('yolo_like_head')
        data = json.loads((cache / 'yolo_like_head.json').read_text())
        assert data['cache_key'] == models.cache_key()
        models.get_model.cache_clear()
        again = models.get_model('yolo_like_head')
        assert again.graph_def == first.graph_def and again is not first
    finally:
        models.get_model.cache_clear()


# -------------------------------------------------------------------------------- examples

def test_example_is_reproducible(tmp_path):
    info = json.loads((ROOT / 'examples' / 'small_cnn.json').read_text())
    import keras
    import tensorflow as tf
    subprocess.run([sys.executable, str(ROOT / 'examples' / 'make_small_cnn.py'), '--out', str(tmp_path)],
                   check=True, capture_output=True)
    fresh = (tmp_path / 'small_cnn.pb').read_bytes()
    assert json.loads((tmp_path / 'small_cnn.json').read_text())['input'] == info['input']
    same_versions = info['generated_with'] == {'tensorflow': tf.__version__, 'keras': keras.__version__}
    if same_versions:
        assert fresh == (ROOT / 'examples' / 'small_cnn.pb').read_bytes()
    shipped = (ROOT / 'examples' / 'small_cnn.pb').read_bytes()
    assert len(shipped) < 200_000
    x = np.random.default_rng(0).uniform(-1, 1, info['input']['shape']).astype(np.float32)
    out = oracles.run_tf(shipped, {info['input']['name']: x}, [info['output']['name']])[0]
    assert out.shape == tuple(info['output']['shape'])


# ----------------------------------------------------------------------- all models (opt-in)

@pytest.mark.skipif(not os.environ.get('MO_SELFTEST_ALL_MODELS'),
                    reason='set MO_SELFTEST_ALL_MODELS=1 to build every model (about a minute)')
@pytest.mark.parametrize('name', models.MODEL_NAMES)
def test_every_model_against_openvino_converter(name, tmp_path):
    rec = models.get_model(name)
    xml = oracles.ov_convert_tf(rec.graph_def, tmp_path / (name + '.xml'))
    feeds = rec.random_feeds(0)
    want = oracles.run_tf(rec.graph_def, feeds, rec.outputs)
    got = oracles.run_openvino(xml, feeds)
    assert len(got) == len(want)
    if len(got) == 1:
        assert oracles.compare(got[0], want[0]) < 1e-4
