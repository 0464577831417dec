"""Wiring MXNet symbols into a front graph: edges with their tensor names, sub-symbols inlined, and the inputs
MXNet's control-flow nodes get from the loader (``mo.front.mxnet.loader``, ``mo.front.mxnet.bodies``).

An output is ``(node id, port, MXNet name of the producer)``; output port k of node ``NAME`` carries the tensor
name ``NAME`` (k = 0) or ``NAME:k``.
"""
import numpy as np

from mo.front.mxnet.symbol import Node as SymbolNode
from mo.graph.graph import Graph
from mo.graph.port import own_port_table, writable_port_record


def name_port(graph: Graph, node_id: str, port: int, name: str):
    writable_port_record(own_port_table(graph.nodes[node_id], '_out_ports'), port)['tensor_names'] = [
        name if port == 0 else '{}:{}'.format(name, port)]


def add_edge(graph: Graph, source, target: str, position: int):
    """Connect output ``source`` to input ``position`` of ``target``."""
    node_id, port, name = source
    if port not in own_port_table(graph.nodes[node_id], '_out_ports'):
        name_port(graph, node_id, port, name)
    graph.add_edge(node_id, target, **{'out': port, 'in': position})


def inline_symbol(graph: Graph, symbol, variables: dict, prefix: str) -> list:
    """Add the op nodes of ``symbol`` to ``graph`` (named ``PREFIX/NAME``), its variables read from the outputs
    ``variables`` gives ({variable index: output}); the outputs of its heads."""
    made = dict(variables)

    def source(index, port):
        node_id, own_port, name = made[index]
        return node_id, port if own_port is None else own_port, name  # a variable stands for one output

    for inner in symbol.nodes:
        if inner.is_variable:
            continue
        name = '{}/{}'.format(prefix, inner.name)
        node_id = graph.unique_id(name)
        graph.add_node(node_id, kind='op', op=inner.op, name=name, pb=inner)
        for position, entry in enumerate(inner.inputs):
            add_edge(graph, source(entry.node, entry.index), node_id, position)
        made[inner.index] = (node_id, None, name)
    return [source(index, port) for index, port in symbol.heads]


def as_bool(graph: Graph, source, name: str):
    """``source`` cast to bool (a Cast node, as MXNet would write it): MXNet's conditions are numbers."""
    return _mxnet_node(graph, 'Cast', {'dtype': 'bool'}, source, name)


def condition_inputs(graph: Graph, node, inputs: list) -> list:
    """A ``_cond`` node's inputs: its condition graph's output (added to ``graph``, reading the inputs
    ``cond_input_locs`` names), then the node's own inputs."""
    locs = list(node.attr.tuple('cond_input_locs'))
    condition = node.subgraphs[0]
    variables = {v.index: inputs[locs[k]] for k, v in enumerate(condition.variables)}
    return inline_symbol(graph, condition, variables, node.name + '/cond')[:1] + inputs


def loop_order(node) -> list:
    """The node inputs of a ``_while_loop`` in the order of the Loop's variables: the loop variables (MXNet's
    ``loop_vars``), then the inputs only read."""
    func_locs = list(node.attr.tuple('func_input_locs'))
    variables = [func_locs[k] for k in node.attr.tuple('func_var_locs')]
    count = len(node.inputs)
    return variables + [t for t in range(count) if t not in variables]


def while_loop_inputs(graph: Graph, node, inputs: list) -> list:
    """A ``_while_loop`` node's inputs as OpenVINO's Loop takes them: max_iterations, the condition of the initial
    values (its graph added to ``graph``), then the node's inputs in ``loop_order``."""
    locs = list(node.attr.tuple('cond_input_locs'))
    condition = node.subgraphs[0]
    variables = {v.index: inputs[locs[k]] for k, v in enumerate(condition.variables)}
    (first,) = inline_symbol(graph, condition, variables, node.name + '/first_cond')[:1]
    first = as_bool(graph, first, node.name + '/first_cond/bool')
    trips_id = graph.unique_id(node.name + '/max_iterations')
    graph.add_node(trips_id, kind='op', op='Const', name=trips_id, pb=None,
                   value=np.array(node.attr.int('max_iterations'), np.int64))
    return [(trips_id, 0, trips_id), first] + [inputs[t] for t in loop_order(node)]


def _mxnet_node(graph: Graph, op: str, attrs: dict, source, name: str):
    node = SymbolNode(-1, op, name, [], attrs)
    node_id = graph.unique_id(name)
    graph.add_node(node_id, kind='op', op=op, name=name, pb=node)
    add_edge(graph, source, node_id, 0)
    return node_id, 0, name


def squeeze_axis0(graph: Graph, source, name: str):
    """``source`` without its axis 0 (a squeeze node, as MXNet would write it)."""
    return _mxnet_node(graph, 'squeeze', {'axis': '(0,)'}, source, name)


def expand_dims(graph: Graph, source, name: str):
    """``source`` with a new axis 0 (an expand_dims node, as MXNet would write it)."""
    return _mxnet_node(graph, 'expand_dims', {'axis': '0'}, source, name)
