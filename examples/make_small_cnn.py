#!/usr/bin/env python
"""Regenerate examples/small_cnn.pb and examples/small_cnn.json, byte for byte.

A small Keras CNN with random weights (fixed seed): 32x32x3 input, two blocks of
Conv2D + BatchNormalization + ReLU + MaxPooling2D, then Flatten, Dense(10) and Softmax,
frozen to a TensorFlow GraphDef.  The placeholder is ``input`` [1,32,32,3] float32 and the
output node is ``Identity`` [1,10].

    python examples/make_small_cnn.py [--out DIR]

Needs TensorFlow (the ``test`` extra).  Running it twice with the same TensorFlow and Keras
writes identical bytes: every layer and the model are named, and the seed is fixed.
"""
import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

HERE = Path(__file__).resolve().parent
SEED = 20240611
INPUT_NAME = 'input'
INPUT_SHAPE = (1, 32, 32, 3)


def build_model():
    import keras
    layers = keras.layers
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    inp = keras.Input(INPUT_SHAPE[1:], batch_size=INPUT_SHAPE[0], name=INPUT_NAME)
    x = inp
    for i, filters in enumerate((16, 32), start=1):
        x = layers.Conv2D(filters, 3, padding='same', name='conv%d' % i)(x)
        x = layers.BatchNormalization(name='bn%d' % i)(x)
        x = layers.ReLU(name='relu%d' % i)(x)
        x = layers.MaxPooling2D(2, name='pool%d' % i)(x)
    x = layers.Flatten(name='flatten')(x)
    x = layers.Dense(10, name='dense')(x)
    x = layers.Softmax(name='softmax')(x)
    model = keras.Model(inp, x, name='small_cnn')
    # Non-trivial batch-norm parameters and statistics, and non-zero biases.
    rng = np.random.default_rng(SEED)
    for layer in model.layers:
        for var in layer.weights:
            leaf = var.path.rsplit('/', 1)[-1]
            n = tuple(var.shape)
            value = {'bias': lambda: rng.normal(0.0, 0.1, n),
                     'gamma': lambda: rng.uniform(0.5, 1.5, n),
                     'beta': lambda: rng.normal(0.0, 0.2, n),
                     'moving_mean': lambda: rng.normal(0.0, 0.2, n),
                     'moving_variance': lambda: rng.uniform(0.5, 1.5, n)}.get(leaf)
            if value is not None:
                var.assign(value().astype(np.float32))
    return model


def freeze(model):
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    fn = tf.function(lambda x: model(x, training=False), autograph=False)
    concrete = fn.get_concrete_function(tf.TensorSpec(INPUT_SHAPE, tf.float32, name=INPUT_NAME))
    frozen = convert_variables_to_constants_v2(concrete)
    graph_def = frozen.graph.as_graph_def()
    (output,) = [t.name for t in frozen.outputs]
    return graph_def.SerializeToString(deterministic=True), output.split(':')[0], frozen


def write(path: Path, data: bytes) -> None:
    tmp = path.with_name('.' + path.name + '.tmp')
    tmp.write_bytes(data)
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(description='Regenerate the example frozen model.')
    p.add_argument('--out', default=str(HERE), help='output directory (default: examples/)')
    args = p.parse_args(argv)
    import keras
    import tensorflow as tf

    model = build_model()
    data, output, frozen = freeze(model)
    # The frozen graph computes what the Keras model computes.
    x = np.random.default_rng(0).uniform(-1, 1, INPUT_SHAPE).astype(np.float32)
    got = frozen(tf.constant(x))
    got = got[0] if isinstance(got, (list, tuple)) else got
    np.testing.assert_allclose(np.asarray(got), np.asarray(model(x, training=False)),
                               rtol=1e-5, atol=1e-6)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    info = {
        'model': 'small_cnn.pb',
        'input': {'name': INPUT_NAME, 'shape': list(INPUT_SHAPE), 'dtype': 'float32'},
        'output': {'name': output, 'shape': [INPUT_SHAPE[0], 10], 'dtype': 'float32'},
        'description': 'Keras CNN, random weights (seed %d): 2 x (Conv2D 3x3 + BatchNormalization '
                       '+ ReLU + MaxPooling2D 2x2), Flatten, Dense(10), Softmax.' % SEED,
        'generated_by': 'examples/make_small_cnn.py',
        'generated_with': {'tensorflow': tf.__version__, 'keras': keras.__version__},
    }
    write(out / 'small_cnn.pb', data)
    write(out / 'small_cnn.json', (json.dumps(info, indent=2) + '\n').encode())
    print('wrote %s (%d bytes): input %s %s, output %s'
          % (out / 'small_cnn.pb', len(data), INPUT_NAME, list(INPUT_SHAPE), output))
    return 0


if __name__ == '__main__':
    sys.exit(main())
