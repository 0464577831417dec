"""``freeze_requantization_ranges``: replace RequantizationRange ops by Consts holding the ranges
that logged runs of the graph observed.

The log is what a graph instrumented with ``insert_logging(op=RequantizationRange,
show_name=true, message="__requant_min_max:")`` prints, one line per run and op::

    ... logging_ops.cc:79] ;conv/Conv2D/eightbit/requant_range__print__;__requant_min_max:[-20.8][22.2]

Other lines are ignored. Over all runs of one op, the lowest ``min_percentile`` percent of the
minimums and the highest ``max_percentile`` percent of the maximums are discarded as outliers.
"""
import math
import re
from collections import defaultdict

import numpy as np

from extensions.transforms.fold_constants import data_out_edges
from extensions.transforms.graph_edit import control_inputs
from mo.front.tf import dtypes
from mo.front.tf.node_def import make_node_def
from mo.transforms.base import GraphTransform
from mo.utils.error import Error

_LINE = re.compile(r';([^;]+)__print__;__requant_min_max:\[([^\]]*)\]\[([^\]]*)\]')


def read_ranges(path: str) -> dict:
    """``op name -> ([mins], [maxs])`` from the log at ``path``."""
    ranges = defaultdict(lambda: ([], []))
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                match = _LINE.search(line)
                if not match:
                    continue
                try:
                    low, high = float(match.group(2)), float(match.group(3))
                except ValueError:
                    continue  # a truncated or garbled line
                ranges[match.group(1)][0].append(low)
                ranges[match.group(1)][1].append(high)
    except OSError as e:
        raise Error('freeze_requantization_ranges: cannot read min_max_log_file "{}": {}', path, e) from None
    return dict(ranges)


def _pick(values, percent_from_start):
    """The sorted ``values`` element ``percent_from_start`` percent of the way along (rounded)."""
    ordered = sorted(values)
    index = int(math.floor(len(ordered) * percent_from_start / 100.0 + 0.5))
    return ordered[min(max(index, 0), len(ordered) - 1)]


def overall_range(mins, maxs, min_percentile, max_percentile):
    """The ``(min, max)`` kept once the outlying runs are discarded."""
    return _pick(mins, min_percentile), _pick(maxs, 100.0 - max_percentile)


def _add_const(graph, name, value, device, controls):
    name = graph.unique_id(name)
    pb = make_node_def(name, 'Const', device=device)
    pb.attr['dtype'].type = dtypes.DT_FLOAT
    graph.add_node(name, kind='op', name=name, op='Const', device=device, pb=pb,
                   value=np.array(value, np.float32), pb_value=None)
    for index, source in enumerate(controls):
        graph.add_edge(source, name, control_flow_edge=True, control_index=index)
    return name


def freeze_range(graph, node_id, low, high) -> None:
    """Replace RequantizationRange ``node_id`` by Consts ``<name>/frozen_min`` and ``/frozen_max``."""
    attrs = graph.nodes[node_id]
    name, device = attrs.get('name', node_id), attrs.get('device', '') or ''
    controls = control_inputs(graph, node_id)
    consts = [_add_const(graph, name + '/frozen_min', low, device, controls),
              _add_const(graph, name + '/frozen_max', high, device, controls)]
    for consumer, port, in_port in data_out_edges(graph, node_id):
        graph.add_edge(consts[port], consumer, out=0, **{'in': in_port})
    for _, consumer, d in graph.out_edges(node_id, data=True):
        if d.get('control_flow_edge'):
            graph.add_edge(consts[0], consumer, control_flow_edge=True, control_index=d.get('control_index'))
    graph.remove_node(node_id)


class FreezeRequantizationRanges(GraphTransform):
    """Replace each logged RequantizationRange by Consts of its observed min and max."""
    transform_name = 'freeze_requantization_ranges'
    arguments = ('min_max_log_file', 'min_percentile', 'max_percentile')

    def transform(self, graph, context):
        path = context.get_one_string('min_max_log_file')
        if not path:
            raise Error('freeze_requantization_ranges needs a "min_max_log_file" argument')
        min_percentile = context.get_one_float('min_percentile', 5.0)
        max_percentile = context.get_one_float('max_percentile', 5.0)
        for name, value in (('min_percentile', min_percentile), ('max_percentile', max_percentile)):
            if not 0 <= value <= 100:
                raise Error('freeze_requantization_ranges: "{}" must be between 0 and 100, not {}', name, value)
        ranges = read_ranges(path)
        for node_id in graph.nodes_by_attr('op', 'RequantizationRange'):
            logged = ranges.get(graph.nodes[node_id].get('name', node_id))
            if logged:
                freeze_range(graph, node_id, *overall_range(*logged, min_percentile, max_percentile))
