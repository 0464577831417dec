"""Preprocessing embedded in the IR, as the Model Optimizer's flags describe it.

For each model input, right after its Parameter and in this order:

1. ``--layout name(src->dst)`` / ``--target_layout``: the IR's input takes the ``dst`` layout and a
   Transpose brings it back to the model's ``src`` layout;
2. ``--reverse_input_channels``: the channels are reversed (an RGB model fed BGR images), for every
   input with 3 channels;
3. ``--mean_values``: subtracted per channel;
4. ``--scale_values`` (per channel) or ``--scale`` (one number): divided by.

Mean and scale values are in the model's channel order. The channel dimension is the ``C`` of the
input's layout (``--layout``/``--source_layout``); without one, the framework's: the last dimension for
TensorFlow (NHWC), the second for ONNX (NCHW).
"""
import re

import numpy as np

from mo.front.common.rule import Builder
from mo.utils.shape import int64_array
from mo.front.loader_replacement import LoadReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.elementwise import Div, Sub
from mo.ops.tensor_ops import Reverse
from mo.ops.transpose import Transpose
from mo.utils.error import UsageError

#: node attribute: 'mean' or 'scale' on the Subtract or Divide made here (a middle pass folds them into the
#: first convolution: ``extensions.middle.preprocessing_into_conv``)
PREPROCESSING = 'preprocessing'

_LAYOUT = re.compile(r'^\[?([A-Za-z?.]+)\]?$')


def _named_lists(text: str, option: str) -> dict:
    """``[1,2,3]`` (every input: key None) or ``a[1,2,3],b[4,5,6]`` -> {name: [floats]}."""
    result = {}
    for match in re.finditer(r'([^\[\],]*)\[([^\]]*)\]', text.replace(' ', '')):
        name, values = match.group(1) or None, match.group(2)
        try:
            result[name] = [float(v) for v in values.split(',') if v]
        except ValueError:
            raise UsageError('{}: "{}" is not a list of numbers', option, values) from None
    if not result:
        raise UsageError('{}: "{}" is not [v1,v2,...] or name[v1,v2,...]', option, text)
    return result


def _layouts(text: str, option: str) -> dict:
    """``nchw`` (every input), ``name(nchw)``, ``name(nhwc->nchw)``, comma-separated ->
    {name or None: (source, target)} in upper case (target None when not given)."""
    result = {}
    for item in filter(None, (t.strip() for t in re.split(r',(?![^()]*\))', text))):
        match = re.match(r'^([^()]*)\(([^()]*)\)$', item)
        name, body = (match.group(1) or None, match.group(2)) if match else (None, item)
        source, _, target = body.partition('->')
        layouts = []
        for layout in (source, target):
            layout = layout.strip()
            if layout and not _LAYOUT.match(layout):
                raise UsageError('{}: "{}" is not a layout such as nchw or nhwc', option, layout)
            layouts.append(layout.strip('[]').upper() or None)
        result[name] = tuple(layouts)
    return result


class Preprocessing:
    """The preprocessing flags of one run, per input."""

    def __init__(self, params: dict):
        self.means = _named_lists(params['mean_values'], '--mean_values') if params.get('mean_values') else {}
        self.scales = _named_lists(params['scale_values'], '--scale_values') if params.get('scale_values') else {}
        self.scale = params.get('scale')
        self.reverse = bool(params.get('reverse_input_channels'))
        self.layouts = _layouts(params['layout'], '--layout') if params.get('layout') else {}
        for option, target in (('source_layout', 0), ('target_layout', 1)):
            for name, layouts in (_layouts(params[option], '--' + option) if params.get(option) else {}).items():
                current = list(self.layouts.get(name, (None, None)))
                current[target] = layouts[0]
                self.layouts[name] = tuple(current)

    def any(self) -> bool:
        return bool(self.means or self.scales or self.scale or self.reverse or self.layouts)

    def names(self) -> set:
        return {n for table in (self.means, self.scales, self.layouts) for n in table if n is not None}

    def rename(self, names: dict):
        """Key the per-input values by the input's node name (``names``: any name of an input -> its node's)."""
        for table in (self.means, self.scales, self.layouts):
            for alias in [n for n in table if n is not None and names.get(n, n) != n]:
                table[names[alias]] = table.pop(alias)

    @staticmethod
    def _for(table: dict, name: str):
        return table.get(name, table.get(None))


