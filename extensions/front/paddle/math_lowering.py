"""Paddle's reductions, matrix products, padding and inference no-ops (``Paddle_*`` of ``tensor_ext.py``) as
opset ops."""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, ints_arg, out_dtype, port, slot_ports
from extensions.front.paddle.shape_lowering import rank_of
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_var, node_name
from mo.graph.graph import Node
from mo.ops.activation_ops import ReLU, Sigmoid, Tanh
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Mul
from mo.ops.matmul import MatMul
from mo.ops.pad import Pad
from mo.ops.reduce import ReduceAnd, ReduceMax, ReduceMean, ReduceMin, ReduceOr, ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.utils.error import Error

_REDUCE = {'sum': ReduceSum, 'mean': ReduceMean, 'max': ReduceMax, 'min': ReduceMin, 'prod': ReduceProd,
           'all': ReduceAnd, 'any': ReduceOr}


class ReduceLowering(OpRule):
    """reduce_*/sum/mean/max/min/prod/all/any(X) = Reduce* over ``dim``/``axis`` (every axis for reduce_all or
    none given), keep_dim; a sum of another ``dtype`` converts its input first. The classic ``mean`` averages all
    of X, the classic ``sum`` adds its inputs up (``add_n``)."""
    op = 'Paddle_reduce'

    def rewrite(self, node: Node, b: Builder):
        kind = node.formula.replace('reduce_', '')
        pir = bool(node.pb.operands or node.pb.results)
        if node.formula == 'sum' and not pir:
            return AddNLowering.add(b, node)
        x = node.in_port(0)
        rank = rank_of(node)
        axes, tensor = ints_arg(b, node, ('Axis',), ('dim', 'axis'), 'axes', default=[])
        keep = bool(attr(node, ('keep_dim', 'keepdim'), False))
        if node.formula == 'mean' and not pir:
            axes, keep = [], False
        if tensor is None:
            if attr(node, 'reduce_all', False) or not axes:
                axes = list(range(rank))
            tensor = b.const(np.array([a + rank if a < 0 else a for a in axes], I64), 'axes')
        dtype = out_dtype(node)
        source = input_var(node, 'X')
        if kind in ('sum', 'prod') and source is not None and source.dtype is not None and \
                np.dtype(source.dtype) != dtype:
            x = b.op(Convert, [x], 'as_out_type', dst_type=dtype)
        return [b.op(_REDUCE[kind], [x, tensor], 'reduce', keep_dims=keep)]


class AddNLowering(OpRule):
    """add_n / the classic sum(X...) = the inputs added one by one."""
    op = 'Paddle_add_n'

    @staticmethod
    def add(b: Builder, node: Node):
        parts = slot_ports(node, 'X')
        total = parts[0]
        for index, part in enumerate(parts[1:]):
            total = b.op(Add, [total, part], 'add_{}'.format(index))
        return [total]

    def rewrite(self, node: Node, b: Builder):
        return self.add(b, node)


class MatMulLowering(OpRule):
    """matmul/matmul_v2(X, Y) = MatMul with the transposes (classic v1: transpose_X/Y and ``alpha``; v2:
    trans_x/y; Paddle 3: transpose_x/y)."""
    op = 'Paddle_matmul'

    def rewrite(self, node: Node, b: Builder):
        transpose_a = bool(attr(node, ('trans_x', 'transpose_x', 'transpose_X'), False))
        transpose_b = bool(attr(node, ('trans_y', 'transpose_y', 'transpose_Y'), False))
        product = b.op(MatMul, [port(node, 'X'), port(node, 'Y')], 'matmul', transpose_a=transpose_a,
                       transpose_b=transpose_b)
        alpha = float(attr(node, 'alpha', 1.0))
        if alpha != 1.0:
            product = b.op(Mul, [product, b.const(np.array(alpha, out_dtype(node)), 'alpha')], 'scaled')
        return [product]


def _as_matrix(b: Builder, node: Node, slot: str, columns_from: int, tag: str):
    """The input of ``slot`` as 2-D: its axes before ``columns_from`` as rows, the others as columns (sizes from
    the program: the columns' must be known)."""
    var = input_var(node, slot)
    if var is None or var.shape is None:
        raise Error('Paddle {} "{}": the program does not declare the shape of {}', node.formula, node_name(node), slot)
    tail = var.shape[columns_from:]
    if len(var.shape) == 2 and columns_from == 1:
        return port(node, slot), var.shape
    if any(d < 0 for d in tail):
        raise Error('Paddle {} "{}": {}\'s axes from {} on must have known sizes', node.formula, node_name(node),
                    slot, columns_from)
    shape = b.const(np.array([-1, int(np.prod(tail))], I64), tag + '_shape')
    return b.op(Reshape, [port(node, slot), shape], tag), var.shape


def _unflatten(b: Builder, node: Node, slot: str, rows: int, product):
    """``product`` [rows, N] shaped as the input of ``slot``'s first ``rows`` axes + [N]."""
    shape = b.op(ShapeOf, [port(node, slot)], 'in_shape')
    head = b.op(Slice, [shape, b.const([0], 'head_begin', I64), b.const([rows], 'head_end', I64),
                        b.const([1], 'head_step', I64)], 'head')
    target = b.op(Concat, [head, b.const([-1], 'columns', I64)], 'out_shape', axis=0, in_ports_count=2)
    return b.op(Reshape, [product, target], 'shaped')


