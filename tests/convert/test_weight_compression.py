"""``--compress_weights`` end to end: an ONNX decoder-like MLP (embedding, two MatMuls, an LM head) through the Python
API and a TensorFlow CNN (two convolutions, two dense layers) through the CLI, in every mode.

Each IR is checked for what its ``.xml`` says (the codes' element types), its ``.bin`` size (the codes at their
width plus a scale, and a zero point in the asymmetric modes, per output channel or group, as the option's
documentation promises), that OpenVINO's CPU runs the MatMuls and Gather on the compressed codes, and that its
output is within a bound of the framework's (onnxruntime's, TensorFlow's) that follows from the quantization step
alone: every weight is off by at most half its group's step (``max|w| / (2^(bits-1) - 1)`` symmetric,
``(max(w, 0) - min(w, 0)) / (2^bits - 1)`` asymmetric), propagated through the layers in interval arithmetic
(``|dy| <= |dx| @ |W| + (|x| + |dx|) @ step / 2``; ReLU and averaging do not widen it).
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from tests.support.oracles import compile_openvino  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: OpenVINO's CPU in exact f32, and no dynamic quantization of the activations of compressed-weight MatMuls
CPU = {'INFERENCE_PRECISION_HINT': 'f32', 'DYNAMIC_QUANTIZATION_GROUP_SIZE': '0'}
#: mode -> (bits, symmetric, code type in the IR)
MODES = {'int8_sym': (8, True, 'i8'), 'int8_asym': (8, False, 'u8'), 'int4_sym': (4, True, 'i4'),
         'int4_asym': (4, False, 'u4')}
BACKUP = 'int8_asym'
#: f32 rounding of the IR's and the framework's own computation, on top of the quantization bound
FLOAT_SLACK = 1e-4


def _step(w_rows: np.ndarray, bits: int, symmetric: bool, group: int) -> np.ndarray:
    """The quantization step of each weight of ``w_rows`` [output, input] quantized in groups of ``group`` inputs."""
    rows, columns = w_rows.shape
    g = w_rows.reshape(rows, columns // group, group)
    if symmetric:
        step = np.max(np.abs(g), axis=-1, keepdims=True) / ((1 << (bits - 1)) - 1)
    else:
        step = (np.maximum(g.max(-1, keepdims=True), 0) - np.minimum(g.min(-1, keepdims=True), 0)) / ((1 << bits) - 1)
    return np.broadcast_to(step, g.shape).reshape(rows, columns)


def _spec(mode, group, columns):
    """(bits, symmetric, group) of a weight of ``columns`` inputs in the 4-bit ``mode`` or its backup."""
    bits, symmetric, _ = MODES[mode]
    if bits == 4 and columns % group == 0:
        return bits, symmetric, group
    return 8, False, columns


def _linear_bound(x, dx, w_io, step_io):
    """|error| of x @ w given |error of x| <= dx and |error of w| <= step / 2 (w, step as [input, output])."""
    return dx @ np.abs(w_io) + (np.abs(x) + dx) @ (step_io / 2)


def _ir_const_types(xml_path):
    root = ET.parse(str(xml_path)).getroot()
    return [layer.find('data').get('element_type') for layer in root.iter('layer') if layer.get('type') == 'Const']


def _runtime_precisions(compiled, layer_type):
    return [op.get_rt_info()['runtimePrecision'].astype(str) for op in compiled.get_runtime_model().get_ops()
            if op.get_rt_info()['layerType'].astype(str) == layer_type]


def _compressed_bytes(elements, rows, groups, bits, symmetric):
    """The ``.bin`` bytes of one compressed weight: codes, f32 scales, zero points in the asymmetric modes."""
    scales = rows * groups
    return elements * bits // 8 + scales * 4 + (0 if symmetric else -(-scales * bits // 8))


# ----- ONNX: a decoder-like MLP through the Python API ------------------------------------------------------------

V, D, H, T = 512, 256, 512, 8


def _mlp():
    """ids -> embedding [V, D] -> MatMul [D, H] -> Relu -> MatMul [H, D] -> + embedding -> MatMul head [D, V]."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(44)
    weights = {'emb': rng.standard_normal((V, D)) * 0.1, 'w1': rng.standard_normal((D, H)) * 0.05,
               'w2': rng.standard_normal((H, D)) * 0.05, 'head': rng.standard_normal((D, V)) * 0.05}
    weights = {k: v.astype(np.float32) for k, v in weights.items()}
    nodes = [helper.make_node('Gather', ['emb', 'ids'], ['e']), helper.make_node('MatMul', ['e', 'w1'], ['a']),
             helper.make_node('Relu', ['a'], ['r']), helper.make_node('MatMul', ['r', 'w2'], ['b']),
             helper.make_node('Add', ['b', 'e'], ['c']), helper.make_node('MatMul', ['c', 'head'], ['logits'])]
    graph = helper.make_graph(nodes, 'mlp', [helper.make_tensor_value_info('ids', TensorProto.INT64, [1, T])],
                              [helper.make_tensor_value_info('logits', TensorProto.FLOAT, [1, T, V])],
                              [numpy_helper.from_array(v, k) for k, v in weights.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]), weights


