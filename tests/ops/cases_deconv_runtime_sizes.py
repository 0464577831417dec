"""Transposed convolution beyond constant sizes: TF's EXPLICIT padding, and an ``input_sizes`` computed
at run time from ``tf.shape`` (Keras Conv2DTranspose with a dynamic batch; sizes that follow dynamic
height and width)."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _filter(kernel):
    return tf.constant(np.random.default_rng(kernel).standard_normal((kernel, kernel, 2, 3)).astype(np.float32))


def _explicit(stride, kernel, pads, extra):
    in_h, in_w = 4, 5
    (top, bottom), (left, right) = pads
    out_h = (in_h - 1) * stride + kernel - top - bottom + extra
    out_w = (in_w - 1) * stride + kernel - left - right + extra
    if extra >= stride or out_h < 1 or out_w < 1:
        return None
    w = _filter(kernel)
    return OpCase('', lambda x: tf.raw_ops.Conv2DBackpropInput(
        input_sizes=[1, out_h, out_w, 2], filter=w, out_backprop=x, strides=[1, stride, stride, 1],
        padding='EXPLICIT', explicit_paddings=[0, 0, top, bottom, left, right, 0, 0]), [In((1, in_h, in_w, 3))])


def _runtime_sizes(padding, stride, kernel, dynamic):
    w = _filter(kernel)

    def fn(x):
        shape = tf.shape(x)
        if dynamic == 'batch':  # Keras: the batch from tf.shape, the rest constant
            eff_h = (4 - 1) * stride + (kernel if padding == 'VALID' else 1)
            eff_w = (5 - 1) * stride + (kernel if padding == 'VALID' else 1)
            sizes = tf.stack([shape[0], eff_h, eff_w, 2])
        else:  # every spatial size follows the input's
            grow = kernel - 1 if padding == 'VALID' else 0
            sizes = tf.stack([shape[0], (shape[1] - 1) * stride + 1 + grow, (shape[2] - 1) * stride + 1 + grow, 2])
        return tf.raw_ops.Conv2DBackpropInput(input_sizes=sizes, filter=w, out_backprop=x,
                                              strides=[1, stride, stride, 1], padding=padding)
    if dynamic == 'batch':
        return OpCase('', fn, [In((None, 4, 5, 3), run=[(1, 4, 5, 3), (2, 4, 5, 3)])])
    return OpCase('', fn, [In((None, None, None, 3), run=[(1, 4, 5, 3), (2, 3, 6, 3)])])


register(
    grid('base/Conv2DBackpropInput_explicit', _explicit, stride=[1, 2, 3], kernel=[1, 3],
         pads=[((0, 0), (0, 0)), ((1, 0), (0, 2)), ((1, 1), (2, 1))], extra=[0, 1])
    + grid('base/Conv2DBackpropInput_runtime_sizes', _runtime_sizes, padding=['SAME', 'VALID'], stride=[1, 2],
           kernel=[2, 3], dynamic=['batch', 'spatial'])
)
