"""A projection that flattens its input's leading dimensions to rows and restores them after (HuggingFace's GPT-2
``Conv1D``: ``x.view(-1, x.size(-1))``, addmm, ``.view(x.size()[:-1] + (nf,))``) is the same MatMul on the input as
it is: MatMul by a matrix multiplies every row of the last axis alike, and broadcasts over the dimensions before it.
The two Reshapes and the shape computations of their targets are nodes the plugin compiles and runs for nothing."""
import numpy as np

from extensions.back.static_reshape_target import entries_are_dimensions, partial_value
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import BackOpRule
from mo.ops.elementwise import Add
from mo.ops.matmul import MatMul


def _source_op(port):
    source = port.get_source() if port.node.is_in_port_connected(port.idx) else None
    return source, (source.node.soft_get('op') if source is not None else None)


def _only_reader(source) -> bool:
    return len(source.get_destinations()) == 1


def _projection(node: Node):
    """(add or None, matmul) whose output the Reshape ``node`` reads, the MatMul's first input a Reshape; else None."""
    source, op = _source_op(node.in_port(0))
    add = None
    if op == 'Add':
        add = source.node
        for i in (0, 1):
            inner, inner_op = _source_op(add.in_port(i))
            if inner_op == 'MatMul':
                source, op = inner, inner_op
                break
    if op != 'MatMul' or _source_op(source.node.in_port(0))[1] != 'Reshape':
        return None
    return add, source.node


def _static_dims(shape):
    if shape is None or np.ma.is_masked(shape) or np.any(np.asarray(shape) < 0):
        return None
    return [int(d) for d in shape]


def _has_copying_zero(reshape: Node) -> bool:
    """A 0 in the target that special_zero reads as 'the input's dimension here'."""
    target = partial_value(reshape.in_port(1).get_source())
    return bool(reshape.soft_get('special_zero', False)) and \
        (target is None or np.any((np.ma.getdata(target) == 0) & ~np.ma.getmaskarray(target)))


def _bias_input(add: Node, matmul: Node):
    """The input port of ``add`` that is not the MatMul's output."""
    return add.in_port(1) if add.in_port(0).get_source().node.id == matmul.id else add.in_port(0)


def _bias_broadcasts_over_rows(add: Node, matmul: Node, rank: int) -> bool:
    """The bias (any tensor) has a static shape of ones but its last dimension: adding it to the rows of any rank
    gives the same numbers and the rows' shape."""
    if add.soft_get('auto_broadcast', 'numpy') != 'numpy':
        return False
    bias = _static_dims(_bias_input(add, matmul).data.get_shape())
    return bias is not None and len(bias) <= rank and all(d == 1 for d in bias[:-1])


class MatMulOfFlattenedRows(BackOpRule):
    """Reshape(MatMul(Reshape(x, [-1, K]), W) + b, [x's leading dimensions..., N]) = MatMul(x, W) + b, the bias
    optional: the flattening Reshape keeps x's last axis K, and the outer one restores the very dimensions it
    flattened."""
    id = 'MatMulOfFlattenedRows'
    op = 'Reshape'

    def matches(self, node: Node) -> bool:
        return node.is_in_port_connected(1) and _projection(node) is not None

    def rewrite(self, node: Node, b: Builder):
        add, matmul = _projection(node)
        inner = matmul.in_port(0).get_source().node
        x = inner.in_port(0).get_source()
        x_shape = x.data.get_shape()
        rank = None if x_shape is None else len(x_shape)
        if rank is None or rank < 3:
            b.reject('the flattened tensor is not of a known rank of 3 or more')
        if matmul.soft_get('transpose_a', False) or matmul.in_port(1).data.get_shape() is None or \
                len(matmul.in_port(1).data.get_shape()) != 2:
            b.reject('not rows by a matrix')
        for intermediate in [matmul] + ([add] if add is not None else []):
            if not _only_reader(intermediate.out_port(0)):
                b.reject('{} is read elsewhere'.format(intermediate.soft_get('name', intermediate.id)))
        if add is not None and not _bias_broadcasts_over_rows(add, matmul, rank):
            b.reject('the Add is not a bias of the last axis')
        if _has_copying_zero(inner) or _has_copying_zero(node):
            b.reject('a target has a 0 that copies an input dimension')
        inner_target = inner.in_port(1).get_source()
        if not entries_are_dimensions(inner_target, x, [None, rank - 1])[1]:
            b.reject('the inner Reshape does not keep the last axis as the rows')
        outer_target = node.in_port(1).get_source()
        projected = (add if add is not None else matmul).out_port(0)
        leading = entries_are_dimensions(outer_target, x, list(range(rank - 1)) + [None])[:-1]
        # the projected axis is the last (a bias of a higher rank puts ones before the rows)
        projected_rank = len(projected.data.get_shape()) if projected.data.get_shape() is not None else 0
        last = entries_are_dimensions(outer_target, projected, [None] * (rank - 1) + [projected_rank - 1])[-1]
        if not (leading.all() and last):
            b.reject('the target is not the leading dimensions of the flattened tensor and the projected axis')
        product = b.op(MatMul, [x, matmul.in_port(1)], 'matmul', transpose_a=False,
                       transpose_b=bool(matmul.soft_get('transpose_b', False)))
        if add is None:
            return product
        bias = _bias_input(add, matmul)
        inputs = [product, bias] if bias.idx == 1 else [bias, product]
        return b.op(Add, inputs, 'bias', auto_broadcast='numpy')
