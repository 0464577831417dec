"""Extractors for TensorFlow's complex ops outside the Fourier family: Conj and ConjugateTranspose.

They keep their TF names as internal ops; ``complex_tensors`` rewrites them on the float form [..., 2] (the
imaginary part negated, after the permutation for ConjugateTranspose). TensorFlow registers Conj for complex
types only (and variants, which mo does not convert), ConjugateTranspose for every type (a real one is a Transpose).
"""
from extensions.front.tf.tensor_ext import set_op
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.ops.transpose import Transpose


class ConjExtractor(FrontExtractorOp):
    """Conj -> (a, -b) on the float form of a complex tensor."""
    op = 'Conj'

    @classmethod
    def extract(cls, node):
        set_op(node, 'Conj', {'in_ports_count': 1, 'out_ports_count': 1,
                              'data_type': tf_dtype_attr(node, 'T', np.dtype(np.complex64))})
        return True


class ConjugateTransposeExtractor(FrontExtractorOp):
    """ConjugateTranspose(x, perm) -> Transpose with the trailing dimension kept last, then (a, -b); a real x
    (TF registers it for every type): a Transpose."""
    op = 'ConjugateTranspose'

    @classmethod
    def extract(cls, node):
        dtype = tf_dtype_attr(node, 'T', np.dtype(np.complex64))
        if not np.issubdtype(dtype, np.complexfloating):
            Transpose.update_node_stat(node, {})
            return True
        set_op(node, 'ConjugateTranspose', {'in_ports_count': 2, 'out_ports_count': 1, 'data_type': dtype})
        return True
