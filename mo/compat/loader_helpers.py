"""The Model Optimizer's loader helpers that its ONNX extractors import (``mo.front.onnx.loader.node_id``,
``mo.front.extractor.extract_node_attrs``), served to those live modules by ``mo.compat.helpers_hook``.

This module imports neither of them: they import the hook, and a cycle would follow."""
import logging as log

from mo.graph.graph import Graph, Node
from mo.utils.error import Error

#: live module -> the names it serves from here
SERVED = {'mo.front.onnx.loader': ('node_id',), 'mo.front.extractor': ('extract_node_attrs',)}


def node_id(pb) -> str:
    """The name mo's ONNX loader gives the node of NodeProto ``pb`` (its name, else its first output): pass it to
    ``graph.unique_id`` for a new node's id, as the Model Optimizer's callers did. The rule of
    ``mo.front.onnx.loader._node_name``, written here again (tests/legacy_api/test_mo_op_modules.py checks they
    agree) since importing the loader from here would close an import cycle through its ``__getattr__``."""
    if pb.name:
        return pb.name
    outputs = [output for output in pb.output if output]
    return outputs[0] if outputs else pb.op_type


def extract_node_attrs(graph: Graph, extractor) -> Graph:
    """Run ``extractor(node) -> (supported, attrs)`` on every op node but the Results and merge ``attrs`` into the
    node; the op types no extractor supports are logged as a warning, as in the Model Optimizer."""
    unsupported = set()
    for node_name in list(graph.nodes()):
        node = Node(graph, node_name)
        if node.soft_get('kind') != 'op' or node.soft_get('op') == 'Result':
            continue
        try:
            supported, attrs = extractor(node)
        except Error:
            raise
        except Exception as exc:
            raise Error('Extracting the attributes of node "{}" failed: {}', node_name, exc) from exc
        node.attrs().update(attrs or {})
        if not supported:
            unsupported.add(node.soft_get('op', node_name))
    if unsupported:
        log.warning('Op types without an attribute extractor: {}'.format(', '.join(sorted(unsupported))))
    return graph
