"""Extractors for Col2Im, CenterCropPad, Unique and STFT: ONNX ops whose sizes come from tensors.

Each becomes an internal op named ``ONNX<op>`` carrying the attributes read here; ``image_tensor_lowering``
builds it from opset ops (the sizes may be known at run time only). Unique becomes the ``FrameworkUnique`` of
every framework, lowered by ``extensions/front/common_lowering.py``.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _flag(node, attr: str, default: int) -> bool:
    value = onnx_attr(node, attr, 'i', default)
    if value not in (0, 1):
        raise Error('{} "{}": {} must be 0 or 1, not {}', node.soft_get('op'), _name(node), attr, value)
    return bool(value)


class Col2ImExtractor(FrontExtractorOp):
    """Col2Im -> ONNXCol2Im (dilations, pads [begin..., end...], strides; None where absent: their length is the
    number of spatial dimensions, which the lowering may learn from the image_shape input instead)."""
    op = 'Col2Im'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = {name: onnx_attr(node, name, 'ints', None) for name in ('dilations', 'pads', 'strides')}
        attrs = {name: None if value is None else [int(v) for v in value] for name, value in attrs.items()}
        node['op'] = 'ONNXCol2Im'
        node.attrs().update(attrs)
        return True


class CenterCropPadExtractor(FrontExtractorOp):
    """CenterCropPad -> ONNXCenterCropPad (axes, None for all of them)."""
    op = 'CenterCropPad'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        axes = onnx_attr(node, 'axes', 'ints', None)
        node['op'] = 'ONNXCenterCropPad'
        node['axes'] = None if axes is None else [int(a) for a in axes]
        return True


class UniqueExtractor(FrontExtractorOp):
    """Unique (opset 11) -> Unique (opset10; sorted, default 1; axis, None to flatten; int64 indices and counts).

    The node becomes the ``FrameworkUnique`` every framework's Unique becomes (``extensions/front/common_lowering``)
    with all four outputs: the opset's unsorted order is the order of first occurrence (ONNX's sorted=0), its
    sorted slices are in lexicographic order (numpy's, as ONNX's)."""
    op = 'Unique'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        axis = onnx_attr(node, 'axis', 'i', None)
        node['op'] = 'FrameworkUnique'
        node.attrs().update(sorted=_flag(node, 'sorted', 1), axis=None if axis is None else int(axis),
                            out_type=np.int64, unique_outputs=[0, 1, 2, 3])
        return True


class STFTExtractor(FrontExtractorOp):
    """STFT (opset 17) -> ONNXSTFT (onesided, default 1)."""
    op = 'STFT'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXSTFT'
        node['onesided'] = _flag(node, 'onesided', 1)
        return True
