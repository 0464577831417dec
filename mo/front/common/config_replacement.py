"""Front replacers driven by ``--transformations_config`` descriptions.

* ``FrontReplacementFromConfigFileSubGraph``: ``replace_sub_graph(graph, match)`` for every
  ``SubgraphMatch`` of the descriptions whose id is the class's ``replacement_id``;
* ``FrontReplacementFromConfigFileOp``: the same, replacing each match with one node of the
  description's ``op`` (see ``replace_with_op``);
* ``FrontReplacementFromConfigFileGeneral``: ``transform_graph(graph, custom_attributes)``.

A replacer runs only when a loaded config has a description with its ``replacement_id``.

Ordering: descriptions name nodes of the model as the framework wrote it (TensorFlow node names, ONNX
node and tensor names: what ``--tensorflow_custom_operations_config_update`` sees), so by default
these replacers run first in the front phase, before any other front replacer (users' included) lowers or
re-lays-out the graph (``FrontStart`` -> them -> the others). The Model Optimizer's module path
``mo.front.tf.replacement`` re-exports them. A replacer that declares its own ``run_after()`` with front
replacers in it (the seeds' ``YoloRegionAddon`` runs after ``NoOpEraser``) runs in the front
phase proper instead, before ``FrontFinish``.
"""
import logging as log
import re

import numpy as np

from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, Node
from mo.ops.op import Op
from mo.utils.class_registration import anchor, pipeline
from mo.utils.custom_replacement_config import descriptions_of
from mo.utils.error import Error
from mo.ops.parameter import Parameter
from mo.ops.result import Result
from mo.middle.partial_infer import create_data_nodes, partial_infer
from mo.pipeline.runner import apply_replacements

#: what an attribute of the IR's <data> element may be called (an XML name without namespaces)
_IR_ATTRIBUTE_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_.-]*$')

#: node attributes that a description's custom_attributes may not overwrite
RESERVED_ATTRS = ('name', 'type', 'op', 'version', 'kind', 'infer', 'type_infer', 'in_ports_count',
                  'out_ports_count', '_in_ports', '_out_ports', '_op_class')


class _ConfigDrivenOrder:
    """Default ordering of the config-driven replacers: first in the front phase, on the graph as the framework
    wrote it (every other front step runs after them by default, users' included); one that names what it runs
    after runs there."""
    config_driven = True

    def run_after(self):
        return [anchor('FrontStart')]

    def run_before(self):
        return [anchor('FrontFinish')]


class _LinkedToDescriptions(_ConfigDrivenOrder):
    """A replacer that a description's ``id`` names through ``replacement_id`` (a user's class
    with the same id takes over a built-in one)."""
    replacement_id = None

    @classmethod
    def is_abstract(cls):
        return super().is_abstract() or cls.replacement_id is None

    @classmethod
    def replaced_key(cls):
        return ('config', cls.replacement_id)


class FrontReplacementFromConfigFileSubGraph(_LinkedToDescriptions, FrontReplacementSubgraph):
    """Replaces the sub-graphs that a scope or points description matches.

    Override ``replace_sub_graph(graph, match)``, or ``generate_sub_graph`` returning
    ``{'new_node': node}``: input ``i`` of the sub-graph then feeds input ``i`` of that node and
    its output ``i`` takes over the consumers of the sub-graph's output ``i``.
    """
    _abstract = True

    def find_and_replace_pattern(self, graph: Graph):
        for desc in descriptions_of(graph, self.replacement_id):
            for match in desc.matches(graph):
                if any(n not in graph for n in match.matched_nodes_names()):
                    continue  # an earlier instance's replacement consumed part of this one
                log.debug('{} replaces "{}" ({} nodes)'.format(self.replacement_id, match.scope or desc.id,
                                                               len(match.matched_nodes_names())))
                self.replace_sub_graph(graph, match)
                self.match_count = getattr(self, 'match_count', 0) + 1

    def input_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        """By default input ``i`` of the sub-graph feeds input ``i`` of ``new_sub_graph['new_node']``."""
        new_node = new_sub_graph.get('new_node')
        if new_node is None:
            return {}
        mapping = {}
        for port in range(match.inputs_count()):
            for node, in_port in match.input_nodes(port):
                mapping[(node.id, in_port)] = (new_node.id, port)
        return mapping

    def output_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        new_node = new_sub_graph.get('new_node')
        if new_node is None:
            return {}
        return {(match.output_node(port)[0].id, match.output_node(port)[1]): (new_node.id, port)
                for port in range(match.outputs_count())}

    def replace_sub_graph(self, graph: Graph, match):
        new_sub_graph = self.generate_sub_graph(graph, match) or {}
        # several consumers of one input tensor: connect its source once
        for (old_id, old_port), (new_id, new_port) in self.input_edges_match(graph, match, new_sub_graph).items():
            source = Node(graph, old_id).in_port(old_port).get_source()
            new_port_obj = Node(graph, new_id).in_port(new_port)
            if source is not None and not new_port_obj.is_connected():
                source.connect(new_port_obj)
        for (old_id, old_port), (new_id, new_port) in self.output_edges_match(graph, match, new_sub_graph).items():
            _move_output(Node(graph, old_id).out_port(old_port), Node(graph, new_id).out_port(new_port))
        graph.remove_nodes_from([n for n in self.nodes_to_remove(graph, match) if n in graph])


