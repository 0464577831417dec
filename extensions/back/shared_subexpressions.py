"""Equal sub-expressions computed once: small Consts of equal value and pure shape/arithmetic ops that read the same
tensors with the same attributes. Exports repeat them per layer (``x.shape[0]`` in every attention block, an axes
[0] per Unsqueeze); every copy is a node the plugin transforms and compiles again."""
import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.op import op_class_of

#: a Const of at most this many bytes is compared by value (the weights of layers are never equal)
SMALL_CONST_BYTES = 1024
#: ops with no state and no randomness whose outputs depend only on their inputs and attributes
PURE_OPS = frozenset({
    'ShapeOf', 'Gather', 'Unsqueeze', 'Squeeze', 'Concat', 'Convert', 'Reshape', 'Slice', 'StridedSlice', 'Range',
    'Add', 'Sub', 'Mul', 'Div', 'Equal', 'NotEqual', 'Less', 'Greater', 'LessEqual', 'GreaterEqual', 'Select',
    'Broadcast', 'ReduceProd', 'ReduceSum', 'Maximum', 'Minimum', 'LogicalAnd', 'LogicalOr', 'LogicalNot',
    'Transpose', 'Floor', 'Ceiling', 'Sqrt', 'ScatterUpdate', 'ScatterNDUpdate', 'Tile', 'ConvertLike', 'Abs',
    'Negative', 'FloorMod',
})
#: IR types of the ops that run sub-graphs: an input of theirs is never shared (see ``_feeds_sub_graph``)
SUB_GRAPH_TYPES = frozenset({'If', 'Loop', 'TensorIterator'})


def _attributes(node: Node):
    """The attributes the IR writes for ``node`` (its op class's ``backend_attrs``), as a hashable tuple."""
    cls = op_class_of(node)
    if cls is None:
        return None
    op = cls.__new__(cls)
    op.graph, op.attrs = node.graph, node.graph.nodes[node.id]
    items = []
    for item in op.backend_attrs() or ():
        if isinstance(item, tuple):
            name, getter = item
            value = getter(node) if callable(getter) else node.soft_get(getter, None)
        else:
            name, value = item, node.soft_get(item, None)
        items.append((name, repr(np.asarray(value).tolist()) if isinstance(value, (np.ndarray, list, tuple))
                      else repr(value)))
    return tuple(items)


def _feeds_sub_graph(node: Node) -> bool:
    """Whether ``node`` is an input of an If, Loop or TensorIterator.

    OpenVINO 2026.4's CPU plugin segfaults in compile_model (inside Input::replace_source_output, called by
    ov::pass::ConvertPrecision as it turns i64 into i32) when a Const a sub-graph op reads also becomes a reader of
    the Equal that computes an If's condition: in torchvision's Keypoint and Mask R-CNN exports, the scalar 0 a Loop
    reads and the 0 of ``numel == 0``; in tests/onnx/test_shared_constants_with_loops.py, the 0 an If reads and the
    0 of that If's own condition. No narrower rule fits what crashes: in the R-CNNs the 0 their Ifs read may join
    their conditions' Equals, and 1 may where 0 may not, while the Loop's 0 shared with Gathers, Ranges, Adds,
    Broadcasts and Splits compiles. So a node a sub-graph op reads keeps the readers the model gave it; the other
    Consts of its value are still shared among themselves, which costs one Const per value. Pure ops are held to
    the same rule: the constant folding after this step would make Consts of them.
    """
    return any(dest.node.soft_get('type') in SUB_GRAPH_TYPES
               for port in node.out_ports().values() for dest in port.get_destinations())


def _const_key(node: Node):
    value = node.soft_get('value', None)
    if value is None:
        return None
    value = np.asarray(value)
    if value.nbytes > SMALL_CONST_BYTES or value.dtype == object:
        return None
    return 'Const', value.dtype.str, value.shape, value.tobytes()


class SharedSubexpressions(BackReplacementPattern):
    """Nodes computing the same thing (equal small Consts; a pure op of the same attributes on the same inputs)
    become one: the first of them feeds the readers of the others."""
    id = 'SharedSubexpressions'

    def find_and_replace_pattern(self, graph: Graph):
        # a pure op's attributes (the costly part of its key) are read only once another op of its kind reads the
        # same inputs: CNNs have thousands of Adds and Muls and no two of them alike
        first = {}  # key -> the first node of that key; a pure op's key without attributes -> [(attributes, node)]
        has_sub_graphs = any(graph.count_by_attr('type', t) for t in SUB_GRAPH_TYPES)
        for node in graph.pseudo_topological_sort():
            if node.kind != 'op' or node.id not in graph:
                continue
            op = node.soft_get('op')
            if op == 'Const':
                key = _const_key(node)
                if key is None or (has_sub_graphs and _feeds_sub_graph(node)):
                    continue
                original = first.setdefault(key, node)
            elif op in PURE_OPS and node.has_valid('type'):
                key = self._inputs_key(node, op)
                if has_sub_graphs and _feeds_sub_graph(node):
                    continue
                original = self._same_pure_op(first.setdefault(key, []), node)
            else:
                continue
            if original is not None and original is not node:
                self._reroute(node, original)
                self.match_count += 1

    @staticmethod
    def _inputs_key(node: Node, op: str):
        inputs = []
        for index, port in sorted(node.in_ports().items()):
            if not port.is_connected():
                inputs.append((index, None))
                continue
            source = port.get_source()
            inputs.append((index, source.node.id, source.idx))
        return op, node.soft_get('type'), node.soft_get('version'), tuple(inputs), tuple(sorted(node.out_ports()))

    @staticmethod
    def _same_pure_op(candidates: list, node: Node):
        """The first node of ``candidates`` (``[attributes or None, node]`` of earlier ops with ``node``'s kind and
        inputs) with ``node``'s attributes, else ``node`` itself (then added to them); None when ``node``'s
        attributes cannot be told."""
        if not candidates:
            candidates.append([None, node])
            return node
        attributes = _attributes(node)
        if attributes is None:
            return None
        for entry in candidates:
            if entry[0] is None:
                entry[0] = _attributes(entry[1])
            if entry[0] == attributes:
                return entry[1]
        candidates.append([attributes, node])
        return node

    @staticmethod
    def _reroute(duplicate: Node, original: Node):
        for index, port in duplicate.out_ports().items():
            if port.disconnected():
                continue
            names = port.get_tensor_names()
            target = original.out_port(index)
            port.get_connection().set_source(target)
            if names:
                target.add_tensor_names(names)
