"""Complex tensors as float tensors with a trailing dimension of 2 (real, imaginary), as OpenVINO's DFT ops take
them: the pass that makes the rest of a TensorFlow graph agree.

Walking the graph in order, it finds the tensors that hold complex numbers (complex constants and inputs, what
the Fourier ops and Complex return, casts to a complex type, and whatever computes on those) and rewrites the
ops that touch them:

* constants become float [..., 2], inputs too (the IR input gets the trailing 2 and a warning says so);
* Add, Sub, Neg, AddN, Identity, TensorScatterUpdate/Add/Sub (ScatterNDUpdate) and DynamicPartition (their
  indices address the leading dimensions) work on [..., 2] as they are;
* Mul, RealDiv, Div, Square, Reciprocal, Inv, Exp (e^a (cos b + i sin b)), Expm1, Sin, Cos, Tan, Sinh, Cosh, Tanh,
  Sigmoid, Sign (z / |z|, 0 at 0), Sqrt (the principal root), Rsqrt, DivNoNan/MulNoNan (0 where y is 0), Log
  (log|z| + i arg z, arg z = 2 atan(b / (|z| + a)), pi on the negative real axis), Log1p, Pow (exp(y log x)),
  Xlogy/Xlog1py/Xdivy (0 where x is 0), SquaredDifference ((x - y) conj(x - y)) and Conj become complex
  arithmetic on the two parts; Equal/NotEqual compare both parts (a boolean result); BiasAdd adds per channel
  (channels-first: the bias reshaped to [C, 1..., 2]);
* ops that move or sum elements along axes work on the float form with their axes adjusted (a negative axis counts
  past the trailing 2, computed at run time where the axis is): Cumsum, Roll, ReverseV2/Reverse, GatherV2, GatherNd,
  Sum, Mean, Squeeze, Pack, Unpack, Split, SplitV, Slice and StridedSlice (the spec gets a whole last dimension),
  Tile, Fill, BroadcastTo, SelectV2 (the condition gets a trailing 1), ZerosLike, OnesLike (1 + 0i),
  ConjugateTranspose;
* Cast to a complex type pairs the value with zeros, Cast of a complex to a real type keeps the real part;
* Reshape gets the trailing 2 appended to its shape; Transpose keeps the last axis last; ExpandDims and ConcatV2
  count negative axes past it; Pad, MirrorPad and PadV2 leave it unpadded (PadV2's complex fill value pads
  each part with its own part); Shape drops it;
* the ops that move, pick or scatter elements (``complex_moves``): Select, ScatterNd, ReverseSequence, Where (either
  part non-zero), DynamicStitch, ParallelDynamicStitch, SegmentSum, SegmentMean, UnsortedSegmentSum and the tensor
  list and TensorArray ops (lists of complex elements are dense [n, *element, 2]) as they are or with an adjusted
  shape input or element type; DepthToSpace, SpaceToDepth and ExtractImagePatches with the parts in the channels;
  OneHot, MatrixBandPart, MatrixDiag/DiagPart/SetDiag (V1-V3), SparseToDense, SparseFillEmptyRows and
  SparseTensorDenseAdd once on the real parts and once on the imaginary parts;
* the linear-algebra and product ops (``complex_linear``): MatMul, BatchMatMul/V2/V3 (adj_x/adj_y conjugate),
  Einsum and SparseTensorDenseMatMul (adjoint_a/adjoint_b conjugate) as complex products of the op on the parts;
  MatrixInverse through the real block matrix [[A, -B], [B, A]]; EuclideanNorm (sqrt of the sum of |z|^2, + 0i);
  Prod, Cumprod, SegmentProd and UnsortedSegmentProd in polar form (magnitudes multiplied, arguments added: empty
  products are 1); ClipByValue as it is (TF clamps each part); Asin, Acos, Atan, Asinh, Acosh and Atanh on TF's
  principal branches, the side of a cut taken from the sign of a zero (``complex_inverse_trig``);
* the Fourier ops and Complex, Real, Imag, ComplexAbs take the float form (``fft_lowering``).

An op outside this list that reads a complex tensor is an error naming it. A complex model output cannot be an
IR output type: it is given in the float form [..., 2] (real, imaginary), lossless and what OpenVINO itself
computes, with a warning naming the output.
"""
import logging as log

