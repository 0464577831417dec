"""AdaptiveAvgPool and AdaptiveMaxPool (opset8), for Paddle's adaptive pools and MXNet's AdaptiveAvgPooling2D: pooling to a
given spatial size, each output cell averaging (or taking the maximum of) the input cells from ``floor(i * in / out)`` to ``ceil((i + 1) * in / out)``.

Inputs: data [N, C, spatial...], output_shape (1-D int, one entry per spatial axis). AdaptiveMaxPool's second
output is the flat index of each maximum within its channel (``index_element_type``).
"""
import numpy as np

from mo.ops.op import Op


def _infer(node):
    shape = node.in_port(0).data.get_shape()
    size = node.in_port(1).data.get_value()
    if shape is None:
        return
    spatial = [int(v) for v in np.ravel(size)] if size is not None else [-1] * (len(shape) - 2)
    out = [int(d) for d in shape[:2]] + spatial
    for port in node.out_ports():
        if node.is_out_port_connected(port) or port == 0:
            node.out_port(port).data.set_shape(out)


class AdaptiveAvgPool(Op):
    op = 'AdaptiveAvgPool'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'AdaptiveAvgPool', 'op': 'AdaptiveAvgPool', 'version': 'opset8', 'infer': _infer,
            'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)


class AdaptiveMaxPool(Op):
    op = 'AdaptiveMaxPool'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'AdaptiveMaxPool', 'op': 'AdaptiveMaxPool', 'version': 'opset8', 'infer': _infer,
            'type_infer': AdaptiveMaxPool.type_infer, 'index_element_type': 'i32',
            'in_ports_count': 2, 'out_ports_count': 2,
        }, attrs)

    def backend_attrs(self):
        return ['index_element_type']

    @staticmethod
    def type_infer(node):
        source = node.in_port(0).data.get_data_type()
        if source is not None:
            node.out_port(0).data.set_data_type(source)
        if 1 in node.out_ports() and node.is_out_port_connected(1):
            node.out_port(1).data.set_data_type(np.int64 if node.index_element_type == 'i64' else np.int32)
