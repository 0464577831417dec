"""Builds examples/small_cnn.pb: a Keras CNN (conv, BN, relu, depthwise, pools, dense, softmax), random weights, frozen."""
import os, numpy as np, time
os.environ['TF_CPP_MIN_LOG_LEVEL']='2'
import tensorflow as tf, keras
keras.utils.set_random_seed(0)
inp = keras.Input((16,16,3), batch_size=1)
x = keras.layers.Conv2D(8,3,padding='same')(inp)
x = keras.layers.BatchNormalization()(x)
x = keras.layers.ReLU()(x)
x = keras.layers.DepthwiseConv2D(3, padding='same')(x)
x = keras.layers.MaxPooling2D()(x)
x = keras.layers.AveragePooling2D(2)(x)
x = keras.layers.Flatten()(x)
x = keras.layers.Dense(5, activation='softmax')(x)
m = keras.Model(inp, x)
for l in m.layers:
    if isinstance(l, keras.layers.BatchNormalization):
        l.set_weights([np.random.rand(*w.shape).astype('f')+0.5 for w in l.get_weights()])
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
f = tf.function(lambda x: m(x)).get_concrete_function(tf.TensorSpec((1,16,16,3), tf.float32))
frozen = convert_variables_to_constants_v2(f)
gd = frozen.graph.as_graph_def()
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'small_cnn.pb'),'wb').write(gd.SerializeToString())


