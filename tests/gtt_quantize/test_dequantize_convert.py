"""What the Graph Transform Tool writes, ``mo convert`` reads (issue 41, point 6): ``quantize_weights``' Dequantize
nodes (ours and TensorFlow's own tool's) and TF's Dequantize in every mode, type and per channel become
Convert -> [Subtract] -> Multiply of an integer Constant in the IR (the weights stay 8-bit), and the OpenVINO
runtime computes what TensorFlow computes from the same quantized GraphDef."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')
ov = pytest.importorskip('openvino')

import mo  # noqa: E402
from tests.support.oracles import run_openvino, run_tf, run_tf_gtt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TYPES = {'quint8': (tf.quint8, np.uint8, 'u8'), 'qint8': (tf.qint8, np.int8, 'i8'),
         'quint16': (tf.quint16, np.uint16, 'u16'), 'qint16': (tf.qint16, np.int16, 'i16'),
         'qint32': (tf.qint32, np.int32, 'i32')}


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'mo'] + [str(a) for a in args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def _dequantizations(xml_path):
    """For each integer Constant of the IR: (its element type, the chain of op types that reads it, the op the chain
    feeds)."""
    model = ov.Core().read_model(str(xml_path))
    chains = []
    for op in model.get_ops():
        if op.get_type_name() != 'Constant' or not op.get_output_element_type(0).is_integral_number():
            continue
        chain, node = [], op
        while True:
            readers = [target.get_node() for target in node.output(0).get_target_inputs()]
            if len(readers) != 1 or readers[0].get_type_name() not in ('Convert', 'Subtract', 'Multiply'):
                break
            node = readers[0]
            chain.append(node.get_type_name())
        type_name = op.get_output_element_type(0).get_type_name()
        if not chain and type_name in ('i32', 'i64'):  # shapes and axes
            continue
        chains.append((type_name, tuple(chain),
                       readers[0].get_type_name() if len(readers) == 1 else None))
    return chains


def _float_constant_elements(xml_path) -> int:
    model = ov.Core().read_model(str(xml_path))
    return sum(int(np.prod(op.get_output_shape(0))) for op in model.get_ops()
               if op.get_type_name() == 'Constant' and op.get_output_element_type(0) == ov.Type.f32)


def _frozen_keras_model():
    """Conv2D, DepthwiseConv2D and Dense with random biases (TF's tool turns an all-zero bias into NaNs)."""
    import keras
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    keras.utils.set_random_seed(3)
    inputs = keras.Input((12, 12, 3), name='image')
    hidden = keras.layers.Conv2D(8, 3, activation='relu', bias_initializer='random_normal')(inputs)
    hidden = keras.layers.DepthwiseConv2D(3, bias_initializer='random_normal')(hidden)
    hidden = keras.layers.Dense(16, activation='tanh', bias_initializer='random_normal')(
        keras.layers.Flatten()(hidden))
    model = keras.Model(inputs, keras.layers.Dense(10, bias_initializer='random_normal')(hidden))
    function = tf.function(lambda x: model(x)).get_concrete_function(
        tf.TensorSpec([1, 12, 12, 3], tf.float32, name='image'))
    graph_def = convert_variables_to_constants_v2(function).graph.as_graph_def()
    output = [node.name for node in graph_def.node if node.op == 'Identity'][-1]
    return graph_def.SerializeToString(), output


@pytest.mark.parametrize('tool', ['mo', 'tensorflow'])
def test_quantize_weights_output_converts_with_8_bit_weights(tmp_path, tool):
    graph_def, output = _frozen_keras_model()
    transforms = 'quantize_weights(minimum_size=1)'
    frozen, quantized = tmp_path / 'frozen.pb', tmp_path / 'quantized.pb'
    frozen.write_bytes(graph_def)
    if tool == 'mo':
        done = _cli('transform', '--in_graph', frozen, '--out_graph', quantized, '--inputs', 'image',
                    '--outputs', output, '--transforms', transforms)
        assert done.returncode == 0, done.stderr
    else:
        quantized.write_bytes(run_tf_gtt(graph_def, ['image'], [output], transforms))
    modes = {n.attr['mode'].s for n in tf.compat.v1.GraphDef.FromString(quantized.read_bytes()).node
             if n.op == 'Dequantize'}
    assert modes == {b'MIN_FIRST'}

    for name, source in (('quantized', quantized), ('float', frozen)):
        done = _cli('convert', '--input_model', source, '--output_dir', tmp_path / 'ir', '--model_name', name)
        assert done.returncode == 0, done.stderr
    xml = tmp_path / 'ir' / 'quantized.xml'
    chains = _dequantizations(xml)
    # 4 kernels and 4 biases, each a u8 Constant -> Convert -> Subtract -> Multiply into the layer that reads it
    # (no Subtract where the zero point is 0: a range that starts at 0)
    assert len(chains) == 8, chains
    assert all(c[0] == 'u8' and c[1] in (('Convert', 'Subtract', 'Multiply'), ('Convert', 'Multiply'))
               for c in chains), chains
    assert sum(c[1] == ('Convert', 'Subtract', 'Multiply') for c in chains) >= 4
    # the layout ops of the weights (HWIO -> OIHW, groups) moved onto the integers: Multiply feeds the layer
    assert {c[2] for c in chains} == {'Convolution', 'GroupConvolution', 'MatMul', 'Add'}, chains
    assert _float_constant_elements(xml) < 100  # scales and zero points only
    assert (tmp_path / 'ir' / 'quantized.bin').stat().st_size < 0.35 * (tmp_path / 'ir' / 'float.bin').stat().st_size

    # the CPU plugin runs the Dense layers' MatMuls on the u8 weights themselves (compressed weights)
    runtime = ov.Core().compile_model(str(xml), 'CPU').get_runtime_model()
    compressed = [op for op in runtime.get_ordered_ops() if op.get_rt_info()['layerType'].astype(str) ==
                  'FullyConnected' and any(op.input(i).get_element_type() == ov.Type.u8
                                           for i in range(op.get_input_size()))]
    assert len(compressed) == 2

    x = np.random.default_rng(0).standard_normal((1, 12, 12, 3)).astype(np.float32)
    expected = run_tf(quantized.read_bytes(), {'image': x}, [output])[0]
    actual = run_openvino(xml, {'image': x})[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5 * float(np.abs(expected).max()))
    # the 8-bit weights are what TF's quantized graph computes with, not the float model's
    assert np.abs(expected - run_tf(graph_def, {'image': x}, [output])[0]).max() > 1e-4


def _dequantize_graph(name, mode, narrow_range, axis, runtime_range=False):
    """y = x + Dequantize(q) for a constant q of type ``name`` of shape [3, 4] (the type's extremes among them; for
    qint32 up to 2^30: TF's own SCALED kernel overflows on values near 2^31), ranges per tensor or along ``axis``."""
    tf_type, np_type, _ = TYPES[name]
    info = np.iinfo(np_type)
    rng = np.random.default_rng(5)
    top = 2 ** 30 if name == 'qint32' else info.max
    q = rng.integers(info.min, top, (3, 4), dtype=np.int64, endpoint=True)
    q.flat[:2] = info.min, top
    channels = 3 if axis == 0 else 4 if axis == 1 else 1
    low = -rng.uniform(0.2, 2.0, channels).astype(np.float32)
    high = rng.uniform(0.5, 3.0, channels).astype(np.float32)
    if axis < 0:
        low, high = low[0], high[0]
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3, 4], name='x')
        if runtime_range:  # fed: ``(low, high)`` is returned with the graph
            feeds = {'low': low, 'high': high}
            low = tf.compat.v1.placeholder(tf.float32, np.shape(low), name='low')
            high = tf.compat.v1.placeholder(tf.float32, np.shape(high), name='high')
        value = tf.raw_ops.Dequantize(input=tf.constant(q.astype(np_type), dtype=tf_type), min_range=low,
                                      max_range=high, mode=mode, narrow_range=narrow_range, axis=axis,
                                      name='dequantize')
        tf.identity(x + value, name='y')
    graph_def = graph.as_graph_def().SerializeToString()
    return (graph_def, feeds) if runtime_range else graph_def


