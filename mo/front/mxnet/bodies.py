"""The branches of MXNet's ``_cond`` and the body of its ``_while_loop`` converted as bodies of OpenVINO's If and
Loop (``mo.ops.loop``).

A branch is a symbol of its own whose variables are inputs of the ``_cond`` node (``then_input_locs``,
``else_input_locs``): it is loaded as a model is (``symbol2nx``), each variable the If's input of the node input it
names (a Parameter ``input_name(k)`` of the shape and type inferred for it), its heads the Results
``output_name(k)``, and converted by the whole pipeline (``mo.graph.body_conversion``).
"""
from mo.front.mxnet.loader import symbol2nx
from mo.front.mxnet.wiring import as_bool, inline_symbol, loop_order
from mo.graph import body_conversion
from mo.graph.graph import Graph, Node
from mo.ops.body_io import input_name
from mo.utils.error import Error

#: the If's tags and the ``_cond`` node's subgraph and input-location attribute of each
BRANCHES = {'then_body': (1, 'then_input_locs'), 'else_body': (2, 'else_input_locs')}


def build_branch(node: Node, tag: str, specs: list) -> Graph:
    """Branch ``tag`` of If ``node`` (made from a ``_cond`` node: ``mxnet_cond`` its symbol node) converted for
    inputs of ``specs`` (BodyInput of If input k + 1 each)."""
    cond = node.mxnet_cond
    index, locs_attr = BRANCHES[tag]
    branch = cond.subgraphs[index]
    locs = list(cond.attr.tuple(locs_attr))
    if len(locs) != len(branch.variables):
        raise Error('_cond "{}": {} names {} inputs for the {} variables of its branch', cond.name, locs_attr,
                    len(locs), len(branch.variables))
    key = ('mxnet', id(branch), tuple(locs), tuple((s.dtype.str, tuple(s.shape)) for s in specs))

    def make_graph():
        graph = Graph(cmd_params={'framework': 'mxnet', 'sub_graph': True}, source_format='mxnet', layout='NCHW')
        symbol2nx(graph, branch, None, body_inputs={v.index: loc for v, loc in zip(branch.variables, locs)})
        for parameter in graph.get_op_nodes(op='Parameter'):
            k = int(parameter.name[len('body_input_'):])
            parameter['user_shape'], parameter['user_dtype'] = list(specs[k].shape), specs[k].dtype
        graph.graph['mxnet_body'] = True
        return graph

    try:
        return body_conversion.convert_body(key, make_graph)
    except Error as exc:
        raise Error('The {} branch of _cond "{}": {}', tag.split('_')[0], cond.name, exc) from exc


def while_body(node: Node, specs: list) -> Graph:
    """The body of Loop ``node`` (made from a ``_while_loop``: ``mxnet_loop`` its symbol node) for variables of
    ``specs``: MXNet's func on the variables (``loop_order``), then its cond on the new values. Results: 0 the
    condition (as bool), j + 1 loop variable j's new value; the inputs only read pass through unchanged."""
    loop = node.mxnet_loop
    cond, func = loop.subgraphs[0], loop.subgraphs[1]
    order = loop_order(loop)
    func_locs = list(loop.attr.tuple('func_input_locs'))
    cond_locs = list(loop.attr.tuple('cond_input_locs'))
    outputs = loop.attr.int('num_out_data', 0)
    count = len(loop.attr.tuple('func_var_locs'))
    key = ('mxnet', id(loop), tuple((s.dtype.str, tuple(s.shape)) for s in specs))

    def make_graph():
        graph = Graph(cmd_params={'framework': 'mxnet', 'sub_graph': True}, source_format='mxnet', layout='NCHW')
        symbol2nx(graph, func, None, body_inputs={v.index: order.index(func_locs[t])
                                                  for t, v in enumerate(func.variables)})
        made = graph.graph['mxnet_ids']
        new = [(made[index], port, func.nodes[index].name) for index, port in func.heads[outputs:outputs + count]]
        variables = {}
        for k, variable in enumerate(cond.variables):
            position = order.index(cond_locs[k])
            variables[variable.index] = new[position] if position < count else _parameter(graph, position)
        (test,) = inline_symbol(graph, cond, variables, 'cond')[:1]
        test = as_bool(graph, test, 'cond/bool')
        graph.graph['mxnet_heads'] = [test[:2]] + [item[:2] for item in new]
        for parameter in graph.get_op_nodes(op='Parameter'):
            k = int(parameter.name[len('body_input_'):])
            parameter['user_shape'], parameter['user_dtype'] = list(specs[k].shape), specs[k].dtype
        graph.graph['mxnet_body'] = True
        return graph

    try:
        return body_conversion.convert_body(key, make_graph)
    except Error as exc:
        raise Error('The body of _while_loop "{}": {}', loop.name, exc) from exc


def _parameter(graph: Graph, k: int):
    """The body's Parameter for input ``k`` (made when func does not read it): an output for the cond graph."""
    name = input_name(k)
    found = [n for n in graph.get_op_nodes(op='Parameter') if n.name == name]
    if found:
        return found[0].id, 0, name
    node_id = graph.unique_id(name)
    graph.add_node(node_id, kind='op', op='Parameter', name=name, pb=None)
    return node_id, 0, name
