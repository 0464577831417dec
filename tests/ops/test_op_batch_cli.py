"""The image/detection/quantization/RNN/FFT op batch through the ``mo convert`` CLI: the clean errors of what it
cannot convert (one ``[ ERROR ]`` line naming the node, exit 1, no output written), the float [..., 2] form of
complex model inputs and outputs, and the inputs made of TF1 queues."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _frozen(fn, *specs) -> bytes:
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    concrete = tf.function(fn, autograph=False).get_concrete_function(*specs)
    return convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString()


def _convert(tmp_path, graph_def: bytes, *options):
    """Run ``mo convert`` on ``graph_def``; returns (exit code, stderr, xml path)."""
    model = tmp_path / 'model.pb'
    model.write_bytes(graph_def)
    out = tmp_path / 'out'
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main', 'convert', '--input_model', str(model), '--output_dir',
                           str(out)] + list(options), capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stderr, out / 'model.xml'


def _errors(stderr):
    return [line for line in stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint:' not in line]


@pytest.mark.parametrize('case', ['complex_cumprod_axis_input', 'bicubic_flags', 'max_pool_v2_window_input'])
def test_unsupported_combination_is_one_clean_error(case, tmp_path):
    spec = tf.TensorSpec([2, 8, 8, 3], tf.float32, name='x')
    if case == 'complex_cumprod_axis_input':  # (complex Acos, which this case was, converts since issue 26)
        graph = _frozen(lambda x, axis: tf.math.real(tf.math.cumprod(tf.signal.rfft(x), axis=axis)), spec,
                        tf.TensorSpec([], tf.int32, name='axis'))
        wanted = r'"Cumprod" \(Cumprod\) on a complex tensor: the axis is computed at run time'
    elif case == 'bicubic_flags':
        graph = _frozen(lambda x: tf.raw_ops.ResizeBicubic(images=x, size=[4, 4], align_corners=True,
                                                           half_pixel_centers=True), spec)
        wanted = r'ResizeBicubic "ResizeBicubic".*align_corners and half_pixel_centers'
    else:
        graph = _frozen(lambda x, k: tf.raw_ops.MaxPoolV2(input=x, ksize=k, strides=[1, 1, 1, 1], padding='VALID'),
                        spec, tf.TensorSpec([4], tf.int32, name='k'))
        wanted = r'MaxPoolV2 "MaxPoolV2".*ksize must be a constant'
    code, stderr, xml = _convert(tmp_path, graph)
    assert code == 1, stderr
    errors = _errors(stderr)
    assert len(errors) == 1 and re.search(wanted, errors[0]), stderr
    assert 'Traceback' not in stderr and not xml.exists()


def test_complex_input_and_output_are_float_pairs(tmp_path):
    """A complex64 input [3, 8] is the IR input [3, 8, 2]; the complex output [3, 8] the IR output [3, 8, 2]
    (real, imaginary); both are named in a warning, and the numbers are TF's."""
    from tests.support.oracles import compare, compile_openvino
    graph = _frozen(lambda z: tf.signal.fft(z * 2), tf.TensorSpec([3, 8], tf.complex64, name='z'))
    code, stderr, xml = _convert(tmp_path, graph)
    assert code == 0, stderr
    assert re.search(r'input "z" is complex', stderr) and re.search(r'output ".*" is complex', stderr), stderr
    rng = np.random.default_rng(3)
    z = (rng.standard_normal((3, 8)) + 1j * rng.standard_normal((3, 8))).astype(np.complex64)
    compiled = compile_openvino(str(xml))
    assert list(compiled.inputs[0].get_partial_shape().to_shape()) == [3, 8, 2]
    actual = np.array(list(compiled([np.stack([z.real, z.imag], -1)]).values())[0])
    expected = np.fft.fft(z.astype(np.complex128) * 2)
    assert compare(actual, np.stack([expected.real, expected.imag], -1)) < 1e-5


