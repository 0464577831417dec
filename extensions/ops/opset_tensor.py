"""Opset tensor ops that mo's own op modules lack and front ends create: GatherElements (opset6),
ScatterElementsUpdate (opset3 / opset12 with ``reduction``), Eye (opset9).

Shape inference only where the values depend on run-time data.
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op
from mo.ops.tensor_ops import _ShapeOnly, _value


class GatherElements(_ShapeOnly):
    """Inputs: data, indices (same rank); output[i][j][k] = data[indices[i][j][k]][j][k] along ``axis``; the
    output has the indices' shape."""
    op = type = 'GatherElements'
    version = 'opset6'
    in_ports = 2
    defaults = {'axis': 0}
    ir_attrs = ('axis',)

    @staticmethod
    def output_shape(node, shape):
        indices = node.in_port(1).data.get_shape()
        return None if indices is None else [int(d) for d in indices]


class ScatterElementsUpdate(_ShapeOnly):
    """Inputs: data, indices, updates, axis (scalar); ``reduction`` none/sum/prod/min/max/mean combines the
    updates with what data holds (``use_init_val``). Written as opset3's op without a reduction, else opset12's."""
    op = type = 'ScatterElementsUpdate'
    version = 'opset3'
    in_ports = 4
    defaults = {'reduction': 'none', 'use_init_val': True}

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, attrs)
        if self.attrs.get('reduction', 'none') != 'none':
            self.attrs['version'] = 'opset12'

    def backend_attrs(self):
        if self.attrs.get('version') == 'opset3':
            return []
        return ['reduction', ('use_init_val', lambda n: str(bool(n.use_init_val)).lower())]


class Eye(_ShapeOnly):
    """Inputs: num_rows, num_columns, diagonal_index (scalars), batch_shape (optional): ones on the diagonal
    shifted by diagonal_index, zeros elsewhere, of ``output_type``."""
    op = type = 'Eye'
    version = 'opset9'
    in_ports = 4
    defaults = {'output_type': np.float32}

    def backend_attrs(self):
        return [('output_type', lambda n: ir_element_type(n.output_type))]

    @classmethod
    def infer(cls, node):
        dims = []
        for port in (0, 1):
            value = _value(node, port)
            dims.append(-1 if value is None else int(np.ravel(value)[0]))
        node.out_port(0).data.set_shape(dims)

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)
