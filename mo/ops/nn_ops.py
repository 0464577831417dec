"""Neural-network ops that are not plain element-wise: Softmax, LogSoftmax, TopK, ArgMax,
Interpolate, PRelu and Selu.

Each folds its value when its inputs are constant, so constant sub-graphs disappear during
inference and the numerics can be checked without a runtime.
"""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.utils.shape import int64_array
from mo.ops.op import Op
from mo.utils.error import Error


def _axis(node, rank, attr='axis'):
    axis = int(node[attr])
    if not -rank <= axis < rank:
        raise Error('{} "{}": axis {} is out of range for rank {}', node.op, node.soft_get('name', node.id), axis,
                    rank)
    return axis + rank if axis < 0 else axis


def _softmax(x, axis):
    shifted = x.astype(np.float64) - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


class _SoftmaxFamily(Op):
    """Normalizations along ``axis`` (negative counts from the end); subclasses set the opset op."""
    op = None
    version = None
    operation = None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': self.op, 'op': self.op, 'version': self.version, 'axis': -1,
            'infer': type(self).infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['axis']

    @classmethod
    def infer(cls, node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        axis = _axis(node, len(shape))
        copy_shape_infer(node, lambda x: cls.operation(x, axis).astype(x.dtype))


class Softmax(_SoftmaxFamily):
    """opset8 SoftMax."""
    op, version = 'SoftMax', 'opset8'
    operation = staticmethod(_softmax)


class LogSoftmax(_SoftmaxFamily):
    """opset5 LogSoftmax."""
    op, version = 'LogSoftmax', 'opset5'
    operation = staticmethod(lambda x, axis: np.log(_softmax(x, axis)))


_INDEX_TYPES = {'i32': np.int32, 'i64': np.int64}


class TopK(Op):
    """opset11 TopK: input 0 data, input 1 the scalar ``k``; output 0 values, output 1 indices.

    ``stable`` keeps the first of equal elements first, as TensorFlow does.
    """
    op = 'TopK'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'TopK', 'op': 'TopK', 'version': 'opset11', 'axis': -1, 'mode': 'max', 'sort': 'value',
            'index_element_type': 'i32', 'stable': True,
            'infer': TopK.infer, 'type_infer': TopK.type_infer, 'in_ports_count': 2, 'out_ports_count': 2,
        }, attrs)

    def backend_attrs(self):
        return ['axis', 'mode', 'sort', 'index_element_type', ('stable', lambda n: str(bool(n.stable)).lower())]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        k = node.in_port(1).data.get_value()
        if shape is None:
            return
        axis = _axis(node, len(shape))
        out = shape.copy()
        out[axis] = -1 if k is None else int(np.ravel(k)[0])
        x = node.in_port(0).data.get_value()
        if x is not None and k is not None:
            values, indices = TopK.fold(x, axis, int(out[axis]), node.mode, node.sort)
            index_type = _INDEX_TYPES[node.index_element_type]
            for port, value in ((0, values), (1, indices.astype(index_type))):
                node.out_port(port).data.set_value(value)
        else:
            for port in (0, 1):
                node.out_port(port).data.set_shape(out)
        TopK._keep_outputs(node)

    @staticmethod
    def _keep_outputs(node):
        # the IR lists both outputs even when only the indices are used (ArgMax): keep the values'
        # data node through clean-up
        if node.graph.stage != 'front':
            for port in (0, 1):
                data = node.out_port(port)._data_node(create=True)
                data['keep_output_port'] = True

    @staticmethod
    def fold(x, axis, k, mode, sort):
        keys = -x if mode == 'max' else x
        order = np.argsort(keys, axis=axis, kind='stable')
        indices = np.take(order, np.arange(k), axis=axis)
        if sort == 'index':
            indices = np.sort(indices, axis=axis)
        return np.take_along_axis(x, indices, axis=axis), indices

    @staticmethod
    def type_infer(node):
        source = node.in_port(0).data.get_data_type()
        if source is not None:
            node.out_port(0).data.set_data_type(source)
        node.out_port(1).data.set_data_type(_INDEX_TYPES[node.index_element_type])


class ArgMax(Op):
    """TensorFlow's ArgMax/ArgMin as extracted: input 0 data, input 1 the axis; ``mode`` max or min.

    Not an opset op: ``extensions/front/tf/argmax.py`` turns it into TopK(k=1) + Squeeze.
    """
    op = 'ArgMax'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': 'ArgMax', 'mode': 'max', 'output_type': np.int64,
            'infer': ArgMax.infer, 'type_infer': ArgMax.type_infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        axis = node.in_port(1).data.get_value()
        if shape is None or axis is None:
            return
        axis = int(np.ravel(axis)[0])
        axis = axis + len(shape) if axis < 0 else axis
        x = node.in_port(0).data.get_value()
        if x is not None:
            fn = np.argmax if node.mode == 'max' else np.argmin
            node.out_port(0).data.set_value(fn(x, axis=axis).astype(node.output_type))
        else:
            node.out_port(0).data.set_shape(np.delete(shape, axis))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)


