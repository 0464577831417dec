"""Extractor for TensorFlow's CTCGreedyDecoder; ``ctc_lowering`` builds it."""
from mo.front.extractor import FrontExtractorOp
import numpy as np

from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr


class CTCGreedyDecoderExtractor(FrontExtractorOp):
    """CTCGreedyDecoder -> CTCGreedyDecoderSeqLen (opset6) on [batch, time, classes]; TF's sparse result made from
    its padded one (NonZero of the valid positions, GatherND), log_probability = -sum of the best scores;
    merge_repeated, blank_index (-1: the last class)."""
    op = 'CTCGreedyDecoder'

    @classmethod
    def extract(cls, node):
        node['merge_repeated'] = bool(tf_attr(node, 'merge_repeated', False))
        node['blank_index'] = int(tf_attr(node, 'blank_index', -1))
        node['score_type'] = tf_dtype_attr(node, 'T', np.dtype(np.float32))
        return True