def _mlp_bound(weights, ids, specs):
    """The bound on |logits error| given each weight's (bits, symmetric, group)."""
    emb = weights['emb']
    step = {name: _step(w if name == 'emb' else w.T, *specs[name]) for name, w in weights.items()}
    step = {name: s if name == 'emb' else s.T for name, s in step.items()}  # back to the ONNX layouts
    e, de = emb[ids[0]], step['emb'][ids[0]] / 2
    a, da = e @ weights['w1'], _linear_bound(e, de, weights['w1'], step['w1'])
    r, dr = np.maximum(a, 0), da
    b, db = r @ weights['w2'], _linear_bound(r, dr, weights['w2'], step['w2'])
    c, dc = b + e, db + de
    return _linear_bound(c, dc, weights['head'], step['head'])[None]


#: (mode, extra options) -> the layers in 4 bits (the others in the backup int8_asym, or the 8-bit mode)
MLP_CASES = [
    ('int8_sym', {}), ('int8_asym', {}), ('int4_sym', {}), ('int4_asym', {}),
    ('int4_asym', {'all_layers': True}), ('int4_sym', {'all_layers': True, 'group_size': 64}),
    ('int4_asym', {'group_size': -1}), ('int4_sym', {'ratio': 0.5}),
]


@pytest.mark.parametrize('mode, extra', MLP_CASES, ids=['{}-{}'.format(m, '-'.join('{}={}'.format(*kv)
                                                                                   for kv in e.items()) or 'default')
                                                        for m, e in MLP_CASES])
