"""Graph JSON of older MXNet versions brought to the form MXNet 1.x writes, as MXNet upgrades it on load.

``mo.front.mxnet.symbol`` has already merged the 0.8 attribute keys (``param``, ``attr``) into ``attrs`` and
checked every index; ``upgrade`` then, on the same plain dicts:

* renames the hidden attributes (``lr_mult``, ``wd_mult``, ``ctx_group``, ``force_mirroring``,
  ``mirror_stage``) to their ``__KEY__`` form; an op's ``ARG_KEY`` (``weight_lr_mult``)
  goes to its input variable ``OPNAME_ARG`` as ``__KEY__``, when that input is such a variable;
* before 0.9.0: adds BatchNorm's auxiliary inputs (``NAME_moving_mean``, ``NAME_moving_var``), which those
  files did not store, as new variables placed just before the BatchNorm, renumbering the graph;
* before 0.9.5: drops ``axis=-1`` from ``argmax``/``argmin``, which then meant "no axis" (the flattened
  input), as a missing axis does today.

MXNet runs its upgraders by the file's ``mxnet_version``; files without one are 0.8.0. Not redone: the
``__init__`` attributes that MXNet 0.9.4 gives BatchNorm's moving statistics (initializers, not inference).
Unlike MXNet, the added auxiliary inputs are read with version 1, as a freshly composed BatchNorm's are, so
``Symbol.aux_variables`` finds them.
"""
from typing import Optional

#: the attributes that MXNet keeps as ``__KEY__`` and that old files wrote bare
HIDDEN_KEYS = ('ctx_group', 'lr_mult', 'wd_mult', 'force_mirroring', 'mirror_stage')

#: MXNET_MAKE_VERSION(major, minor, patch) = major * 10000 + minor * 100 + patch
VERSION_0_8_0 = 800
VERSION_0_9_0 = 900
VERSION_0_9_5 = 905

#: ops whose last inputs are auxiliary states that 0.8 files left out: op -> their argument names
_AUX_INPUTS = {'BatchNorm': ('moving_mean', 'moving_var')}
_AUX_AFTER = {'BatchNorm': 3}  # data, gamma, beta come first


def upgrade(graph: dict, version: Optional[int]):
    """Upgrade ``graph`` (``{'nodes', 'arg_nodes', 'heads', 'node_row_ptr'}`` of plain dicts and lists, the
    nodes with ``attrs`` and ``[node, output, version]`` inputs) in place from MXNet ``version``."""
    version = VERSION_0_8_0 if version is None else version
    _rename_hidden_keys(graph['nodes'])
    if version < VERSION_0_9_0:
        _add_aux_inputs(graph)
    if version < VERSION_0_9_5:
        for node in graph['nodes']:
            if node['op'] in ('argmax', 'argmin') and node['attrs'].get('axis') == '-1':
                del node['attrs']['axis']


def _rename_hidden_keys(nodes):
    for node in nodes:
        attrs = node['attrs']
        for key in list(attrs):
            if key.startswith('__'):
                continue
            for hidden in HIDDEN_KEYS:
                if key == hidden:
                    attrs['__{}__'.format(hidden)] = attrs.pop(key)
                    break
                if key.endswith('_' + hidden) and node['op'] != 'null':
                    # MXNet finds the argument by the op's input names; mo reads no op table here, so the
                    # input is found by MXNet's default variable name for it, OPNAME_ARG
                    target = '{}_{}'.format(node['name'], key[:-len(hidden) - 1])
                    for input_id, _, _ in node['inputs']:
                        variable = nodes[input_id]
                        if variable['op'] == 'null' and variable['name'] == target:
                            variable['attrs']['__{}__'.format(hidden)] = attrs.pop(key)
                            break
                    break


def _add_aux_inputs(graph: dict):
    old_nodes = graph['nodes']
    missing = {index: _AUX_INPUTS[node['op']] for index, node in enumerate(old_nodes)
               if node['op'] in _AUX_INPUTS and len(node['inputs']) == _AUX_AFTER[node['op']]}
    if not missing:
        return
    nodes, new_index, added = [], {}, []
    for index, node in enumerate(old_nodes):
        # inputs point to earlier nodes, which are renumbered already
        node['inputs'] = [[new_index[node_id], out, ver] for node_id, out, ver in node['inputs']]
        for arg in missing.get(index, ()):
            added.append(len(nodes))
            # MXNet gives the new variable the op's attributes, as a variable made by composing the op gets
            nodes.append({'op': 'null', 'name': '{}_{}'.format(node['name'], arg), 'attrs': dict(node['attrs']),
                          'inputs': [], 'control_deps': [], 'subgraphs': []})
            # version 1: the op updates it in place, which is what marks an auxiliary state
            node['inputs'].append([len(nodes) - 1, 0, 1])
        new_index[index] = len(nodes)
        nodes.append(node)
    # a control dependency may point forward: map them once every node has its place
    for node in old_nodes:
        node['control_deps'] = [new_index[dep] for dep in node['control_deps']]
    graph['nodes'] = nodes
    graph['arg_nodes'] = sorted([new_index[i] for i in graph['arg_nodes']] + added)
    graph['heads'] = [[new_index[node_id], out, ver] for node_id, out, ver in graph['heads']]
    row_ptr = graph['node_row_ptr']
    if row_ptr is not None:
        counts = [row_ptr[i + 1] - row_ptr[i] for i in range(len(old_nodes))]
        new_counts = [1] * len(nodes)
        for old, new in new_index.items():
            new_counts[new] = counts[old]
        graph['node_row_ptr'] = [0]
        for count in new_counts:
            graph['node_row_ptr'].append(graph['node_row_ptr'][-1] + count)