CASES = [(name, mode, narrow, axis) for name in TYPES for mode in ('MIN_COMBINED', 'MIN_FIRST', 'SCALED')
         for narrow in (False, True) for axis in (-1, 0, 1) if not (mode == 'MIN_FIRST' and axis >= 0)]


@pytest.mark.parametrize('name, mode, narrow_range, axis', CASES)
def test_dequantize_modes_types_and_channels(tmp_path, name, mode, narrow_range, axis):
    graph_def = _dequantize_graph(name, mode, narrow_range, axis)
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    expected = run_tf(graph_def, {'x': x}, ['y'])[0]
    result = mo.convert_model(graph_def, output_dir=tmp_path)
    chains = _dequantizations(result.xml_path)
    ir_type = TYPES[name][2]
    expected_chain = ('Convert', 'Multiply') if mode == 'SCALED' else ('Convert', 'Subtract', 'Multiply')
    if name == 'qint32':  # 32-bit integers are as large as floats: they fold, as ONNX's int32 dequantization does
        assert chains == [], chains
    else:
        assert [c[:2] for c in chains] == [(ir_type, expected_chain)], chains
    actual = run_openvino(result.xml_path, {'x': x})[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5 * float(np.abs(expected).max()))


@pytest.mark.parametrize('mode, name', [('MIN_COMBINED', 'quint8'), ('SCALED', 'qint8'), ('MIN_COMBINED', 'qint8')])
def test_per_channel_convolution_weights_feed_the_convolution(tmp_path, mode, name):
    """A kernel quantized per output channel (HWIO, axis 3): transposed to OIHW with its scales and zero points."""
    tf_type, np_type, ir_type = TYPES[name]
    info = np.iinfo(np_type)
    rng = np.random.default_rng(8)
    q = rng.integers(info.min, info.max, (3, 3, 4, 6), dtype=np.int64, endpoint=True).astype(np_type)
    low, high = -rng.uniform(0.1, 1.0, 6).astype(np.float32), rng.uniform(0.1, 1.0, 6).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8, 8, 4], name='x')
        kernel = tf.raw_ops.Dequantize(input=tf.constant(q, dtype=tf_type), min_range=low, max_range=high, mode=mode,
                                       axis=3, name='kernel')
        tf.identity(tf.nn.conv2d(x, kernel, 1, 'SAME'), name='y')
    graph_def = graph.as_graph_def().SerializeToString()
    result = mo.convert_model(graph_def, output_dir=tmp_path)
    chains = _dequantizations(result.xml_path)
    assert len(chains) == 1 and chains[0][0] == ir_type and chains[0][1][-1] == 'Multiply' and \
        chains[0][2] == 'Convolution', chains
    feeds = {'x': rng.standard_normal((1, 8, 8, 4)).astype(np.float32)}
    expected = run_tf(graph_def, feeds, ['y'])[0]
    np.testing.assert_allclose(run_openvino(result.xml_path, feeds)[0], expected, rtol=1e-5,
                               atol=1e-5 * float(np.abs(expected).max()))


