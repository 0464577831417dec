"""ONNX sequences and optionals resolved at conversion time.

A sequence whose elements are known when the model is converted (made by SequenceConstruct/Empty/Insert/Erase
at constant positions, or by SplitToSequence of a known number of parts) is a list of tensors here: SequenceAt
becomes the element it picks, SequenceLength a constant, ConcatFromSequence a Concat (of Unsqueezes for
``new_axis``). An optional is a list of zero or one tensor: OptionalHasElement becomes a constant,
OptionalGetElement the element. Anything else (a sequence that is a model output, or crosses a loop) is an
Error naming the node.
"""
import numpy as np

from extensions.load.onnx.loader import is_onnx
from mo.utils.shape import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.ops.split import Split, VariadicSplit
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: ops whose output is a sequence or an optional (a list of output ports here)
LIST_OPS = ('ONNXSequenceEmpty', 'ONNXSequenceConstruct', 'ONNXSequenceInsert', 'ONNXSequenceErase',
            'ONNXSplitToSequence', 'ONNXOptional')
#: ops whose output is a tensor computed from a sequence or an optional
TENSOR_OPS = ('ONNXSequenceAt', 'ONNXSequenceLength', 'ONNXConcatFromSequence', 'ONNXOptionalHasElement',
              'ONNXOptionalGetElement')


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _what(node) -> str:
    return '{} "{}"'.format(node.soft_get('onnx_op', node.op), _name(node))


def _const_input(node, port, default=None):
    """The constant on input ``port`` (``default`` when it is not connected); an Error when not constant."""
    if not node.is_in_port_connected(port):
        return default
    source = node.in_port(port).get_source().node
    if source.soft_get('op') != 'Const' or not source.has_valid('value'):
        raise Error('{}: input {} must be a constant for mo to resolve the sequence at conversion time',
                    _what(node), port)
    return np.asarray(source.value)


def _static_dim(node, axis: int) -> int:
    """Size of dimension ``axis`` of ``node``'s input 0, from a Const or a Parameter of static shape."""
    source = node.in_port(0).get_source().node
    shape = np.shape(source.value) if source.has_valid('value') else source.soft_get('shape', None)
    if shape is not None:
        axis = axis + len(shape) if axis < 0 else axis
        if 0 <= axis < len(shape) and int(shape[axis]) >= 0:
            return int(shape[axis])
    raise Error('{}: the size of axis {} of its input is not known at conversion time, so the number of '
                'elements of the sequence is not either', _what(node), axis)


