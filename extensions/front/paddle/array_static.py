"""A tensor array written at constant indexes outside any loop (``array_write`` of ``paddle.tensor``, classic
``write_to_array``): a Python list at conversion time, then one stacked tensor.

The writes form a chain (``mo.front.paddle.graph`` for the classic format, ``PaddleArrayWriteChain`` for PIR):
each reads the array as the write before it left it (none, or ``create_array``: empty). Following the chain,
a write at index ``k`` of a list of ``n`` elements appends (``k == n``) or replaces (``k < n``); after each write
the array is its elements unsqueezed and concatenated on a new axis 0, the form the array ops of ``array_ext.py``
read. An index that is no constant, one past the end, or an array a loop filled first is refused.
"""
import numpy as np

from extensions.front.paddle.formulas import I64, port
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.rule import rewrite_node
from mo.graph.graph import Graph, Node
from mo.ops.concat import Concat
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def _index(node: Node) -> int:
    source = port(node, 'I').get_source().node
    value = source.soft_get('value', None) if source.soft_get('op') == 'Const' else None
    if value is None or np.size(value) != 1:
        raise Error('Paddle {} "{}": the index is computed at run time; mo converts writes to a tensor array at '
                    'constant indexes outside loops (and appends inside them)', node.paddle_op,
                    node.soft_get('name', node.id))
    return int(np.ravel(value)[0])


class PaddleStaticArrays(FrontReplacementPattern):
    """Writes to a tensor array at constant indexes -> the array as a stacked tensor after each write."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        writes = [node for node in graph.pseudo_topological_sort() if node.soft_get('op') == 'PaddleArrayWrite']
        lists = {}
        for node in writes:
            before = port(node, 'Array')
            source = before.get_source().node if before is not None else None
            if source is None or source.soft_get('op') == 'PaddleCreateArray':
                elements = []
            elif source.id in lists:
                elements = list(lists[source.id])
            else:
                raise Error('Paddle {} "{}" writes to a tensor array made by {} "{}"; mo converts writes to an '
                            'array that starts empty', node.paddle_op, node.soft_get('name', node.id),
                            source.soft_get('op'), source.soft_get('name', source.id))
            k = _index(node)
            if k < 0 or k > len(elements):
                raise Error('Paddle {} "{}" writes index {} of a tensor array of {} elements; Paddle fills the gap '
                            'with empty tensors, which mo does not convert', node.paddle_op,
                            node.soft_get('name', node.id), k, len(elements))
            element = port(node, 'X').get_source()
            elements[k:k + 1] = [element]
            lists[node.id] = elements
        # a classic array's writes are all named after it: each replacement takes its node's name, so all but the
        # last write get one of their own first
        names = [node.soft_get('name', node.id) for node in writes]
        for k, node in enumerate(writes):
            if names[k] in names[k + 1:]:
                node['name'] = '{}/write{}'.format(names[k], k)
        for node in reversed(writes):
            rewrite_node(node, lambda n, b, elements=lists[node.id]: [self._stacked(b, elements)],
                         type(self).__name__)
            self.match_count += 1

    @staticmethod
    def _stacked(b, elements):
        parts = [b.op(Unsqueeze, [e, b.const([0], 'element{}/axis'.format(k), I64)], 'element{}'.format(k))
                 for k, e in enumerate(elements)]
        if len(parts) == 1:
            return parts[0]
        return b.op(Concat, parts, 'stacked', axis=0, in_ports_count=len(parts))
