"""A zero Pad of the spatial dimensions right before a convolution becomes the convolution's own padding (Keras'
ZeroPadding2D before a 'valid' Conv2D, as ResNet and MobileNet write their strided layers): one op less, and no
padded copy of the activations."""
import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node

CONVOLUTIONS = ('Convolution', 'GroupConvolution')


def _zero_spatial_pads(pad: Node, rank: int, order=None):
    """(begin, end) spatial pads of a constant zero Pad that leaves batch and channels alone, or None; ``order``: the
    pads as seen through a Transpose of that order."""
    if pad.soft_get('pad_mode', 'constant') != 'constant':
        return None
    if pad.is_in_port_connected(3):
        fill = pad.in_port(3).data.get_value()
        if fill is None or np.any(np.asarray(fill) != 0):
            return None
    begin, end = pad.in_port(1).data.get_value(), pad.in_port(2).data.get_value()
    if begin is None or end is None:
        return None
    begin, end = [int(v) for v in np.ravel(begin)], [int(v) for v in np.ravel(end)]
    if order is not None:
        if len(order) != len(begin):
            return None
        begin, end = [begin[i] for i in order], [end[i] for i in order]
    if len(begin) != rank or len(end) != rank or any(begin[:2]) or any(end[:2]) or min(begin + end) < 0:
        return None
    return begin[2:], end[2:]


class PadIntoConvolution(BackReplacementPattern):
    """Convolution(Pad(x, zeros on batch and channels, p on the spatial axes, value 0)) = Convolution(x) with its
    pads increased by p; so is Convolution(Transpose(Pad(x))), the Pad of an NHWC input before its transposition."""
    id = 'PadIntoConvolution'

    def find_and_replace_pattern(self, graph: Graph):
        for op in CONVOLUTIONS:
            for conv in graph.get_op_nodes(op=op):
                if self._fuse(conv):
                    self.match_count += 1

    @staticmethod
    def _fuse(conv: Node) -> bool:
        source = conv.in_port(0).get_source()
        shape = conv.in_port(0).data.get_shape()
        transpose, order = None, None
        if source.node.soft_get('op') == 'Transpose' and len(source.get_destinations()) == 1:
            transpose = source.node
            order = transpose.in_port(1).data.get_value() if transpose.is_in_port_connected(1) else None
            if order is None:
                return False
            order = [int(v) for v in np.ravel(order)]
            source = transpose.in_port(0).get_source()
        pad = source.node
        if pad.soft_get('op') != 'Pad' or len(source.get_destinations()) != 1 or shape is None:
            return False
        pads = _zero_spatial_pads(pad, len(shape), order)
        begin, end = conv.soft_get('pads_begin', None), conv.soft_get('pads_end', None)
        if pads is None or begin is None or end is None or conv.soft_get('auto_pad', 'explicit') not in (
                'explicit', 'valid', 'same_upper', 'same_lower') or np.any(np.asarray(begin) < 0) or \
                np.any(np.asarray(end) < 0):
            return False
        if conv.soft_get('auto_pad') in ('same_upper', 'same_lower') and np.any(np.asarray(shape[2:]) < 0):
            return False  # the runtime works SAME padding out from sizes unknown here
        conv['pads_begin'] = np.asarray(begin, np.int64) + np.asarray(pads[0], np.int64)
        conv['pads_end'] = np.asarray(end, np.int64) + np.asarray(pads[1], np.int64)
        conv['auto_pad'] = 'explicit'
        reader = transpose if transpose is not None else conv
        # the padded tensor is gone: its names go with it, not to the unpadded input ('dest': names not carried)
        reader.in_port(0).get_connection().set_source(pad.in_port(0).get_source(), attributes_save_mode='dest')
        if transpose is not None:
            infer_node(transpose)  # it now transposes the unpadded input
        return True