def test_onnx_mlp_through_the_api(mode, extra, tmp_path):
    """Embedding and head in 8 bits unless all_layers; the IR's codes, .bin size, compressed execution and error
    bound as the module docstring says."""
    import mo
    from tests.onnx.onnx_oracle import run_onnxruntime
    model, weights = _mlp()
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='mlp', compress_weights=mode, **extra)
    bits, symmetric, code = MODES[mode]
    group = extra.get('group_size', 128 if bits == 4 else -1)
    specs = {}
    for name, w in weights.items():
        columns = w.shape[1] if name == 'emb' else w.shape[0]
        whole = columns if group == -1 else group
        outer = name in ('emb', 'head') and not extra.get('all_layers')
        specs[name] = (8, False, columns) if bits == 4 and outer else _spec(mode, whole, columns) if bits == 4 \
            else (bits, symmetric, columns)
    types = _ir_const_types(result.xml_path)
    expected_types = {'i4' if s[0] == 4 and s[1] else 'u4' if s[0] == 4 else code if bits == 8 else 'u8'
                      for s in specs.values()}
    if extra.get('ratio') == 0.5:
        expected_types = {'u8', code}
        assert sum(t == code for t in types) == 1  # one weight of two in 4 bits (symmetric: no zero point)
    assert expected_types <= set(types) and 'f32' in types
    assert not {'i8', 'u8', 'i4', 'u4'} - expected_types & set(types)
    # .bin: the codes, scales and zero points; what else the IR stores (shape constants) is under 200 bytes
    assignments = [specs]
    if extra.get('ratio') == 0.5:  # either of w1 and w2 may be the one in 4 bits
        assignments = [dict(specs, w1=(4, True, 128), w2=(8, False, H)), dict(specs, w1=(8, False, D),
                                                                             w2=(4, True, 128))]
    size = os.path.getsize(str(result.xml_path)[:-4] + '.bin')
    sizes = [sum(_compressed_bytes(w.size, w.shape[0] if name == 'emb' else w.shape[1],
                                   w.size // (w.shape[0] if name == 'emb' else w.shape[1]) // spec[name][2],
                                   spec[name][0], spec[name][1]) for name, w in weights.items())
             for spec in assignments]
    assert any(stored <= size <= stored + 200 for stored in sizes), (size, sizes)
    # OpenVINO's CPU reads the codes as they are
    compiled = compile_openvino(result.xml_path, config=CPU)
    for layer in ('FullyConnected', 'Gather'):
        precisions = _runtime_precisions(compiled, layer)
        assert precisions and set(precisions) <= {'i8', 'u8', 'i4', 'u4'}, (layer, precisions)
    ids = np.random.default_rng(1).integers(0, V, (1, T)).astype(np.int64)
    actual = compiled([ids])[0]
    expected = run_onnxruntime(model, {'ids': ids})[0]
    if extra.get('ratio') == 0.5:
        # w1 and w2 have as many elements: one of them (the smaller 4-bit error) in 4 bits, the other in int8_asym;
        # the bound takes the 4-bit step for both, the larger
        specs['w1'] = specs['w2'] = (4, True, 128)
    bound = _mlp_bound(weights, ids, specs)
    error = np.abs(actual - expected)
    assert np.all(error <= bound + FLOAT_SLACK), float(np.max(error - bound))
    assert np.max(error) > 0  # the weights were rounded


WEIGHT_CASES = [('int8_sym', -1), ('int8_asym', -1), ('int4_sym', 128), ('int4_asym', 64), ('int4_sym', -1),
                ('int4_asym', -1)]


@pytest.mark.parametrize('mode, group', WEIGHT_CASES)
def test_every_weight_within_half_a_step(mode, group, tmp_path):
    """The weights as OpenVINO computes with them, read out exactly (an embedding gathered whole, a MatMul of the
    identity), are each within half its group's step of onnxruntime's: a tight check of every code, scale and
    zero point (--all_layers, as both layers feed outputs)."""
    import mo
    from onnx import TensorProto, helper, numpy_helper
    from tests.onnx.onnx_oracle import run_onnxruntime
    rng = np.random.default_rng(46)
    emb = (rng.standard_normal((V, D)) * 0.1 + 0.02).astype(np.float32)
    w = (rng.standard_normal((D, H)) * 0.05 - 0.01).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node('Gather', ['emb', 'ids'], ['rows']), helper.make_node('MatMul', ['x', 'w'], ['y'])], 'probe',
        [helper.make_tensor_value_info('ids', TensorProto.INT64, [V]),
         helper.make_tensor_value_info('x', TensorProto.FLOAT, [D, D])],
        [helper.make_tensor_value_info('rows', TensorProto.FLOAT, [V, D]),
         helper.make_tensor_value_info('y', TensorProto.FLOAT, [D, H])],
        [numpy_helper.from_array(emb, 'emb'), numpy_helper.from_array(w, 'w')])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
    extra = {'all_layers': True, 'group_size': group} if mode.startswith('int4') else {}
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='probe', compress_weights=mode, **extra)
    bits, symmetric, code = MODES[mode]
    assert code in _ir_const_types(result.xml_path)
    feeds = {'ids': np.arange(V, dtype=np.int64), 'x': np.eye(D, dtype=np.float32)}
    compiled = compile_openvino(result.xml_path, config=CPU)
    by_name = {name: port for port in compiled.inputs for name in port.get_names()}
    outputs = compiled({by_name[k]: v for k, v in feeds.items()})
    actual = {name: outputs[port] for port in compiled.outputs for name in port.get_names()}
    expected = dict(zip(('rows', 'y'), run_onnxruntime(model, feeds)))
    for name, rows_view in (('rows', lambda a: a), ('y', lambda a: a.T)):
        exact = rows_view(expected[name])
        step = _step(exact, bits, symmetric, exact.shape[1] if group == -1 else group)
        error = np.abs(rows_view(actual[name]) - exact)
        assert np.all(error <= step * (0.5 + 1e-4) + 1e-7), (name, float(np.max(error / step)))
        assert np.max(error / step) > 0.4  # the weights were rounded to the steps, not kept


