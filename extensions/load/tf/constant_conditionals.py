"""Load phase: a functional conditional whose predicate is a constant becomes the branch it takes.

TensorFlow code often decides at trace time in graph form: ``tf.image.non_max_suppression_padded``
branches on Python flags turned into ``LogicalNot(Const)``, Keras layers on ``training``. Once
load-time folding has made such a predicate a ``Const``, the ``If``/``StatelessIf`` (or the
``Case``/``StatelessCase`` on a constant index) is replaced by the function of the taken branch,
inlined, so the IR holds a plain computation rather than an ``If`` that always goes one way.
"""
import numpy as np

from extensions.load.tf.function_inlining import inline_call, inline_functions
from mo.graph.graph import Graph

IF_OPS = ('If', 'StatelessIf')
CASE_OPS = ('Case', 'StatelessCase')


def _constant_input(graph: Graph, node_id):
    """The value of the node's data input 0 when a Const gives it, else None."""
    for source, _, attrs in graph.in_edge_list(node_id, data_only=True):
        if attrs['in'] == 0:
            data = graph.node_attrs(source)
            if data.get('op') == 'Const' and isinstance(data.get('value'), np.ndarray):
                return data['value']
            return None
    return None


def _taken_function(pb, value) -> str:
    """The name of the function a conditional with predicate (or branch index) ``value`` runs."""
    flat = np.asarray(value).reshape(-1)
    if flat.size != 1:  # TF's If takes a non-scalar predicate as "is not empty"; leave that one alone
        return ''
    if pb.op in IF_OPS:
        return pb.attr['then_branch' if bool(flat[0]) else 'else_branch'].func.name
    branches = [f.name for f in pb.attr['branches'].list.func]
    index = int(flat[0])
    return branches[index if 0 <= index < len(branches) else -1] if branches else ''  # TF: last branch


def _drop_predicate(graph: Graph, node_id):
    """Remove data input 0 and number the others from 0: the branch function's arguments."""
    for source, _, key, attrs in list(graph.in_edges(node_id, keys=True, data=True)):
        if attrs.get('control_flow_edge'):
            continue
        graph.remove_edge(source, node_id, key)
        if attrs['in'] > 0:
            graph.add_edge(source, node_id, **dict(attrs, **{'in': attrs['in'] - 1}))


def take_constant_branches(graph: Graph) -> int:
    """Replace every If/Case with a constant predicate by its taken branch, inlined; returns how many."""
    if not any(graph.count_by_attr('op', op) for op in IF_OPS + CASE_OPS):  # the op index: no pass over the graph
        return 0
    library = graph.graph.get('tf_library')
    functions = {f.signature.name: f for f in library.function} if library is not None else {}
    count = 0
    for node_id in [n for n, d in graph.nodes(data=True) if d.get('op') in IF_OPS + CASE_OPS]:
        data = graph.node_attrs(node_id)
        value = _constant_input(graph, node_id)
        if value is None or data.get('pb') is None:
            continue
        fdef = functions.get(_taken_function(data['pb'], value))
        if fdef is None:
            continue
        _drop_predicate(graph, node_id)
        data['op'] = 'PartitionedCall'  # a call: the branch's attributes need no "$name" resolving
        inline_call(graph, node_id, fdef, functions)
        count += 1
    if count:
        inline_functions(graph)  # the calls inside the branches
    return count