# ----- Interpolate ---------------------------------------------------------------------------------

def source_coordinates(out_size, in_size, scale, mode):
    """Where output pixels ``0..out_size-1`` sample the input along one axis (opset11 formulas)."""
    x = np.arange(out_size, dtype=np.float64)
    if mode == 'half_pixel':
        return (x + 0.5) / scale - 0.5
    if mode == 'pytorch_half_pixel':
        return (x + 0.5) / scale - 0.5 if out_size > 1 else np.zeros_like(x)
    if mode == 'asymmetric':
        return x / scale
    if mode == 'tf_half_pixel_for_nn':
        return (x + 0.5) / scale
    if mode == 'align_corners':
        return x * (in_size - 1) / (out_size - 1) if out_size > 1 else np.zeros_like(x)
    raise Error('Interpolate: coordinate_transformation_mode "{}" is not supported', mode)


def nearest_index(coords, scale, mode, in_size):
    if mode == 'round_prefer_floor':
        index = np.where(coords == np.floor(coords) + 0.5, np.floor(coords), np.round(coords))
    elif mode == 'round_prefer_ceil':
        index = np.floor(coords + 0.5)
    elif mode == 'floor':
        index = np.floor(coords)
    elif mode == 'ceil':
        index = np.ceil(coords)
    elif mode == 'simple':
        index = np.ceil(coords) if scale < 1 else np.trunc(coords)
    else:
        raise Error('Interpolate: nearest_mode "{}" is not supported', mode)
    return np.clip(index, 0, in_size - 1).astype(np.int64)


class Interpolate(Op):
    """opset11 Interpolate over the ``axes`` given on input 2 (default: all), any layout.

    Input 1 holds output sizes (``shape_calculation_mode='sizes'``) or scales. Folding covers
    the ``nearest`` and ``linear_onnx`` modes.
    """
    op = 'Interpolate'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Interpolate', 'op': 'Interpolate', 'version': 'opset11', 'mode': 'linear_onnx',
            'shape_calculation_mode': 'sizes', 'coordinate_transformation_mode': 'half_pixel',
            'nearest_mode': 'round_prefer_floor', 'antialias': False, 'pads_begin': int64_array([0]),
            'pads_end': int64_array([0]), 'cube_coeff': -0.75,
            'infer': Interpolate.infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        csv = lambda values: ','.join(str(int(v)) for v in np.ravel(values))  # noqa: E731
        return ['mode', 'shape_calculation_mode', 'coordinate_transformation_mode', 'nearest_mode',
                ('antialias', lambda n: str(bool(n.antialias)).lower()),
                ('pads_begin', lambda n: csv(n.pads_begin)), ('pads_end', lambda n: csv(n.pads_end)),
                'cube_coeff']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape = node.in_port(0).data.get_shape()
        target = node.in_port(1).data.get_value()
        if shape is None:
            return
        if np.any(np.ravel(node.pads_begin)) or np.any(np.ravel(node.pads_end)):
            raise Error('Interpolate "{}": padding is not supported', name)
        rank = len(shape)
        if node.is_in_port_connected(2):
            axes = node.in_port(2).data.get_value()
            if axes is None:
                raise Error('Interpolate "{}": the axes (input 2) must be constant', name)
        else:
            axes = np.arange(rank)
        axes = [int(a) + rank if a < 0 else int(a) for a in np.ravel(axes)]
        out = shape.copy()
        if target is None:
            for axis in axes:
                out[axis] = -1
            node.out_port(0).data.set_shape(out)
            return
        target = np.ravel(target)
        if len(target) != len(axes):
            raise Error('Interpolate "{}": {} sizes/scales for {} axes', name, len(target), len(axes))
        scales = {}
        for axis, t in zip(axes, target):
            if node.shape_calculation_mode == 'sizes':
                out[axis] = int(t)
                scales[axis] = float(np.float32(int(t)) / np.float32(shape[axis])) if shape[axis] > 0 else None
            else:
                scales[axis] = float(t)
                out[axis] = -1 if shape[axis] < 0 else int(np.floor(shape[axis] * np.float32(t) + 1e-5))
        x = node.in_port(0).data.get_value()
        if x is None:
            node.out_port(0).data.set_shape(out)
            return
        node.out_port(0).data.set_value(Interpolate.fold(node, x, axes, out, scales))

    @staticmethod
    def fold(node, x, axes, out, scales):
        mode = node.mode
        if mode not in ('nearest', 'linear_onnx', 'linear'):
            raise Error('Interpolate "{}": cannot fold mode "{}"', node.soft_get('name', node.id), mode)
        result = x.astype(np.float64)
        for axis in axes:
            in_size, out_size = x.shape[axis], int(out[axis])
            coords = source_coordinates(out_size, in_size, scales[axis], node.coordinate_transformation_mode)
            if mode == 'nearest':
                result = np.take(result, nearest_index(coords, scales[axis], node.nearest_mode, in_size), axis=axis)
                continue
            coords = np.clip(coords, 0, in_size - 1)
            low = np.floor(coords).astype(np.int64)
            high = np.minimum(low + 1, in_size - 1)
            weight = (coords - low).reshape([-1 if i == axis else 1 for i in range(x.ndim)])
            result = np.take(result, low, axis=axis) * (1 - weight) + np.take(result, high, axis=axis) * weight
        return result.astype(x.dtype)


