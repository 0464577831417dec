"""TensorFlow builds the models of these tests (each into a directory of its own)."""
import os

import numpy as np

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')


def keras_cnn(directory):
    """Keras 3 ``model.export()`` of a small CNN (conv, batch norm, pooling, dense)."""
    import keras
    keras.utils.set_random_seed(1)
    model = keras.Sequential([
        keras.Input((16, 16, 3)),
        keras.layers.Conv2D(8, 3, padding='same', activation='relu'),
        keras.layers.BatchNormalization(),
        keras.layers.MaxPooling2D(),
        keras.layers.Conv2D(4, 3, activation='relu'),
        keras.layers.Flatten(),
        keras.layers.Dense(10, activation='softmax'),
    ])
    bn = model.layers[1]
    bn.moving_mean.assign(np.linspace(-0.5, 0.5, 8).astype(np.float32))
    bn.moving_variance.assign(np.linspace(0.5, 2.0, 8).astype(np.float32))
    model.export(str(directory), verbose=False)
    return directory


def keras_two_inputs(directory):
    """Keras 3 ``model.export()`` of a functional model with two named inputs and an embedding."""
    import keras
    keras.utils.set_random_seed(2)
    image = keras.Input((6,), name='features')
    extra = keras.Input((4,), name='extra')
    hidden = keras.layers.Dense(8, activation='tanh')(image)
    joined = keras.layers.Concatenate()([hidden, keras.layers.Dense(8)(extra)])
    model = keras.Model([image, extra], keras.layers.Dense(3)(joined))
    model.export(str(directory), verbose=False)
    return directory


def module_two_signatures(directory, sharded=False):
    """``tf.saved_model.save`` of a tf.Module with two signatures; ``sharded``: variables spread over
    several data files, some of them in slices (MaxShardSizePolicy of 160 bytes)."""
    import tensorflow as tf

    class Module(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(3)
            self.w = tf.Variable(rng.standard_normal((5, 7)).astype(np.float32), name='w')
            self.b = tf.Variable(rng.standard_normal((7,)).astype(np.float32), name='b')
            self.v = tf.Variable(rng.standard_normal((7, 2)).astype(np.float32), name='v')
            self.table = tf.Variable(rng.standard_normal((10, 3)).astype(np.float32), name='table')

        @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32, name='x')])
        def dense(self, x):
            return {'hidden': tf.nn.relu(tf.matmul(x, self.w) + self.b),
                    'scores': tf.matmul(tf.nn.relu(tf.matmul(x, self.w) + self.b), self.v)}

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.int32, name='ids')])
        def lookup(self, ids):
            return {'vectors': tf.reduce_sum(tf.gather(self.table, ids), axis=1) * 2.0}

    module = Module()
    options = None
    if sharded:
        # shards of at most 160 bytes: several data files, and tensors that do not fit are sliced
        policy = tf.train.experimental.MaxShardSizePolicy(max_shard_size=160)
        options = tf.saved_model.SaveOptions(experimental_sharding_callback=policy)
    tf.saved_model.save(module, str(directory), signatures={'serving_default': module.dense,
                                                            'lookup': module.lookup}, options=options)
    return directory


def _tf1_graph():
    """A TF1 graph with VariableV2 weights: x -> matmul -> +b -> tanh -> y."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 6], name='x')
        rng = np.random.default_rng(4)
        w = v1.Variable(rng.standard_normal((6, 4)).astype(np.float32), name='w', use_resource=False)
        b = v1.Variable(rng.standard_normal((4,)).astype(np.float32), name='b', use_resource=False)
        y = tf.identity(tf.tanh(tf.matmul(x, w) + b), name='y')
    return graph, x, y


def tf1_saved_model(directory, inner_input=False):
    """A TF1 SavedModel (``tf.compat.v1.saved_model.Builder``) whose weights are VariableV2 nodes;
    ``inner_input``: the signature's input is the MatMul's product, not the Placeholder."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph, x, y = _tf1_graph()
    with v1.Session(graph=graph) as session:
        session.run(v1.global_variables_initializer())
        builder = v1.saved_model.Builder(str(directory))
        inputs = {'product': graph.get_tensor_by_name('MatMul:0')} if inner_input else {'x': x}
        signature = v1.saved_model.predict_signature_def(inputs, {'y': y})
        builder.add_meta_graph_and_variables(session, ['serve'], signature_def_map={'serving_default': signature})
        builder.save()
    return directory


def tf1_checkpoint(directory, custom_keys=False):
    """A TF1 ``Saver`` checkpoint with its ``.meta`` and the non-frozen GraphDef; returns the prefix.
    ``custom_keys``: the saver stores the variables under other names than theirs."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph, _, _ = _tf1_graph()
    os.makedirs(str(directory), exist_ok=True)
    with v1.Session(graph=graph) as session:
        session.run(v1.global_variables_initializer())
        var_list = {'layer/kernel_' + v.op.name: v for v in v1.global_variables()} if custom_keys else None
        saver = v1.train.Saver(var_list)
        prefix = saver.save(session, os.path.join(str(directory), 'model'))
        v1.train.write_graph(graph.as_graph_def(), str(directory), 'graph.pb', as_text=False)
    return prefix


def tf1_partitioned(directory):
    """A TF1 checkpoint of a partitioned variable (three VariableV2 parts of one [10, 4] tensor,
    saved as slices of one key); returns the prefix."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph = tf.Graph()
    os.makedirs(str(directory), exist_ok=True)
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 10], name='x')
        w = v1.get_variable('w', shape=[10, 4], partitioner=v1.fixed_size_partitioner(3), use_resource=False,
                            initializer=v1.random_normal_initializer(seed=5))
        tf.identity(tf.nn.relu(tf.matmul(x, w.as_tensor())), name='y')
        with v1.Session(graph=graph) as session:
            session.run(v1.global_variables_initializer())
            return v1.train.Saver().save(session, os.path.join(str(directory), 'model'))


def tf1_reference(prefix, feeds, output='y:0'):
    """Run the TF1 checkpoint's graph (restored by TensorFlow) on ``feeds``."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), v1.Session(graph=graph) as session:
        saver = v1.train.import_meta_graph(prefix + '.meta')
        saver.restore(session, prefix)
        return session.run(output, {k if ':' in k else k + ':0': v for k, v in feeds.items()})
