"""MXNet graph files (``NAME-symbol.json``, NNVM's graph JSON) read into plain dataclasses.

The file is one JSON object::

    {"nodes": [{"op": "null", "name": "data", "attrs": {...}, "inputs": []},
               {"op": "Convolution", "name": "conv0", "attrs": {"kernel": "(3, 3)", ...},
                "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}, ...],
     "arg_nodes": [0, 1, 2, ...], "node_row_ptr": [0, 1, 2, ...], "heads": [[5, 0, 0]],
     "attrs": {"mxnet_version": ["int", 10901]}}

Nodes are listed in topological order; a variable (an input, weight or auxiliary state) has op ``"null"``.
An input is ``[node, output index, version]`` (older files: ``[node, output index]``); a version above 0
marks a variable that its reader updates in place, an auxiliary state such as BatchNorm's moving mean.
``node_row_ptr[i + 1] - node_row_ptr[i]`` is node i's output count. Attribute values are strings (see
``mo.front.mxnet.attrs``). Files from MXNet before 0.9 keep attributes under ``param``/``attr`` and lack some
inputs: ``mo.front.mxnet.legacy`` brings them to today's form first, as MXNet does when it loads them.
"""
import json
import mmap
import os
from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from mo.front.mxnet import legacy
from mo.front.mxnet.attrs import Attrs
from mo.front.mxnet.dtypes import np_dtype
from mo.utils.error import Error


class Entry(NamedTuple):
    """One input of a node: output ``index`` of node ``node`` (indices into ``Symbol.nodes``)."""
    node: int
    index: int
    version: int = 0


@dataclass
class Node:
    """One graph node. ``attrs`` are MXNet's strings as written (upgraded from older files' keys);
    ``attr`` reads them typed. ``subgraphs`` are the bodies of control-flow ops (``_foreach``,
    ``_while_loop``, ``_cond``), each a ``Symbol`` of its own."""
    index: int
    op: str
    name: str
    inputs: List[Entry]
    attrs: Dict[str, str]
    control_deps: List[int] = field(default_factory=list)
    subgraphs: List['Symbol'] = field(default_factory=list)

    @property
    def is_variable(self) -> bool:
        """True for a variable (op ``null``): a graph input, weight or auxiliary state."""
        return self.op == 'null'

    @property
    def attr(self) -> Attrs:
        """The attributes as typed values, with this node named in conversion Errors."""
        return Attrs(self.attrs, 'MXNet node "{}" ({})'.format(self.name, self.op))

    @property
    def shape(self) -> Optional[Tuple]:
        """A variable's declared ``__shape__`` (MXNet's 0 is an unknown dim), else None."""
        return self.attr.tuple('__shape__', None)

    @property
    def dtype(self) -> Optional[np.dtype]:
        """A variable's declared ``__dtype__`` (an MXNet type flag) as a numpy dtype, else None."""
        flag = self.attr.int('__dtype__', None)
        return None if flag is None else np_dtype(flag, 'MXNet variable "{}"'.format(self.name))


@dataclass
class Symbol:
    """A whole graph: ``nodes`` in file (topological) order, ``heads`` as (node index, output index) pairs,
    ``version`` the writer's ``mxnet_version`` (10901 is 1.9.1; None in files older than 0.9)."""
    nodes: List[Node]
    arg_nodes: List[int]
    heads: List[Tuple[int, int]]
    node_row_ptr: Optional[List[int]] = None
    version: Optional[int] = None
    attrs: Dict[str, object] = field(default_factory=dict)
    source: str = '<string>'

    @property
    def variables(self) -> List[Node]:
        """The variable nodes (op ``null``) in file order."""
        return [node for node in self.nodes if node.is_variable]

    @property
    def aux_variables(self) -> List[Node]:
        """The variables some op updates in place (read with a version above 0): MXNet's auxiliary states,
        saved as ``aux:NAME`` in ``.params``. Empty for files whose inputs carry no versions."""
        mutated = {entry.node for node in self.nodes for entry in node.inputs if entry.version > 0}
        return [node for node in self.nodes if node.is_variable and node.index in mutated]

    def num_outputs(self, index: int) -> Optional[int]:
        """Node ``index``'s output count as the file records it (``node_row_ptr``), or None without it."""
        if self.node_row_ptr is None:
            return None
        return self.node_row_ptr[index + 1] - self.node_row_ptr[index]

    def find(self, name: str) -> Node:
        """The first node called ``name``; KeyError when there is none."""
        for node in self.nodes:
            if node.name == name:
                return node
        raise KeyError(name)