# ----- parametric activations ------------------------------------------------------------------------

class PRelu(Op):
    """opset1 PRelu: ``x`` where positive, ``slope * x`` elsewhere (input 1 is the slope)."""
    op = 'PReLU'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'PRelu', 'op': 'PReLU', 'version': 'opset1',
            'infer': PRelu.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        slope = node.in_port(1).data.get_value()
        if slope is not None and np.size(slope) not in (1,):
            shape = node.in_port(0).data.get_shape()
            # the opset broadcasts a 1-D slope along the channel axis (1), not numpy's last axis
            if shape is not None and len(shape) > 1 and np.ndim(slope) == 1:
                slope = np.reshape(slope, (-1,) + (1,) * (len(shape) - 2))
        copy_shape_infer(node, None if slope is None else
                         (lambda x: np.where(x > 0, x, x * slope).astype(x.dtype)))


class Selu(Op):
    """opset1 Selu: ``lambda * (x if x > 0 else alpha * (exp(x) - 1))``; inputs 1, 2 are alpha, lambda."""
    op = 'Selu'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Selu', 'op': 'Selu', 'version': 'opset1',
            'infer': Selu.infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        alpha, lam = node.in_port(1).data.get_value(), node.in_port(2).data.get_value()
        def selu(x):
            x64 = x.astype(np.float64)
            return (lam * np.where(x64 > 0, x64, alpha * np.expm1(np.minimum(x64, 0)))).astype(x.dtype)
        copy_shape_infer(node, selu if alpha is not None and lam is not None else None)


# ----- TensorFlow ops kept as such until a front or middle replacer lowers them ------------------------

def _channel_axis(data_format: str, rank: int) -> int:
    return 1 if data_format.startswith('NC') else rank - 1


class LeakyReLU(Op):
    """TensorFlow's LeakyRelu (``x`` where positive, ``alpha * x`` elsewhere); lowered to PRelu."""
    op = 'LeakyReLU'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': 'LeakyReLU', 'alpha': 0.2, 'infer': LeakyReLU.infer,
                                 'in_ports_count': 1, 'out_ports_count': 1}, attrs)

    @staticmethod
    def infer(node):
        alpha = node.alpha
        copy_shape_infer(node, lambda x: np.where(x > 0, x, x * alpha).astype(x.dtype))


class BiasAdd(Op):
    """TensorFlow's BiasAdd: input 1 (1-D) is added along the channel axis of ``data_format``.

    The channels-last form is extracted as a plain Add; this op stays for channels-first data
    until ``extensions/middle/bias_add.py`` knows the rank and reshapes the bias.
    """
    op = 'BiasAdd'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': 'BiasAdd', 'data_format': 'NCHW', 'infer': BiasAdd.infer,
                                 'in_ports_count': 2, 'out_ports_count': 1}, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        axis = _channel_axis(node.data_format, len(shape))
        bias = node.in_port(1).data.get_value()
        x = node.in_port(0).data.get_value()
        if x is not None and bias is not None:
            node.out_port(0).data.set_value(x + np.reshape(bias, (-1,) + (1,) * (len(shape) - 1 - axis)))
        else:
            node.out_port(0).data.set_shape(shape)


class FusedBatchNorm(Op):
    """TensorFlow's FusedBatchNorm(V2/V3) in inference form: inputs x, scale, offset, mean, variance.

    ``y = (x - mean) * scale / sqrt(variance + epsilon) + offset`` along the channel axis of
    ``data_format``. ``extensions/front/tf/fused_batch_norm.py`` lowers it to Multiply and Add.
    """
    op = 'FusedBatchNorm'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': 'FusedBatchNorm', 'eps': 1e-4, 'data_format': 'NHWC',
                                 'is_training': False, 'infer': FusedBatchNorm.infer,
                                 'in_ports_count': 5, 'out_ports_count': 6}, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        values = [node.in_port(i).data.get_value() for i in range(5)]
        if all(v is not None for v in values):
            x, scale, offset, mean, var = values
            tail = (1,) * (len(shape) - 1 - _channel_axis(node.data_format, len(shape)))
            mul = (scale / np.sqrt(var + node.eps)).reshape((-1,) + tail)
            y = (x - mean.reshape((-1,) + tail)) * mul + offset.reshape((-1,) + tail)
            node.out_port(0).data.set_value(y.astype(x.dtype))
        else:
            node.out_port(0).data.set_shape(shape)
