"""Extractors for ONNX's sampling-grid ops and the ops they become.

* GridSample (opset 16, 20, 22) -> ``GridSample`` (OpenVINO's GridSample-9) for a 4-D input; OpenVINO's op takes
  no other rank, so ``extensions.middle.grid_lowering.GridSampleByGathers`` rewrites any other rank (the
  volumetric 5-D case) into gathers once the rank is known.
* AffineGrid (opset 20) -> ``ONNXAffineGrid``, lowered by ``extensions.middle.grid_lowering.AffineGridLowering``
  once the length of its size input (which tells 2-D from 3-D) is known.
"""
import numpy as np

from extensions.ops.grid_sample import GridSample
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.op import Op
from mo.utils.error import Error

#: ONNX's interpolation mode (opset 16 names and opset 20 names) -> OpenVINO's
_MODES = {'bilinear': 'bilinear', 'linear': 'bilinear', 'nearest': 'nearest', 'bicubic': 'bicubic',
          'cubic': 'bicubic'}
_PADDING = ('zeros', 'border', 'reflection')


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _text(node, attr: str, default: str) -> str:
    value = onnx_attr(node, attr, 's', None)
    return default if value is None else (value.decode() if isinstance(value, bytes) else str(value))


def _align_corners(node) -> bool:
    value = onnx_attr(node, 'align_corners', 'i', 0)
    if value not in (0, 1):
        raise Error('{} "{}": align_corners is {}; it must be 0 or 1', node.op, _name(node), value)
    return bool(value)


class ONNXAffineGrid(Op):
    """AffineGrid(theta [N, r, r + 1], size [N, C, d1..dr]) -> grid [N, d1..dr, r]; internal, lowered in the
    middle phase (``extensions.middle.grid_lowering.AffineGridLowering``)."""
    op = 'ONNXAffineGrid'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': 'ONNXAffineGrid', 'align_corners': False, 'infer': ONNXAffineGrid.infer,
            'type_infer': ONNXAffineGrid.type_infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        size_shape = node.in_port(1).data.get_shape()
        if size_shape is None or len(size_shape) != 1 or int(size_shape[0]) not in (4, 5):
            raise Error('AffineGrid "{}": size must be a 1-D tensor of 4 (2-D) or 5 (3-D) elements, not of shape {}',
                        _name(node), None if size_shape is None else size_shape.tolist())
        spatial = int(size_shape[0]) - 2
        theta = node.in_port(0).data.get_shape()
        if theta is not None and (len(theta) != 3 or int(theta[1]) not in (-1, spatial) or
                                  int(theta[2]) not in (-1, spatial + 1)):
            raise Error('AffineGrid "{}": theta of shape {} does not fit a size of {} elements (it must be '
                        '[N, {}, {}])', _name(node), theta.tolist(), spatial + 2, spatial, spatial + 1)
        size = node.in_port(1).data.get_value()
        if size is not None:
            size = [int(d) for d in np.ravel(size)]
            node.out_port(0).data.set_shape([size[0]] + size[2:] + [spatial])
        else:
            node.out_port(0).data.set_shape([-1] * (spatial + 1) + [spatial])

    @staticmethod
    def type_infer(node):
        dtype = node.in_port(0).data.get_data_type()
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)


class GridSampleExtractor(FrontExtractorOp):
    """GridSample -> GridSample-9 (mode linear/bilinear, nearest, cubic/bicubic; padding_mode zeros, border,
    reflection; align_corners). OpenVINO's op takes 4-D data only: other ranks are lowered into gathers
    (``extensions.middle.grid_lowering.GridSampleByGathers``)."""
    op = 'GridSample'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        mode = _text(node, 'mode', 'linear')
        if mode not in _MODES:
            raise Error('GridSample "{}": mode "{}" is not one of {}', _name(node), mode, ', '.join(_MODES))
        padding = _text(node, 'padding_mode', 'zeros')
        if padding not in _PADDING:
            raise Error('GridSample "{}": padding_mode "{}" is not one of {}', _name(node), padding,
                        ', '.join(_PADDING))
        GridSample.update_node_stat(node, {'mode': _MODES[mode], 'padding_mode': padding,
                                           'align_corners': _align_corners(node)})
        return True


class AffineGridExtractor(FrontExtractorOp):
    """AffineGrid -> ONNXAffineGrid: the base grid of ``size`` (constant or run-time) times theta
    (``extensions.middle.grid_lowering.AffineGridLowering``)."""
    op = 'AffineGrid'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        ONNXAffineGrid.update_node_stat(node, {'align_corners': _align_corners(node)})
        return True