def test_tied_embedding_is_8_bit_and_hidden_layers_4_bit(tmp_path):
    """GPT-2's layout: the embedding table is also the LM head (MatMul with its transpose), and a residual Add
    joins the embedding to the last hidden MatMul's output. The table, read by the Gather and the head, is
    compressed once in int8_asym; the hidden MatMuls, though a residual path leads from them to the output, are not
    last layers (the head is) and go to 4 bits. Output within the interval bound of onnxruntime's."""
    import mo
    from onnx import TensorProto, helper, numpy_helper
    from tests.onnx.onnx_oracle import run_onnxruntime
    _, weights = _mlp()
    weights = {k: v for k, v in weights.items() if k != 'head'}
    nodes = [helper.make_node('Gather', ['emb', 'ids'], ['e']), helper.make_node('MatMul', ['e', 'w1'], ['a']),
             helper.make_node('Relu', ['a'], ['r']), helper.make_node('MatMul', ['r', 'w2'], ['b']),
             helper.make_node('Add', ['b', 'e'], ['c']), helper.make_node('Transpose', ['emb'], ['emb_t'], perm=[1, 0]),
             helper.make_node('MatMul', ['c', 'emb_t'], ['logits'])]
    graph = helper.make_graph(nodes, 'tied', [helper.make_tensor_value_info('ids', TensorProto.INT64, [1, T])],
                              [helper.make_tensor_value_info('logits', TensorProto.FLOAT, [1, T, V])],
                              [numpy_helper.from_array(v, k) for k, v in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='tied', compress_weights='int4_sym')
    types = _ir_const_types(result.xml_path)
    assert types.count('u8') == 2 and types.count('i4') == 2  # the table (codes, zero point); w1, w2
    compiled = compile_openvino(result.xml_path, config=CPU)
    assert sorted(_runtime_precisions(compiled, 'FullyConnected')) == ['i4', 'i4', 'u8']
    assert _runtime_precisions(compiled, 'Gather') == ['u8']
    ids = np.random.default_rng(4).integers(0, V, (1, T)).astype(np.int64)
    specs = {'emb': (8, False, D), 'w1': (4, True, 128), 'w2': (4, True, 128), 'head': (8, False, D)}
    bound = _mlp_bound(dict(weights, head=weights['emb'].T), ids, specs)
    error = np.abs(compiled([ids])[0] - run_onnxruntime(model, {'ids': ids})[0])
    # the head's weights are the table's, quantized once: the same steps as the bound's head takes
    assert np.all(error <= bound + FLOAT_SLACK), float(np.max(error - bound))


def test_onnx_mlp_with_compress_to_fp16(tmp_path):
    """With --compress_to_fp16 the scales are f16 (behind the writer's decompression Convert), the codes stay
    u4/u8, OpenVINO still runs them compressed, and the output stays within the bound (the f16 scales add their
    own rounding, 2^-11 relative, taken into the step)."""
    import mo
    from tests.onnx.onnx_oracle import run_onnxruntime
    model, weights = _mlp()
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='mlp', compress_weights='int4_asym',
                              compress_to_fp16=True)
    types = set(_ir_const_types(result.xml_path))
    assert {'u4', 'u8', 'f16'} <= types and 'f32' not in types
    compiled = compile_openvino(result.xml_path, config=CPU)
    assert set(_runtime_precisions(compiled, 'FullyConnected')) <= {'u4', 'u8'}
    ids = np.random.default_rng(2).integers(0, V, (1, T)).astype(np.int64)
    specs = {'emb': (8, False, D), 'w1': (4, False, 128), 'w2': (4, False, 128), 'head': (8, False, D)}
    # an f16 scale is off by 2^-11 of itself: a code c's value by |c - z| * scale * 2^-11 <= (2^bits - 1) * step
    # * 2^-11, under a step for 8 bits: the bound is taken with steps doubled
    bound = 2 * _mlp_bound(weights, ids, specs)
    error = np.abs(compiled([ids])[0] - run_onnxruntime(model, {'ids': ids})[0])
    assert np.all(error <= bound + FLOAT_SLACK), float(np.max(error - bound))