def _ints(value, length: Tuple[int, ...] = ()) -> bool:
    """``value`` is a list of ints, of one of the lengths ``length`` (any length when empty)."""
    return (isinstance(value, list) and (not length or len(value) in length)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value))


def _raw_node(raw, index: int, source: str) -> dict:
    """A node object checked for form and given today's keys (attributes under ``attrs``)."""
    if not isinstance(raw, dict) or not isinstance(raw.get('op'), str) or not isinstance(raw.get('name'), str):
        raise Error('"{}" is not a valid MXNet symbol: node {} is not an object with string "op" and "name"',
                    source, index)
    attrs = {}
    # MXNet 0.8 wrote op parameters under "param" and user attributes under "attr"; NNVM writes "attrs"
    for key in ('param', 'attr', 'attrs'):
        values = raw.get(key) or {}
        if not isinstance(values, dict):
            raise Error('"{}" is not a valid MXNet symbol: node {} ("{}") has "{}" that is no object', source,
                        index, raw['name'], key)
        attrs.update({str(k): v if isinstance(v, str) else json.dumps(v) for k, v in values.items()})
    inputs = raw.get('inputs', [])
    if not isinstance(inputs, list) or not all(_ints(entry, (2, 3)) for entry in inputs):
        raise Error('"{}" is not a valid MXNet symbol: node {} ("{}") has inputs that are not '
                    '[node, output, version] lists', source, index, raw['name'])
    deps = raw.get('control_deps', [])
    if not _ints(deps):
        raise Error('"{}" is not a valid MXNet symbol: node {} ("{}") has control_deps that are not node indices',
                    source, index, raw['name'])
    subgraphs = raw.get('subgraphs', [])
    if not isinstance(subgraphs, list):
        raise Error('"{}" is not a valid MXNet symbol: node {} ("{}") has "subgraphs" that is no list', source,
                    index, raw['name'])
    return {'op': raw['op'], 'name': raw['name'], 'attrs': attrs, 'control_deps': list(deps),
            'inputs': [list(entry) + [0] * (3 - len(entry)) for entry in inputs], 'subgraphs': subgraphs}


def _version(graph_attrs, source: str) -> Optional[int]:
    value = graph_attrs.get('mxnet_version')
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2 and _ints(value[1:], (1,))):
        raise Error('"{}" is not a valid MXNet symbol: its mxnet_version is not ["int", number]', source)
    return value[1]


def _check(graph: dict, source: str):
    """Every index in the (upgraded) graph points where it may."""
    nodes = graph['nodes']
    count = len(nodes)
    row_ptr = graph['node_row_ptr']
    if row_ptr is not None and (len(row_ptr) != count + 1 or row_ptr[0] != 0
                                or any(b < a for a, b in zip(row_ptr, row_ptr[1:]))):
        raise Error('"{}" is not a valid MXNet symbol: node_row_ptr does not fit its {} nodes', source, count)

    def check_output(node_id, out, reader):
        outputs = None if row_ptr is None else row_ptr[node_id + 1] - row_ptr[node_id]
        if out < 0 or (outputs is not None and out >= outputs):
            raise Error('"{}" is not a valid MXNet symbol: {} reads output {} of node {} ("{}"), which has {}',
                        source, reader, out, node_id, nodes[node_id]['name'],
                        'no such output' if outputs is None else '{} outputs'.format(outputs))

    for index, node in enumerate(nodes):
        reader = 'node {} ("{}")'.format(index, node['name'])
        for node_id, out, _ in node['inputs']:
            # nodes are listed in topological order, which every MXNet writer keeps and the converter relies on
            if not 0 <= node_id < index:
                raise Error('"{}" is not a valid MXNet symbol: {} reads node {}, which {}', source, reader, node_id,
                            'is not listed before it' if 0 <= node_id < count else 'does not exist')
            check_output(node_id, out, reader)
        if any(not 0 <= dep < count for dep in node['control_deps']):
            raise Error('"{}" is not a valid MXNet symbol: {} depends on a node outside the graph', source, reader)
    for node_id in graph['arg_nodes']:
        if not 0 <= node_id < count or nodes[node_id]['op'] != 'null':
            raise Error('"{}" is not a valid MXNet symbol: arg_nodes lists {}, which is no variable of its {} nodes',
                        source, node_id, count)
    for node_id, out, _ in graph['heads']:
        if not 0 <= node_id < count:
            raise Error('"{}" is not a valid MXNet symbol: a head points to node {}, outside its {} nodes', source,
                        node_id, count)
        check_output(node_id, out, 'a head')


