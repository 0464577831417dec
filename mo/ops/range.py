"""Range (opset4): ``start, start + step, ...`` below ``stop`` (above it for a negative step)."""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.utils.shape import fold_allowed
from mo.ops.op import Op
from mo.utils.error import Error


class Range(Op):
    """Inputs are the scalars start, stop, step; the output has ``output_type`` (a numpy dtype)."""
    op = 'Range'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Range', 'op': 'Range', 'version': 'opset4', 'output_type': np.int32,
            'infer': Range.infer, 'type_infer': Range.type_infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('output_type', lambda node: ir_element_type(node.output_type))]

    @staticmethod
    def infer(node):
        values = [node.in_port(i).data.get_value() for i in range(3)]
        if any(v is None for v in values):
            node.out_port(0).data.set_shape([-1])
            return
        dtype = np.dtype(node.output_type)
        start, stop, step = (np.asarray(np.ravel(v)[0]).astype(dtype) for v in values)
        if step == 0:
            raise Error('Range "{}": the step is 0', node.soft_get('name', node.id))
        # as TensorFlow: the length and each element (start + i * step) are computed in the output type
        if np.issubdtype(dtype, np.integer):
            count = (abs(int(stop) - int(start)) + abs(int(step)) - 1) // abs(int(step))
            count = count if (int(stop) - int(start)) * int(step) > 0 else 0
        else:
            count = max(int(np.ceil(np.abs((stop - start) / step))), 0) if (stop - start) * step > 0 else 0
        if not fold_allowed(node, [count], dtype):
            node.out_port(0).data.set_shape([count])
            return
        node.out_port(0).data.set_value((start + np.arange(count).astype(dtype) * step).astype(dtype))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)