def _queue_graph(dequeue):
    def fn(x):
        handle = tf.raw_ops.FIFOQueueV2(component_types=[tf.float32, tf.int32], shapes=[[2, 3], []], capacity=8)
        enqueue = tf.raw_ops.QueueEnqueueManyV2(handle=handle, components=[x, tf.zeros([4], tf.int32)])
        with tf.control_dependencies([enqueue]):
            if dequeue == 'many':
                images, labels = tf.raw_ops.QueueDequeueManyV2(handle=handle, n=4,
                                                               component_types=[tf.float32, tf.int32])
            else:
                images, labels = tf.raw_ops.QueueDequeueUpToV2(handle=handle, n=4,
                                                               component_types=[tf.float32, tf.int32])
        return images * 2.0, labels + 1
    return _frozen(fn, tf.TensorSpec([4, 2, 3], tf.float32, name='x'))


def _inputs(xml):
    """IR input name -> (shape, element type), the shapes with ? as -1."""
    text = open(xml).read()
    result = {}
    for layer in re.finditer(r'<layer [^>]*name="([^"]*)" type="Parameter"[^>]*>\s*<data shape="([^"]*)" '
                             r'element_type="(\w+)"', text):
        shape = [-1 if d == '?' else int(d) for d in layer.group(2).split(',') if d]
        result[layer.group(1)] = (shape, layer.group(3))
    return result


@pytest.mark.parametrize('dequeue, batch', [('many', 4), ('up_to', -1)])
def test_dequeued_components_are_the_inputs(dequeue, batch, tmp_path):
    code, stderr, xml = _convert(tmp_path, _queue_graph(dequeue))
    assert code == 0, stderr
    name = 'QueueDequeueManyV2' if dequeue == 'many' else 'QueueDequeueUpToV2'
    assert _inputs(xml) == {name: ([batch, 2, 3], 'f32'), name + '_component_1': ([batch], 'i32')}


def test_queue_inputs_take_input_shape(tmp_path):
    code, stderr, xml = _convert(tmp_path, _queue_graph('up_to'), '--input', 'QueueDequeueUpToV2[7,2,3]')
    assert code == 0, stderr
    assert _inputs(xml)['QueueDequeueUpToV2'] == ([7, 2, 3], 'f32')


def _tf1_iterator_graph(kind) -> bytes:
    """A TF1 graph fed by a batched tf.data pipeline through a one-shot or an initializable iterator."""
    graph = tf.Graph()
    with graph.as_default():
        dataset = tf.data.Dataset.from_tensor_slices((np.zeros((10, 3), np.float32), np.zeros(10, np.int64)))
        dataset = dataset.batch(2)
        if kind == 'one_shot':
            iterator = tf.compat.v1.data.make_one_shot_iterator(dataset)
        else:
            iterator = tf.compat.v1.data.make_initializable_iterator(dataset)
        features, labels = iterator.get_next()
        tf.identity(tf.nn.relu(features) * 2.0, name='scores')
        tf.identity(labels + 1, name='ids')
    return graph.as_graph_def().SerializeToString()


@pytest.mark.parametrize('kind', ['one_shot', 'initializable'])
def test_tf1_iterator_components_are_the_inputs(kind, tmp_path):
    code, stderr, xml = _convert(tmp_path, _tf1_iterator_graph(kind))
    assert code == 0, stderr
    assert _inputs(xml) == {'IteratorGetNext': ([-1, 3], 'f32'), 'IteratorGetNext_component_1': ([-1], 'i64')}
    from tests.support.oracles import run_openvino_by_name
    features = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    scores, ids = run_openvino_by_name(xml, {'IteratorGetNext': features,
                                             'IteratorGetNext_component_1': np.arange(5, dtype=np.int64)},
                                       ['scores', 'ids'])
    np.testing.assert_allclose(scores, np.maximum(features, 0) * 2.0)
    np.testing.assert_array_equal(ids, np.arange(5) + 1)


def test_iterator_inputs_take_input_shape(tmp_path):
    code, stderr, xml = _convert(tmp_path, _tf1_iterator_graph('one_shot'), '--input_shape', '[4,3],[4]')
    assert code == 0, stderr
    assert _inputs(xml)['IteratorGetNext'] == ([4, 3], 'f32')