@pytest.mark.parametrize('mode', ['MIN_COMBINED', 'MIN_FIRST', 'SCALED'])
@pytest.mark.parametrize('name', ['quint8', 'qint8'])
def test_dequantize_of_a_range_computed_at_run_time(tmp_path, name, mode):
    axis = -1 if mode == 'MIN_FIRST' else 1
    graph_def, feeds = _dequantize_graph(name, mode, False, axis, runtime_range=True)
    feeds['x'] = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    result = mo.convert_model(graph_def, output_dir=tmp_path)
    assert sorted(i.name for i in result.inputs) == ['high:0', 'low:0', 'x:0']
    actual = run_openvino(result.xml_path, feeds)[0]
    expected = run_tf(graph_def, feeds, ['y'])[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5 * float(np.abs(expected).max()))


@pytest.mark.parametrize('name', ['quint8', 'qint8'])
def test_dequantize_to_bfloat16(tmp_path, name):
    tf_type, np_type, ir_type = TYPES[name]
    info = np.iinfo(np_type)
    q = np.random.default_rng(4).integers(info.min, info.max, (3, 4), dtype=np.int64, endpoint=True)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3, 4], name='x')
        value = tf.raw_ops.Dequantize(input=tf.constant(q.astype(np_type), dtype=tf_type), min_range=-1.3,
                                      max_range=2.1, mode='MIN_COMBINED', dtype=tf.bfloat16)
        tf.identity(x + tf.cast(value, tf.float32), name='y')
    graph_def = graph.as_graph_def().SerializeToString()
    feeds = {'x': np.random.default_rng(6).standard_normal((3, 4)).astype(np.float32)}
    result = mo.convert_model(graph_def, output_dir=tmp_path)
    # then rounded to bfloat16 (and cast back to float32 by the graph)
    assert [c[:2] for c in _dequantizations(result.xml_path)] == [
        (ir_type, ('Convert', 'Subtract', 'Multiply', 'Convert', 'Convert'))]
    expected = run_tf(graph_def, feeds, ['y'])[0]
    # TF rounds to bfloat16 (to nearest even); OpenVINO's CPU plugin runs a bfloat16 Convert as float32 when asked
    # for f32 inference, so the numbers agree within bfloat16's rounding: 2^-8 of the dequantized value, below 2.1
    np.testing.assert_allclose(run_openvino(result.xml_path, feeds)[0], expected, rtol=0, atol=2.1 * 2.0 ** -8)


def test_what_tensorflow_cannot_run_is_an_error(tmp_path):
    graph_def = bytearray(_dequantize_graph('quint8', 'MIN_COMBINED', False, 1))
    message = tf.compat.v1.GraphDef.FromString(bytes(graph_def))
    for node in message.node:
        if node.op == 'Dequantize':
            node.attr['mode'].s = b'MIN_FIRST'
    path = tmp_path / 'per_channel_min_first.pb'
    path.write_bytes(message.SerializeToString())
    done = _cli('convert', '--input_model', path, '--output_dir', tmp_path / 'ir')
    assert done.returncode == 1
    assert 'MIN_FIRST per channel (axis 1) is not implemented in TensorFlow' in done.stderr
    assert 'Traceback' not in done.stderr