class FrontReplacementFromConfigFileOp(FrontReplacementFromConfigFileSubGraph):
    """Replaces each matched sub-graph with one node of the description's ``op``."""
    _abstract = True

    def replace_sub_graph(self, graph: Graph, match):
        replace_with_op(graph, match)


class FrontReplacementFromConfigFileGeneral(_LinkedToDescriptions, FrontReplacementSubgraph):
    """Calls ``transform_graph(graph, custom_attributes)`` once per description with its id."""
    _abstract = True

    def find_and_replace_pattern(self, graph: Graph):
        for desc in descriptions_of(graph, self.replacement_id):
            self.transform_graph(graph, dict(desc.custom_attributes))
            self.match_count = getattr(self, 'match_count', 0) + 1

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        raise Error('{} must define transform_graph(graph, custom_attributes)', type(self).__name__)


def is_config_driven(cls) -> bool:
    return bool(getattr(cls, 'config_driven', False))


# ----- one op in place of a sub-graph ---------------------------------------------------------
def _move_output(old_port, new_port):
    names = old_port.get_tensor_names()
    old_port.get_connection().set_source(new_port)
    if names:
        new_port.add_tensor_names(names)


_custom_attr_classes = {}


def _with_custom_attrs(op_class):
    """A subclass of ``op_class`` that also writes the node's ``ir_custom_attributes`` to the IR.

    The subclass defines no ``op`` of its own, so it is not registered and does not shadow
    ``op_class``; it only tells the IR writer which extra attributes go into ``<data>``.
    """
    cls = _custom_attr_classes.get(op_class)
    if cls is None:
        def backend_attrs(self):
            own = list(op_class.backend_attrs(self) or [])
            names = {item if isinstance(item, str) else item[0] for item in own}
            return own + [key for key in self.attrs.get('ir_custom_attributes', ()) if key not in names]
        cls = type(op_class.__name__, (op_class,), {'backend_attrs': backend_attrs,
                                                     '__module__': op_class.__module__})
        _custom_attr_classes[op_class] = cls
    return cls


def replace_with_op(graph: Graph, match, op_name: str = None):
    """Replace ``match`` with one node of op ``op_name`` (default: the description's ``op``).

    Inputs and outputs are connected in the configured order; the node carries the
    description's ``custom_attributes``, which the IR writer puts in ``<data>``. An op that has
    no ``infer`` of its own gets output shapes (and types) from the replaced sub-graph, which is
    kept aside for that. An op registered as an ``Op`` class gets that class's defaults; any
    other name becomes a custom layer of that type (version ``extension``).
    """
    desc = match.custom_replacement_desc
    op_name = op_name or desc.op
    if not op_name:
        raise Error('{}: the description has no "op" to replace the sub-graph with', desc.where())
    custom = dict(desc.custom_attributes)
    for key, value in custom.items():
        if key in RESERVED_ATTRS:
            raise Error('{}: custom_attributes.{} would overwrite the node\'s own "{}"', desc.where(), key, key)
        if not _IR_ATTRIBUTE_NAME.match(key):
            raise Error('{}: custom_attributes key "{}" cannot be an IR attribute name (letters, digits, "_", "-", '
                        '"." only, not starting with a digit)', desc.where(), key)
        if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)):
            raise Error('{}: custom_attributes.{} is a nested structure; an IR attribute must be a number, '
                        'a string, a boolean or a list of them', desc.where(), key)
    attrs = dict(custom)
    attrs.update(name=graph.unique_id(match.scope or desc.id), in_ports_count=match.inputs_count(),
                 out_ports_count=match.outputs_count(), ir_custom_attributes=list(custom))
    op_class = Op.registered_ops.get(op_name)
    if op_class is None:
        op_class = Op
        attrs.update(type=op_name, op=op_name)
    op = op_class(graph, attrs)
    op.attrs.setdefault('type', op_name)
    op.attrs.setdefault('op', op_name)
    if not op.attrs.get('version'):
        op.attrs['version'] = 'extension'
    op.attrs['_op_class'] = _with_custom_attrs(op_class)
    if op.attrs.get('infer') is None:
        op.attrs['infer'] = SubgraphShapes(graph, match)
    node = op.create_node()
    for port in range(match.inputs_count()):
        consumer, in_port = match.input_nodes(port)[0]
        source = consumer.in_port(in_port).get_source()
        if source is None:
            raise Error('{}: input {} of sub-graph "{}" ({} port {}) is not connected', desc.where(), port,
                        match.scope or desc.id, consumer.soft_get('name', consumer.id), in_port)
        source.connect(node.in_port(port))
    for port in range(match.outputs_count()):
        producer, out_port = match.output_node(port)
        _move_output(producer.out_port(out_port), node.out_port(port))
    graph.remove_nodes_from([n for n in match.matched_nodes_names() if n in graph])
    return node


