"""Harness self-check: a dynamic batch dimension run at two sizes."""
import tensorflow as tf

from tests.ops.harness import In, OpCase, register

register([
    OpCase('smoke/relu_dynamic_batch', lambda x: tf.nn.relu(x), [In((None, 5), run=[(2, 5), (3, 5)])]),
])
