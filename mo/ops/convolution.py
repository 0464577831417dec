"""Convolutions in the opset's channels-first layout: Convolution, GroupConvolution,
ConvolutionBackpropData and GroupConvolutionBackpropData (opset1).

Data is ``[N, C, spatial...]``. Weights are ``[C_OUT, C_IN, k...]`` for Convolution,
``[GROUPS, C_OUT/GROUPS, C_IN/GROUPS, k...]`` for GroupConvolution and ``[C_IN, C_OUT, k...]`` for
ConvolutionBackpropData. TensorFlow's NHWC graphs reach these ops through the layout replacer
(``extensions/front/tf/nhwc_to_nchw.py``), which also reorders the weights.

Padding follows the opset: ``auto_pad`` is ``explicit`` (``pads_begin``/``pads_end`` hold), ``valid``
or ``same_upper`` (TensorFlow's SAME: the odd pixel of padding goes at the end). Inference fills in
the pads that ``same_upper`` implies whenever the spatial sizes are known, so the IR states them.
Every op folds its value when all inputs are constant (numpy, float64 accumulation).
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mo.utils.shape import int64_array
from mo.ops.op import Op
from mo.utils.error import Error


def _ints(values, rank, default):
    """``values`` as a list of ``rank`` ints (``default`` when unset)."""
    if values is None:
        return [default] * rank
    values = [int(v) for v in np.ravel(values)]
    if len(values) != rank:
        raise Error('expected {} values, got {}', rank, values)
    return values


def effective_kernel(kernel, dilations):
    return [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]


def forward_pads(in_spatial, kernel, strides, dilations, auto_pad, pads_begin=None, pads_end=None,
                 rounding='floor'):
    """``(pads_begin, pads_end, out_spatial)`` of a sliding window; unknown sizes stay -1.

    ``same_upper`` pads ``max((out - 1) * stride + eff_k - in, 0)`` in total with the smaller
    half first, exactly as TensorFlow's SAME does; ``valid`` pads nothing. A pool's ``rounding``
    ``ceil`` keeps a last, partial window; ``ceil_torch`` too unless it starts in the end padding.
    """
    rank = len(kernel)
    eff = effective_kernel(kernel, dilations)
    begin = _ints(pads_begin, rank, 0)
    end = _ints(pads_end, rank, 0)
    out = []
    for i in range(rank):
        size = int(in_spatial[i])
        if auto_pad in ('same_upper', 'same_lower'):
            if size < 0:
                out.append(-1)
                continue
            out_i = -(-size // strides[i])
            total = max((out_i - 1) * strides[i] + eff[i] - size, 0)
            small, big = total // 2, total - total // 2
            begin[i], end[i] = (small, big) if auto_pad == 'same_upper' else (big, small)
            out.append(out_i)
        else:
            if auto_pad == 'valid':
                begin[i] = end[i] = 0
            if size < 0:
                out.append(-1)
                continue
            span = size + begin[i] + end[i] - eff[i]
            if rounding == 'floor':
                out.append(span // strides[i] + 1)
                continue
            out_i = -(-span // strides[i]) + 1
            if rounding == 'ceil_torch' and (out_i - 1) * strides[i] >= size + begin[i]:
                out_i -= 1
            out.append(out_i)
    return begin, end, out


def sliding_windows(x, kernel, strides, dilations, pads_begin, pads_end, pad_value=0.0):
    """``x [N, C, spatial...]`` -> view ``[N, C, out..., k...]`` of the (padded) windows."""
    rank = len(kernel)
    eff = effective_kernel(kernel, dilations)
    padded = np.pad(x, [(0, 0), (0, 0)] + list(zip(pads_begin, pads_end)), constant_values=pad_value)
    windows = sliding_window_view(padded, eff, axis=tuple(range(2, 2 + rank)))
    index = (slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides) + \
        tuple(slice(None, None, d) for d in dilations)
    return windows[index]


def _letters(n, start):
    return ''.join(chr(ord(start) + i) for i in range(n))


def convolve(x, w, strides, dilations, pads_begin, pads_end, groups=1):
    """Grouped convolution of ``x [N, C, sp...]`` with ``w [O, C/groups, k...]`` (numpy reference)."""
    rank = x.ndim - 2
    windows = sliding_windows(x, w.shape[2:], strides, dilations, pads_begin, pads_end)
    n, c = windows.shape[:2]
    out_sp = windows.shape[2:2 + rank]
    windows = windows.reshape((n, groups, c // groups) + windows.shape[2:])
    weights = w.reshape((groups, w.shape[0] // groups) + w.shape[1:])
    sp, ks = _letters(rank, 'h'), _letters(rank, 'r')
    result = np.einsum('ngc{0}{1},goc{1}->ngo{0}'.format(sp, ks), windows.astype(np.float64),
                       weights.astype(np.float64))
    return result.reshape((n, w.shape[0]) + tuple(out_sp)).astype(x.dtype)


def convolve_transposed(x, w, strides, dilations, pads_begin, out_spatial):
    """ConvolutionBackpropData of ``x [N, C_IN, sp...]`` with ``w [C_IN, C_OUT, k...]`` (numpy reference).

    Each input pixel scatters ``w`` into a full-size output; the result is the window of it that
    starts at ``pads_begin`` (cells past the full output are zero, like ``output_padding``).
    """
    in_sp, kernel = x.shape[2:], w.shape[2:]
    full = [(i - 1) * s + (k - 1) * d + 1 for i, s, k, d in zip(in_sp, strides, kernel, dilations)]
    size = [max(f, b + o) for f, b, o in zip(full, pads_begin, out_spatial)]
    y = np.zeros((x.shape[0], w.shape[1]) + tuple(size), dtype=np.float64)
    xs = x.astype(np.float64)
    for kk in itertools.product(*[range(k) for k in kernel]):
        contribution = np.einsum('nc...,co->no...', xs, w[(slice(None), slice(None)) + kk].astype(np.float64))
        index = tuple(slice(k * d, k * d + (i - 1) * s + 1, s)
                      for k, d, i, s in zip(kk, dilations, in_sp, strides))
        y[(slice(None), slice(None)) + index] += contribution
    crop = tuple(slice(b, b + o) for b, o in zip(pads_begin, out_spatial))
    return y[(slice(None), slice(None)) + crop].astype(x.dtype)


class _ConvBase(Op):
    """Attributes and IR form shared by the convolutions."""
    op = None

    def __init__(self, graph, mandatory: dict, attrs: dict = None):
        defaults = {'version': 'opset1', 'auto_pad': 'explicit', 'in_ports_count': 2, 'out_ports_count': 1,
                    'infer': type(self).infer}
        defaults.update(mandatory)
        super().__init__(graph, defaults, attrs)

    def backend_attrs(self):
        return [('strides', lambda n: _csv(n.strides)), ('dilations', lambda n: _csv(n.dilations)),
                ('pads_begin', lambda n: _csv(n.pads_begin)), ('pads_end', lambda n: _csv(n.pads_end)),
                'auto_pad']

    @staticmethod
    def _spatial_attrs(node, rank):
        name = node.soft_get('name', node.id)
        if node.soft_get('layout', 'NCHW') != 'NCHW':
            raise Error('{} "{}" is still in {} layout: the layout replacer must run before inference',
                        node.op, name, node.layout)
        try:
            strides = _ints(node.soft_get('strides', None), rank, 1)
            dilations = _ints(node.soft_get('dilations', None), rank, 1)
        except Error as exc:
            raise Error('{} "{}": strides/dilations: {}', node.op, name, exc) from None
        return strides, dilations


def _csv(values):
    return ','.join(str(int(v)) for v in np.ravel(values))


class Convolution(_ConvBase):
    """opset1 Convolution: input 0 data ``[N, C_IN, sp...]``, input 1 weights ``[C_OUT, C_IN, k...]``."""
    op = 'Convolution'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'type': 'Convolution', 'op': 'Convolution'}, attrs)

    @staticmethod
    def infer(node):
        Convolution._infer_grouped(node, grouped=False)

    @staticmethod
    def _infer_grouped(node, grouped):
        data, weights = node.in_port(0).data, node.in_port(1).data
        shape, w_shape = data.get_shape(), weights.get_shape()
        if shape is None or w_shape is None:
            return
        rank = len(shape) - 2
        if grouped:
            groups = int(w_shape[0])
            out_channels = groups * int(w_shape[1])
            in_per_group, kernel = int(w_shape[2]), [int(k) for k in w_shape[3:]]
        else:
            groups, out_channels = 1, int(w_shape[0])
            in_per_group, kernel = int(w_shape[1]), [int(k) for k in w_shape[2:]]
            channels = int(shape[1])
            if channels > in_per_group and channels % in_per_group == 0 and \
                    out_channels % (channels // in_per_group) == 0:
                # TF's Conv2D reads k times the filter's input channels as k groups (Keras groups=k);
                # GroupedConvolution turns the node into a GroupConvolution after inference
                groups = channels // in_per_group
                node['group'] = groups
        name = node.soft_get('name', node.id)
        if len(kernel) != rank or (shape[1] >= 0 and in_per_group * groups != shape[1]):
            raise Error('{} "{}": weights of shape {} do not fit data of shape {}', node.op, name,
                        w_shape.tolist(), shape.tolist())
        strides, dilations = Convolution._spatial_attrs(node, rank)
        begin, end, out = forward_pads(shape[2:], kernel, strides, dilations, node.auto_pad,
                                       node.soft_get('pads_begin', None), node.soft_get('pads_end', None))
        node.strides, node.dilations = int64_array(strides), int64_array(dilations)
        # with unknown spatial sizes the pads stay as given (zeros for same_upper/valid): the
        # runtime works the SAME padding out itself from auto_pad
        node.pads_begin, node.pads_end = int64_array(begin), int64_array(end)
        x, w = data.get_value(), weights.get_value()
        if x is not None and w is not None:
            w = w.reshape((out_channels,) + tuple(w.shape[2:])) if grouped else w
            node.out_port(0).data.set_value(convolve(x, w, strides, dilations, begin, end, groups))
        else:
            node.out_port(0).data.set_shape([shape[0], out_channels] + out)


class GroupConvolution(_ConvBase):
    """opset1 GroupConvolution: weights ``[GROUPS, C_OUT/GROUPS, C_IN/GROUPS, k...]`` (depthwise: C_IN/GROUPS = 1)."""
    op = 'GroupConvolution'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'type': 'GroupConvolution', 'op': 'GroupConvolution'}, attrs)

    @staticmethod
    def infer(node):
        Convolution._infer_grouped(node, grouped=True)


class ConvolutionBackpropData(_ConvBase):
    """opset1 ConvolutionBackpropData (transposed convolution): weights ``[C_IN, C_OUT, k...]``.

    Input 2, when connected, is the output's spatial shape; ``auto_pad`` then says how the
    padding it implies is split: as the runtime does it, ``same_lower`` crops the smaller half at
    the beginning (TensorFlow's SAME) and ``same_upper`` the larger half.
    """
    op = 'ConvolutionBackpropData'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'type': 'ConvolutionBackpropData', 'op': 'ConvolutionBackpropData',
                                 'in_ports_count': 3, 'output_padding': None}, attrs)

    def backend_attrs(self):
        return super().backend_attrs() + [
            ('output_padding', lambda n: None if n.soft_get('output_padding', None) is None
             else _csv(n.output_padding))]

    @staticmethod
    def _explicit_pads_with_output_shape(node, full, rank):
        """Explicit pads crop the full transposed output; the opset ignores pads when it is given an
        output shape, so a constant output shape becomes ``output_padding`` (the rows past the last
        window, zeros in TF too) and the input is dropped."""
        name = node.soft_get('name', node.id)
        out = node.in_port(2).data.get_value()
        if out is None or -1 in full:
            raise Error('ConvolutionBackpropData "{}": with explicit pads the output shape and the input\'s '
                        'spatial sizes must be known at conversion', name)
        begin = _ints(node.soft_get('pads_begin', None), rank, 0)
        end = _ints(node.soft_get('pads_end', None), rank, 0)
        padding = [int(o) - (f - b - e) for o, f, b, e in zip(np.ravel(out), full, begin, end)]
        if any(p < 0 for p in padding):
            raise Error('ConvolutionBackpropData "{}": output shape {} is smaller than the padded result', name,
                        [int(o) for o in np.ravel(out)])
        node['output_padding'] = int64_array(padding)
        node.in_port(2).disconnect()

    @staticmethod
    def infer(node):
        ConvolutionBackpropData._infer(node, node.in_port(1).data.get_shape())

    @staticmethod
    def _infer(node, w_shape, grouped=False):
        """Inference with weights of shape ``w_shape`` ``[C_IN, C_OUT, k...]`` (a grouped op's, flattened)."""
        data, weights = node.in_port(0).data, node.in_port(1).data
        shape = data.get_shape()
        if shape is None or w_shape is None:
            return
        rank = len(shape) - 2
        kernel = [int(k) for k in w_shape[2:]]
        name = node.soft_get('name', node.id)
        if len(kernel) != rank or (shape[1] >= 0 and w_shape[0] != shape[1]):
            raise Error('{} "{}": weights of shape {} do not fit data of shape {}', node.op, name,
                        weights.get_shape().tolist(), shape.tolist())
        strides, dilations = ConvolutionBackpropData._spatial_attrs(node, rank)
        eff = effective_kernel(kernel, dilations)
        in_sp = [int(d) for d in shape[2:]]
        full = [-1 if i < 0 else (i - 1) * s + e for i, s, e in zip(in_sp, strides, eff)]
        auto_pad = node.auto_pad
        output_padding = _ints(node.soft_get('output_padding', None), rank, 0)
        if node.is_in_port_connected(2) and auto_pad == 'explicit':
            ConvolutionBackpropData._explicit_pads_with_output_shape(node, full, rank)
            output_padding = _ints(node.output_padding, rank, 0)
        if node.is_in_port_connected(2):
            out = node.in_port(2).data.get_value()
            begin, end = [0] * rank, [0] * rank
            if out is None:  # computed at run time: the runtime splits the padding as auto_pad says
                out = [-1] * rank
            out = [int(v) for v in np.ravel(out)]
            if auto_pad in ('same_upper', 'same_lower') and -1 not in full and -1 not in out:
                for i in range(rank):
                    total = max(full[i] + output_padding[i] - out[i], 0)
                    small, big = total // 2, total - total // 2
                    begin[i], end[i] = (big, small) if auto_pad == 'same_upper' else (small, big)
        else:
            begin = _ints(node.soft_get('pads_begin', None), rank, 0)
            end = _ints(node.soft_get('pads_end', None), rank, 0)
            if auto_pad == 'valid':
                begin, end = [0] * rank, [0] * rank
            elif auto_pad != 'explicit':
                raise Error('ConvolutionBackpropData "{}": auto_pad "{}" needs the output shape input', name,
                            auto_pad)
            out = [-1 if f < 0 else f - b - e + p for f, b, e, p in zip(full, begin, end, output_padding)]
        node.strides, node.dilations = int64_array(strides), int64_array(dilations)
        node.pads_begin, node.pads_end = int64_array(begin), int64_array(end)
        x, w = data.get_value(), weights.get_value()
        if x is not None and w is not None and -1 not in out and not grouped:
            node.out_port(0).data.set_value(convolve_transposed(x, w, strides, dilations, begin, out))
        else:
            node.out_port(0).data.set_shape([shape[0], int(w_shape[1])] + out)


class GroupConvolutionBackpropData(ConvolutionBackpropData):
    """opset1 GroupConvolutionBackpropData: weights ``[GROUPS, C_IN/GROUPS, C_OUT/GROUPS, k...]``; otherwise as
    ConvolutionBackpropData (it does not fold)."""
    op = 'GroupConvolutionBackpropData'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'type': 'GroupConvolutionBackpropData', 'op': 'GroupConvolutionBackpropData',
                                      'infer': GroupConvolutionBackpropData.infer}, **(attrs or {})))

    @staticmethod
    def infer(node):
        w_shape = node.in_port(1).data.get_shape()
        if w_shape is not None and len(w_shape) < 3:
            raise Error('GroupConvolutionBackpropData "{}": weights of shape {} have no groups',
                        node.soft_get('name', node.id), w_shape.tolist())
        flat = None if w_shape is None else \
            np.array([w_shape[0] * w_shape[1], w_shape[0] * w_shape[2]] + list(w_shape[3:]), np.int64)
        ConvolutionBackpropData._infer(node, flat, grouped=True)
