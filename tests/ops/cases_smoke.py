"""Harness self-check: a case whose numbers must match and one that must not."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, register

register([
    OpCase('smoke/relu_dynamic_batch', lambda x: tf.nn.relu(x), [In((None, 5), run=[(2, 5), (3, 5)])]),
])
