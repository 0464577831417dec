"""The Model Optimizer's ``extensions.front.split_normalizer`` (``openvino.tools.mo.front.`` later), kept for
authors' unit tests.

Five steps that brought the frameworks' split ops to the IR's ``Split(data, axis)`` and
``VariadicSplit(data, axis, lengths)``:

* ``SqueezeAxis``: a node marked ``squeeze_axis`` (TF's Unpack, MXNet's SliceChannel) gets a ``Squeeze`` of the
  split axis, named ``<name>/Squeeze_``, after each output (axes from the ``axis`` attribute, else from the
  node's input 1);
* ``SplitInputsReconnect``: a ``Split`` marked ``input_port=1`` (TensorFlow's order: axis first) gets its two
  inputs swapped;
* ``AttributedSplitToSplit`` / ``AttributedVariadicSplitToVariadicSplit``: the attribute forms
  (``axis``, ``num_splits`` / ``size_splits``) become Splits fed by Consts, named ``<name>/Split`` and
  ``<name>/VariadicSplit``;
* ``VariadicSplitInputsSwap``: a ``VariadicSplit`` marked ``swap_axis_and_split_size_inputs`` gets inputs 1 and 2
  swapped.

mo's extractors give Split and VariadicSplit the IR's inputs directly (``extensions.front.tf.unpack`` squeezes
Unpack's parts), so the classes are ``legacy_only``.
"""
import numpy as np

from mo.front.common.partial_infer.utils import mo_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph
from mo.ops.split import Split, VariadicSplit
from mo.ops.squeeze import Squeeze
from mo.utils.error import Error


def _required(node, attr: str):
    value = node.soft_get(attr, None)
    if value is None:
        raise Error('{} "{}" has no {} attribute', node.soft_get('op'), node.soft_get('name', node.id), attr)
    return value


def _replace_outputs_and_input(node, split):
    """Move the node's consumers (port by port) and its data input to ``split``, then remove the node."""
    for index, port in node.out_ports().items():
        port.get_connection().set_source(split.out_port(index))
    node.in_port(0).get_connection().set_destination(split.in_port(0))
    node.graph.remove_node(node.id)


class SqueezeAxis(FrontReplacementPattern):
    """After every output of a ``squeeze_axis`` node: a Squeeze of the split axis."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(squeeze_axis=True):
            name = node.soft_get('name', node.id)
            for out_port in node.out_ports().values():
                if node.has_valid('axis'):
                    squeeze = create_op_with_const_inputs(graph, Squeeze, {1: mo_array(node.axis)},
                                                          {'name': name + '/Squeeze_'})
                    out_port.get_connection().insert_node(squeeze)
                elif node.is_in_port_connected(1):
                    squeeze = Squeeze(graph, {'name': name + '/Squeeze_'}).create_node()
                    out_port.get_connection().insert_node(squeeze)
                    node.in_port(1).get_connection().add_destination(squeeze.in_port(1))
                else:
                    raise Error('Unknown axis to squeeze for node {}', name)


class SplitInputsReconnect(FrontReplacementPattern):
    """``Split(axis, data)`` marked ``input_port=1`` -> ``Split(data, axis)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Split', input_port=1):
            axis_source = node.in_port(0).get_source()
            node.in_port(0).disconnect()
            node.in_port(1).get_connection().set_destination(node.in_port(0))
            node.in_port(1).connect(axis_source)
            del node['input_port']


class AttributedSplitToSplit(FrontReplacementPattern):
    """``AttributedSplit`` (``axis``, ``num_splits``) -> ``Split(data, axis)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='AttributedSplit'):
            name = node.soft_get('name', node.id)
            axis, num_splits = _required(node, 'axis'), _required(node, 'num_splits')
            split = create_op_with_const_inputs(graph, Split, {1: np.int64(axis)},
                                                {'name': name + '/Split', 'num_splits': num_splits})
            _replace_outputs_and_input(node, split)


class AttributedVariadicSplitToVariadicSplit(FrontReplacementPattern):
    """``AttributedVariadicSplit`` (``axis``, ``size_splits``) -> ``VariadicSplit(data, axis, size_splits)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='AttributedVariadicSplit'):
            name = node.soft_get('name', node.id)
            axis, sizes = _required(node, 'axis'), _required(node, 'size_splits')
            split = create_op_with_const_inputs(graph, VariadicSplit, {1: np.int64(axis), 2: sizes},
                                                {'name': name + '/VariadicSplit', 'out_ports_count': len(sizes)})
            _replace_outputs_and_input(node, split)


class VariadicSplitInputsSwap(FrontReplacementPattern):
    """``VariadicSplit(data, lengths, axis)`` marked ``swap_axis_and_split_size_inputs``: inputs 1 and 2 swapped."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='VariadicSplit', swap_axis_and_split_size_inputs=True):
            axis_source = node.in_port(2).get_source()
            node.in_port(2).disconnect()
            node.in_port(1).get_connection().set_destination(node.in_port(2))
            node.in_port(1).connect(axis_source)
