"""Extractors for ONNX's pooling ops.

MaxPool and AveragePool keep ONNX's ``ceil_mode``: the opset's ``ceil_torch`` rounding (opset 14), which, as
ONNX, drops a last window that would start in the end padding. MaxPool, dilated AveragePool, LpPool and the
global pools keep internal op names for ``pool_lowering.py``.
"""
import numpy as np

from extensions.front.onnx.nn_ext import window_attrs
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.pooling import AvgPool
from mo.utils.error import Error


def pool_attrs(node) -> dict:
    """Window attributes of a pool: ``kernel`` (required), strides, pads, auto_pad, dilations, rounding_type."""
    name = node.soft_get('name', node.id)
    attrs = window_attrs(node)
    kernel = attrs.pop('kernel_shape', None)
    if kernel is None or any(k < 1 for k in kernel):
        raise Error('{} "{}": kernel_shape must be given, of positive sizes', node.op, name)
    attrs['kernel'] = kernel
    if attrs['auto_pad'] == 'valid':
        # VALID is no padding; said explicitly, since OpenVINO's CPU pools round a ceil_mode window past the end
        # differently under auto_pad valid
        attrs.update(auto_pad='explicit', pads_begin=np.zeros(len(kernel), np.int64),
                     pads_end=np.zeros(len(kernel), np.int64))
    for attr in ('strides', 'dilations', 'pads_begin', 'pads_end'):
        if attr in attrs and len(attrs[attr]) != len(kernel):
            raise Error('{} "{}": {} {} do not fit kernel_shape {}', node.op, name, attr, attrs[attr].tolist(),
                        kernel.tolist())
    ceil = bool(onnx_attr(node, 'ceil_mode', 'i', 0))
    attrs['rounding_type'] = 'ceil_torch' if ceil else 'floor'
    return attrs


def lp_order(node) -> float:
    """The ``p`` of an Lp pool: an int from opset 2 on, a float in opset 1."""
    p = onnx_attr(node, 'p', 'i', None)
    return float(onnx_attr(node, 'p', 'f', 2.0) if p is None else p)


def dilated(attrs) -> bool:
    return 'dilations' in attrs and any(d != 1 for d in attrs['dilations'])


class MaxPoolExtractor(FrontExtractorOp):
    """MaxPool -> MaxPool-8 (MaxPool-14 with ceil_mode): dilations, and Indices (output 1) flattened over the whole
    tensor as ONNX counts them (storage_order 1: column-major within each image)."""
    op = 'MaxPool'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'MaxPool (opset8/14)'

    @classmethod
    def extract(cls, node):
        attrs = pool_attrs(node)
        node.attrs().update(dict(attrs, storage_order=int(onnx_attr(node, 'storage_order', 'i', 0))))
        node['op'] = 'ONNXMaxPool'
        return True


class AveragePoolExtractor(FrontExtractorOp):
    """AveragePool -> AvgPool (exclude-pad = not count_include_pad; AvgPool-14 with ceil_mode); with dilations
    (opset 19), a sum by GroupConvolution of ones divided by the window's count; count_include_pad with ceil_mode
    and explicit pads, an AvgPool of the padded input (``pool_lowering.py``)."""
    op = 'AveragePool'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'AvgPool (opset1/14)'

    @classmethod
    def extract(cls, node):
        attrs = pool_attrs(node)
        include_pad = bool(onnx_attr(node, 'count_include_pad', 'i', 0))
        if dilated(attrs):
            node.attrs().update(dict(attrs, count_include_pad=include_pad))
            node['op'] = 'ONNXDilatedAvgPool'
            return True
        attrs.pop('dilations', None)
        if attrs['rounding_type'] == 'ceil_torch':
            attrs['version'] = 'opset14'
            pads = list(attrs.get('pads_begin', [])) + list(attrs.get('pads_end', []))
            if include_pad and any(pads):
                node.attrs().update(attrs)
                node['op'] = 'ONNXAvgPoolCeilIncludePad'
                return True
        AvgPool.update_node_stat(node, dict(attrs, **{'exclude-pad': not include_pad}))
        return True


class LpPoolExtractor(FrontExtractorOp):
    """LpPool -> (sum over each window of |x|^p)^(1/p): a GroupConvolution of ones (dilations, pads as given)."""
    op = 'LpPool'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'GroupConvolution of |x|^p, Power'

    @classmethod
    def extract(cls, node):
        attrs = pool_attrs(node)
        if attrs['rounding_type'] != 'floor':
            raise Error('LpPool "{}": ceil_mode is not supported', node.soft_get('name', node.id))
        node.attrs().update(dict(attrs, p=lp_order(node)))
        node['op'] = 'ONNXLpPool'
        return True


class GlobalPoolExtractor(FrontExtractorOp):
    """GlobalAveragePool, GlobalMaxPool, GlobalLpPool -> ReduceMean, ReduceMax, (ReduceSum of |x|^p)^(1/p) over
    the spatial axes, which are kept."""
    op = ['GlobalAveragePool', 'GlobalMaxPool', 'GlobalLpPool']
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return {'GlobalAveragePool': 'ReduceMean', 'GlobalMaxPool': 'ReduceMax',
                'GlobalLpPool': 'ReduceSum of |x|^p, Power'}[op]

    @classmethod
    def extract(cls, node):
        node['p'] = lp_order(node)
        node['pool'] = node.op
        node['op'] = 'ONNXGlobalPool'
        return True