class ONNXSequenceResolution(FrontReplacementPattern):
    """Resolves ONNX sequences and optionals into the tensors they hold (see the module's docstring)."""
    enabled = True
    graph_condition = [is_onnx]

    def find_and_replace_pattern(self, graph: Graph):
        nodes = [n for op in LIST_OPS + TENSOR_OPS for n in graph.get_op_nodes(op=op)]
        if not nodes:
            return
        order = {n.id: k for k, n in enumerate(graph.pseudo_topological_sort())}
        lists = {}
        for node in sorted(nodes, key=lambda n: order[n.id]):
            if node.op in LIST_OPS:
                lists[node.id] = getattr(self, '_' + node.op[4:])(node, lists)
            else:
                replacement = getattr(self, '_' + node.op[4:])(node, lists)
                for destination in node.out_port(0).get_destinations():
                    destination.disconnect()
                    replacement.connect(destination)
                replacement.add_tensor_names(node.out_port(0).get_tensor_names())
            self.match_count += 1
        for node_id in lists:
            node = Node(graph, node_id)
            for destination in node.out_port(0).get_destinations():
                reader = destination.node
                if reader.op not in LIST_OPS + TENSOR_OPS:
                    if reader.soft_get('op') == 'Result':
                        raise Error('The model output of {} is a sequence or an optional: mo converts tensor '
                                    'outputs only', _what(node))
                    raise Error('{} reads the sequence or optional {}: mo resolves sequences only for the '
                                'sequence and optional ops', _what(reader), _what(node))
        graph.remove_nodes_from(n.id for n in nodes)

    @staticmethod
    def _list(node, lists, port=0) -> list:
        source = node.in_port(port).get_source().node if node.is_in_port_connected(port) else None
        if source is None or source.id not in lists:
            raise Error('{}: its input {} is not a sequence mo can resolve at conversion time (made by '
                        'SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceErase or SplitToSequence)',
                        _what(node), port)
        return list(lists[source.id])

    @staticmethod
    def _position(node, port, length: int, default: int, inserting=False) -> int:
        position = int(np.ravel(_const_input(node, port, np.array(default)))[0])
        limit = length + 1 if inserting else length
        if position < 0:
            position += length
        if not 0 <= position < max(limit, 1) or (not inserting and length == 0):
            raise Error('{}: position {} is out of range for a sequence of {} elements', _what(node),
                        position, length)
        return position

    def _SequenceEmpty(self, node, lists):
        return []

    def _SequenceConstruct(self, node, lists):
        return [node.in_port(p).get_source() for p in sorted(node.in_ports()) if node.is_in_port_connected(p)]

    def _Optional(self, node, lists):
        return self._SequenceConstruct(node, lists)

    def _SequenceInsert(self, node, lists):
        items = self._list(node, lists)
        position = self._position(node, 2, len(items), len(items), inserting=True)
        items.insert(position, node.in_port(1).get_source())
        return items

    def _SequenceErase(self, node, lists):
        items = self._list(node, lists)
        del items[self._position(node, 1, len(items), -1)]
        return items

    def _SequenceAt(self, node, lists):
        items = self._list(node, lists)
        return items[self._position(node, 1, len(items), 0)]

    def _SequenceLength(self, node, lists):
        value = np.array(len(self._list(node, lists)), dtype=np.int64)
        return Const(node.graph, {'name': _name(node) + '/length', 'value': value}).create_node().out_port(0)

    def _ConcatFromSequence(self, node, lists):
        items = self._list(node, lists)
        if not items:
            raise Error('{}: the sequence is empty', _what(node))
        axis = int(node.axis)
        if node.new_axis:
            unsqueezed = []
            for k, item in enumerate(items):
                step = create_op_with_const_inputs(node.graph, Unsqueeze, {1: int64_array([axis])},
                                                   {'name': '{}/element_{}'.format(_name(node), k)})
                item.connect(step.in_port(0))
                unsqueezed.append(step.out_port(0))
            items = unsqueezed
        concat = Concat(node.graph, {'name': _name(node) + '/concat', 'axis': axis,
                                     'in_ports_count': len(items)}).create_node()
        for k, item in enumerate(items):
            item.connect(concat.in_port(k))
        return concat.out_port(0)

    def _OptionalHasElement(self, node, lists):
        source = node.in_port(0).get_source().node if node.is_in_port_connected(0) else None
        present = bool(lists[source.id]) if source is not None and source.id in lists else source is not None
        return Const(node.graph, {'name': _name(node) + '/has_element',
                                  'value': np.array(present)}).create_node().out_port(0)

    def _OptionalGetElement(self, node, lists):
        source = node.in_port(0).get_source() if node.is_in_port_connected(0) else None
        if source is None or source.node.id not in lists:
            if source is None:
                raise Error('{} has no input', _what(node))
            return source  # a tensor: itself
        items = lists[source.node.id]
        if not items:
            raise Error('{}: the optional is empty', _what(node))
        return items[0]

    def _SplitToSequence(self, node, lists):
        axis = int(node.axis)
        split = _const_input(node, 1)
        data = node.in_port(0).get_source()
        graph, name = node.graph, _name(node)
        if split is None:
            count = _static_dim(node, axis)
            parts = create_op_with_const_inputs(graph, Split, {1: int64_array(axis)},
                                                {'name': name + '/split', 'num_splits': count})
        else:
            if split.ndim == 0:
                size, step = _static_dim(node, axis), int(split)
                if step <= 0:
                    raise Error('{}: the split size {} is not positive', _what(node), step)
                sizes = [step] * (size // step) + ([size % step] if size % step else [])
            else:
                sizes = [int(s) for s in split]
            count = len(sizes)
            parts = create_op_with_const_inputs(graph, VariadicSplit, {1: int64_array(axis), 2: int64_array(sizes)},
                                                {'name': name + '/split', 'out_ports_count': count})
        data.connect(parts.in_port(0))
        items = [parts.out_port(k) for k in range(count)]
        if split is None and not node.keepdims:
            squeezed = []
            for k, item in enumerate(items):
                step = create_op_with_const_inputs(graph, Squeeze, {1: int64_array([axis])},
                                                   {'name': '{}/element_{}'.format(name, k)})
                item.connect(step.in_port(0))
                squeezed.append(step.out_port(0))
            items = squeezed
        return items
