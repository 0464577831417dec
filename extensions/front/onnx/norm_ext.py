"""Extractors for ONNX's normalizations. Each keeps an internal op name (``ONNX<op>``) with its attributes for
``norm_lowering.py``, which builds it from MVN, reductions and element-wise ops."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.utils.error import Error


class _NormExtractor(FrontExtractorOp):
    """Base: ``attributes(node)`` gives the node attributes; the node's op becomes ``'ONNX' + op``."""
    framework = 'onnx'
    description = ''

    @classmethod
    def describe(cls, op):
        return cls.description

    @classmethod
    def attributes(cls, node) -> dict:
        return {}

    @classmethod
    def extract(cls, node):
        node.attrs().update(cls.attributes(node))
        node['op'] = 'ONNX' + node.op
        return True


class BatchNormalizationExtractor(_NormExtractor):
    """BatchNormalization -> x * mul + shift with per-channel mul = scale / sqrt(var + epsilon) and shift = B - mean
    * mul (folded into a preceding convolution by the middle phase). training_mode (opset 14 on) normalizes with the
    batch's statistics and also gives running_mean/running_var; opsets before 14 convert in inference form only
    (their mean/var/saved_* outputs are training outputs). spatial=0 (before opset 9): per-element statistics."""
    op = 'BatchNormalization'
    description = 'Multiply, Add (training_mode: batch statistics)'

    @classmethod
    def attributes(cls, node) -> dict:
        opset = get_onnx_opset_version(node)
        return {'epsilon': float(onnx_attr(node, 'epsilon', 'f', 1e-5)),
                'momentum': float(onnx_attr(node, 'momentum', 'f', 0.9)),
                'training_mode': bool(onnx_attr(node, 'training_mode', 'i', 0)) if opset >= 14 else False,
                'spatial': bool(onnx_attr(node, 'spatial', 'i', 1)) if opset < 9 else True,
                'onnx_opset_version': opset}


class InstanceNormalizationExtractor(_NormExtractor):
    """InstanceNormalization -> MVN over the spatial axes (epsilon inside the root), * scale + B per channel."""
    op = 'InstanceNormalization'
    description = 'MVN, Multiply, Add'

    @classmethod
    def attributes(cls, node) -> dict:
        return {'epsilon': float(onnx_attr(node, 'epsilon', 'f', 1e-5))}


class LayerNormalizationExtractor(_NormExtractor):
    """LayerNormalization -> MVN over the axes from ``axis`` on, * Scale + B; the optional Mean and InvStdDev
    outputs from ReduceMean. stash_type: the runtime computes in float32 for lower-precision inputs anyway."""
    op = 'LayerNormalization'
    description = 'MVN, Multiply, Add'

    @classmethod
    def attributes(cls, node) -> dict:
        return {'axis': int(onnx_attr(node, 'axis', 'i', -1)), 'epsilon': float(onnx_attr(node, 'epsilon', 'f', 1e-5))}


class GroupNormalizationExtractor(_NormExtractor):
    """GroupNormalization -> MVN of x reshaped to [N, G, -1], * scale + bias: per group in opset 18, per channel
    from opset 21."""
    op = 'GroupNormalization'
    description = 'Reshape, MVN, Multiply, Add'

    @classmethod
    def attributes(cls, node) -> dict:
        groups = onnx_attr(node, 'num_groups', 'i', None)
        if groups is None or groups < 1:
            raise Error('GroupNormalization "{}": num_groups must be a positive integer, got {}',
                        node.soft_get('name', node.id), groups)
        return {'num_groups': int(groups), 'epsilon': float(onnx_attr(node, 'epsilon', 'f', 1e-5)),
                'per_channel_affine': get_onnx_opset_version(node) >= 21}


class RMSNormalizationExtractor(_NormExtractor):
    """RMSNormalization -> x / sqrt(ReduceMean(x^2, axes from ``axis`` on) + epsilon) * scale."""
    op = 'RMSNormalization'
    description = 'ReduceMean, Sqrt, Divide, Multiply'

    @classmethod
    def attributes(cls, node) -> dict:
        return {'axis': int(onnx_attr(node, 'axis', 'i', -1)), 'epsilon': float(onnx_attr(node, 'epsilon', 'f', 1e-5))}


class LpNormalizationExtractor(_NormExtractor):
    """LpNormalization -> x / ReduceL2(x, axis) (p 2) or x / ReduceSum(|x|, axis) (p 1)."""
    op = 'LpNormalization'
    description = 'ReduceL2 or ReduceSum of Abs, Divide'

    @classmethod
    def attributes(cls, node) -> dict:
        p = onnx_attr(node, 'p', 'i', 2)
        if p not in (1, 2):
            raise Error('LpNormalization "{}": p must be 1 or 2, got {}', node.soft_get('name', node.id), p)
        return {'axis': int(onnx_attr(node, 'axis', 'i', -1)), 'p': int(p)}


class MeanVarianceNormalizationExtractor(_NormExtractor):
    """MeanVarianceNormalization -> MVN over ``axes`` (default [0, 2, 3]), epsilon 1e-9 added to the standard
    deviation (outside the root) as ONNX's function does."""
    op = 'MeanVarianceNormalization'
    description = 'MVN'

    @classmethod
    def attributes(cls, node) -> dict:
        return {'axes': [int(a) for a in onnx_attr(node, 'axes', 'ints', [0, 2, 3])]}
