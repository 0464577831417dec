"""MatMul (opset1) and Einsum (opset7)."""
import re

import numpy as np

from mo.front.common.partial_infer.elemental import broadcast_shapes
from mo.ops.op import Op
from mo.utils.error import Error


def _swap_last(shape):
    shape = list(shape)
    if len(shape) >= 2:
        shape[-1], shape[-2] = shape[-2], shape[-1]
    return shape


class MatMul(Op):
    """Batched matrix product with numpy broadcasting of the batch dimensions.

    ``transpose_a``/``transpose_b`` swap the last two dimensions of an input first (TensorFlow's
    ``transpose_a/b`` and, for real numbers, BatchMatMul's ``adj_x/adj_y``). A 1-D input is a row
    (input 0) or a column (input 1) vector whose extra dimension is dropped from the result.
    """
    op = 'MatMul'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'MatMul', 'op': 'MatMul', 'version': 'opset1', 'transpose_a': False, 'transpose_b': False,
            'infer': MatMul.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('transpose_a', lambda n: str(bool(n.transpose_a)).lower()),
                ('transpose_b', lambda n: str(bool(n.transpose_b)).lower())]

    @staticmethod
    def infer(node):
        a_shape, b_shape = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if a_shape is None or b_shape is None:
            return
        name = node.soft_get('name', node.id)
        a = [int(d) for d in a_shape]
        b = [int(d) for d in b_shape]
        if not a or not b:
            raise Error('MatMul "{}": inputs must have rank 1 or more, got {} and {}', name, a, b)
        a = ([1] + a) if len(a) == 1 else (_swap_last(a) if node.transpose_a else a)
        b = (b + [1]) if len(b) == 1 else (_swap_last(b) if node.transpose_b else b)
        if a[-1] >= 0 and b[-2] >= 0 and a[-1] != b[-2]:
            raise Error('MatMul "{}": inner dimensions differ: {} x {}', name, a_shape.tolist(), b_shape.tolist())
        batch = broadcast_shapes(a[:-2], b[:-2]).tolist() if len(a) > 2 or len(b) > 2 else []
        out = batch + [a[-2], b[-1]]
        if len(a_shape) == 1:
            del out[-2]
        if len(b_shape) == 1:
            del out[-1]
        x, y = node.in_port(0).data.get_value(), node.in_port(1).data.get_value()
        if x is not None and y is not None:
            x = np.swapaxes(x, -1, -2) if node.transpose_a and x.ndim > 1 else x
            y = np.swapaxes(y, -1, -2) if node.transpose_b and y.ndim > 1 else y
            node.out_port(0).data.set_value(np.matmul(x, y).astype(np.result_type(x, y)))
        else:
            node.out_port(0).data.set_shape(out)


_EQUATION = re.compile(r'^([a-zA-Z.]*(,[a-zA-Z.]*)*)->([a-zA-Z.]*)$')


class Einsum(Op):
    """opset7 Einsum: any number of inputs combined by ``equation`` (explicit ``->`` form)."""
    op = 'Einsum'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Einsum', 'op': 'Einsum', 'version': 'opset7', 'equation': None,
            'infer': Einsum.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['equation']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        equation = (node.soft_get('equation', None) or '').replace(' ', '')
        if not _EQUATION.match(equation):
            raise Error('Einsum "{}": equation "{}" is not of the form "ab,bc->ac"', name, equation)
        ports = [p for _, p in sorted(node.in_ports().items()) if p.is_connected()]
        shapes = [p.data.get_shape() for p in ports]
        if any(s is None for s in shapes):
            return
        terms = equation.split('->')[0].split(',')
        if len(terms) != len(ports):
            raise Error('Einsum "{}": equation "{}" has {} operands, the node {} inputs', name, equation,
                        len(terms), len(ports))
        values = [p.data.get_value() for p in ports]
        if all(v is not None for v in values):
            node.out_port(0).data.set_value(np.einsum(equation, *values))
            return
        sizes, ellipsis = {}, []
        for term, shape in zip(terms, shapes):
            dims = [int(d) for d in shape]
            head, dots, tail = term.partition('...')
            if len(head) + len(tail) > len(dims) or (not dots and len(head) != len(dims)):
                raise Error('Einsum "{}": term "{}" does not fit input of shape {}', name, term, dims)
            ell_dims = dims[len(head):len(dims) - len(tail)] if dots else []
            ellipsis.append(ell_dims)
            for letter, dim in zip(head + tail, dims[:len(head)] + (dims[len(dims) - len(tail):] if tail else [])):
                known = sizes.get(letter, 1)
                sizes[letter] = dim if known in (1, -1) and dim != 1 else known
        ell = broadcast_shapes(*ellipsis).tolist() if any(ellipsis) else []
        head, dots, tail = equation.split('->')[1].partition('...')
        out = [sizes[c] for c in head] + (ell if dots else []) + [sizes[c] for c in tail]
        node.out_port(0).data.set_shape(out)
