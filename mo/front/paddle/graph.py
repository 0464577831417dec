"""A Paddle ``model.Program`` -> the front graph (op nodes only), for the extractors of ``extensions/front/paddle``.

The convention every Paddle extractor and lowering relies on:

* one op node per Paddle op of the top block: ``node['op']`` is the op type with PIR's dialect prefix and the
  trailing ``_`` of PIR's inplace variants removed (``pd_op.batch_norm_`` -> ``batch_norm``; ``paddle_op_type``),
  ``node['name']`` the name of its first output var, ``node['pb']`` the reader's ``model.Op`` with its slots
  named (``op.named`` with ``op_slots.SLOTS``; a classic op as it is);
* ports: the input slots of ``op_slots.slots_of(type)`` in table order, then any slot of the op the table lacks
  (sorted by name), each slot with N vars taking N consecutive ports (an empty slot takes none); output ports
  likewise. ``node['in_slots']``/``node['out_slots']`` map each slot with vars to its ports
  (``{'X': [0], 'Y': [1]}``); ``extractor_utils.in_port``/``out_port`` read them;
* a var the program declares but nothing writes (a run-time scratch buffer) is a ``Const`` of zeros when its
  shape is static; a tensor array nothing writes before a classic ``while`` appends to it is a ``create_array``
  node (an empty array, as PIR writes it);
* a persistable var with a value in the params is a ``Const`` node (``value`` a read-only view of the mapped
  params file), named by the var; a fed var is a ``Parameter`` node named by the var, ``pb`` its ``model.Var``;
* every output port carries its var's name as tensor name, and ``graph.graph['paddle_tensors']`` maps every
  var name to ``(node id, port)`` for ``--input``/``--output`` and the Results.

PIR's vectors: ``builtin.combine`` makes no node (a slot given its vector takes one port per member),
``builtin.split``/``builtin.slice`` name the members of a vector an op returns (an op whose result is a vector
of N values has N output ports in its slot). Ops of nested blocks (control flow) are left to their op's
extractor: the node keeps the ``Op`` and ``graph.graph['paddle_program']`` the whole program.
"""
import numpy as np

from mo.front.paddle.model import Op, Program
from mo.front.paddle.op_slots import slots_of
from mo.graph.graph import Graph
from mo.graph.port import own_port_table, writable_port_record
from mo.utils.error import Error

#: graph attr: {var name: (node id, output port)}
TENSORS = 'paddle_tensors'
#: graph attr: the ``model.Program`` the graph was built from
PROGRAM = 'paddle_program'

#: PIR ops that only pack values into a vector or take them out of one
_COMBINE, _SPLIT, _SLICE = 'builtin.combine', 'builtin.split', 'builtin.slice'


def paddle_op_type(op_type: str) -> str:
    """The op type of the convention: ``pd_op.relu_`` -> ``relu``, ``conv2d`` -> ``conv2d``."""
    if '.' in op_type:
        op_type = op_type.split('.', 1)[1]
    if op_type.endswith('_') and not op_type.endswith('__'):
        op_type = op_type[:-1]
    return op_type


class _Vectors:
    """What the PIR vectors of a block hold: a combined vector's members, and a member's source var name."""

    def __init__(self, program: Program, block: int, tensors: dict):
        self.program, self.block, self.tensors = program, block, tensors
        self.members = {}  # vector name -> [member var names] (builtin.combine)
        self.alias = {}  # var name -> the var name it is (builtin.split/slice of an op's vector result)

    def take(self, op: Op) -> bool:
        """Record ``op`` if it is a vector op (no node): True."""
        if op.type == _COMBINE:
            self.members[op.results[0]] = list(op.operands)
            return True
        if op.type in (_SPLIT, _SLICE):
            vector = op.operands[0]
            members = self.expand(vector)
            if op.type == _SLICE:
                chosen = [members[int(op.attrs.get('index', 0))]]
            else:
                chosen = members
            for result, member in zip(op.results, chosen):
                if result is not None:
                    self.alias[result] = member
                    if member in self.tensors:  # a member fetched, or cut at, by its own name
                        self.tensors.setdefault(result, self.tensors[member])
            return True
        return False

    def expand(self, name):
        """The var names standing for ``name``: a combined vector's members (recursively), an op's vector
        result's ``name[i]`` members, else the (alias-resolved) name itself; ``[]`` for None."""
        if name is None:
            return []
        name = self.alias.get(name, name)
        if name in self.members:
            return [m for member in self.members[name] for m in self.expand(member)]
        var = self._var(name)
        if var is not None and var.kind == 'vector':
            return [item.name for item in var.items]
        return [name]

    def _var(self, name):
        try:
            return self.program.var(name, self.block)
        except Error:
            return None


def _ports(named: dict, table: tuple, expand) -> list:
    """``[(slot, [var names])]`` in port order: the table's slots, then the op's others sorted by name; a vector
    stands for its members."""
    order = list(table) + sorted(slot for slot in named if slot not in table)
    return [(slot, [member for name in named.get(slot) or () for member in expand(name)]) for slot in order]


