"""The input preprocessing (``--scale_values``/``--scale``, ``--mean_values``) folded into the first convolution.

``conv((x - m) / s, W)`` is ``conv(x, W / s) - sum(W / s * m)`` per output channel: dividing the input channel
``c`` by ``s[c]`` is dividing the weights that read it, which is exact wherever the convolution reads (its zero
padding stays zero), so the Divide always goes. Subtracting the mean commutes with the convolution only where it
reads no padding (a padded border would see ``-m / s`` instead of 0), so the Subtract goes only into an unpadded
convolution, as a bias after it (which ``FuseScaleShiftIntoConv`` merges with the convolution's own bias).
"""
import numpy as np

from extensions.load.preprocessing import PREPROCESSING
from extensions.middle.fuse_scale_shift_into_conv import FuseScaleShiftIntoConv
from extensions.middle.transpose_sinking import TransposeSinking
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.const import set_const_value
from mo.ops.elementwise import Add


def _only_reader(port) -> bool:
    return len(port.get_destinations()) == 1


def _preprocessing_step(source_port, kind: str):
    """The preprocessing op of ``kind`` that alone produces ``source_port``'s tensor, with its per-channel
    constant (input 1), or None."""
    node = source_port.node
    if node.soft_get(PREPROCESSING) != kind or not _only_reader(source_port):
        return None
    value = node.in_port(1).data.get_value() if node.is_in_port_connected(1) else None
    return None if value is None else (node, np.asarray(value))


def _per_input_channel(value: np.ndarray, data_rank: int, channel_axis: int, channels: int):
    """The constant as one entry per channel of the convolution's input, or None if it varies along another axis.

    ``value`` broadcasts right-aligned against data of ``data_rank`` whose channels are axis ``channel_axis``."""
    dims = (1,) * (data_rank - value.ndim) + value.shape
    if any(d != 1 for i, d in enumerate(dims) if i != channel_axis) or dims[channel_axis] not in (1, channels):
        return None
    return np.broadcast_to(value.reshape(-1), (channels,))


def _has_value_preprocessing(graph) -> bool:
    """Whether the run was asked for the mean or scale preprocessing (only then are there ops to fold)."""
    params = graph.graph.get('cmd_params') or {}
    return any(params.get(option) for option in ('mean_values', 'scale_values', 'scale'))


class PreprocessingIntoConvolution(MiddleOpRule):
    """Divide(x, s) [after Subtract(x, m)] -> [Transpose] -> Convolution(W) = Convolution(x, W / s) [+ bias]."""
    op = 'Convolution'
    graph_condition = [_has_value_preprocessing]

    def run_after(self):
        return [TransposeSinking]

    def run_before(self):
        return [FuseScaleShiftIntoConv]

    def matches(self, conv: Node) -> bool:
        return self._plan(conv) is not None

    def rewrite(self, conv: Node, b: Builder):
        weights, divide, scale, subtract, mean, channel_of = self._plan(conv)
        channels = weights.shape[1]
        rank = len(divide.in_port(0).data.get_shape())
        scale = _per_input_channel(scale, rank, channel_of, channels)
        scaled = (weights / scale.reshape([1, channels] + [1] * (weights.ndim - 2))).astype(weights.dtype)
        set_const_value(conv.in_port(1).get_source().node, scaled)
        divide.out_port(0).get_connection().set_source(divide.in_port(0).get_source())
        if subtract is not None:
            mean = _per_input_channel(mean, rank, channel_of, channels)
            # mean / s seen through W is (W / s) * mean, summed over input channels and the window
            window_sums = scaled.astype(np.float64).reshape(scaled.shape[0], channels, -1).sum(axis=2)
            bias = -(window_sums @ mean.astype(np.float64))
            bias = bias.astype(weights.dtype).reshape([1, -1] + [1] * (weights.ndim - 2))
            subtract.out_port(0).get_connection().set_source(subtract.in_port(0).get_source())
            names = conv.out_port(0).remove_tensor_names()
            add = b.op(Add, [None, b.const(bias, 'preprocessing_mean/bias')], 'preprocessing_mean')
            conv.out_port(0).get_connection().insert_node(add)
            add.out_port(0).add_tensor_names(names)
        return conv

    @staticmethod
    def _plan(conv: Node):
        """(weights, Divide, scale, Subtract or None, mean, channel axis at the Divide) when the preprocessing
        before ``conv`` can be folded, else None."""
        weights = conv.in_port(1).data.get_value() if conv.is_in_port_connected(1) else None
        if weights is None or not _only_reader(conv.in_port(1).get_source()):
            return None
        source = conv.in_port(0).get_source()
        order = None
        if source.node.soft_get('op') == 'Transpose' and _only_reader(source):
            order = source.node.in_port(1).data.get_value()
            if order is None:
                return None
            source = source.node.in_port(0).get_source()
        step = _preprocessing_step(source, 'scale')
        if step is None:
            return None
        divide, scale = step
        shape = divide.in_port(0).data.get_shape()
        rank = -1 if shape is None else len(shape)
        if rank != weights.ndim:
            return None
        # the convolution reads channels on axis 1: which axis of the Divide's data is that
        channel_of = int(np.ravel(order)[1]) if order is not None else 1
        if _per_input_channel(scale, rank, channel_of, weights.shape[1]) is None:
            return None
        subtract, mean = None, None
        if not any(np.ravel(conv.soft_get('pads_begin', 0))) and not any(np.ravel(conv.soft_get('pads_end', 0))) \
                and conv.soft_get('auto_pad', None) in (None, 'explicit', 'valid'):
            step = _preprocessing_step(divide.in_port(0).get_source(), 'mean')
            if step is not None and _per_input_channel(step[1], rank, channel_of, weights.shape[1]) is not None:
                subtract, mean = step
        return weights, divide, scale, subtract, mean, channel_of
