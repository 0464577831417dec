"""StridedSlice (opset1) with TensorFlow's slicing rules.

The opset masks are lists of 0/1, one per entry of ``begin``; a 1 has the meaning TensorFlow's bit
has (``begin_mask[i] = 1``: begin ``i`` is ignored and the slice starts at the edge). The spec is
"sparse": besides ranges it holds an ellipsis (covers as many whole dimensions as needed; one is
implied at the end when absent), new axes (a size-1 dimension, consuming no input dimension) and
shrinks (a single index that removes the dimension). Priority when bits clash, as in TensorFlow:
ellipsis, then new axis, then shrink.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error

MASKS = ('begin_mask', 'end_mask', 'new_axis_mask', 'shrink_axis_mask', 'ellipsis_mask')


def bits_to_list(bits: int, length: int) -> list:
    """TensorFlow's bit mask as the opset's list of 0/1 (entry ``i`` = bit ``i``)."""
    return [(int(bits) >> i) & 1 for i in range(length)]


def _mask(masks: dict, name: str, i: int) -> int:
    values = masks.get(name) or []
    return int(values[i]) if i < len(values) else 0


def slice_plan(rank: int, count: int, masks: dict, name: str = '') -> list:
    """The dense form of a spec of ``count`` entries applied to ``rank`` input dimensions.

    One item per output-side entry, in order: ``('new', i)``, ``('shrink', i, dim)`` or
    ``('range', i, dim)``, where ``i`` is the spec entry and ``dim`` the input dimension used.
    """
    ellipses = [i for i in range(count) if _mask(masks, 'ellipsis_mask', i)]
    if len(ellipses) > 1:
        raise Error('StridedSlice "{}": more than one ellipsis in the slice spec', name)
    entries = list(range(count))
    implicit = not ellipses
    if implicit:
        entries.append(None)  # the implied trailing ellipsis
    ellipsis_at = ellipses[0] if ellipses else count
    after = [i for i in range(ellipsis_at + 1, count)]
    dims_after = sum(1 for i in after if not _mask(masks, 'new_axis_mask', i))
    plan = []
    dim = 0
    for i in entries:
        if i is None or _mask(masks, 'ellipsis_mask', i):
            stop = rank - dims_after
            while dim < stop:
                plan.append(('range', None, dim))
                dim += 1
            continue
        if _mask(masks, 'new_axis_mask', i):
            plan.append(('new', i))
            continue
        if dim >= rank:
            raise Error('StridedSlice "{}": the slice spec indexes dimension {} of a rank-{} input', name, dim, rank)
        plan.append(('shrink' if _mask(masks, 'shrink_axis_mask', i) else 'range', i, dim))
        dim += 1
    return plan


def numpy_index(plan, shape, begin, end, strides, masks: dict, name: str = ''):
    """The numpy basic index (slices, ints, None) equivalent to the spec; shape dims must be known."""
    index = []
    for item in plan:
        if item[0] == 'new':
            index.append(None)
            continue
        i, dim = item[1], item[2]
        if i is None:
            index.append(slice(None))
            continue
        size = int(shape[dim])
        if item[0] == 'shrink':
            if strides is not None and int(strides[i]) <= 0:
                raise Error('StridedSlice "{}": a shrunk dimension needs a positive stride', name)
            position = int(begin[i]) + size if int(begin[i]) < 0 else int(begin[i])
            if not 0 <= position < size:
                raise Error('StridedSlice "{}": index {} is out of range for dimension {} of size {}', name,
                            int(begin[i]), dim, size)
            index.append(position)
            continue
        stride = int(strides[i]) if strides is not None else 1
        if stride == 0:
            raise Error('StridedSlice "{}": stride {} is 0', name, i)
        # Python's slice clamping is TensorFlow's: negatives count from the end, then clamp
        start = None if _mask(masks, 'begin_mask', i) else int(begin[i])
        stop = None if _mask(masks, 'end_mask', i) else int(end[i])
        index.append(slice(start, stop, stride))
    return tuple(index)


class StridedSlice(Op):
    """Inputs: data, begin, end, strides (optional; 1s when absent)."""
    op = 'StridedSlice'

    def __init__(self, graph, attrs: dict = None):
        defaults = {mask: [] for mask in MASKS}
        defaults.update({'type': 'StridedSlice', 'op': 'StridedSlice', 'version': 'opset1',
                         'infer': StridedSlice.infer, 'in_ports_count': 4, 'out_ports_count': 1})
        super().__init__(graph, defaults, attrs)

    def backend_attrs(self):
        return [(mask, lambda node, mask=mask: ','.join(str(int(v)) for v in node[mask])) for mask in MASKS]

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape = node.in_port(0).data.get_shape()
        begin_shape = node.in_port(1).data.get_shape()
        if shape is None or begin_shape is None:
            return
        if len(begin_shape) != 1 or begin_shape[0] < 0:
            raise Error('StridedSlice "{}": begin must be a 1-D tensor of known length', name)
        count = int(begin_shape[0])
        for mask in MASKS:  # the IR wants one entry per spec entry
            values = [int(v) for v in (node.soft_get(mask, None) or [])][:count]
            node[mask] = values + [0] * (count - len(values))
        masks = {mask: node[mask] for mask in MASKS}
        plan = slice_plan(len(shape), count, masks, name)
        begin = node.in_port(1).data.get_value()
        end = node.in_port(2).data.get_value()
        strides = node.in_port(3).data.get_value() if node.is_in_port_connected(3) else np.ones(count, np.int64)
        value = node.in_port(0).data.get_value()
        if begin is None or end is None or strides is None:
            node.out_port(0).data.set_shape(
                [1 if item[0] == 'new' else (int(shape[item[2]]) if item[1] is None else -1)
                 for item in plan if item[0] != 'shrink'])
            return
        begin, end, strides = (np.ravel(v) for v in (begin, end, strides))
        if value is not None:
            index = numpy_index(plan, shape, begin, end, strides, masks, name)
            node.out_port(0).data.set_value(np.array(value[index]))
            return
        out = []
        for item in plan:
            if item[0] == 'new':
                out.append(1)
            elif item[0] == 'range':
                size = int(shape[item[2]])
                if size < 0:
                    out.append(-1)
                else:
                    sub = numpy_index([item], {item[2]: size}, begin, end, strides, masks, name)[0]
                    out.append(len(range(*sub.indices(size))) if isinstance(sub, slice) else 1)
            elif int(shape[item[2]]) >= 0:
                numpy_index([item], {item[2]: int(shape[item[2]])}, begin, end, strides, masks, name)  # range check
        node.out_port(0).data.set_shape(out)
