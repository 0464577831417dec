"""An MXNet model (symbol + params) -> the framework's graph (front phase: op nodes only).

Which files: ``--input_model PREFIX-EPOCH.params`` reads ``--input_symbol`` or else ``PREFIX-symbol.json`` beside
it; ``--input_model PREFIX-symbol.json`` reads the ``PREFIX-EPOCH.params`` beside it with the highest epoch
(none: a model without weights).

Conventions, as for ONNX graphs (``mo.front.onnx.loader``):

* every MXNet op node is an op node: ``op`` its MXNet op name, ``pb`` its ``symbol.Node`` (``pb.attr`` reads its
  attributes typed), ``name`` its name;
* a variable with an array in the params (``arg:``, ``aux:`` or unprefixed) is a ``Const`` whose ``value`` is a
  view of the mapped file; one without is a ``Parameter`` (``pb`` its node; ``__shape__`` its shape) unless it is
  a ``*_label`` input, which only losses read at training time and is left out;
* edges carry ``out``/``in``; output port ``k`` of node ``NAME`` carries the tensor name ``NAME`` (k = 0) or
  ``NAME:k``.
"""
import glob
import os
import re
from typing import Optional, Tuple

from mo.front.mxnet.params import Params, read_params
from mo.front.mxnet.symbol import Symbol, read_symbol
from mo.front.mxnet.wiring import add_edge, condition_inputs, name_port, while_loop_inputs
from mo.graph.graph import Graph
from mo.ops.body_io import input_name
from mo.utils.error import Error

#: endings of the variables that are weights or auxiliary states by MXNet's naming, never model inputs
WEIGHT_SUFFIXES = ('_weight', '_bias', '_gamma', '_beta', '_moving_mean', '_moving_var', '_running_mean',
                   '_running_var', '_parameters', '_alpha')
_EPOCH = re.compile(r'^(?P<prefix>.*)-(?P<epoch>\d+)\.params$')


def model_files(input_model: str, input_symbol: Optional[str] = None) -> Tuple[str, Optional[str]]:
    """``(symbol path, params path or None)`` of the model ``--input_model`` and ``--input_symbol`` name."""
    from mo.front.mxnet.symbol import sniff as is_symbol
    if is_symbol(input_model) and not input_symbol:
        base = os.path.basename(input_model)
        prefix = base[:-len('-symbol.json')] if base.endswith('-symbol.json') else os.path.splitext(base)[0]
        return input_model, _newest_params(os.path.dirname(input_model) or '.', prefix)
    params = input_model
    if input_symbol:
        return input_symbol, params
    match = _EPOCH.match(params)
    prefix = match.group('prefix') if match else os.path.splitext(params)[0]
    symbol = prefix + '-symbol.json'
    if not os.path.isfile(symbol):
        raise Error('"{}" has no symbol file beside it (looked for "{}")', params, symbol,
                    hint='name the graph with --input_symbol FILE')
    return symbol, params


def _newest_params(folder: str, prefix: str) -> Optional[str]:
    """``PREFIX-EPOCH.params`` in ``folder`` with the highest epoch, or None."""
    found = []
    for path in glob.glob(os.path.join(glob.escape(folder), glob.escape(prefix) + '-*.params')):
        match = _EPOCH.match(os.path.basename(path))
        if match and match.group('prefix') == prefix:
            found.append((int(match.group('epoch')), path))
    return max(found)[1] if found else None


def read_model(input_model: str, input_symbol: Optional[str] = None) -> Tuple[Symbol, Optional[Params]]:
    symbol_path, params_path = model_files(input_model, input_symbol)
    return read_symbol(symbol_path), read_params(params_path) if params_path else None


def weights_of(params) -> dict:
    """Every array of the params by its name without the ``arg:``/``aux:`` prefix (a dict: the weights already)."""
    if params is None:
        return {}
    if isinstance(params, dict):
        return params
    weights = dict(params.unprefixed)
    weights.update(params.arg_params)
    weights.update(params.aux_params)
    return weights


def _is_label(node) -> bool:
    return node.name == 'label' or node.name.endswith('_label')


def variable_roles(symbol: Symbol, weights: dict, inputs=()) -> dict:
    """``{variable index: 'weight' | 'input' | 'label'}``; an Error naming the weights the params lack, the arrays
    that belong to no variable, and arrays whose shape is not the one the symbol declares."""
    roles, missing = {}, []
    aux = {node.index for node in symbol.aux_variables}
    for node in symbol.variables:
        value = weights.get(node.name)
        if value is not None and node.name not in inputs:
            roles[node.index] = 'weight'
        elif node.name in inputs:
            roles[node.index] = 'input'
        elif _is_label(node):
            roles[node.index] = 'label'
        elif node.index in aux or node.name.endswith(WEIGHT_SUFFIXES):
            missing.append(node.name)
        else:
            roles[node.index] = 'input'
    if missing:
        raise Error('The params do not belong to the symbol "{}": they lack {} of its weights ({}{})', symbol.source,
                    len(missing), ', '.join(missing[:5]), ', ...' if len(missing) > 5 else '',
                    hint='give the .params file saved with this symbol')
    names = {node.name for node in symbol.variables}
    extra = [name for name in weights if name not in names]
    if extra:
        raise Error('The params do not belong to the symbol "{}": {} of their arrays are no variable of it ({}{})',
                    symbol.source, len(extra), ', '.join(extra[:5]), ', ...' if len(extra) > 5 else '',
                    hint='give the .params file saved with this symbol')
    for node in symbol.variables:
        declared = node.shape
        if roles.get(node.index) == 'weight' and declared and all(declared):
            if tuple(weights[node.name].shape) != tuple(declared):
                raise Error('The params do not belong to the symbol "{}": "{}" has shape {} where the symbol '
                            'declares {}', symbol.source, node.name, list(weights[node.name].shape), list(declared))
    return roles


