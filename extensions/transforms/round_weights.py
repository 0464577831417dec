"""``round_weights``: round the values of large float Const nodes to a few evenly spaced levels.

The graph keeps its structure; only the weights change, so the file compresses much better.
"""
import numpy as np

from mo.front.tf import dtypes
from mo.transforms.base import GraphTransform
from mo.utils.error import Error

#: Consts with at most this many elements are left alone (biases, shapes, scalars)
SMALL_CONST_ELEMENTS = 15


def large_float_consts(graph, minimum_elements: int):
    """Ids of the DT_FLOAT Const nodes with at least ``minimum_elements`` elements, in graph order."""
    found = []
    for node_id in graph.nodes_by_attr('op', 'Const'):
        attrs = graph.nodes[node_id]
        value, pb = attrs.get('value'), attrs.get('pb')
        if value is None or pb is None or pb.attr['dtype'].type != dtypes.DT_FLOAT:
            continue
        if np.size(value) >= minimum_elements:
            found.append(node_id)
    return found


def round_to_steps(value: np.ndarray, num_steps: int) -> np.ndarray:
    """``value`` with each element moved to the centre of its bucket, the range split in ``num_steps``.

    The largest value falls in one more bucket past the end, as in TensorFlow's tool, so every
    element moves by at most half a bucket. A buffer of one repeated value is already as round as
    it gets and stays as it is (TensorFlow's tool moves it by half a made-up bucket).
    """
    low, high = float(np.min(value)), float(np.max(value))
    if not high > low:
        return value
    bucket = (high - low) / num_steps
    index = np.floor((value.astype(np.float64) - low) / bucket)
    return (low + bucket * (index + 0.5)).astype(np.float32)


class RoundWeights(GraphTransform):
    """Round every float Const of more than 15 elements to ``num_steps`` evenly spaced values."""
    transform_name = 'round_weights'
    arguments = ('num_steps',)

    def transform(self, graph, context):
        num_steps = context.get_one_int('num_steps', 256)
        if num_steps < 1:
            raise Error('round_weights: "num_steps" must be at least 1, not {}', num_steps)
        for node_id in large_float_consts(graph, SMALL_CONST_ELEMENTS + 1):
            attrs = graph.nodes[node_id]
            attrs['value'] = round_to_steps(np.asarray(attrs['value']), num_steps)
