"""Lowered conditionals become ``If`` nodes, lowered ``Case``s (``_SwitchN``) ``Case`` nodes.

A lowered conditional routes each input through a ``Switch`` (``_SwitchN`` for a Case) on the
predicate (branch index); what each output port feeds, followed forward up to the ``Merge``
nodes, is one branch; each Merge takes one tensor of every branch. The Switches of one
conditional share the predicate (up to Identity nodes) and their branches overlap.
Conditionals are raised innermost first: a branch that still holds another Switch, or loop
structure, waits until that has been raised. A constant predicate leaves the taken branch only.
"""
import collections

from mo.front.tf.control_flow.flat_graph import FlatGraph, Tensor, tensor_text
from mo.front.tf.control_flow.functions import Arg, FunctionBuilder, function_name
from mo.front.tf.proto import NodeDef
from mo.front.tf.tensor import tensor_to_numpy
from mo.utils.error import Error

DT_BOOL, DT_INT32 = 10, 3
SWITCH_OPS = ('Switch', '_SwitchN')
_BLOCKING = SWITCH_OPS + ('Enter', 'Exit', 'NextIteration', 'LoopCond')

Region = collections.namedtuple('Region', 'nodes merges blocked')
#: ``branches``: one set of nodes per branch, in the order of the raised op's functions
#: (If: then, else; Case: branch 0, 1, ...); ``ports``: the Switch output of each branch
Cond = collections.namedtuple('Cond', 'switches ports branches merges')


def _pred(flat: FlatGraph, cond: Cond) -> Tensor:
    """The predicate (branch index), read now: raising another conditional may have rewired it."""
    return flat.data_inputs(cond.switches[0])[1]


def is_cond_switch(flat: FlatGraph, name: str) -> bool:
    """A Switch or _SwitchN that is not a loop's (a loop's Switch is predicated on a LoopCond)."""
    return flat.op(name) in SWITCH_OPS and flat.op(flat.data_inputs(name)[1].node) != 'LoopCond'


def branch_ports(flat: FlatGraph, switch: str) -> list:
    """The switch's output port of each branch: If's then (port 1) and else (port 0), Case's 0..n-1."""
    if flat.op(switch) == 'Switch':
        return [1, 0]
    return list(range(flat.nodes[switch].attr['num_outs'].i))


def _region(flat: FlatGraph, switch: str, port: int) -> Region:
    """The nodes fed (data or control) by ``switch:port`` up to the first Merges."""
    nodes, merges, blocked = set(), set(), False
    todo = [d for d, p in flat.consumers(switch) if p == port]
    while todo:
        name = todo.pop()
        if name in nodes or name in merges:
            continue
        op = flat.op(name)
        if op == 'Merge':
            merges.add(name)
            if any(flat.op(s) == 'NextIteration' for s, _ in flat.inputs(name)):
                blocked = True
            continue
        if op in _BLOCKING:
            blocked = True
            continue
        nodes.add(name)
        todo.extend(d for d, _ in flat.consumers(name))
    return Region(nodes, merges, blocked)


def _canonical(flat: FlatGraph, tensor: Tensor) -> Tensor:
    seen = set()
    while flat.op(tensor.node) == 'Identity' and flat.data_inputs(tensor.node) and tensor.node not in seen:
        seen.add(tensor.node)
        tensor = flat.data_inputs(tensor.node)[0]
    return tensor


def find_innermost_conds(flat: FlatGraph, strict: bool = False) -> list:
    """The conditionals whose branches hold no other control flow (disjoint, in name order).

    Switches whose Merges also take tensors from elsewhere are part of a conditional whose other
    Switches still wait behind inner control flow: they are left for a later round, or, when
    ``strict``, reported as an Error.
    """
    switches = [n for n, pb in flat.nodes.items() if pb.op in SWITCH_OPS and is_cond_switch(flat, n)]
    if not switches:
        return []
    ports = {s: branch_ports(flat, s) for s in switches}
    regions = {s: [_region(flat, s, port) for port in ports[s]] for s in switches}
    # Switches on one predicate whose branches overlap belong to one conditional
    keys = {s: (_canonical(flat, flat.data_inputs(s)[1]), flat.op(s), len(ports[s])) for s in switches}
    parent = {s: s for s in switches}

    def root(s):
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    owner = {}
    for s in switches:
        for region in regions[s]:
            for name in region.nodes | region.merges:
                key = (keys[s], name)
                if key in owner:
                    parent[root(s)] = root(owner[key])
                else:
                    owner[key] = s
    groups = collections.OrderedDict()
    for s in switches:
        groups.setdefault(root(s), []).append(s)
    found = []
    for members in groups.values():
        if any(region.blocked for s in members for region in regions[s]):
            continue
        branches = [set().union(*(regions[s][k].nodes for s in members)) for k in range(len(ports[members[0]]))]
        merges = set().union(*(region.merges for s in members for region in regions[s]))
        cond = Cond(members, ports[members[0]], branches, [n for n in flat.nodes if n in merges])
        if merge_inputs(flat, cond, strict) is not None:
            found.append(cond)
    return found


def _where(flat: FlatGraph, cond: Cond) -> str:
    return 'Conditional on "{}"'.format(tensor_text(_pred(flat, cond)))


