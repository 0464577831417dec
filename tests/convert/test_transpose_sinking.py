"""The transpose-sinking rules the Keras applications need, each on a tiny graph: numbers match
TensorFlow and only the input Transpose (and the output one, for 4D outputs) is left."""
import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, convert_bytes, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')

RNG = np.random.default_rng(11)


def _weights(*shape):
    return (RNG.standard_normal(shape) * 0.3).astype(np.float32)


W = _weights(3, 3, 4, 4)
W1 = _weights(1, 1, 4, 4)
W8 = _weights(1, 1, 8, 4)
DW = _weights(3, 3, 4, 1)
SCALE8 = RNG.uniform(0.5, 1.5, 8).astype(np.float32)


def _conv(x, w=W):
    return tf.nn.conv2d(x, w, 1, 'SAME')


def pad(x):
    """ZeroPadding2D before a strided depthwise conv (MobileNetV2, EfficientNet)."""
    y = tf.pad(tf.nn.relu(_conv(x)), [[0, 0], [0, 1], [0, 1], [0, 0]])
    return tf.nn.depthwise_conv2d(y, DW, [1, 2, 2, 1], 'VALID')


def residual(x):
    """One tensor read by a conv and by the residual Add (ResNet)."""
    y = tf.nn.relu(_conv(x))
    return tf.nn.relu(_conv(y, W1) + y)


def dense(x):
    """DenseNet: a concat read by the next BN-like Mul and by the next concat."""
    y = tf.nn.relu(_conv(x))
    c = tf.concat([y, _conv(y)], 3)
    return tf.concat([c, _conv(tf.nn.relu(c * SCALE8), W8)], 3)


def swish_se(x):
    """EfficientNet: x * sigmoid(x), then squeeze-excite (Mean -> Reshape -> conv -> sigmoid -> Mul)."""
    z = _conv(x)
    y = z * tf.sigmoid(z)
    se = tf.reshape(tf.reduce_mean(y, [1, 2]), [-1, 1, 1, 4])
    return y * tf.sigmoid(_conv(se, W1))


def gap(x):
    """Global average pooling: the Transpose disappears through the Mean."""
    return tf.reduce_mean(tf.nn.relu(_conv(x)), axis=[1, 2])


def gap_keepdims(x):
    return tf.reduce_mean(tf.nn.relu(_conv(x)), axis=[1, 2], keepdims=True)


def compare(x):
    """The Transpose ends below an op whose output type is not its input's (bool)."""
    return tf.greater(tf.nn.relu(_conv(x)), 0.1)


def compare_cast(x):
    return tf.cast(tf.greater(_conv(x) * SCALE8[:4], 0.0), tf.float32) + 1.0


#: case -> (function, Transposes allowed in the IR)
CASES = {'pad': (pad, 2), 'residual': (residual, 2), 'dense': (dense, 2), 'swish_se': (swish_se, 2),
         'gap': (gap, 1), 'gap_keepdims': (gap_keepdims, 2), 'compare': (compare, 2),
         'compare_cast': (compare_cast, 2)}


@pytest.mark.parametrize('case', list(CASES))
def test_sinking_case(case, tmp_path):
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    from tests.support import oracles
    fn, max_transposes = CASES[case]
    concrete = tf.function(lambda x: tf.identity(fn(x), name='out')).get_concrete_function(
        tf.TensorSpec([1, 8, 8, 4], tf.float32, name='input'))
    graph_def = convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString()
    out = [t.name.split(':')[0] for t in concrete.outputs][0]
    converted = convert_bytes(graph_def, tmp_path, case)
    x = RNG.uniform(-1, 1, (1, 8, 8, 4)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'input': x}, [out])
    actual = oracles.run_openvino(converted.xml, {'input': x})
    assert max_error(actual, expected) < TOLERANCE
    assert converted.types.get('Transpose', 0) <= max_transposes, converted.types
    # what moved with a Transpose (its TF names, the output type) is where TF has that tensor
    assert oracles.ir_inconsistencies(converted.xml, graph_def) == []
