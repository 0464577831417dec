"""The driver: raise conditionals and loop frames, innermost first, until none is left."""
from mo.front.tf.control_flow.conds import find_innermost_conds, is_cond_switch, raise_cond
from mo.front.tf.control_flow.flat_graph import FlatGraph, assign_frames
from mo.front.tf.control_flow.loops import LOOP_OPS, raise_loop
from mo.utils.error import Error

#: the op types of lowered control flow
CONTROL_FLOW_OPS = frozenset(LOOP_OPS + ('_SwitchN',))


def has_control_flow(graph_def) -> bool:
    """Whether ``graph_def`` has lowered control flow (one scan over the op types)."""
    return any(node.op in CONTROL_FLOW_OPS for node in graph_def.node)


#: data inputs each control-flow op must have (Merge: at least one)
_ARITY = {'Enter': 1, 'Exit': 1, 'NextIteration': 1, 'LoopCond': 1, 'Switch': 2, '_SwitchN': 2}


def _well_formed(flat: FlatGraph) -> bool:
    """Whether every input names a node; a control-flow node with the wrong inputs is an Error."""
    for name, pb in flat.nodes.items():
        inputs = flat.inputs(name)
        if any(src not in flat.nodes for src, _ in inputs):
            return False
        if pb.op in CONTROL_FLOW_OPS:
            count = sum(1 for _, port in inputs if port is not None)
            expected = _ARITY.get(pb.op)
            if (expected is not None and count != expected) or (expected is None and count < 1):
                raise Error('Node "{}" ({}) has {} data input(s), expected {}', name, pb.op, count,
                            expected if expected is not None else 'at least one')
    return True


def _innermost_frame(flat: FlatGraph, frames: dict):
    """(frame, member names) of a deepest loop frame free of unraised conditionals, or None."""
    members = {}
    for name in flat.nodes:
        frame = frames[name]
        if frame:
            members.setdefault(frame, []).append(name)
    blocked = {frame for frame, names in members.items() if any(is_cond_switch(flat, n) for n in names)}
    for frame in sorted(members, key=lambda f: -len(f)):
        if frame in blocked or any(len(other) > len(frame) and other[:len(frame)] == frame for other in members):
            continue
        return frame, members[frame]
    return None


def raise_control_flow(graph_def) -> int:
    """Rewrite ``graph_def`` (a GraphDef message, edited in place) into functional control flow.

    Returns how many loops and conditionals were raised. A construct mo cannot express is an
    ``Error`` naming the loop frame (or the predicate) and the node.
    """
    flat = FlatGraph(graph_def)
    if not _well_formed(flat):
        return 0  # the loader reports dangling inputs itself, naming them
    library_names = {f.signature.name for f in graph_def.library.function}
    functions = {f.signature.name: f for f in graph_def.library.function}
    # raising a construct leaves every other node in its frame, so frames are found once; the
    # node that replaces a construct lives where the construct was entered
    frames = assign_frames(flat)
    count = 0
    while True:
        raised = []
        for cond in find_innermost_conds(flat):
            frame = frames[cond.switches[0]]
            raised.append((frame, raise_cond(flat, cond, library_names, functions)))
        if not raised:
            found = _innermost_frame(flat, frames)
            if found is None:
                break
            raised.append((found[0][:-1], raise_loop(flat, found[0], found[1], library_names, functions)))
        for frame, (name, new_functions, deleted) in raised:
            for fdef in new_functions:
                graph_def.library.function.append(fdef)
                functions[fdef.signature.name] = graph_def.library.function[-1]
            for gone in deleted:
                frames.pop(gone, None)
            if name is not None:
                frames[name] = frame
            count += 1
    left = [n for n in flat.nodes if flat.op(n) in CONTROL_FLOW_OPS]
    if left:
        find_innermost_conds(flat, strict=True)  # a conditional's own reason, when there is one
        frame = frames.get(left[0]) or ()
        raise Error('Control flow mo cannot raise: node "{}" ({}){}', left[0], flat.op(left[0]),
                    ' in loop frame "{}"'.format(frame[-1]) if frame else '')
    if count:
        flat.write_back()
    return count