# ----- TensorFlow: a CNN through the CLI ---------------------------------------------------------------------------

def _mo(*args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo'] + list(args), capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def _cnn_weights():
    rng = np.random.default_rng(45)
    return {'k1': rng.standard_normal((3, 3, 16, 64)) * 0.1, 'b1': rng.standard_normal(64) * 0.1,
            'k2': rng.standard_normal((3, 3, 64, 32)) * 0.05, 'b2': rng.standard_normal(32) * 0.1,
            'd1': rng.standard_normal((32, 256)) * 0.1, 'd2': rng.standard_normal((256, 64)) * 0.05}


def _cnn(tf, x, w, absolute=False):
    conv = lambda x, k: tf.nn.conv2d(x, k, 1, 'SAME')  # noqa: E731
    y = tf.nn.relu(conv(x, w['k1']) + w['b1'])
    y = tf.nn.relu(conv(y, w['k2']) + w['b2'])
    y = tf.reduce_mean(y, axis=[1, 2])
    y = tf.nn.relu(tf.matmul(y, w['d1']))
    return tf.identity(tf.matmul(y, w['d2']), name='out')


def _cnn_bound(tf, x, w, specs):
    """Interval propagation of the quantization steps through ``_cnn``."""
    def conv_step(k, spec):  # per output channel: rows = output channels
        rows = np.moveaxis(k, 3, 0).reshape(k.shape[3], -1)
        return np.moveaxis(_step(rows, *spec).reshape(k.shape[3], *k.shape[:3]), 0, 3)

    def conv(x, k):
        return tf.nn.conv2d(x, k.astype(np.float32), 1, 'SAME').numpy()
    w = {k: v.astype(np.float64) for k, v in w.items()}
    s1, s2 = conv_step(w['k1'], specs['k1']), conv_step(w['k2'], specs['k2'])
    sd1, sd2 = _step(w['d1'].T, *specs['d1']).T, _step(w['d2'].T, *specs['d2']).T
    y = np.maximum(conv(x, w['k1']) + w['b1'], 0)
    dy = conv(np.zeros_like(x), np.abs(w['k1'])) + conv(np.abs(x), s1 / 2)
    y2 = np.maximum(conv(y, w['k2']) + w['b2'], 0)
    dy = conv(dy, np.abs(w['k2'])) + conv(np.abs(y) + dy, s2 / 2)
    y, dy = y2.mean(axis=(1, 2)), dy.mean(axis=(1, 2))
    y3 = np.maximum(y @ w['d1'], 0)
    dy = _linear_bound(y, dy, w['d1'], sd1)
    return _linear_bound(y3, dy, w['d2'], sd2)


@pytest.mark.parametrize('mode, extra', [('int8_sym', []), ('int8_asym', []), ('int4_sym', []), ('int4_asym', []),
                                         ('int4_sym', ['--all_layers', '--group_size', '32'])])
def test_tf_cnn_through_the_cli(mode, extra, tmp_path):
    """The convolutions (per output channel) and dense layers compressed; in the 4-bit modes the convolutions and
    the last dense layer stay int8_asym unless --all_layers, and the first dense layer too when 128 does not divide
    its 32 inputs (a warning says so)."""
    tf = pytest.importorskip('tensorflow')
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    weights = _cnn_weights()
    w32 = {k: tf.constant(v.astype(np.float32)) for k, v in weights.items()}
    concrete = tf.function(lambda x: _cnn(tf, x, w32)).get_concrete_function(
        tf.TensorSpec([1, 12, 12, 16], tf.float32, name='x'))
    pb = tmp_path / 'cnn.pb'
    pb.write_bytes(convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString())
    code, out, err = _mo('convert', str(pb), '--output_dir', str(tmp_path / 'ir'), '--model_name', 'cnn',
                         '--compress_weights', mode, *extra)
    assert code == 0, err
    bits, symmetric, code_type = MODES[mode]
    all_layers = '--all_layers' in extra
    group = int(extra[extra.index('--group_size') + 1]) if '--group_size' in extra else 128
    specs = {}
    for name in ('k1', 'k2', 'd1', 'd2'):
        w = weights[name]
        columns = w.size // w.shape[-1]
        if bits == 8:
            specs[name] = (8, symmetric, columns)
        elif name.startswith('k'):
            specs[name] = (4, symmetric, columns) if all_layers else (8, False, columns)
        elif name == 'd2' and not all_layers:
            specs[name] = (8, False, columns)
        else:
            specs[name] = _spec(mode, group, columns)
    if bits == 4 and not all_layers:
        assert 'does not divide the input channels of 1 weight' in out + err
    xml = tmp_path / 'ir' / 'cnn.xml'
    expected_types = {('i4' if s[1] else 'u4') if s[0] == 4 else ('i8' if s[1] else 'u8') for s in specs.values()}
    assert {t for t in _ir_const_types(xml) if t in ('i8', 'u8', 'i4', 'u4')} == expected_types
    stored = sum(_compressed_bytes(weights[n].size, weights[n].shape[-1], weights[n].size // weights[n].shape[-1]
                                   // specs[n][2], specs[n][0], specs[n][1]) for n in specs)
    stored += 4 * (64 + 32)  # the biases stay f32
    size = os.path.getsize(str(xml)[:-4] + '.bin')
    assert stored <= size <= stored + 200, (size, stored)
    x = np.random.default_rng(3).standard_normal((1, 12, 12, 16)).astype(np.float32)
    compiled = compile_openvino(xml, config=CPU)
    assert set(_runtime_precisions(compiled, 'FullyConnected')) <= {'i8', 'u8', 'i4', 'u4'}
    actual = compiled([x])[0]
    expected = concrete(tf.constant(x)).numpy()
    bound = _cnn_bound(tf, x.astype(np.float64), weights, specs)
    error = np.abs(actual - expected)
    assert np.all(error <= bound + FLOAT_SLACK), float(np.max(error - bound))
    assert np.max(error) > 0


@pytest.mark.parametrize('args, message', [
    (['--compress_weights', 'int3'], '--compress_weights int3 is not a mode'),
    (['--compress_weights', 'int4_asym', '--group_size', '0'], '--group_size 0 must be a positive'),
    (['--compress_weights', 'int4_asym', '--group_size', 'x'], '--group_size x must be a positive'),
    (['--compress_weights', 'int4_sym', '--ratio', '1.5'], '--ratio 1.5 must be a fraction in (0, 1]'),
    (['--compress_weights', 'int4_sym', '--ratio', '0'], '--ratio 0 must be a fraction in (0, 1]'),
    (['--compress_weights', 'int8_asym', '--group_size', '64'], '--group_size is for the 4-bit modes'),
    (['--ratio', '0.5'], '--ratio needs --compress_weights'),
])
def test_bad_compression_options_are_one_error_line(args, message, tmp_path):
    model, _ = _mlp()
    path = tmp_path / 'mlp.onnx'
    onnx.save(model, str(path))
    code, out, err = _mo('convert', str(path), '--output_dir', str(tmp_path / 'ir'), *args)
    errors = [line for line in (out + err).splitlines() if line.startswith('[ ERROR ]')]
    assert code != 0 and len(errors) == 1 and message in errors[0], out + err
    assert 'Traceback' not in out + err and not (tmp_path / 'ir').exists()