class InputPreprocessing(LoadReplacementPattern):
    """--layout, --reverse_input_channels, --mean_values, --scale_values, --scale: ops after each input."""
    id = 'InputPreprocessing'

    # Each framework's extraction step runs before this one (it names this step in its ``run_before``), so no
    # shared module names a framework.

    def find_and_replace_pattern(self, graph: Graph):
        prep = Preprocessing(graph.graph.get('cmd_params') or {})
        if not prep.any():
            return
        parameters = {p.soft_get('name', p.id): p for p in graph.get_op_nodes(type='Parameter')}
        aliases = _input_aliases(graph, parameters)
        unknown = sorted(prep.names() - set(aliases))
        if unknown:
            shown = sorted(_shown_name(graph, parameter) for parameter in parameters.values())
            raise UsageError('Preprocessing names input "{}", which the model does not have (inputs: {})',
                             unknown[0], ', '.join(shown))
        prep.rename({alias: name for alias, parameter in aliases.items()
                     for name, p in parameters.items() if p is parameter})
        reversed_any = False
        for name, parameter in sorted(parameters.items()):
            reversed_any |= self._preprocess(graph, prep, name, parameter)
            self.match_count += 1
        if prep.reverse and not reversed_any:
            raise UsageError('--reverse_input_channels: no input has 3 channels')

    @staticmethod
    def _preprocess(graph: Graph, prep: Preprocessing, name: str, parameter: Node) -> bool:
        b = Builder(parameter)  # the preprocessing ops are named after the input
        shape = [int(d) for d in parameter.shape]
        rank = len(shape)
        source, target = prep._for(prep.layouts, name) or (None, None)
        for layout in (source, target):
            if layout is not None and len(layout) != rank:
                raise UsageError('--layout: "{}" has {} dimensions, input "{}" has {}', layout, len(layout), name,
                                 rank)
        consumers = parameter.out_port(0).get_destinations()
        if not consumers:
            return False
        tail = parameter.out_port(0)
        if source and target and source != target:
            if sorted(source) != sorted(target):
                raise UsageError('--layout: "{}" and "{}" of input "{}" do not name the same dimensions', source,
                                 target, name)
            to_target = [source.index(d) for d in target]
            parameter['shape'] = int64_array([shape[i] for i in to_target])
            back = [target.index(d) for d in source]
            tail = b.op(Transpose, [tail, b.const(back, 'layout', np.int64)], 'to_model_layout').out_port(0)
        default_channel = 1 if graph.graph.get('layout') == 'NCHW' and rank > 1 else rank - 1
        channel = (source.index('C') if source and 'C' in source else default_channel) if rank else None
        channels = shape[channel] if channel is not None else 1
        dtype = np.dtype(parameter.soft_get('data_type', None) or np.float32)
        reversed_here = False
        if prep.reverse and channels == 3:
            tail = b.op(Reverse, [tail, b.const([channel], 'channel_axis', np.int64)], 'reverse_channels').out_port(0)
            reversed_here = True
        for table, op_class, suffix, option in ((prep.means, Sub, 'mean', '--mean_values'),
                                                (prep.scales, Div, 'scale', '--scale_values')):
            values = prep._for(table, name)
            if values is None and suffix == 'scale' and prep.scale:
                values = [float(prep.scale)]
            if values is None:
                continue
            if len(values) not in (1, channels):
                raise UsageError('{}: {} values for input "{}", which has {} channels', option, len(values), name,
                                 channels)
            const = np.array(values, dtype=dtype).reshape([-1] + [1] * (rank - 1 - channel)) if len(values) > 1 \
                else np.array(values[0], dtype=dtype)
            tail = b.op(op_class, [tail, b.const(const, suffix, dtype)], suffix, **{PREPROCESSING: suffix}).out_port(0)
        for consumer in consumers:
            consumer.disconnect()
            tail.connect(consumer)
        return reversed_here


def _input_aliases(graph: Graph, parameters: dict) -> dict:
    """Every name a model input is known by -> its Parameter: the node's name, its tensor's names (``x:0``) and
    a signature's key for it (a SavedModel's ``keras_tensor`` for ``serving_default_keras_tensor``), the names
    ``--input`` accepts and the IR shows."""
    aliases = dict(parameters)
    for parameter in parameters.values():
        for name in parameter.out_port(0).get_tensor_names():
            aliases.setdefault(name, parameter)
    by_id = {p.id: p for p in parameters.values()}
    for key, node_id in (graph.graph.get('signature_names') or {}).items():
        if node_id in by_id:
            aliases[key] = by_id[node_id]
    return aliases


def _shown_name(graph: Graph, parameter: Node) -> str:
    """The name an input is shown by: a signature's key for it, else its node's."""
    keys = [key for key, node_id in (graph.graph.get('signature_names') or {}).items() if node_id == parameter.id]
    return keys[0] if keys else parameter.soft_get('name', parameter.id)
