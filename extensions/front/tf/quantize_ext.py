"""Extractors for TensorFlow's fake quantization ops and Dequantize; ``quantize_lowering`` builds them."""
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.utils.error import Error


class FakeQuantExtractor(FrontExtractorOp):
    """FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars, FakeQuantWithMinMaxVarsPerChannel -> FakeQuantize
    (opset1) between TF's nudged min and max (computed from the inputs at run time when they are not constant),
    2^num_bits levels, one fewer with narrow_range; TF's formula written out for more than 8 bits and per-channel
    narrow ranges of a non-constant tensor (where OpenVINO's CPU plugin departs from the opset)."""
    op = ['FakeQuantWithMinMaxArgs', 'FakeQuantWithMinMaxVars', 'FakeQuantWithMinMaxVarsPerChannel']

    @classmethod
    def extract(cls, node):
        bits = int(tf_attr(node, 'num_bits', 8))
        if not 2 <= bits <= 16:
            raise Error('{} "{}": num_bits {} is out of TensorFlow\'s range 2..16', node.op,
                        node.soft_get('name', node.id), bits)
        node['num_bits'] = bits
        node['narrow_range'] = bool(tf_attr(node, 'narrow_range', False))
        if node.op == 'FakeQuantWithMinMaxArgs':
            node['min'] = float(tf_attr(node, 'min', -6.0))
            node['max'] = float(tf_attr(node, 'max', 6.0))
        return True


#: TF's quantized types Dequantize reads, by the numpy type mo holds their values in
DEQUANTIZE_TYPES = (np.uint8, np.int8, np.uint16, np.int16, np.int32)
DEQUANTIZE_MODES = ('MIN_COMBINED', 'MIN_FIRST', 'SCALED')


class DequantizeExtractor(FrontExtractorOp):
    """Dequantize(input, min_range, max_range) of quint8/qint8/quint16/qint16/qint32 in the modes MIN_COMBINED,
    MIN_FIRST and SCALED, per tensor or per channel (``axis``), to float32 or bfloat16 (``dequantize_lowering``
    builds it: the integers stay integers)."""
    op = 'Dequantize'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        mode = tf_attr(node, 'mode', b'MIN_COMBINED')
        mode = mode.decode() if isinstance(mode, bytes) else str(mode)
        if mode not in DEQUANTIZE_MODES:
            raise Error('Dequantize "{}": unknown mode "{}" (TensorFlow\'s are {})', name, mode,
                        ', '.join(DEQUANTIZE_MODES))
        quantized = tf_dtype_attr(node, 'T')
        if quantized is None or np.dtype(quantized).type not in DEQUANTIZE_TYPES:
            raise Error('Dequantize "{}": input type {} is not one of TensorFlow\'s quantized types', name, quantized)
        out_type = np.dtype(tf_dtype_attr(node, 'dtype', np.dtype(np.float32)))
        if out_type.name not in ('float32', 'bfloat16'):
            raise Error('Dequantize "{}": output type {} is not TensorFlow\'s float32 or bfloat16', name, out_type)
        node['out_type'] = out_type
        node['mode'] = mode
        node['quantized_type'] = np.dtype(quantized)
        node['narrow_range'] = bool(tf_attr(node, 'narrow_range', False))
        node['axis'] = int(tf_attr(node, 'axis', -1))
        return True
