"""RegionYolo: the region layer of YOLO v1/v2/v3 detectors (opset1)."""
import numpy as np

from mo.ops.op import Op


class RegionYoloOp(Op):
    """Reshapes (and for v1/v2 activates) a YOLO head's feature map into region predictions.

    ``axis``/``end_axis`` are the flattened dimensions; they are layout-dependent attributes and
    listed in ``dim_attrs`` so the layout pass can permute them (remove one to keep it as is).
    """
    op = 'RegionYolo'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'RegionYolo', 'op': 'RegionYolo', 'version': 'opset1',
            'coords': 4, 'classes': 20, 'num': 1, 'do_softmax': 1, 'axis': 1, 'end_axis': -1,
            'anchors': [], 'mask': [],
            'dim_attrs': ['axis', 'end_axis'],
            'infer': RegionYoloOp.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['coords', 'classes', 'num', 'do_softmax', 'axis', 'end_axis', 'anchors', 'mask']

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        rank = len(shape)
        axis = node.axis % rank
        end_axis = node.end_axis % rank
        if node.do_softmax:
            flat = -1 if any(int(d) < 0 for d in shape[axis:end_axis + 1]) else int(np.prod(shape[axis:end_axis + 1]))
            out = list(shape[:axis]) + [flat] + list(shape[end_axis + 1:])
        else:
            classes_per_anchor = node.classes + node.coords + 1
            channels = len(node.mask) * classes_per_anchor if len(node.mask) else node.num * classes_per_anchor
            out = [shape[0], channels] + list(shape[2:])
        node.out_port(0).data.set_shape(out)
