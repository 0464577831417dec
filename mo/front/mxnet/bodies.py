"""The branches of MXNet's ``_cond`` and the bodies of its ``_while_loop`` and ``_foreach`` converted as bodies of
OpenVINO's If, Loop (``mo.ops.loop``) and TensorIterator (``extensions.ops.tensor_iterator``).

A branch is a symbol of its own whose variables are inputs of the ``_cond`` node (``then_input_locs``,
``else_input_locs``): it is loaded as a model is (``symbol2nx``), each variable the If's input of the node input it
names (a Parameter ``input_name(k)`` of the shape and type inferred for it), its heads the Results
``output_name(k)``, and converted by the whole pipeline (``mo.graph.body_conversion``).
"""
from mo.front.mxnet.loader import symbol2nx
from mo.front.mxnet.wiring import as_bool, expand_dims, inline_symbol, loop_order, squeeze_axis0
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
        graph = body_conversion.body_graph('mxnet')
        symbol2nx(graph, branch, None, body_inputs={v.index: loc for v, loc in zip(branch.variables, locs)})
        return _as_body(graph, specs)

    where = 'The {} branch of _cond "{}"'.format(tag.split('_')[0], cond.name)
    return body_conversion.convert_body(key, make_graph, where)


def while_body(node: Node, specs: list) -> Graph:
    """The body of Loop ``node`` (made from a ``_while_loop``: ``mxnet_loop`` its symbol node) for variables of
    ``specs``: MXNet's func on the variables (``loop_order``), then its cond on the new values. Results: 0 the
    condition (as bool), j + 1 loop variable j's new value (the inputs only read pass through unchanged), then
    count + 1 + i func's per-step output i with a new axis 0, for the Loop to stack."""
    loop = node.mxnet_loop
    cond, func = loop.subgraphs[0], loop.subgraphs[1]
    order = loop_order(loop)
    func_locs = list(loop.attr.tuple('func_input_locs'))
    cond_locs = list(loop.attr.tuple('cond_input_locs'))
    outputs = loop.attr.int('num_out_data', 0)
    count = len(loop.attr.tuple('func_var_locs'))
    key = ('mxnet', id(loop), tuple((s.dtype.str, tuple(s.shape)) for s in specs))

    def make_graph():
        graph = body_conversion.body_graph('mxnet')
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
        steps = [expand_dims(graph, (made[index], port, func.nodes[index].name), 'step_output_{}'.format(i))
                 for i, (index, port) in enumerate(func.heads[:outputs])]
        graph.graph['mxnet_heads'] = [test[:2]] + [item[:2] for item in new] + [item[:2] for item in steps]
        return _as_body(graph, specs)

    return body_conversion.convert_body(key, make_graph, 'The body of _while_loop "{}"'.format(loop.name))


def _as_body(graph: Graph, specs: list) -> Graph:
    """``graph`` with its Parameters (``input_name(k)``) of the shapes and types of ``specs``, marked a body (its
    Results are then named ``output_name(k)``)."""
    for parameter in graph.get_op_nodes(op='Parameter'):
        k = int(parameter.name[len('body_input_'):])
        parameter['user_shape'], parameter['user_dtype'] = list(specs[k].shape), specs[k].dtype
    graph.graph['mxnet_body'] = True
    return graph


def _parameter(graph: Graph, k: int):
    """The body's Parameter for input ``k`` (made when func does not read it): an output for the cond graph."""
    name = input_name(k)
    found = [n for n in graph.get_op_nodes(op='Parameter') if n.name == name]
    if found:
        return found[0].id, 0, name
    node_id = graph.unique_id(name)
    graph.add_node(node_id, kind='op', op='Parameter', name=name, pb=None)
    return node_id, 0, name


def foreach_body(node: Node, specs: list) -> Graph:
    """The body of TensorIterator ``node`` (made from a ``_foreach``: ``mxnet_foreach`` its symbol node) for inputs
    of ``specs``: the body symbol, each data input's step squeezed out of axis 0 and each per-step output given it
    back; Results: the per-step outputs, then the new states."""
    foreach = node.mxnet_foreach
    body = foreach.subgraphs[0]
    attr = foreach.attr
    data, states, free = (list(attr.tuple(k, ()) or ()) for k in ('in_data_locs', 'in_state_locs', 'remain_locs'))
    inputs = {}  # body variable position -> node input
    for k, position in enumerate(data + states + free):
        inputs[position] = k
    outputs = attr.int('num_out_data', 0)
    key = ('mxnet', id(foreach), tuple((s.dtype.str, tuple(s.shape)) for s in specs))

    def make_graph():
        graph = body_conversion.body_graph('mxnet')
        symbol2nx(graph, body, None, body_inputs={v.index: inputs[t] for t, v in enumerate(body.variables)})
        made = graph.graph['mxnet_ids']
        for t, variable in enumerate(body.variables):
            if inputs[t] < len(data) and variable.index in made:
                _step_of(graph, made[variable.index])
        heads = graph.graph['mxnet_heads']
        stacked = [expand_dims(graph, (node_id, port, body.nodes[index].name), 'step_output_{}'.format(j))
                   for j, ((node_id, port), (index, _)) in enumerate(zip(heads[:outputs], body.heads[:outputs]))]
        graph.graph['mxnet_heads'] = [item[:2] for item in stacked] + heads[outputs:]
        return _as_body(graph, specs)

    return body_conversion.convert_body(key, make_graph, 'The body of _foreach "{}"'.format(foreach.name))


def _step_of(graph: Graph, parameter_id: str):
    """The readers of a sliced input's Parameter read it through a squeeze of axis 0 (the step's slice)."""
    readers = list(graph.out_edges(parameter_id, keys=True, data=True))
    name = graph.nodes[parameter_id]['name'] + '/step'
    squeeze = squeeze_axis0(graph, (parameter_id, 0, graph.nodes[parameter_id]['name']), name)
    for _, target, key, attrs in readers:
        graph.remove_edge(parameter_id, target, key)
        graph.add_edge(squeeze[0], target, **dict(attrs, out=0))
