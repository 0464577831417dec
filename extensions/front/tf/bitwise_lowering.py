"""TensorFlow's Bitcast from opset ops, where it can be: OpenVINO has no op that reinterprets bits.

* a constant input folds (numpy's ``view``, with TF's shape rule when the widths differ);
* integer <-> integer of one width is a Convert (OpenVINO's Convert between integers wraps: two's complement,
  which is what the bits are);
* anything else at run time (float <-> integer, a change of width) is an error naming the node.

A float -> integer bit pattern built from the value (sign, exponent by log2, mantissa) was tried: the IR was
right, but OpenVINO's CPU plugin, in a graph of that size, got the sign of zeros and the subnormals wrong, so it
is not offered (Keras 3's ``signbit`` on floats, behind ``keras.ops.argmax``, needs exactly those).
"""
import numpy as np

from extensions.front.tf.formula_kit import F32, cast
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.utils.error import Error


def tf_bitcast(value: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """TF's Bitcast of a constant: a wider input gains a last dimension (the number of output elements per input
    element); a narrower one loses its last dimension, which must hold that many elements."""
    value = np.ascontiguousarray(value)
    source, target = value.dtype.itemsize, np.dtype(dtype).itemsize
    if source == target:
        return value.view(dtype)
    if source > target:
        return value.view(dtype).reshape(value.shape + (source // target,))
    if not value.shape or value.shape[-1] != target // source:
        raise ValueError('the last dimension must be {}'.format(target // source))
    return value.view(dtype).reshape(value.shape[:-1])


class BitcastLowering(OpRule):
    """Bitcast(x, type): folded for a constant, a Convert between integers of one width (module docstring)."""
    op = 'Bitcast'

    def rewrite(self, node: Node, b: Builder):
        source = np.dtype(node.soft_get('data_type', None) or F32)
        target = np.dtype(node.dst_type)
        producer = b.input(0)
        if producer is not None and producer.node.soft_get('op') == 'Const' and producer.node.has_valid('value') \
                and producer.idx == 0:
            try:
                return b.const(tf_bitcast(np.asarray(producer.node.value).astype(source, copy=False), target),
                               'folded')
            except ValueError as error:
                raise Error('Bitcast "{}" from {} to {}: {}', b.name, source, target, error) from None
        if source == target:
            return node.in_port(0)
        if source.kind in 'iu' and target.kind in 'iu' and source.itemsize == target.itemsize:
            return cast(b, node.in_port(0), target, 'bits')
        raise Error('Bitcast "{}" from {} to {} is converted only for a constant input or between integers of one '
                    'width', b.name, source, target)
