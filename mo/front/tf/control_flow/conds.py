"""Lowered conditionals (``Switch``/``Merge`` outside loop structure) become ``If`` nodes.

The Switches of one conditional share a predicate (up to Identity nodes) and their two output
regions, followed forward up to the Merges, overlap; the Merges read one tensor of each region.
Conditionals are raised innermost first: a region that still holds another Switch, or loop
structure, waits until that has been raised.
"""
import collections

from mo.front.tf.control_flow.flat_graph import FlatGraph, Tensor, tensor_text
from mo.front.tf.control_flow.functions import Arg, FunctionBuilder, function_name
from mo.front.tf.proto import NodeDef
from mo.front.tf.tensor import tensor_to_numpy
from mo.utils.error import Error

DT_BOOL = 10
_BLOCKING = ('Switch', 'Enter', 'Exit', 'NextIteration', 'LoopCond')

Region = collections.namedtuple('Region', 'nodes merges blocked')
Cond = collections.namedtuple('Cond', 'pred switches then_nodes else_nodes merges')


def is_cond_switch(flat: FlatGraph, name: str) -> bool:
    """A Switch that is not a loop's (a loop's Switch is predicated on a LoopCond)."""
    return flat.op(name) == 'Switch' and flat.op(flat.data_inputs(name)[1].node) != 'LoopCond'


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


def find_innermost_cond(flat: FlatGraph):
    """One conditional whose branches hold no other control flow, or None."""
    switches = [n for n in flat.nodes if is_cond_switch(flat, n)]
    if not switches:
        return None
    regions = {s: (_region(flat, s, 1), _region(flat, s, 0)) for s in switches}
    preds = {s: _canonical(flat, flat.data_inputs(s)[1]) for s in switches}
    # union the Switches of one predicate whose regions overlap
    parent = {s: s for s in switches}

    def root(s):
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    owner = {}
    for s in switches:
        t, f = regions[s]
        for name in t.nodes | f.nodes | t.merges | f.merges:
            key = (preds[s], name)
            if key in owner:
                parent[root(s)] = root(owner[key])
            else:
                owner[key] = s
    groups = collections.OrderedDict()
    for s in switches:
        groups.setdefault(root(s), []).append(s)
    for members in groups.values():
        if any(regions[s][0].blocked or regions[s][1].blocked for s in members):
            continue
        then_nodes = set().union(*(regions[s][0].nodes for s in members))
        else_nodes = set().union(*(regions[s][1].nodes for s in members))
        merges = set().union(*(regions[s][0].merges | regions[s][1].merges for s in members))
        return Cond(flat.data_inputs(members[0])[1], members, then_nodes, else_nodes,
                    [n for n in flat.nodes if n in merges])
    return None


def _merge_sides(flat: FlatGraph, cond: Cond):
    """Per Merge: (then tensor, else tensor)."""
    then_ports = {Tensor(s, 1) for s in cond.switches}
    else_ports = {Tensor(s, 0) for s in cond.switches}
    sides = []
    for merge in cond.merges:
        where = 'Conditional on "{}"'.format(tensor_text(cond.pred))
        inputs = flat.data_inputs(merge)
        then_in = [t for t in inputs if t in then_ports or t.node in cond.then_nodes]
        else_in = [t for t in inputs if t in else_ports or t.node in cond.else_nodes]
        if len(inputs) != 2 or len(then_in) != 1 or len(else_in) != 1:
            raise Error('{}: node "{}" (Merge) does not merge one tensor of each branch', where, merge)
        if any(p == 1 for _, p in flat.consumers(merge)):
            raise Error('{}: node "{}" (Merge): its value_index output is read, which mo cannot raise', where,
                        merge)
        sides.append((then_in[0], else_in[0]))
    return sides


def _constant_value(flat: FlatGraph, tensor: Tensor):
    pb = flat.nodes[tensor.node]
    if pb.op != 'Const' or pb.input:
        return None
    return bool(tensor_to_numpy(pb.attr['value'].tensor).reshape(-1)[0])


def raise_cond(flat: FlatGraph, cond: Cond, library_names: set, functions: dict):
    """Replace ``cond`` by an If node (returns its two functions) or, for a constant predicate, by the
    taken branch (returns an empty list)."""
    where = 'Conditional on "{}"'.format(tensor_text(cond.pred))
    sides = _merge_sides(flat, cond)
    taken = _constant_value(flat, _canonical(flat, cond.pred))
    if taken is not None:
        port = 1 if taken else 0
        remap = {}
        for s in cond.switches:
            remap[(s, port)] = tensor_text(flat.data_inputs(s)[0])
        for merge, (then_t, else_t) in zip(cond.merges, sides):
            chosen = then_t if taken else else_t
            if chosen.node in cond.switches:
                chosen = flat.data_inputs(chosen.node)[0]
            remap[(merge, 0)] = tensor_text(chosen)
            remap[(merge, None)] = '^' + chosen.node
        dropped = set(cond.switches) | set(cond.merges) | (cond.else_nodes if taken else cond.then_nodes)
        flat.replace(dropped, [], remap, where)
        return []

    args = [Arg('input_{}'.format(i), flat.nodes[s].attr['T'].type) for i, s in enumerate(cond.switches)]
    rets_types = [flat.nodes[m].attr['T'].type for m in cond.merges]
    base = cond.merges[0].rpartition('/')[0] or 'cond'
    functions_out = []
    for side, port, nodes in (('then', 1, cond.then_nodes), ('else', 0, cond.else_nodes)):
        boundary = {Tensor(s, port): a.name for s, a in zip(cond.switches, args)}
        rets = [(Arg('output_{}'.format(k), dtype), pair[0 if port else 1])
                for k, (dtype, pair) in enumerate(zip(rets_types, sides))]
        builder = FunctionBuilder(flat, functions, '{}, its {} branch'.format(where, side), nodes, boundary,
                                  cond.switches)
        functions_out.append(builder.build(function_name('{}_{}_branch'.format(base, side), library_names),
                                           args, rets))
    node = NodeDef()
    node.name = flat.unique_name(base)
    node.op = 'If'
    node.device = flat.nodes[cond.switches[0]].device
    node.input.append(tensor_text(cond.pred))
    controls = []
    for s in cond.switches:
        node.input.append(tensor_text(flat.data_inputs(s)[0]))
        controls.extend('^' + src for src, p in flat.inputs(s) if p is None and '^' + src not in controls)
    node.input.extend(controls)
    node.attr['Tcond'].type = DT_BOOL
    node.attr['Tin'].list.type.extend([a.dtype for a in args])
    node.attr['Tout'].list.type.extend(rets_types)
    node.attr['then_branch'].func.name = functions_out[0].signature.name
    node.attr['else_branch'].func.name = functions_out[1].signature.name
    for _ in rets_types:
        node.attr['output_shapes'].list.shape.add().unknown_rank = True
    remap = {}
    for k, merge in enumerate(cond.merges):
        remap[(merge, 0)] = tensor_text(Tensor(node.name, k))
        remap[(merge, None)] = '^' + node.name
    removed = set(cond.switches) | set(cond.merges) | cond.then_nodes | cond.else_nodes
    flat.replace(removed, [node], remap, where)
    return functions_out