def _fresh(value):
    """A copy of an attribute value deep enough that editing the copy's port records is safe.

    Tensors (numpy arrays) are shared: replacers replace them, they do not edit them in place.
    """
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


#: graph attributes the private copy of a replaced sub-graph keeps
_SUB_GRAPH_ATTRS = ('layout', 'cmd_params', 'source_format', 'onnx_opsets', 'onnx_functions', 'onnx_ir_version',
                    'onnx_model_path')


class SubgraphShapes:
    """``infer`` for a node that replaced a sub-graph: infers a private copy of that sub-graph.

    The copy is taken when the node is created (front phase, before the layout and lowering
    passes), given a Parameter per input tensor and a Result per output, and at inference time
    goes through the same front replacers the model does, then partial inference; the node's
    outputs get the shapes and types of the sub-graph's outputs.
    """

    def __init__(self, graph: Graph, match):
        self.where = match.custom_replacement_desc.where()
        nodes = match.matched_nodes_names()
        inside = set(nodes)
        # the options, and what a framework's front steps read off the graph (ONNX: the model's opsets)
        self.graph_attrs = {k: v for k, v in graph.graph.items() if k in _SUB_GRAPH_ATTRS}
        self.nodes = [(n, _fresh(dict(graph.nodes[n]))) for n in nodes]
        self.edges = [(u, v, dict(d)) for u, v, d in graph.edges(data=True) if u in inside and v in inside]
        self.inputs = [[(node.id, in_port) for node, in_port in match.input_nodes(port)]
                       for port in range(match.inputs_count())]
        self.outputs = [(match.output_node(port)[0].id, match.output_node(port)[1])
                        for port in range(match.outputs_count())]

    def _build(self, node: Node):
        sub = Graph(**self.graph_attrs)
        for node_id, data in self.nodes:
            sub.add_node(node_id, **_fresh(data))
        for u, v, data in self.edges:
            sub.add_edge(u, v, **dict(data))
        for port, consumers in enumerate(self.inputs):
            source = node.in_port(port).data
            shape = source.get_shape()
            if shape is None:
                raise Error('{}: the shape of input {} is unknown', self.where, port)
            param = Parameter(sub, {'name': sub.unique_id('sub_graph_input_{}'.format(port)), 'shape': shape,
                                    'data_type': source.get_data_type() or np.dtype(np.float32)}).create_node()
            value = source.get_value()
            if value is not None:  # a constant input keeps shape-computing parts of the copy exact
                param['value'] = value
            for consumer, in_port in consumers:
                param.out_port(0).connect(Node(sub, consumer).in_port(in_port))
        results = []
        for node_id, out_port in self.outputs:
            results.append(Result(sub, {'name': sub.unique_id('sub_graph_output')}).create_node(
                [(Node(sub, node_id), out_port)]).id)
        return sub, results

    def __call__(self, node: Node):
        sub, results = self._build(node)
        # the front replacers that the model itself goes through after the config replacements
        apply_replacements(sub, [info for info in pipeline(['front']) if not is_config_driven(info.cls)])
        create_data_nodes(sub)
        partial_infer(sub)
        for port, ((node_id, out_port), result) in enumerate(zip(self.outputs, results)):
            # read through the Result: front replacers may have replaced the producing node
            data = Node(sub, result).in_port(0).data
            if data.get_shape() is None:
                raise Error('{}: the shape of output {} ("{}" port {}) of the replaced sub-graph cannot be '
                            'inferred', self.where, port, node_id, out_port)
            node.out_port(port).data.set_shape(data.get_shape())
            if data.get_data_type() is not None:
                node.out_port(port).data.set_data_type(data.get_data_type())
