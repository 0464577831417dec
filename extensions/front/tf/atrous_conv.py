"""Atrous convolution fusion: SpaceToBatchND -> Conv2D/DepthwiseConv2dNative/Conv3D -> BatchToSpaceND, what
``tf.nn.atrous_conv2d``, dilated depthwise convolutions and Keras' dilated convolutions of old TF write, becomes
one convolution with dilations.

SpaceToBatchND pads the image by (pb, pe) and splits it into rate x rate interleaved phase images; the
convolution (stride 1, no dilation) runs on each phase, padded by (a, b) (0 for VALID, TF's SAME split of k - 1
otherwise); BatchToSpaceND interleaves the results and crops (cb, ce). Output pixel ``j`` of the interleaving is
``sum_m w[m] * padded[j + m * rate]``, a convolution with dilation ``rate`` of the image padded by
``pb + a * rate`` and ``pe + b * rate``, cropped by (cb, ce): so the fused convolution pads
``pb + a * rate - cb`` before and ``pe + b * rate - ce`` after, exact whenever both are >= 0 (checked; otherwise
the three ops stay and convert unfused, as they do when the block shape, paddings or crops are not constant).
"""
import numpy as np

from extensions.front.tf.nhwc_to_nchw import NHWCToNCHW
from extensions.front.tf.tensor_ext import constant_input
from extensions.front.tf.indexing_lowering import BatchSpaceLowering, SpaceBatchLowering
from mo.utils.shape import int64_array
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node

_CONVOLUTIONS = ('Convolution', 'GroupConvolution')


def _single_consumer(node: Node) -> bool:
    return len(node.out_port(0).get_destinations()) == 1 and len(node.out_ports()) >= 1


class AtrousConvolutionFusion(OpRule):
    """BatchToSpaceND(Conv(SpaceToBatchND(x, block, paddings)), block, crops) = Conv(x) with dilations = block and
    the pads the module docstring derives."""
    op = 'BatchToSpaceND'

    def run_before(self):
        return super().run_before() + [BatchSpaceLowering, SpaceBatchLowering, NHWCToNCHW]

    def rewrite(self, node: Node, b: Builder):
        conv = node.in_port(0).get_source().node
        if conv.soft_get('op') not in _CONVOLUTIONS or not _single_consumer(conv):
            b.reject('its input is not a convolution read by it alone')
        to_batch = conv.in_port(0).get_source().node
        if to_batch.soft_get('op') != 'SpaceToBatchND' or not _single_consumer(to_batch):
            b.reject('the convolution does not read a SpaceToBatchND of its own')
        rank = len(np.ravel(conv.strides))
        if conv.soft_get('layout', 'NCHW').startswith('NC'):
            b.reject('the convolution is channels-first')
        if np.any(np.ravel(conv.strides) != 1) or np.any(np.ravel(conv.soft_get('dilations', [1] * rank)) != 1):
            b.reject('the convolution has strides or dilations')
        values = [constant_input(n, port) for n, port in ((to_batch, 1), (to_batch, 2), (node, 1), (node, 2))]
        if any(v is None for v in values):
            b.reject('the block shape, paddings or crops are not constant')
        block, paddings, block_back, crops = (np.asarray(v, dtype=np.int64) for v in values)
        if block.shape != (rank,) or not np.array_equal(block, block_back) or paddings.shape != (rank, 2) or \
                crops.shape != (rank, 2):
            b.reject('the block shapes differ or do not fit the convolution')
        inner = self._inner_pads(conv, rank)
        if inner is None:
            b.reject('the convolution pads SAME with weights that are not constant')
        begin = paddings[:, 0] + inner[0] * block - crops[:, 0]
        end = paddings[:, 1] + inner[1] * block - crops[:, 1]
        if np.any(begin < 0) or np.any(end < 0):
            b.reject('the crops exceed the padding (no convolution pads negatively)')
        conv.in_port(0).get_connection().set_source(to_batch.in_port(0).get_source())
        conv['dilations'] = int64_array(block)
        conv['auto_pad'] = 'explicit'
        conv['pads_begin'], conv['pads_end'] = int64_array(begin), int64_array(end)
        return conv

    @staticmethod
    def _inner_pads(conv: Node, rank: int):
        """(before, after) of the convolution on the phase images, or None when unknown."""
        if conv.auto_pad == 'valid':
            return np.zeros(rank, np.int64), np.zeros(rank, np.int64)
        if conv.auto_pad == 'explicit':
            return np.ravel(conv.pads_begin).astype(np.int64), np.ravel(conv.pads_end).astype(np.int64)
        weights = constant_input(conv, 1)
        if weights is None:
            return None
        total = np.array(weights.shape[:rank], np.int64) - 1  # stride 1: SAME pads k - 1, the smaller half first
        return total // 2, total - total // 2