import numpy as np

from extensions.front.tf import complex_linear, complex_moves
from extensions.front.tf.complex_kit import constant_ints, divide, exponential, is_complex_type, logarithm, \
    multiply, pair, parts, parts_type, shifted_axes, squared_norm, trig
from extensions.front.tf.fft_ext import FOURIER, real_type
from mo.front.common.formula_kit import I64
from extensions.front.tf.tensor_ext import IDENTITY_LIKE, constant_input
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.rule import Builder, rewrite_node
from mo.graph.graph import Graph, Node
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Equal, Less, Mul, NotEqual, Sub
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from mo.ops.reduce import ReduceAnd, ReduceOr
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.strided_slice import MASKS
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose
from mo.utils.error import Error

#: Fourier/complex ops -> (inputs that are complex, outputs that are complex)
_FOURIER_PORTS = dict({op: ((0,), (0,)) for op in ('FFT', 'IFFT', 'FFT2D', 'IFFT2D', 'FFT3D', 'IFFT3D')},
                      **{op: ((), (0,)) for op in ('RFFT', 'RFFT2D', 'RFFT3D', 'Complex')},
                      **{op: ((0,), ()) for op in ('IRFFT', 'IRFFT2D', 'IRFFT3D', 'Real', 'Imag', 'ComplexAbs')})
assert set(_FOURIER_PORTS) == set(FOURIER)

#: the op families whose complex forms live beside this module: each has REWRITES, IN_PLACE and REAL_OUTPUTS
_FAMILIES = (complex_linear, complex_moves)
_FAMILY_REWRITES = {op: fn for family in _FAMILIES for op, fn in family.REWRITES.items()}
_FAMILY_IN_PLACE = {op: fn for family in _FAMILIES for op, fn in family.IN_PLACE.items()}
_FAMILY_REAL_OUTPUTS = set().union(*(family.REAL_OUTPUTS for family in _FAMILIES))
#: optional in a family: op -> its complex outputs, for an op with real outputs too (a rewrite of one returns one
#: replacement per output); op -> make(node, b), for an op that makes complex tensors from real inputs (it returns
#: the outputs that hold float forms)
_FAMILY_COMPLEX_OUTPUTS = {op: ports for family in _FAMILIES
                           for op, ports in getattr(family, 'COMPLEX_OUTPUTS', {}).items()}
_FAMILY_MAKERS = {op: fn for family in _FAMILIES for op, fn in getattr(family, 'MAKERS', {}).items()}

#: ops that compute the same on the float form (GatherNd indexes the leading dimensions only)
_ELEMENTWISE = ('Add', 'Sub', 'Negative', 'AddN', 'GatherND', 'ScatterNDUpdate', 'DynamicPartition') + IDENTITY_LIKE

_SUPPORTED = 'the Fourier ops, Complex, Real, Imag, ComplexAbs, Add, BiasAdd, Sub, Mul, RealDiv, Div, Neg, Square, ' \
             'SquaredDifference, Reciprocal, Inv, Exp, Expm1, Sin, Cos, Tan, Sinh, Cosh, Tanh, Sigmoid, Sign, Equal, ' \
             'NotEqual, Sqrt, Rsqrt, DivNoNan, MulNoNan, Log, Log1p, Pow, Xlogy, Xlog1py, Xdivy, ' \
             'TensorScatterUpdate/Add/Sub, DynamicPartition, Conj, ' \
             'ConjugateTranspose, MatMul, AddN, Cast, Reshape, Transpose, ExpandDims, ' \
             'ConcatV2, Pack, Unpack, Split, SplitV, Slice, StridedSlice, GatherV2, GatherNd, Squeeze, Tile, Fill, ' \
             'BroadcastTo, SelectV2, ZerosLike, OnesLike, Cumsum, Roll, ReverseV2, Sum, Mean, Pad, MirrorPad, PadV2, ' \
             'Select, DepthToSpace, SpaceToDepth, ExtractImagePatches, OneHot, ReverseSequence, ScatterNd, ' \
             'MatrixBandPart, MatrixDiag/V2/V3, MatrixDiagPart/V2/V3, MatrixSetDiag/V2/V3, SparseToDense, ' \
             'SparseFillEmptyRows, SparseTensorDenseAdd, Where, DynamicStitch, ParallelDynamicStitch, SegmentSum, ' \
             'SegmentMean, UnsortedSegmentSum, the tensor list ops, the TensorArray ops, ' \
             'BatchMatMul/V2/V3, Einsum, SparseTensorDenseMatMul, MatrixInverse, EuclideanNorm, Prod, Cumprod, ' \
             'SegmentProd, UnsortedSegmentProd, ClipByValue, Asin, Acos, Atan, Asinh, Acosh, Atanh ' \
             'and Shape'