class MulLowering(OpRule):
    """mul(X, Y) (classic) = MatMul of X as 2-D (x_num_col_dims row axes) and Y as 2-D (y_num_col_dims), the
    product shaped X.shape[:x_num_col_dims] + Y.shape[y_num_col_dims:]."""
    op = 'Paddle_mul'

    def rewrite(self, node: Node, b: Builder):
        x_cols = int(attr(node, 'x_num_col_dims', 1))
        y_cols = int(attr(node, 'y_num_col_dims', 1))
        x, x_shape = _as_matrix(b, node, 'X', x_cols, 'x_2d')
        y_var = input_var(node, 'Y')
        if y_cols != 1 or len(y_var.shape) != 2:
            raise Error('mul "{}": mo converts Y of rank 2 with y_num_col_dims 1 only', node_name(node))
        product = b.op(MatMul, [x, port(node, 'Y')], 'matmul')
        if len(x_shape) == 2 and x_cols == 1:
            return [product]
        return [_unflatten(b, node, 'X', x_cols, product)]


_FC_ACTIVATIONS = {'relu': ReLU, 'sigmoid': Sigmoid, 'tanh': Tanh}


class FcLowering(OpRule):
    """fc(Input, W, Bias) (classic fused) = MatMul of Input as 2-D (in_num_col_dims) and W, + Bias, then the
    activation; shaped as Input.shape[:in_num_col_dims] + [W's columns]."""
    op = 'Paddle_fc'

    def rewrite(self, node: Node, b: Builder):
        cols = int(attr(node, 'in_num_col_dims', 1))
        x, x_shape = _as_matrix(b, node, 'Input', cols, 'input_2d')
        y = b.op(MatMul, [x, port(node, 'W')], 'matmul')
        if port(node, 'Bias') is not None:
            bias = b.op(Reshape, [port(node, 'Bias'), b.const(np.array([1, -1], I64), 'bias_shape')], 'bias')
            y = b.op(Add, [y, bias], 'biased')
        activation = attr(node, 'activation_type', '')
        if activation:
            if activation not in _FC_ACTIVATIONS:
                raise Error('fc "{}": activation "{}" is not relu, sigmoid or tanh', node_name(node), activation)
            y = b.op(_FC_ACTIVATIONS[activation], [y], activation)
        if len(x_shape) != 2 or cols != 1:
            y = _unflatten(b, node, 'Input', cols, y)
        return [y]


class DropoutLowering(OpRule):
    """dropout(X) at inference = X (upscale_in_train), or X * (1 - p) (downgrade_in_infer)."""
    op = 'Paddle_dropout'

    def rewrite(self, node: Node, b: Builder):
        x = port(node, 'X')
        mode = attr(node, ('dropout_implementation', 'mode'), 'upscale_in_train')
        if mode != 'downgrade_in_infer':
            return [x]
        p = port(node, 'P')
        if p is not None:
            source = p.get_source().node
            if source.soft_get('op') != 'Const':
                raise Error('dropout "{}": its rate is computed at run time', node_name(node))
            rate = float(np.ravel(source.value)[0])
        else:
            rate = float(attr(node, ('dropout_prob', 'p'), 0.5))
        return [b.op(Mul, [x, b.const(np.array(1 - rate, out_dtype(node)), 'keep')], 'scaled')]


_PAD_MODES = {'constant': 'constant', 'reflect': 'reflect', 'replicate': 'edge', 'edge': 'edge'}


class PadLowering(OpRule):
    """pad3d(X) = Pad of the spatial axes (paddings [left, right, top, bottom, front, back], NCDHW or NDHWC),
    modes constant (value), reflect, replicate; the classic pad(X) = Pad by begin/end pairs of every axis."""
    op = 'Paddle_pad'

    def rewrite(self, node: Node, b: Builder):
        rank = rank_of(node)
        value = float(attr(node, ('value', 'pad_value'), 0.0))
        if node.formula == 'pad':
            pairs = [int(v) for v in attr(node, 'paddings', [])]
            begin, end, mode = pairs[0::2], pairs[1::2], 'constant'
        else:
            pads, tensor = ints_arg(b, node, ('Paddings',), 'paddings', 'paddings')
            if tensor is not None:
                raise Error('pad3d "{}": its paddings are computed at run time; mo converts constant ones only',
                            node_name(node))
            mode = attr(node, 'mode', 'constant')
            if mode not in _PAD_MODES:
                raise Error('pad3d "{}": mode "{}" is not constant, reflect or replicate', node_name(node), mode)
            mode = _PAD_MODES[mode]
            # pairs from the last spatial axis backwards: (W), (H), (D)
            spatial = [(pads[i], pads[i + 1]) for i in range(0, len(pads), 2)][::-1]
            channels_last = attr(node, 'data_format', 'NCDHW') == 'NDHWC'
            lead = [(0, 0)] * (rank - len(spatial) - (1 if channels_last else 0))
            pairs = lead + spatial + ([(0, 0)] if channels_last else [])
            begin, end = [p[0] for p in pairs], [p[1] for p in pairs]
        inputs = [node.in_port(0), b.const(np.array(begin, I64), 'begin'), b.const(np.array(end, I64), 'end')]
        if mode == 'constant':
            inputs.append(b.const(np.array(value, out_dtype(node)), 'value'))
        return [b.op(Pad, inputs, 'pad', pad_mode=mode)]