def symbol_from_json(obj, source: str = '<string>') -> Symbol:
    """The Symbol of a parsed graph JSON object (``json.load``'s dict); ``source`` names it in Errors."""
    if not isinstance(obj, dict) or not isinstance(obj.get('nodes'), list):
        raise Error('"{}" is not an MXNet symbol: it is no JSON object with a "nodes" list', source)
    nodes = [_raw_node(raw, index, source) for index, raw in enumerate(obj['nodes'])]
    graph_attrs = obj.get('attrs') or {}
    if not isinstance(graph_attrs, dict):
        raise Error('"{}" is not a valid MXNet symbol: its "attrs" is no object', source)
    version = _version(graph_attrs, source)
    arg_nodes = obj.get('arg_nodes', [index for index, node in enumerate(nodes) if node['op'] == 'null'])
    heads = obj.get('heads', [])
    row_ptr = obj.get('node_row_ptr')
    if not _ints(arg_nodes):
        raise Error('"{}" is not a valid MXNet symbol: its arg_nodes are not node indices', source)
    if not isinstance(heads, list) or not all(_ints(head, (2, 3)) for head in heads):
        raise Error('"{}" is not a valid MXNet symbol: its heads are not [node, output, version] lists', source)
    if row_ptr is not None and not _ints(row_ptr):
        raise Error('"{}" is not a valid MXNet symbol: its node_row_ptr is not a list of integers', source)
    graph = {'nodes': nodes, 'arg_nodes': list(arg_nodes), 'node_row_ptr': row_ptr,
             'heads': [list(head) + [0] * (3 - len(head)) for head in heads]}
    # indices are checked as written, then again after the upgrades that insert nodes renumber them
    _check(graph, source)
    legacy.upgrade(graph, version)
    _check(graph, source)
    result = []
    for index, raw in enumerate(graph['nodes']):
        subgraphs = [symbol_from_json(sub, '{} (subgraph {} of "{}")'.format(source, number, raw['name']))
                     for number, sub in enumerate(raw['subgraphs'])]
        result.append(Node(index, raw['op'], raw['name'], [Entry(*entry) for entry in raw['inputs']],
                           raw['attrs'], raw['control_deps'], subgraphs))
    return Symbol(result, graph['arg_nodes'], [(node_id, out) for node_id, out, _ in graph['heads']],
                  graph['node_row_ptr'], version, dict(graph_attrs), source)


def parse_symbol(text, source: str = '<string>') -> Symbol:
    """The Symbol of graph JSON ``text`` (str or bytes); ``source`` names it in Errors."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        # the position, never the content: a symbol file can be megabytes on one line
        raise Error('"{}" is not valid JSON: {} at line {}, column {}', source, exc.msg, exc.lineno,
                    exc.colno) from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise Error('"{}" is not valid JSON: {}', source, type(exc).__name__) from None
    return symbol_from_json(obj, source)


def read_symbol(path) -> Symbol:
    """The Symbol of the graph JSON file at ``path`` (``NAME-symbol.json``)."""
    path = os.fspath(path)
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as exc:
        raise Error('Cannot read the MXNet symbol "{}": {}', path, exc.strerror or exc) from None
    if not data.strip():
        raise Error('"{}" is empty, not an MXNet symbol', path)
    return parse_symbol(data, path)


def sniff_bytes(data) -> bool:
    """True when ``data`` (a whole file's bytes or its mmap) looks like an MXNet graph JSON: an object whose
    text has a ``"nodes"`` key and an ``"arg_nodes"`` or ``"heads"`` key. The keys are searched for, not
    parsed, so that a TensorFlow or ONNX model of any size is turned down at the cost of a scan."""
    head = bytes(data[:64])
    if head.startswith(b'\xef\xbb\xbf'):  # a UTF-8 byte order mark, which some editors add
        head = head[3:]
    if not head.lstrip(b' \t\r\n').startswith(b'{'):
        return False
    return data.find(b'"nodes"') >= 0 and (data.find(b'"arg_nodes"') >= 0 or data.find(b'"heads"') >= 0)


def sniff(path) -> bool:
    """``sniff_bytes`` of the file at ``path`` (memory-mapped, not parsed)."""
    try:
        with open(path, 'rb') as f:
            if os.fstat(f.fileno()).st_size < 2:
                return False
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return sniff_bytes(data)
    except (OSError, ValueError):
        return False
