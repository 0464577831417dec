"""Small TensorFlow graphs for the GraphDef I/O tests; TensorFlow is the reference here only."""
import os

import numpy as np
import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')


@pytest.fixture(scope='session')
def tf():
    return pytest.importorskip('tensorflow')


def _v1_graph_def(tf):
    """A tf.compat.v1 graph with devices, control inputs, multi-output ops and odd constants."""
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 4], name='x')
        with tf.device('/device:CPU:0'):
            w = tf.constant(np.arange(16, dtype=np.float32).reshape(4, 4) / 7.0, name='w')
            y = tf.matmul(x, w, name='matmul')
        scale = tf.constant(2.5, name='scale')
        flag = tf.constant([True, False], name='flag')
        words = tf.constant([b'a', b'\xff\x00bytes', 'ünïcode'.encode('utf-8')], name='words')
        marker = tf.no_op(name='marker')
        with tf.control_dependencies([marker, flag.op]):
            scaled = tf.multiply(y, scale, name='scaled')
        parts = tf.split(scaled, 2, axis=1, name='split')
        tf.add(parts[1], parts[0], name='out')
        tf.identity(words, name='words_out')
    gd = g.as_graph_def()
    # Fields TensorFlow fills only in special cases: set them by hand so they round-trip too.
    for node in gd.node:
        if node.name == 'out':
            node.experimental_debug_info.original_node_names.extend(['orig/a', 'orig/b'])
            node.experimental_debug_info.original_func_names.append('f')
        if node.name == 'scaled':
            node.experimental_type.type_id = 3  # TFT_PRODUCT
            arg = node.experimental_type.args.add()
            arg.type_id = 1000
            arg.args.add().type_id = 210
    return gd


@pytest.fixture(scope='session')
def v1_graph_def(tf):
    """TensorFlow's GraphDef message of a small v1-style graph (outputs ``out``, ``words_out``)."""
    return _v1_graph_def(tf)


@pytest.fixture(scope='session')
def function_graph_def(tf):
    """A tf.function with a while loop frozen without lowering control flow: it has a library."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    v = tf.Variable(np.array([1.0, -2.0, 3.0], np.float32))

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32, name='inp')])
    def f(inp):
        i = tf.constant(0)
        _, acc = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 0.5 + v), [i, inp])
        return acc

    frozen = convert_variables_to_constants_v2(f.get_concrete_function(), lower_control_flow=False)
    return frozen.graph.as_graph_def()


@pytest.fixture(scope='session')
def keras_graph_def(tf):
    """A tiny frozen Keras model with random weights: input ``input`` [2, 6], output ``Identity``."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    keras = tf.keras
    keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(5, activation='relu'),
                              keras.layers.Dense(3, activation='softmax')])
    fn = tf.function(lambda inp: model(inp)).get_concrete_function(tf.TensorSpec([2, 6], tf.float32, name='input'))
    return convert_variables_to_constants_v2(fn).graph.as_graph_def()


@pytest.fixture(scope='session')
def tf_run(tf):
    """``tf_run(graph_def_bytes, feeds, outputs)``: run a serialized GraphDef with TensorFlow."""
    return lambda graph_def_bytes, feeds, outputs: _run_graph(tf, graph_def_bytes, feeds, outputs)


def _run_graph(tf, graph_def_bytes, feeds, outputs):
    gd = tf.compat.v1.GraphDef.FromString(graph_def_bytes)
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(gd, name='')
    with tf.compat.v1.Session(graph=g) as sess:
        return sess.run([o if ':' in o else o + ':0' for o in outputs], {k + ':0': v for k, v in feeds.items()})
