"""TensorFlow's MaxPoolV2 and MaxPoolWithArgmax as opset pools (the ops ``pool_ext`` extracts)."""
import numpy as np

from mo.front.common.formula_kit import arange, dim, minus_one
from extensions.front.tf.nhwc_to_nchw import NHWCToNCHW, to_channels_first, to_channels_last
from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Maximum, Mul, Sub
from mo.ops.image_ops import MaxPoolWithIndices
from mo.ops.pad import Pad
from mo.ops.pooling import MaxPool
from mo.utils.error import Error


class MaxPoolV2Lowering(OpRule):
    """MaxPoolV2(x, ksize, strides) = MaxPool with the constant window and strides, in TF's layout (the layout
    replacer, which runs next, makes it channels-first)."""
    op = 'MaxPoolV2'

    def run_before(self):
        return super().run_before() + [NHWCToNCHW]

    def rewrite(self, node: Node, b: Builder):
        name = node.soft_get('name', node.id)
        spatial = slice(2, 4) if node.layout.startswith('NC') else slice(1, 3)
        attrs = {}
        for port, attr in ((1, 'kernel'), (2, 'strides')):
            value = constant_input(node, port)
            if value is None or np.size(value) != 4:
                raise Error('MaxPoolV2 "{}": {} must be a constant of 4 values to be converted', name,
                            'ksize' if port == 1 else 'strides')
            attrs[attr] = np.ravel(value).astype(np.int64)[spatial]
        return b.op(MaxPool, [node.in_port(0)], 'pool', layout=node.layout, auto_pad=node.auto_pad, **attrs)


def _same_padding(b, image, axis: int, kernel: int, stride: int, index_type, tag: str):
    """TF's SAME padding of one image axis, from its size at run time: (before, after, padded size)."""
    size = dim(b, image, axis, tag + '/size', index_type)
    count = b.op(Div, [b.op(Add, [size, b.const(stride - 1, tag + '/round_up', index_type)], tag + '/ceil_num'),
                       b.const(stride, tag + '/stride', index_type)], tag + '/outputs')
    span = b.op(Add, [b.op(Mul, [minus_one(b, count, tag + '/last', index_type), b.const(stride, tag + '/stride_',
                                                                                           index_type)],
                           tag + '/last_start'), b.const(kernel, tag + '/kernel', index_type)], tag + '/span')
    total = b.op(Maximum, [b.op(Sub, [span, size], tag + '/missing'), b.const(0, tag + '/zero', index_type)],
                 tag + '/total')
    before = b.op(Div, [total, b.const(2, tag + '/two', index_type)], tag + '/before')
    return before, b.op(Sub, [total, before], tag + '/after'), b.op(Add, [size, total], tag + '/padded')


class MaxPoolWithArgmaxLowering(OpRule):
    """MaxPoolWithArgmax(x) = MaxPool-8 (VALID) on the channels-first image; argmax = (y * W + x) * C + c
    (+ b * H * W * C). SAME padding is an explicit Pad with the lowest value: OpenVINO's CPU MaxPool-8 misplaces
    its own SAME padding when the image size is unknown, and the indices are counted in the padded image, then
    moved back to the image."""
    op = 'MaxPoolWithArgmax'

    def rewrite(self, node: Node, b: Builder):
        index_type = np.dtype(node.index_type)
        dtype = np.dtype(node.soft_get('data_type', None) or np.float32)
        image = node.in_port(0)
        kernel, strides = [int(v) for v in node.ksize], [int(v) for v in node.strides]
        padded = image
        if node.auto_pad == 'same_upper':
            rows = _same_padding(b, image, 1, kernel[0], strides[0], index_type, 'pad_rows')
            columns = _same_padding(b, image, 2, kernel[1], strides[1], index_type, 'pad_columns')
            zero = b.const([0], 'pad_none', index_type)
            pads = [b.op(Concat, [zero, b.unsqueeze(rows[k], [0], 'rows_' + side),
                                  b.unsqueeze(columns[k], [0], 'columns_' + side), zero], 'pads_' + side, axis=0,
                         in_ports_count=4) for k, side in ((0, 'begin'), (1, 'end'))]
            lowest = -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min
            padded = b.op(Pad, [image, pads[0], pads[1], b.const(lowest, 'lowest', dtype)], 'padded',
                          pad_mode='constant')
        pool = b.op(MaxPoolWithIndices, [b.transpose(padded, to_channels_first(4), 'to_NCHW')], 'pool',
                    kernel=np.array(kernel, np.int64), strides=np.array(strides, np.int64), auto_pad='valid',
                    index_element_type='i32' if index_type == np.int32 else 'i64', axis=2)
        values = b.transpose(pool.out_port(0), to_channels_last(4), 'to_NHWC')
        where = b.transpose(pool.out_port(1), to_channels_last(4), 'indices_NHWC')  # y * W + x (padded image)
        width = dim(b, image, 2, 'width', index_type)
        if node.auto_pad == 'same_upper':
            padded_width = columns[2]
            row = b.op(Div, [where, padded_width], 'padded_row')
            column = b.op(Sub, [where, b.op(Mul, [row, padded_width], 'padded_row_start')], 'padded_column')
            where = b.op(Add, [b.op(Mul, [b.op(Sub, [row, rows[0]], 'row'), width], 'row_start'),
                               b.op(Sub, [column, columns[0]], 'column')], 'in_image_pixel')
        channels = dim(b, image, 3, 'channels', index_type)
        flat = b.op(Add, [b.op(Mul, [where, channels], 'pixel_start'), arange(b, channels, 'channel', index_type)],
                    'in_image')
        if not node.include_batch_in_index:
            return [values, flat]
        image_size = b.op(Mul, [b.op(Mul, [dim(b, image, 1, 'height', index_type), width], 'pixels'), channels],
                          'image_size')
        batch = b.unsqueeze(arange(b, dim(b, image, 0, 'batch', index_type), 'batch_index', index_type), [1, 2, 3],
                          'batch_column')
        return [values, b.op(Add, [flat, b.op(Mul, [batch, image_size], 'image_start')], 'argmax')]
