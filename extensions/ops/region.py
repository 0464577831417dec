"""ROIPooling (opset2), for MXNet's two-stage detectors.

It gives output shapes only: the values depend on the boxes a model computes.
"""
from mo.ops.op import Op
from mo.utils.error import Error


class ROIPooling(Op):
    """Inputs: data ``[N, C, H, W]``, rois ``[R, 5]`` (batch index, x1, y1, x2, y2); output ``[R, C, pooled_h,
    pooled_w]``, the maximum of each bin (``method`` max) or a bilinear sample."""
    op = type = 'ROIPooling'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ROIPooling', 'op': 'ROIPooling', 'version': 'opset2', 'pooled_h': 1, 'pooled_w': 1,
            'spatial_scale': 1.0, 'method': 'max', 'infer': ROIPooling.infer, 'in_ports_count': 2,
            'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['pooled_h', 'pooled_w', 'spatial_scale', 'method']

    @staticmethod
    def infer(node):
        data, rois = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if data is None or rois is None:
            return
        if len(data) != 4 or len(rois) != 2:
            raise Error('ROIPooling "{}": data must be 4-D and rois 2-D, not of shapes {} and {}',
                        node.soft_get('name', node.id), list(data), list(rois))
        node.out_port(0).data.set_shape([int(rois[0]), int(data[1]), int(node.pooled_h), int(node.pooled_w)])