def symbol2nx(graph: Graph, symbol: Symbol, params, inputs=(), body_inputs=None) -> Graph:
    """Load ``symbol`` with the arrays of ``params`` (a ``Params`` or the weights by name) into ``graph``; ``inputs``
    are variables to make graph inputs whatever the params hold (``--input`` names). ``body_inputs`` (a control-flow body's): {variable index: k},
    each variable the body's input k, a Parameter named ``input_name(k)``.

    The condition graph of a ``_cond`` or ``_while_loop`` is added to ``graph`` (``mo.front.mxnet.wiring``): OpenVINO's
    If and Loop take the (first) condition as an input; their bodies stay symbols of the node."""
    if body_inputs is None:
        weights = weights_of(params)
        roles = variable_roles(symbol, weights, set(inputs))
        check_weight_shapes(symbol, weights, roles)
    else:
        weights, roles = {}, {index: 'input' for index in body_inputs}
    made = {}  # symbol node index -> graph node id
    for node in symbol.nodes:
        if node.is_variable:
            role = roles[node.index]
            if role == 'label':
                continue
            name = node.name if body_inputs is None else input_name(body_inputs[node.index])
            node_id = graph.unique_id(name)
            if role == 'weight':
                graph.add_node(node_id, kind='op', op='Const', name=name, value=weights[node.name], pb=None)
            else:
                graph.add_node(node_id, kind='op', op='Parameter', name=name, pb=node)
        else:
            node_id = graph.unique_id(node.name)
            graph.add_node(node_id, kind='op', op=node.op, name=node.name, pb=node)
        made[node.index] = node_id
        for port in range(symbol.num_outputs(node.index) or 1):
            name_port(graph, node_id, port, node.name)
        sources = [(made[e.node], e.index, symbol.nodes[e.node].name) if e.node in made else None
                   for e in node.inputs]
        if node.op == '_cond' and node.subgraphs:
            sources = condition_inputs(graph, node, sources)
        elif node.op == '_while_loop' and node.subgraphs:
            sources = while_loop_inputs(graph, node, sources)
        for position, source in enumerate(sources):
            if source is not None:
                add_edge(graph, source, node_id, position)
    graph.graph['mxnet_heads'] = [(made[node], port) for node, port in symbol.heads if node in made]
    graph.graph['mxnet_ids'] = made
    graph.graph['mxnet_tensors'] = {}
    for node in symbol.nodes:
        if node.index in made:
            for port in range(symbol.num_outputs(node.index) or 1):
                graph.graph['mxnet_tensors'][node.name if port == 0 else '{}:{}'.format(node.name, port)] = (
                    made[node.index], port)
    graph.graph['source_format'] = 'mxnet'
    return graph


def _expected_shapes(node) -> dict:
    """``{input position: shape with None for a size the attributes do not fix}`` of the weights of ``node``, as
    its attributes give them (Convolution, Deconvolution, FullyConnected, BatchNorm, Embedding)."""
    attr = node.attr
    if node.op in ('Convolution', 'Deconvolution'):
        kernel = tuple(attr.tuple('kernel', ()) or ())
        filters, groups = attr.int('num_filter', None), attr.int('num_group', 1) or 1
        if node.op == 'Convolution':
            weight = (filters, None) + kernel
        else:
            weight = (None, filters // groups if filters else None) + kernel
        return {1: weight, 2: (filters,)}
    if node.op == 'FullyConnected':
        hidden = attr.int('num_hidden', None)
        return {1: (hidden, None), 2: (hidden,)}
    if node.op == 'BatchNorm':
        return {1: (None,), 2: (None,), 3: (None,), 4: (None,)}  # gamma, beta, mean, var: one length
    if node.op == 'Embedding':
        return {1: (attr.int('input_dim', None), attr.int('output_dim', None))}
    return {}


def check_weight_shapes(symbol: Symbol, weights: dict, roles: dict):
    """An Error when a weight's shape is not one its op's attributes allow (a params file of another model)."""
    for node in symbol.nodes:
        if node.is_variable:
            continue
        sizes = set()
        for position, expected in _expected_shapes(node).items():
            if position >= len(node.inputs):
                continue
            source = symbol.nodes[node.inputs[position].node]
            if roles.get(source.index) != 'weight':
                continue
            actual = tuple(weights[source.name].shape)
            fits = len(actual) == len(expected) and all(e is None or a == e for a, e in zip(actual, expected))
            if node.op == 'BatchNorm':
                sizes.add(actual)
                fits = len(actual) == 1 and len(sizes) == 1
            if not fits:
                raise Error('The params do not belong to the symbol "{}": "{}" has shape {}, which {} "{}" does '
                            'not take', symbol.source, source.name, list(actual), node.op, node.name,
                            hint='give the .params file saved with this symbol')
