"""The branches of MXNet's ``_cond`` converted as bodies of OpenVINO's If (``mo.ops.loop.If``).

A branch is a symbol of its own whose variables are inputs of the ``_cond`` node (``then_input_locs``,
``else_input_locs``): it is loaded as a model is (``symbol2nx``), each variable the If's input of the node input it
names (a Parameter ``input_name(k)`` of the shape and type inferred for it), its heads the Results
``output_name(k)``, and converted by the whole pipeline (``mo.graph.body_conversion``).
"""
from mo.front.mxnet.loader import symbol2nx
from mo.graph import body_conversion
from mo.graph.graph import Graph, Node
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
