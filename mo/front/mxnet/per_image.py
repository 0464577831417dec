"""MXNet detection ops that compute each image of a batch on its own, as a TensorIterator over the batch whose body
is the same op on one image (``[1, ...]`` slices), converted by the rule that knows the one-image case.

The body is a symbol of its own made here: one variable per op input (the inputs ``sliced`` along axis 0, then those
every image shares), the op with its attributes, and an ``expand_dims`` of axis 0 on each output whose per-image
value has no batch axis (``_contrib_Proposal``'s ``[post, 5]`` rois), so that every per-step output has a leading
axis of 1 for the TensorIterator to stack. Inside the body, ``in_image_body(graph)`` is True: the op's rule lowers
the one-image case there.
"""
from mo.front.mxnet.loader import symbol2nx
from mo.front.mxnet.symbol import Entry, Node as SymbolNode, Symbol
from mo.graph import body_conversion
from mo.graph.graph import Graph, Node
from mo.utils.error import Error

_IMAGE_BODY = 'mxnet_image_body'


def in_image_body(graph: Graph) -> bool:
    """Whether ``graph`` is the per-image body of a batch (the op's rule then lowers the one-image case)."""
    return bool(graph.graph.get(_IMAGE_BODY))


def image_symbol(op: SymbolNode, count: int, outputs: int, add_batch_axis: bool) -> Symbol:
    """A symbol computing ``op`` on ``count`` variables (body inputs 0..count-1), its heads the op's ``outputs``
    outputs, each given a leading axis of 1 when ``add_batch_axis``."""
    nodes = [SymbolNode(k, 'null', 'image_input_{}'.format(k), [], {}) for k in range(count)]
    nodes.append(SymbolNode(count, op.op, op.name, [Entry(k, 0) for k in range(count)], dict(op.attrs)))
    heads = [(count, j) for j in range(outputs)]
    if add_batch_axis:
        for j in range(outputs):
            nodes.append(SymbolNode(len(nodes), 'expand_dims', '{}/image_{}'.format(op.name, j), [Entry(count, j)],
                                    {'axis': '0'}))
        heads = [(count + 1 + j, 0) for j in range(outputs)]
    return Symbol(nodes=nodes, arg_nodes=list(range(count)), heads=heads, node_row_ptr=None,
                  source='<{} on one image>'.format(op.name))


def image_body(node: Node, specs: list) -> Graph:
    """The body of TensorIterator ``node`` (``mxnet_image_symbol`` its symbol) for inputs of ``specs``."""
    symbol = node.mxnet_image_symbol
    key = ('mxnet-image', id(symbol), tuple((s.dtype.str, tuple(s.shape)) for s in specs))

    def make_graph():
        graph = Graph(cmd_params={'framework': 'mxnet', 'sub_graph': True}, source_format='mxnet', layout='NCHW')
        symbol2nx(graph, symbol, None, body_inputs={k: k for k in range(len(symbol.variables))})
        for parameter in graph.get_op_nodes(op='Parameter'):
            k = int(parameter.name[len('body_input_'):])
            parameter['user_shape'], parameter['user_dtype'] = list(specs[k].shape), specs[k].dtype
        graph.graph['mxnet_body'] = True
        graph.graph[_IMAGE_BODY] = True
        return graph

    try:
        return body_conversion.convert_body(key, make_graph)
    except Error as exc:
        raise Error('{} on one image of the batch: {}', symbol.source.strip('<>').split(' on ')[0], exc) from exc
