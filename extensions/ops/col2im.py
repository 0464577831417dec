"""Col2Im (opset15): the blocks of sliding windows put back into an image, overlapping cells summed.

Inputs: data [N, C * kh * kw, L] (or unbatched [C * kh * kw, L]), output_size [h, w], kernel_size [kh, kw]
(1-D int, constant or not); attributes strides, dilations, pads_begin, pads_end (two each). Output [N, C, h, w].
Two spatial dimensions only. Newer than opset13: no older op sums overlapping windows this directly (a
GroupConvolutionBackpropData needs a constant kernel size; ONNX feeds it as a tensor).
"""
import numpy as np

from mo.ops.op import Op


def _csv(name):
    return name, lambda node: ','.join(str(int(v)) for v in node[name])


class Col2Im(Op):
    op = 'Col2Im'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Col2Im', 'op': 'Col2Im', 'version': 'opset15', 'infer': Col2Im.infer,
            'strides': [1, 1], 'dilations': [1, 1], 'pads_begin': [0, 0], 'pads_end': [0, 0],
            'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [_csv('strides'), _csv('dilations'), _csv('pads_begin'), _csv('pads_end')]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        shape = [int(d) for d in shape]
        size = node.in_port(1).data.get_value()
        kernel = node.in_port(2).data.get_value()
        spatial = [int(v) for v in np.ravel(size)] if size is not None else [-1, -1]
        channels = -1
        if kernel is not None and shape[-2] >= 0:
            channels = shape[-2] // int(np.prod(np.ravel(kernel)))
        node.out_port(0).data.set_shape(shape[:-2] + [channels] + spatial)