#: op -> the input port holding axes (input dimensions) that a negative value counts from the end of
_AXIS_PORT = {'CumSum': 1, 'Roll': 2, 'Gather': 2, 'ReduceSum': 1, 'ReduceMean': 1, 'Split': 1, 'VariadicSplit': 1}
#: op -> the attribute holding such axes
_AXIS_ATTR = {'Squeeze': 'squeeze_dims', 'Pack': 'axis', 'Unpack': 'axis'}
#: op -> (the input port of a shape or per-dimension vector, what the trailing dimension adds to it)
_APPEND = {'Tile': (1, 1), 'Broadcast': (1, 2), 'BroadcastTo': (1, 2)}



def _output_float_type(node: Node):
    """The float type of the parts of the complex outputs of ``node``, after its rewrite."""
    if node.soft_get('op') in ('Const', 'Parameter') and node.has_valid('data_type'):
        return np.dtype(node.data_type)  # already the float form
    if node.soft_get('op') == 'Cast' and is_complex_type(node.soft_get('dst_type', None)):
        return real_type(node.dst_type)
    return parts_type(node)


def _makes_complex_tensors(graph: Graph) -> bool:
    """Whether any node starts a complex tensor: a complex Const or input, a Fourier op, a Cast to complex."""
    if any(graph.count_by_attr('op', op) for op in _FOURIER_PORTS):
        return True
    types = [node.soft_get('data_type', None) for node in graph.get_op_nodes(op='Parameter')]
    types += [node.soft_get('dst_type', None) for node in graph.get_op_nodes(op='Cast')]
    # a model's Consts are many and their element types few: each type is tested once, read off the attribute dicts
    types += {value.dtype for value in (graph.node_attrs(node_id).get('value') for node_id in _op_ids(graph, 'Const'))
              if value is not None}
    return any(is_complex_type(dtype) for dtype in types)


def _op_ids(graph: Graph, op: str) -> list:
    """The ids of the op nodes whose ``op`` is ``op`` (what ``get_op_nodes(op=op)`` finds, without a Node each)."""
    return [node_id for node_id in graph.nodes_by_attr('op', op) if graph.node_attrs(node_id).get('kind') == 'op']