def merge_inputs(flat: FlatGraph, cond: Cond, strict: bool = True):
    """Per Merge: the tensor it takes from each branch, in branch order (None when a Merge does
    not take one tensor of each branch, an Error if ``strict``)."""
    result = []
    for merge in cond.merges:
        inputs = flat.data_inputs(merge)
        chosen = []
        for port, nodes in zip(cond.ports, cond.branches):
            mine = [t for t in inputs if t.node in nodes or (t.node in cond.switches and t.port == port)]
            chosen.append(mine[0] if len(mine) == 1 else None)
        if len(inputs) != len(cond.ports) or None in chosen:
            if not strict:
                return None
            raise Error('{}: node "{}" (Merge) does not merge one tensor of each of the {} branches',
                        _where(flat, cond), merge, len(cond.ports))
        if any(p == 1 for _, p in flat.consumers(merge)):
            raise Error('{}: node "{}" (Merge): its value_index output is read, which mo cannot raise',
                        _where(flat, cond), merge)
        result.append(chosen)
    return result


def _taken_branch(flat: FlatGraph, cond: Cond):
    """The index (in ``cond.branches``) of the branch a constant predicate takes, else None."""
    tensor = _canonical(flat, _pred(flat, cond))
    pb = flat.nodes[tensor.node]
    if pb.op != 'Const' or pb.input:
        return None
    value = tensor_to_numpy(pb.attr['value'].tensor).reshape(-1)[0]
    if flat.op(cond.switches[0]) == 'Switch':
        return 0 if bool(value) else 1
    index = int(value)
    return index if 0 <= index < len(cond.ports) else len(cond.ports) - 1  # as _SwitchN routes it


def _keep_taken_branch(flat: FlatGraph, cond: Cond, taken: int, inputs_by_merge) -> set:
    port = cond.ports[taken]
    remap = {(s, port): tensor_text(flat.data_inputs(s)[0]) for s in cond.switches}
    for merge, inputs in zip(cond.merges, inputs_by_merge):
        chosen = inputs[taken]
        if chosen.node in cond.switches:
            chosen = flat.data_inputs(chosen.node)[0]
        remap[(merge, 0)] = tensor_text(chosen)
        remap[(merge, None)] = '^' + chosen.node
    dropped = set(cond.switches) | set(cond.merges)
    for k, nodes in enumerate(cond.branches):
        if k != taken:
            dropped |= nodes
    return flat.replace(dropped, [], remap, _where(flat, cond))


def raise_cond(flat: FlatGraph, cond: Cond, library_names: set, functions: dict):
    """Replace ``cond`` by an If or Case node or, for a constant predicate, by the taken branch.

    Returns (the new node's name or None, its branch functions, the names of the nodes deleted).
    """
    inputs_by_merge = merge_inputs(flat, cond)
    taken = _taken_branch(flat, cond)
    if taken is not None:
        return None, [], _keep_taken_branch(flat, cond, taken, inputs_by_merge)

    is_if = flat.op(cond.switches[0]) == 'Switch'
    args = [Arg('input_{}'.format(i), flat.nodes[s].attr['T'].type) for i, s in enumerate(cond.switches)]
    out_types = [flat.nodes[m].attr['T'].type for m in cond.merges]
    base = cond.merges[0].rpartition('/')[0] if cond.merges else ''
    base = base or ('cond' if is_if else 'case')
    labels = ['then', 'else'] if is_if else ['branch{}'.format(k) for k in range(len(cond.ports))]
    branches = []
    for k, (port, nodes, label) in enumerate(zip(cond.ports, cond.branches, labels)):
        boundary = {Tensor(s, port): a.name for s, a in zip(cond.switches, args)}
        rets = [(Arg('output_{}'.format(j), dtype), inputs[k])
                for j, (dtype, inputs) in enumerate(zip(out_types, inputs_by_merge))]
        builder = FunctionBuilder(flat, functions, '{}, its {} branch'.format(_where(flat, cond), label), nodes,
                                  boundary, cond.switches)
        branches.append(builder.build(function_name('{}_{}_branch'.format(base, label), library_names),
                                      args, rets))
    node = NodeDef()
    node.name = flat.unique_name(base)
    node.op = 'If' if is_if else 'Case'
    node.device = flat.nodes[cond.switches[0]].device
    node.input.append(tensor_text(_pred(flat, cond)))
    controls = []
    for s in cond.switches:
        node.input.append(tensor_text(flat.data_inputs(s)[0]))
        controls.extend('^' + src for src, p in flat.inputs(s) if p is None and '^' + src not in controls)
    node.input.extend(controls)
    if is_if:
        node.attr['Tcond'].type = DT_BOOL
        node.attr['then_branch'].func.name = branches[0].signature.name
        node.attr['else_branch'].func.name = branches[1].signature.name
    else:
        for fdef in branches:
            node.attr['branches'].list.func.add().name = fdef.signature.name
    node.attr['Tin'].list.type.extend([a.dtype for a in args])
    node.attr['Tout'].list.type.extend(out_types)
    for _ in out_types:
        node.attr['output_shapes'].list.shape.add().unknown_rank = True
    remap = {}
    for k, merge in enumerate(cond.merges):
        remap[(merge, 0)] = tensor_text(Tensor(node.name, k))
        remap[(merge, None)] = '^' + node.name
    removed = set(cond.switches) | set(cond.merges) | set().union(*cond.branches)
    return node.name, branches, flat.replace(removed, [node], remap, _where(flat, cond))
