"""Extractors for ONNX's signal-processing ops: the windows, MelWeightMatrix, DFT and Det.

Each becomes an internal op named ``ONNX<op>`` carrying the attributes read here (per opset version);
``spectral_lowering`` folds or builds it from opset ops.
"""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.utils.error import Error


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _output_type(node):
    """The numpy type of ``output_datatype`` (default 1 = FLOAT)."""
    return np_dtype(onnx_attr(node, 'output_datatype', 'i', 1), 'output_datatype of node "{}"'.format(_name(node)))


def _flag(node, attr: str) -> bool:
    value = onnx_attr(node, attr, 'i', 0)
    if value not in (0, 1):
        raise Error('{} "{}": {} must be 0 or 1, not {}', node.soft_get('op'), _name(node), attr, value)
    return bool(value)


class WindowExtractor(FrontExtractorOp):
    """HannWindow, HammingWindow, BlackmanWindow -> ONNXWindow (window, periodic, out_type)."""
    op = ['HannWindow', 'HammingWindow', 'BlackmanWindow']
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        window = node.soft_get('op')
        node['op'] = 'ONNXWindow'
        node.attrs().update(window=window, periodic=bool(onnx_attr(node, 'periodic', 'i', 1)),
                            out_type=_output_type(node))
        return True


class MelWeightMatrixExtractor(FrontExtractorOp):
    """MelWeightMatrix -> ONNXMelWeightMatrix (out_type): a constant, or a formula of inputs known at run time."""
    op = 'MelWeightMatrix'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXMelWeightMatrix'
        node['out_type'] = _output_type(node)
        return True


class DFTExtractor(FrontExtractorOp):
    """DFT -> ONNXDFT (inverse, onesided, axis: the attribute before opset 20 (default 1), else input 2
    (default -2), read by the lowering)."""
    op = 'DFT'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        version = get_onnx_opset_version(node)
        node['op'] = 'ONNXDFT'
        node.attrs().update(inverse=_flag(node, 'inverse'), onesided=_flag(node, 'onesided'),
                            axis=onnx_attr(node, 'axis', 'i', 1) if version < 20 else None)
        return True


class DetExtractor(FrontExtractorOp):
    """Det -> ONNXDet (the determinant of the square matrices in the last two axes)."""
    op = 'Det'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXDet'
        return True
