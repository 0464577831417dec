"""The Model Optimizer's graph API that extension authors' code calls, on top of mo's ``Graph``.

``Graph`` inherits :class:`LegacyGraphAPI`; the free functions are re-exported by ``mo.graph.graph`` under
the Model Optimizer's names (``add_opoutput`` too, from ``mo.ops.result``), so ``from mo.graph.graph import
add_opoutput`` works as ``from openvino.tools.mo.graph.graph import add_opoutput`` did.
"""
import numpy as np

from mo.graph.node import Node
from mo.utils.error import Error


class LegacyGraphAPI:
    """Model Optimizer ``Graph`` methods kept for extension authors (mixed into ``mo.graph.graph.Graph``)."""

    @property
    def node(self):
        """networkx 1.x's node attribute view (``graph.node[id]['op']``), as the Model Optimizer had it."""
        return self.nodes

    def get_node_id_by_name(self, name: str):
        """The id of the only node whose ``name`` is ``name``; an Error when there is none or several."""
        ids = self.nodes_by_attr('name', name)
        if not ids:
            raise Error('No node with name {}', name)
        if len(ids) > 1:
            raise Error('Multiple nodes with name {}', name)
        return ids[0]

    def get_inputs_with_ports(self, match: dict, pattern_edges, input_names_in_pattern):
        """``(node, out_port)`` for each pattern name in ``input_names_in_pattern``: the matched node and
        the output port of its one pattern edge (front replacements wire new nodes to them)."""
        inputs = []
        for name in input_names_in_pattern:
            if name not in match:
                raise Error('Node named {} is not in the match {}', name, sorted(match))
            targets = [match[edge[1]] for edge in pattern_edges if edge[0] == name]
            if len(targets) != 1:
                raise Error('Multiple output ports detected for node {} as {} in pattern', match[name].id, name)
            src, dst = match[name], targets[0]
            edges = self.get_edge_data(src.id, dst.id) or {}
            if not edges:
                raise Error('No edge from "{}" to "{}" in the graph', src.id, dst.id)
            inputs.append((src, edges[min(edges)]['out']))
        return inputs

    def check_shapes_consistency(self):
        """Every data node has a ``shape`` that is a numpy array or None; an Error lists those that do not."""
        wrong = []
        for node in self.get_data_nodes():
            if not node.has('shape'):
                wrong.append((node.soft_get('name', node.id), 'no shape attribute'))
            elif node.shape is not None and not isinstance(node.shape, np.ndarray):
                wrong.append((node.soft_get('name', node.id), type(node.shape)))
        if wrong:
            raise Error('Graph contains data nodes ({}) with inconsistent shapes: {}', len(wrong), wrong)

    def check_nodes_ports_are_consecutive(self):
        """Every op's input and output ports are numbered 0..n-1; an Error names the first node that is not."""
        for node in self.get_op_nodes():
            for direction, ports in (('in', node.in_ports()), ('out', node.out_ports())):
                if sorted(ports) != list(range(len(ports))):
                    raise Error('Node {} has not consecutive {} ports indexes: {}', node.soft_get('name', node.id),
                                direction, sorted(ports))

    def dfs(self, node_name, visited: set) -> list:
        """Nodes reachable from ``node_name`` along out edges that are not in ``visited``, in post-order
        (each node after everything it leads to); ``visited`` is updated."""
        order = []
        visited.add(node_name)
        stack = [(node_name, iter(sorted(self._succ[node_name], key=self._rank)))]
        while stack:
            current, children = stack[-1]
            for child in children:
                if child not in visited:
                    visited.add(child)
                    stack.append((child, iter(sorted(self._succ[child], key=self._rank))))
                    break
            else:
                stack.pop()
                order.append(current)
        return order

    def pseudo_topological_sort_with_start_node(self, start_node, reverse: bool = False) -> list:
        """The nodes reachable from ``start_node`` (a Node), in topological order (reversed if asked)."""
        order = [Node(self, n) for n in reversed(self.dfs(start_node.id, set()))]
        return list(reversed(order)) if reverse else order


def dict_includes_compare_attrs(attr, attr_probe) -> bool:
    """Does ``attr`` satisfy ``attr_probe``: a predicate (called with ``attr``) or a value (compared;
    arrays element-wise, all equal)."""
    if callable(attr_probe) and not isinstance(attr_probe, type):
        return bool(attr_probe(attr))
    if isinstance(attr, np.ndarray) or isinstance(attr_probe, np.ndarray):
        try:
            return bool(np.array_equal(attr, attr_probe))
        except (TypeError, ValueError):
            return False
    result = attr == attr_probe
    return bool(result) if np.ndim(result) == 0 else bool(np.all(result))


def get_edge_attribute_between_nodes(node1, node2, attr_name: str):
    """The value of ``attr_name`` on the first edge from ``node1`` to ``node2`` that has it, else None."""
    for attrs in (node1.graph.get_edge_data(node1.id, node2.id) or {}).values():
        if attr_name in attrs:
            return attrs[attr_name]
    return None


def set_edge_attribute_between_nodes(node1, node2, attr_name: str, new_value):
    """Set ``attr_name`` on every edge from ``node1`` to ``node2``."""
    for attrs in (node1.graph.get_edge_data(node1.id, node2.id) or {}).values():
        attrs[attr_name] = new_value
