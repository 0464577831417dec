"""Pad (opset1): adds ``pads_begin``/``pads_end`` elements around input 0 (negative values crop)."""
import numpy as np

from mo.utils.shape import fold_allowed
from mo.ops.op import Op
from mo.utils.error import Error
from mo.compat.ops_hook import legacy_op_names

#: opset pad_mode -> numpy.pad mode
_NUMPY_MODES = {'constant': 'constant', 'edge': 'edge', 'reflect': 'reflect', 'symmetric': 'symmetric'}


def pad_value(value, begin, end, mode: str, fill=0):
    """Numpy evaluation of Pad-1."""
    crop = tuple(slice(max(-b, 0), value.shape[i] - max(-e, 0)) for i, (b, e) in enumerate(zip(begin, end)))
    value = value[crop]
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
    if mode == 'constant':
        return np.pad(value, widths, mode='constant', constant_values=np.asarray(fill).astype(value.dtype))
    return np.pad(value, widths, mode=_NUMPY_MODES[mode])


class Pad(Op):
    """Inputs: data, pads_begin, pads_end, pad_value (constant mode, optional; 0 when absent)."""
    op = 'Pad'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Pad', 'op': 'Pad', 'version': 'opset1', 'pad_mode': 'constant',
            'infer': Pad.infer, 'in_ports_count': 4, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['pad_mode']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape = node.in_port(0).data.get_shape()
        begin = node.in_port(1).data.get_value()
        end = node.in_port(2).data.get_value()
        if shape is None:
            return
        if node.pad_mode not in _NUMPY_MODES:
            raise Error('Pad "{}": unknown pad_mode "{}"', name, node.pad_mode)
        if begin is None or end is None:
            node.out_port(0).data.set_shape([-1] * len(shape))
            return
        begin = [int(v) for v in np.ravel(begin)]
        end = [int(v) for v in np.ravel(end)]
        if len(begin) != len(shape) or len(end) != len(shape):
            raise Error('Pad "{}": pads {} / {} do not match the input rank {}', name, begin, end, len(shape))
        value = node.in_port(0).data.get_value()
        fill = node.in_port(3).data.get_value() if node.is_in_port_connected(3) else 0
        out_shape = [-1 if d < 0 else int(d) + b + e for d, b, e in zip(shape, begin, end)]
        if value is not None and fill is not None and fold_allowed(node, out_shape, value.dtype):
            node.out_port(0).data.set_value(pad_value(value, begin, end, node.pad_mode, fill))
            return
        out = [-1 if d < 0 else int(d) + b + e for d, b, e in zip(shape, begin, end)]
        node.out_port(0).data.set_shape(out)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
