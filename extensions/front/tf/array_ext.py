"""Extractors for TensorFlow's array ops that map onto one opset op: Bucketize, Roll, Reverse (boolean dims),
TopK (k as an attribute), the TensorScatter ops, RandomUniform/RandomUniformInt, and the checks that
inference passes over (EnsureShape, CheckNumericsV2).

Ops that take more than one opset op are extracted in ``array_formula_ext`` and lowered in
``array_lowering``.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.ops.const import Const
from mo.ops.identity import Identity
from mo.ops.nn_ops import TopK
from mo.ops.sequence_ops import Bucketize, RandomUniform, Roll
from mo.ops.tensor_ops import Reverse, ScatterNDUpdate


def add_const_input(node, port: int, value, suffix: str):
    """Feed input ``port`` of ``node`` from a new Const holding ``value`` (an attribute TF keeps on the node
    that the opset op reads from an input)."""
    const = Const(node.graph, {'name': '{}/{}'.format(node.soft_get('name', node.id), suffix),
                               'value': np.asarray(value)}).create_node()
    const.out_port(0).connect(node.in_port(port))


class BucketizeExtractor(FrontExtractorOp):
    """Bucketize -> Bucketize (opset3, int32, a value on a boundary goes to the bucket on its right); the
    boundaries attribute becomes the buckets input (float32, as TF compares)."""
    op = 'Bucketize'

    @classmethod
    def extract(cls, node):
        add_const_input(node, 1, np.array(tf_attr(node, 'boundaries', []) or [], np.float32), 'boundaries')
        Bucketize.update_node_stat(node, {'output_type': np.dtype(np.int32), 'with_right_bound': False})
        return True


class RollExtractor(FrontExtractorOp):
    """Roll -> Roll (opset7; shifts and axes scalars or vectors, negative values allowed)."""
    op = 'Roll'

    @classmethod
    def extract(cls, node):
        Roll.update_node_stat(node, {})
        return True


class ReverseExtractor(FrontExtractorOp):
    """Reverse -> Reverse (opset1, mask mode: the boolean dims say which axes are reversed)."""
    op = 'Reverse'

    @classmethod
    def extract(cls, node):
        Reverse.update_node_stat(node, {'mode': 'mask'})
        return True


class TopKExtractor(FrontExtractorOp):
    """TopK -> TopK (opset11, stable, sorted by value; the attribute k becomes the k input, indices int32)."""
    op = 'TopK'

    @classmethod
    def extract(cls, node):
        add_const_input(node, 1, np.array(int(tf_attr(node, 'k')), np.int32), 'k')
        TopK.update_node_stat(node, {'axis': -1, 'mode': 'max', 'stable': True, 'sort': 'value',
                                     'index_element_type': 'i32'})
        return True


_SCATTER_REDUCTIONS = {'TensorScatterUpdate': 'none', 'TensorScatterAdd': 'sum', 'TensorScatterSub': 'sub',
                       'TensorScatterMax': 'max', 'TensorScatterMin': 'min'}


class TensorScatterExtractor(FrontExtractorOp):
    """TensorScatterUpdate/Add/Sub/Max/Min -> ScatterNDUpdate (opset15, reduction none/sum/sub/max/min)."""
    op = sorted(_SCATTER_REDUCTIONS)

    @classmethod
    def describe(cls, op):
        return 'ScatterNDUpdate (opset15, reduction {})'.format(_SCATTER_REDUCTIONS[op])

    @classmethod
    def extract(cls, node):
        ScatterNDUpdate.update_node_stat(node, {'reduction': _SCATTER_REDUCTIONS[node.op]})
        return True


class RandomUniformExtractor(FrontExtractorOp):
    """RandomUniform, RandomUniformInt -> RandomUniform (opset8, Philox as TensorFlow: with seed or seed2 set
    the values are TF's, with both 0 each run differs as in TF); RandomUniform's range [0, 1) becomes inputs."""
    op = ['RandomUniform', 'RandomUniformInt']

    @classmethod
    def extract(cls, node):
        if node.op == 'RandomUniform':
            dtype = tf_dtype_attr(node, 'dtype', np.dtype(np.float32))
            add_const_input(node, 1, np.array(0, dtype), 'min')
            add_const_input(node, 2, np.array(1, dtype), 'max')
        else:
            dtype = tf_dtype_attr(node, 'Tout', np.dtype(np.int32))
        RandomUniform.update_node_stat(node, {'output_type': dtype, 'global_seed': int(tf_attr(node, 'seed', 0)),
                                              'op_seed': int(tf_attr(node, 'seed2', 0))})
        return True


class CheckExtractor(FrontExtractorOp):
    """EnsureShape, CheckNumericsV2 -> nothing: run-time checks that inference passes over (removed as
    Identity)."""
    op = ['EnsureShape', 'CheckNumericsV2']

    @classmethod
    def extract(cls, node):
        Identity.update_node_stat(node, {})
        return True
