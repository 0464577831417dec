"""``quantize_weights``: store large float Const nodes as eight-bit values plus a Dequantize.

Each large float Const ``w`` becomes ``w_quantized_const`` (quint8), ``w_quantized_min`` and
``w_quantized_max`` (float scalars) and a ``Dequantize`` (mode MIN_FIRST) that keeps the name
``w``, so every consumer still reads a float tensor under the same name.
"""
import numpy as np

from extensions.transforms.round_weights import large_float_consts
from mo.front.tf import dtypes
from mo.front.tf.attrs import encode_attr
from mo.front.tf.node_def import make_node_def
from mo.transforms.base import GraphTransform
from mo.utils.error import Error

#: eight-bit levels
LEVELS = 256


def quantization_range(value: np.ndarray):
    """``(low, high)`` covering ``value`` and zero (so that zero is exact), with ``high > low``."""
    low, high = min(float(np.min(value)), 0.0), max(float(np.max(value)), 0.0)
    if high == low:
        # an all-zero buffer: any width will do, but a tiny one makes Dequantize divide to NaN
        high = low + 1.0
    return low, high


def quantize_min_first(value: np.ndarray, low: float, high: float) -> np.ndarray:
    """``value`` as quint8 codes that TensorFlow's MIN_FIRST Dequantize maps back to within one step.

    MIN_FIRST spreads the 256 codes over ``(high - low) * 256 / 255`` and counts from the rounded
    position of ``low``, so zero and ``low`` are represented exactly.
    """
    scale = LEVELS / ((high - low) * LEVELS / (LEVELS - 1))
    codes = np.round(value.astype(np.float64) * scale) - np.round(low * scale)
    return np.clip(codes, 0, LEVELS - 1).astype(np.uint8)


def _add_const(graph, name, value, tf_dtype, device):
    name = graph.unique_id(name)
    pb = make_node_def(name, 'Const', device=device)
    pb.attr['dtype'].type = tf_dtype
    # pb_value None: the writer encodes the tensor at the end
    graph.add_node(name, kind='op', name=name, op='Const', device=device, pb=pb, value=value, pb_value=None)
    return name


def quantize_const(graph, node_id) -> None:
    """Replace float Const ``node_id`` by eight-bit Consts and a Dequantize of the same name."""
    attrs = graph.nodes[node_id]
    value = np.asarray(attrs['value'], dtype=np.float32)
    low, high = quantization_range(value)
    name, device = attrs.get('name', node_id), attrs.get('device', '') or ''
    codes = _add_const(graph, name + '_quantized_const', quantize_min_first(value, low, high),
                       dtypes.DT_QUINT8, device)
    low_id = _add_const(graph, name + '_quantized_min', np.array(low, np.float32), dtypes.DT_FLOAT, device)
    high_id = _add_const(graph, name + '_quantized_max', np.array(high, np.float32), dtypes.DT_FLOAT, device)
    pb = make_node_def(name, 'Dequantize', device=device)
    pb.attr['T'].CopyFrom(encode_attr(dtypes.DT_QUINT8, 'type'))
    pb.attr['mode'].s = b'MIN_FIRST'
    for key in ('value', 'pb_value', 'tf_attrs'):
        attrs.pop(key, None)
    attrs['op'], attrs['pb'] = 'Dequantize', pb
    for position, source in enumerate((codes, low_id, high_id)):
        graph.add_edge(source, node_id, out=0, **{'in': position})


class QuantizeWeights(GraphTransform):
    """Store every float Const of at least ``minimum_size`` elements as eight bits plus a Dequantize."""
    transform_name = 'quantize_weights'
    arguments = ('minimum_size',)

    def transform(self, graph, context):
        minimum_size = context.get_one_int('minimum_size', 1024)
        if minimum_size < 0:
            raise Error('quantize_weights: "minimum_size" must not be negative, not {}', minimum_size)
        for node_id in large_float_consts(graph, minimum_size):
            quantize_const(graph, node_id)