def _set_tensor_name(graph: Graph, node_id, port: int, name: str):
    record = writable_port_record(own_port_table(graph.nodes[node_id], '_out_ports'), port)
    names = record.setdefault('tensor_names', [])
    if name not in names:
        names.append(name)


def program_to_graph(graph: Graph, program: Program, weights: dict) -> Graph:
    """Build the front graph of ``program``'s top block into ``graph`` (see the module docstring)."""
    tensors = graph.graph.setdefault(TENSORS, {})
    graph.graph[PROGRAM] = program

    def produce(name, node_id, port):
        tensors[name] = (node_id, port)  # a classic program may write a var again (inplace): the latest wins
        _set_tensor_name(graph, node_id, port, name)

    for name in sorted(weights):
        node_id = graph.unique_id(name)
        graph.add_node(node_id, kind='op', op='Const', name=name, value=weights[name], pb=None)
        produce(name, node_id, 0)
    for name in program.inputs:
        if name in tensors:
            continue
        node_id = graph.unique_id(name)
        graph.add_node(node_id, kind='op', op='Parameter', name=name, pb=program.var(name))
        produce(name, node_id, 0)

    vectors = _Vectors(program, 0, tensors)
    for op in program.blocks[0].ops:
        if vectors.take(op):
            continue
        _add_op(graph, program, op, vectors, tensors, produce)
    graph.graph['source_format'] = 'paddle'
    return graph


def _add_op(graph: Graph, program: Program, op: Op, vectors: _Vectors, tensors: dict, produce):
    op_type = paddle_op_type(op.type)
    in_table, out_table = slots_of(op_type, op)
    named = op.named(in_table, out_table)
    inputs = _ports(named.inputs, in_table, vectors.expand)
    outputs = _ports(named.outputs, out_table, vectors.expand)
    # the first output var as written (a vector result by its own name, not its first member's)
    written = [named.outputs.get(slot) or [] for slot in list(out_table) + sorted(named.outputs)]
    name = next((names[0] for names in written if names and names[0] is not None), None) or op_type
    if op_type == 'write_to_array' and named.output('Out') in tensors:
        # a classic write changes its array in place: the array before it is an input too (slot Array), so that
        # successive writes form a chain (extensions/front/paddle/array_static.py)
        inputs.append(('Array', [named.output('Out')]))
    node_id = graph.unique_id(name)
    in_slots, out_slots = {}, {}
    port = 0
    sources = []
    for slot, names in inputs:
        if names:
            in_slots[slot] = list(range(port, port + len(names)))
            for var in names:
                source = tensors.get(var) or _unset_var(graph, program, var, tensors)
                if source is None:
                    raise Error('Paddle op "{}" ({}) reads var "{}", which no op, feed or parameter produces',
                                name, op.type, var)
                sources.append((source, port))
                port += 1
    graph.add_node(node_id, kind='op', op=op_type, name=name, pb=named, paddle_type=op.type, in_slots=in_slots,
                   out_slots=out_slots)
    for (src_id, src_port), in_port in sources:
        graph.add_edge(src_id, node_id, **{'out': src_port, 'in': in_port})
    port = 0
    for slot, names in outputs:
        if names:
            out_slots[slot] = list(range(port, port + len(names)))
            for var in names:
                produce(var, node_id, port)
                port += 1


def _unset_var(graph: Graph, program: Program, name: str, tensors: dict):
    """A Const of zeros for a var the program declares with a static shape but nothing writes (a scratch buffer
    Paddle allocates at run time, such as an rnn's dropout state); None for any other var."""
    try:
        var = program.var(name)
    except Error:
        return None
    if var.kind == 'dense_tensor_array':  # a classic array written first in a loop: empty before it
        # an id of its own: the op reading it (named after its first output, often this array) has its id already
        node_id = graph.unique_id(name + '/empty')
        graph.add_node(node_id, kind='op', op='create_array', name=name, pb=Op('create_array', outputs={
            'Out': [name]}), paddle_type='create_array', in_slots={}, out_slots={'Out': [0]})
        tensors[name] = (node_id, 0)
        _set_tensor_name(graph, node_id, 0, name)
        return tensors[name]
    if var.dtype is None or var.shape is None or any(d < 0 for d in var.shape) or var.kind != 'dense_tensor':
        return None
    node_id = graph.unique_id(name)
    graph.add_node(node_id, kind='op', op='Const', name=name, value=np.zeros(var.shape, var.dtype), pb=None,
                   paddle_unset_var=True)
    tensors[name] = (node_id, 0)
    _set_tensor_name(graph, node_id, 0, name)
    return tensors[name]


def var_dtype(program: Program, name: str, default=np.float32):
    """The numpy element type of var ``name`` of the top block, ``default`` when it declares none."""
    try:
        dtype = program.var(name).dtype
    except Error:
        dtype = None
    return np.dtype(dtype if dtype is not None else default)
