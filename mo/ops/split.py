"""Split and VariadicSplit (opset1): cut input 0 along the axis on input 1."""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error
from mo.compat.ops_hook import legacy_op_names


def _axis(node, rank):
    axis = node.in_port(1).data.get_value()
    if axis is None:
        raise Error('{} "{}": the axis must be a constant', node.soft_get('op'), node.soft_get('name', node.id))
    axis = int(np.ravel(axis)[0])
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank:
        raise Error('{} "{}": axis {} is out of range for rank {}', node.soft_get('op'),
                    node.soft_get('name', node.id), axis, rank)
    return axis


def _set_outputs(node, shape, axis, sizes):
    value = node.in_port(0).data.get_value()
    offset = 0
    for port, size in enumerate(sizes):
        if value is not None and size >= 0:
            index = [slice(None)] * len(shape)
            index[axis] = slice(offset, offset + size)
            node.out_port(port).data.set_value(np.array(value[tuple(index)]))
        else:
            out = np.array(shape, dtype=np.int64)
            out[axis] = size
            node.out_port(port).data.set_shape(out)
        offset += max(size, 0)
        if node.graph.stage != 'front':
            # the IR lists every output of a layer: unused parts must survive dead-code removal
            node.out_port(port)._data_node(create=True)['keep_output_port'] = True


def _parts_count(node):
    """How many parts a VariadicSplit with run-time lengths makes: the length of its lengths vector, or (when
    that is unknown) its number of output ports."""
    lengths_shape = node.in_port(2).data.get_shape()
    if lengths_shape is not None and len(lengths_shape) == 1 and lengths_shape[0] >= 0:
        return int(lengths_shape[0])
    return int(node.soft_get('out_ports_count', 2))


class Split(Op):
    """``num_splits`` equal parts; output ``i`` is part ``i``."""
    op = 'Split'

    def __init__(self, graph, attrs: dict = None):
        attrs = dict(attrs or {})
        count = int(attrs.get('num_splits', 1))
        super().__init__(graph, {
            'type': 'Split', 'op': 'Split', 'version': 'opset1', 'num_splits': count,
            'infer': Split.infer, 'in_ports_count': 2, 'out_ports_count': count,
        }, attrs)

    def backend_attrs(self):
        return ['num_splits']

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        axis = _axis(node, len(shape))
        count = int(node.num_splits)
        size = int(shape[axis])
        if size >= 0 and size % count:
            raise Error('Split "{}": dimension {} of size {} cannot be split into {} parts',
                        node.soft_get('name', node.id), axis, size, count)
        _set_outputs(node, shape, axis, [size // count if size >= 0 else -1] * count)


class VariadicSplit(Op):
    """Parts of the sizes on input 2 (one may be -1: the rest); sizes known at run time only leave each part's
    size along the axis unknown (-1)."""
    op = 'VariadicSplit'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'VariadicSplit', 'op': 'VariadicSplit', 'version': 'opset1',
            'infer': VariadicSplit.infer, 'in_ports_count': 3, 'out_ports_count': 2,
        }, attrs)

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape = node.in_port(0).data.get_shape()
        lengths = node.in_port(2).data.get_value()
        if shape is None:
            return
        axis = _axis(node, len(shape))
        if lengths is None:
            # lengths known at run time only (valid in the opset): every part's size along the axis is unknown
            count = _parts_count(node)
            _set_outputs(node, shape, axis, [-1] * count)
            return
        sizes = [int(v) for v in np.ravel(lengths)]
        size = int(shape[axis])
        if sizes.count(-1) > 1:
            raise Error('VariadicSplit "{}": more than one split length is -1', name)
        if -1 in sizes and size >= 0:
            sizes[sizes.index(-1)] = size - sum(s for s in sizes if s != -1)
        if size >= 0 and (sum(sizes) != size or min(sizes) < 0):
            raise Error('VariadicSplit "{}": lengths {} do not add up to dimension {} of size {}', name,
                        [int(v) for v in np.ravel(lengths)], axis, size)
        _set_outputs(node, shape, axis, sizes)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