class ComplexTensors(FrontReplacementPattern):
    """Rewrites the graph's complex tensors into the float form [..., 2] (see the module docstring)."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        if not _makes_complex_tensors(graph):
            return  # the common case, told from the op index without walking the graph
        complex_ports = {}  # (node id, output port) holding the float form of a complex tensor -> its parts' type
        for node in list(graph.pseudo_topological_sort()):
            if node.id not in graph or node.soft_get('kind') != 'op':
                continue
            inputs = [port for port, in_port in sorted(node.in_ports().items()) if in_port.is_connected() and
                      (in_port.get_source().node.id, in_port.get_source().idx) in complex_ports]
            if inputs:
                source = node.in_port(inputs[0]).get_source()
                node['complex_float_type'] = complex_ports[(source.node.id, source.idx)]
            output_type = _output_float_type(node)
            outputs = self._convert(node, inputs)
            if outputs:
                self.match_count += 1
            for source in outputs:
                complex_ports[(source.node.id, source.idx)] = output_type

    def _convert(self, node: Node, inputs: list) -> list:
        """Rewrites ``node`` (whose inputs ``inputs`` are complex) if needed; returns its complex outputs."""
        op = node.soft_get('op')
        name = node.soft_get('name', node.id)
        if op == 'Const' and is_complex_type(node.value.dtype):
            value = np.stack([node.value.real, node.value.imag], axis=-1).astype(real_type(node.value.dtype))
            node['value'], node['shape'], node['data_type'] = value, np.array(value.shape, np.int64), value.dtype
            return [node.out_port(0)]
        if op == 'Parameter' and is_complex_type(node.soft_get('data_type', None)):
            node['data_type'] = real_type(node.data_type)
            node['shape'] = np.append(np.asarray(node.shape, np.int64), 2)
            log.warning('[ mo ] input "{}" is complex: the IR takes it as {} with a trailing dimension of 2 '
                        '(real, imaginary)'.format(name, node.data_type))
            return [node.out_port(0)]
        if op in _FOURIER_PORTS:
            return [node.out_port(k) for k in _FOURIER_PORTS[op][1]]
        if op == 'Cast' and is_complex_type(node.soft_get('dst_type', None)):
            return self._cast_to_complex(node, bool(inputs))
        if not inputs:
            return _FAMILY_MAKERS[op](node, Builder(node)) if op in _FAMILY_MAKERS else []
        if op == 'Result':
            log.warning('[ mo ] output "{}" is complex: the IR gives it as a float tensor with a trailing dimension '
                        'of 2 (real, imaginary)'.format(name))
            return []
        if op in _ELEMENTWISE:
            return [port for port in node.out_ports().values() if port.is_connected() or port.idx == 0]
        in_place = self._in_place(node, op) or _FAMILY_IN_PLACE.get(op)
        if in_place is not None:
            b = Builder(node)
            in_place(node, b)
            if op in _FAMILY_REAL_OUTPUTS or op in _FAMILY_COMPLEX_OUTPUTS:
                return [node.out_port(index) for index in _FAMILY_COMPLEX_OUTPUTS.get(op, ())]
            return [port for port in node.out_ports().values() if port.is_connected() or port.idx == 0]
        rewrite = {'Mul': self._mul, 'Div': self._div, 'TFDiv': self._div, 'Square': self._square,
                   'Cast': self._cast_to_real, 'Inv': self._reciprocal, 'Expm1': self._expm1, 'Sin': self._sin,
                   'Cos': self._cos, 'Tan': self._tan, 'Sinh': self._sinh, 'Cosh': self._cosh, 'Tanh': self._tanh,
                   'Sigmoid': self._sigmoid, 'Sign': self._sign, 'SquaredDifference': self._squared_difference,
                   'Equal': self._equal, 'NotEqual': self._equal, 'Sqrt': self._sqrt, 'Rsqrt': self._rsqrt,
                   'DivNoNan': self._no_nan, 'MulNoNan': self._no_nan, 'Log': self._log, 'Log1p': self._log,
                   'Pow': self._pow, 'Xlogy': self._x_times, 'Xlog1py': self._x_times, 'Xdivy': self._x_times,
                   'Reshape': self._reshape, 'Transpose': self._transpose, 'Unsqueeze': self._expand_dims,
                   'Concat': self._concat, 'TFPad': self._pad, 'ShapeOf': self._shape, 'Exp': self._exp,
                   'Reciprocal': self._reciprocal, 'Conj': self._conj, 'ConjugateTranspose': self._conj_transpose,
                   'BiasAdd': self._bias_add, 'OnesLike': self._ones_like,
                   'TFSlice': self._slice, 'StridedSlice': self._strided_slice}.get(op) or \
                  _FAMILY_REWRITES.get(op)
        if rewrite is None:
            raise Error('Node "{}" ({}) computes on complex numbers: mo converts complex tensors through {} only',
                        name, node.soft_get('tf_op', op), _SUPPORTED)
        port = self._producer_after(node, rewrite)
        if op in _FAMILY_COMPLEX_OUTPUTS:
            return [port[index] for index in _FAMILY_COMPLEX_OUTPUTS[op]]
        return [] if op in ('Cast', 'ShapeOf', 'Equal', 'NotEqual') or op in _FAMILY_REAL_OUTPUTS else [port]

    @staticmethod
    def _producer_after(node: Node, build) :
        """Rewrites ``node`` with ``build(node, b)``; returns the output port that now stands for its output 0."""
        made = []

        def rewrite(n, b):
            made.append(build(n, b))
            return made[0]
        rewrite_node(node, rewrite, 'ComplexTensors')
        if isinstance(made[0], (list, tuple)):  # one replacement per output
            return [item.out_port(0) if isinstance(item, Node) else item for item in made[0]]
        return made[0].out_port(0) if isinstance(made[0], Node) else made[0]

    # ----- edits in place: the node stays, with its axes or shape inputs for the float form -------------------
    def _in_place(self, node: Node, op: str):
        if op in _AXIS_PORT:
            port = _AXIS_PORT[op]  # the data is the only input that can be complex
            return lambda n, b: n.in_port(port).get_connection().set_source(shifted_axes(b, n, port).out_port(0))
        if op in _AXIS_ATTR:
            attr = _AXIS_ATTR[op]

            def shift(n, b):
                value = np.asarray(n[attr])
                n[attr] = np.where(value < 0, value - 1, value).astype(value.dtype) if value.ndim else \
                    type(n[attr])(value - 1 if value < 0 else value)
            return shift
        if op in _APPEND:
            port, extra = _APPEND[op]

            def append(n, b):
                vector = b.op(Concat, [b.cast(n.in_port(port), I64, 'float_form/i64'),
                                       b.const([extra], 'float_form/extra', I64)], 'float_form', axis=0)
                n.in_port(port).get_connection().set_source(vector.out_port(0))
            return append
        if op == 'Reverse':
            if node.soft_get('mode') == 'index':
                return lambda n, b: n.in_port(1).get_connection().set_source(shifted_axes(b, n, 1).out_port(0))

            def unmasked(n, b):  # mask mode: the trailing dimension is not reversed
                mask = b.op(Concat, [n.in_port(1), b.const([False], 'parts_kept', np.bool_)], 'mask', axis=0)
                n.in_port(1).get_connection().set_source(mask.out_port(0))
            return unmasked
        if op == 'Select':
            def condition(n, b):  # the condition broadcasts over the parts
                cond = b.unsqueeze(n.in_port(0), [-1], 'condition_parts')
                n.in_port(0).get_connection().set_source(cond.out_port(0))
            return condition
        if op == 'ZerosLike':
            def real_zeros(n, b):
                n['data_type'] = parts_type(n)
            return real_zeros
        return None

    # ----- rewrites: each returns the node (or output port) that replaces ``node`` ---------------------------
    @staticmethod
    def _exp(node, b):
        return exponential(b, node.in_port(0), 'complex_exp')

    @staticmethod
    def _expm1(node, b):
        return b.op(Sub, [exponential(b, node.in_port(0), 'complex_exp'), b.const([1, 0], 'one', parts_type(node))],
                    'complex_expm1')

    @staticmethod
    def _trig_of(node, b, hyperbolic, cosine, tag):
        return trig(b, node.in_port(0), tag, hyperbolic, cosine, parts_type(node))

    def _sin(self, node, b):
        return self._trig_of(node, b, False, False, 'complex_sin')

    def _cos(self, node, b):
        return self._trig_of(node, b, False, True, 'complex_cos')

    def _sinh(self, node, b):
        return self._trig_of(node, b, True, False, 'complex_sinh')

    def _cosh(self, node, b):
        return self._trig_of(node, b, True, True, 'complex_cosh')

    def _tan(self, node, b):
        return divide(b, self._sin(node, b), self._cos(node, b), 'complex_tan')

    def _tanh(self, node, b):
        return divide(b, self._sinh(node, b), self._cosh(node, b), 'complex_tanh')

    @staticmethod
    def _sigmoid(node, b):
        """1 / (1 + exp(-z))."""
        dtype = parts_type(node)
        minus = b.op(Mul, [node.in_port(0), b.const(-1, 'minus', dtype)], 'minus_z')
        denominator = b.op(Add, [exponential(b, minus, 'complex_exp'), b.const([1, 0], 'one', dtype)], 'denominator')
        return divide(b, b.const([1, 0], 'one_numerator', dtype), denominator, 'complex_sigmoid')

    @staticmethod
    def _sign(node, b):
        """z / |z|, 0 where z is 0."""
        dtype = parts_type(node)
        norm = b.op(Sqrt, [squared_norm(b, node.in_port(0), 'squared_norm')], 'norm')
        zero = b.op(Equal, [norm, b.const(0, 'zero', dtype)], 'is_zero')
        safe = b.op(Select, [zero, b.const(1, 'one', dtype), norm], 'safe_norm')
        return b.op(Select, [zero, b.const(0, 'zero_value', dtype), b.op(Div, [node.in_port(0), safe], 'unit')],
                    'complex_sign')

    @staticmethod
    def _squared_difference(node, b):
        """(x - y) conj(x - y) = |x - y|^2 + 0i."""
        difference = b.op(Sub, [node.in_port(0), node.in_port(1)], 'difference')
        norm = squared_norm(b, difference, 'squared_norm')
        return pair(b, norm, b.op(Mul, [norm, b.const(0, 'zero', parts_type(node))], 'zero_imag'),
                     'complex_squared_difference')

    @staticmethod
    def _sqrt(node, b):
        """The principal root: sqrt((|z| + a) / 2) + i sign(b) sqrt((|z| - a) / 2) (b >= 0 counts as positive)."""
        dtype = parts_type(node)
        a, bb = parts(b, node.in_port(0), 'parts')
        norm = b.op(Sqrt, [squared_norm(b, node.in_port(0), 'squared_norm')], 'norm')
        half = b.const(0.5, 'half', dtype)
        real = b.op(Sqrt, [b.op(Mul, [b.op(Add, [norm, a], 'norm_plus_a'), half], 'real_squared')], 'real')
        size = b.op(Sqrt, [b.op(Mul, [b.op(Sub, [norm, a], 'norm_minus_a'), half], 'imag_squared')], 'imag_abs')
        imag = b.op(Select, [b.op(Less, [bb, b.const(0, 'zero', dtype)], 'negative'),
                             b.op(Mul, [size, b.const(-1, 'minus', dtype)], 'imag_negative'), size], 'imag')
        return pair(b, real, imag, 'complex_sqrt')

    def _rsqrt(self, node, b):
        return divide(b, b.const([1, 0], 'one', parts_type(node)), self._sqrt(node, b), 'complex_rsqrt')

    def _no_nan(self, node, b):
        """DivNoNan/MulNoNan: x / y or x * y, 0 where y is 0 (both its parts)."""
        dtype = parts_type(node)
        y = node.in_port(1)
        zero = b.op(ReduceAnd, [b.op(Equal, [y, b.const(0, 'zero', dtype)], 'parts_zero'),
                                b.const([-1], 'parts_axis', I64)], 'y_zero', keep_dims=True)
        value = (divide if node.soft_get('op') == 'DivNoNan' else multiply)(b, node.in_port(0), y, 'complex')
        return b.op(Select, [zero, b.const(0, 'zero_value', dtype), value], 'complex_no_nan')

    @staticmethod
    def _log(node, b):
        """Log(z); Log1p(z) = Log(1 + z)."""
        dtype = parts_type(node)
        z = node.in_port(0)
        if node.soft_get('op') == 'Log1p':
            z = b.op(Add, [z, b.const([1, 0], 'one', dtype)], 'one_plus_z')
        return logarithm(b, z, 'complex_log', dtype)

    @staticmethod
    def _pow(node, b):
        """x^y = exp(y log x)."""
        exponent = multiply(b, node.in_port(1), logarithm(b, node.in_port(0), 'log_x', parts_type(node)), 'y_log_x')
        return exponential(b, exponent, 'complex_pow')

    @staticmethod
    def _x_times(node, b):
        """Xlogy: x log y, Xlog1py: x log(1 + y), Xdivy: x / y; each 0 where x is 0 (both its parts)."""
        dtype = parts_type(node)
        op = node.soft_get('op')
        x, y = node.in_port(0), node.in_port(1)
        if op == 'Xdivy':
            value = divide(b, x, y, 'x_div_y')
        else:
            if op == 'Xlog1py':
                y = b.op(Add, [y, b.const([1, 0], 'one', dtype)], 'one_plus_y')
            value = multiply(b, x, logarithm(b, y, 'log_y', dtype), 'x_log_y')
        zero = b.op(ReduceAnd, [b.op(Equal, [x, b.const(0, 'zero', dtype)], 'parts_zero'),
                                b.const([-1], 'parts_axis', I64)], 'x_zero', keep_dims=True)
        return b.op(Select, [zero, b.const(0, 'zero_value', dtype), value], 'complex_' + op.lower())

    @staticmethod
    def _equal(node, b):
        """Equal: both parts equal; NotEqual: either part differs."""
        if node.soft_get('op') == 'Equal':
            same = b.op(Equal, [node.in_port(0), node.in_port(1)], 'parts_equal')
            return b.op(ReduceAnd, [same, b.const([-1], 'parts_axis', I64)], 'complex_equal', keep_dims=False)
        differ = b.op(NotEqual, [node.in_port(0), node.in_port(1)], 'parts_differ')
        return b.op(ReduceOr, [differ, b.const([-1], 'parts_axis', I64)], 'complex_not_equal', keep_dims=False)

    @staticmethod
    def _reciprocal(node, b):
        one = b.const([1, 0], 'one', parts_type(node))
        return divide(b, one, node.in_port(0), 'complex_reciprocal')

    @staticmethod
    def _conj(node, b):
        return b.op(Mul, [node.in_port(0), b.const([1, -1], 'conjugate', parts_type(node))], 'conj')

    @staticmethod
    def _conj_transpose(node, b):
        order = [int(v) for v in constant_ints(node, 'the permutation')]
        moved = b.op(Transpose, [node.in_port(0), b.const(order + [len(order)], 'order', I64)], 'transpose')
        return b.op(Mul, [moved, b.const([1, -1], 'conjugate', parts_type(node))], 'conj')

    @staticmethod
    def _ones_like(node, b):
        return b.op(Broadcast, [b.const([1, 0], 'one', parts_type(node)),
                                b.op(ShapeOf, [node.in_port(0)], 'shape')], 'ones')

    @staticmethod
    def _bias_add(node, b):
        """Channels-first BiasAdd: the bias [C, 2] reshaped to [C, 1 (rank - 2 times), 2] and added."""
        ones = b.op(Broadcast, [b.const(1, 'one', I64),
                                b.op(Sub, [b.rank_of(node.in_port(0), 'rank'), b.const([3], 'three', I64)],
                                     'spatial_count')], 'spatial_ones')
        pattern = b.op(Concat, [b.const([-1], 'channels', I64), ones, b.const([2], 'parts', I64)], 'bias_shape',
                       axis=0)
        bias = b.op(Reshape, [node.in_port(1), pattern], 'bias', special_zero=False)
        return b.op(Add, [node.in_port(0), bias], 'add')

    @staticmethod
    def _slice(node, b):
        """Slice(x, begin, size): the float form's trailing dimension whole (begin 0, size -1)."""
        dtype = np.dtype(node.soft_get('index_type', None) or np.int32)
        begin = b.op(Concat, [node.in_port(1), b.const([0], 'parts_begin', dtype)], 'begin', axis=0)
        size = b.op(Concat, [node.in_port(2), b.const([-1], 'parts_size', dtype)], 'size', axis=0)
        node.in_port(1).get_connection().set_source(begin.out_port(0))
        node.in_port(2).get_connection().set_source(size.out_port(0))
        return node

    @staticmethod
    def _strided_slice(node, b):
        """The spec gets a last entry taking the trailing dimension whole (after an ellipsis when it has none, so
        that the dimensions the spec leaves out stay whole too)."""
        begin = constant_input(node, 1)
        if begin is None:
            raise Error('Node "{}" (StridedSlice) on a complex tensor: the begin indices are computed at run time; '
                        'mo needs their count', node.soft_get('name', node.id))
        count = int(np.size(begin))
        masks = {mask: [int(v) for v in (node.soft_get(mask, None) or [])][:count] for mask in MASKS}
        masks = {mask: values + [0] * (count - len(values)) for mask, values in masks.items()}
        entries = [] if any(masks['ellipsis_mask']) else [dict(ellipsis_mask=1)]
        entries.append(dict(begin_mask=1, end_mask=1))
        for entry in entries:
            for mask in MASKS:
                masks[mask].append(entry.get(mask, 0))
        for mask, values in masks.items():
            node[mask] = values
        extra = len(entries)
        for port, value in ((1, 0), (2, 0), (3, 1)):
            if not node.is_in_port_connected(port):
                continue
            vector = b.op(Concat, [b.cast(node.in_port(port), I64, 'spec{}/i64'.format(port)),
                                   b.const([value] * extra, 'spec{}/parts'.format(port), I64)],
                          'spec{}'.format(port), axis=0)
            node.in_port(port).get_connection().set_source(vector.out_port(0))
        return node

    @staticmethod
    def _mul(node, b):
        return multiply(b, node.in_port(0), node.in_port(1), 'complex_mul')

    @staticmethod
    def _square(node, b):
        return multiply(b, node.in_port(0), node.in_port(0), 'complex_square')

    @staticmethod
    def _div(node, b):
        return divide(b, node.in_port(0), node.in_port(1), 'complex_div')

    @staticmethod
    def _cast_to_real(node, b):
        """Cast of a complex tensor to a real type: its real part (TensorFlow drops the imaginary one)."""
        real = b.op(Gather, [node.in_port(0), b.const(0, 'real_part', I64), b.const(-1, 'part_axis', I64)],
                    'real')
        return b.cast(real, node.dst_type, 'cast')

    def _cast_to_complex(self, node, from_complex: bool) -> list:
        float_type = real_type(node.dst_type)

        def build(n, b):
            if from_complex:  # complex64 <-> complex128: the parts change type
                return b.cast(n.in_port(0), float_type, 'parts')
            real = b.unsqueeze(b.cast(n.in_port(0), float_type, 'real_typed'), [-1], 'real')
            zeros = b.op(Broadcast, [b.const(0, 'zero', float_type), b.op(ShapeOf, [real], 'shape')], 'imag')
            return pair(b, real, zeros, 'complex')
        return [self._producer_after(node, build)]

    @staticmethod
    def _reshape(node, b):
        """Reshape to shape s: the float form takes s + [2]."""
        shape = b.cast(node.in_port(1), I64, 'shape_i64')
        pattern = b.op(Concat, [shape, b.const([2], 'parts', I64)], 'float_shape', axis=0)
        return b.op(node['_op_class'], [node.in_port(0), pattern], 'reshape',
                    special_zero=node.soft_get('special_zero', False))

    @staticmethod
    def _transpose(node, b):
        order = [int(v) for v in constant_ints(node, 'the permutation')]
        return b.op(node['_op_class'], [node.in_port(0), b.const(order + [len(order)], 'order', I64)], 'transpose')

    @staticmethod
    def _expand_dims(node, b):
        axes = [a - 1 if a < 0 else a for a in constant_ints(node, 'the new axis')]
        return b.op(node['_op_class'], [node.in_port(0), b.const(axes, 'axes', I64)], 'unsqueeze')

    @staticmethod
    def _pad(node, b):
        """Pad: the trailing axis gets no padding (paddings [rank, 2] get a row of zeros); PadV2's complex fill
        value a + bi pads the real part with a and the imaginary part with b."""
        paddings = b.op(Concat, [b.cast(node.in_port(1), I64, 'paddings_i64'), b.const([[0, 0]], 'parts', I64)],
                        'paddings', axis=0)
        if not node.is_in_port_connected(2):
            node.in_port(1).get_connection().set_source(paddings.out_port(0))
            return node
        pads = [b.op(Gather, [paddings, b.const(column, name + '/column', I64), b.const(1, name + '/axis', I64)],
                     name) for column, name in ((0, 'pads_begin'), (1, 'pads_end'))]
        padded = []
        for index, (part, name) in enumerate(zip(parts(b, node.in_port(0), 'x'), ('real', 'imag'))):
            value = b.op(Gather, [node.in_port(2), b.const(index, name + '/fill_index', I64),
                                  b.const(0, name + '/fill_axis', I64)], name + '/fill')
            padded.append(b.op(Pad, [part, pads[0], pads[1], value], name, pad_mode='constant'))
        return pair(b, padded[0], padded[1], 'padded')

    @staticmethod
    def _shape(node, b):
        """Shape of a complex tensor: the float form's shape without its trailing 2."""
        shape = b.op(ShapeOf, [node.in_port(0)], 'float_shape', output_type=np.dtype(node.output_type))
        return b.op(Slice, [shape, b.const([0], 'begin', I64), b.const([-1], 'end', I64), b.const([1], 'step', I64)],
                    'shape')

    @staticmethod
    def _concat(node, b):
        ports = [port for _, port in sorted(node.in_ports().items()) if port.is_connected()]
        axis = int(node.axis)
        return b.op(node['_op_class'], ports, 'concat', axis=axis - 1 if axis < 0 else axis,
                    in_ports_count=len(ports))
