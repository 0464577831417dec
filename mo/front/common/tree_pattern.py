"""Tree patterns for rules: ``('Mul', ['x', ('Tanh', [('SoftPlus', ['x'])])])`` matched at one node.

A pattern is

* a lower-case name (``'x'``, ``'bias'``): any tensor, captured under that name; a name used twice must
  be the same tensor both times (the ``x`` above is the Mul's input and the SoftPlus's);
* ``('Op', [input patterns...])``: a node whose ``op`` is ``Op`` (``'Op1|Op2'`` for either; ``'alias=Op'``
  captures the node under ``alias``) with exactly those data inputs in port order; for the commutative ops
  of ``COMMUTATIVE`` with two inputs either order matches;
* ``'Op'`` / ``'alias=Op'`` alone: such a node, whatever its inputs.

The nodes inside the pattern (all but the root and the captured tensors) must feed nothing outside it:
fusing them away would otherwise compute them twice.
"""
import re
from typing import Dict, Optional

from mo.graph.graph import Node

#: element-wise ops whose two inputs may be swapped
COMMUTATIVE = frozenset({'Add', 'Mul', 'Maximum', 'Minimum', 'Equal', 'NotEqual', 'LogicalAnd', 'LogicalOr',
                         'LogicalXor'})

_CAPTURE = re.compile(r'^[a-z_][a-z0-9_]*$')
_NODE = re.compile(r'^(?:(?P<alias>[a-z_][a-z0-9_]*)=)?(?P<ops>[A-Z][\w]*(?:\|[A-Z][\w]*)*)$')


class Match:
    """What a pattern matched: ``match.x`` is a captured tensor (an output port), ``match.alias`` a captured
    node, ``match.root`` the node the pattern matched at."""

    def __init__(self, root: Node, captured: Dict[str, object]):
        self.root = root
        self.__dict__.update(captured)


def root_ops(pattern) -> list:
    """The ops the pattern's root may have (where a rule looks for candidates)."""
    spec = pattern[0] if isinstance(pattern, tuple) else pattern
    parsed = _NODE.match(spec)
    if parsed is None:
        raise ValueError('a pattern must start with an op, not {!r}'.format(spec))
    return parsed.group('ops').split('|')


def op_alternatives(pattern) -> list:
    """For each node of the pattern (root and inner nodes, not captured tensors), the ops it may have: a graph
    without any op of one of these lists has no match anywhere."""
    spec, inputs = (pattern, ()) if isinstance(pattern, str) else pattern
    if _CAPTURE.match(spec):
        return []
    parsed = _NODE.match(spec)
    if parsed is None:
        raise ValueError('bad pattern node {!r}: expected "Op", "Op1|Op2" or "alias=Op"'.format(spec))
    found = [parsed.group('ops').split('|')]
    for sub in inputs:
        found.extend(op_alternatives(sub))
    return found


def match_tree(pattern, root: Node, shared_constants: bool = False) -> Optional[Match]:
    """The match of ``pattern`` at ``root``, or None. ``shared_constants``: a Const node of the pattern may also
    feed nodes outside it (fusing it away computes nothing twice)."""
    captured, inner = {}, []
    if not _match_node(pattern, root, captured, inner):
        return None
    inner_ids = {node.id for node in inner} | {root.id}
    for node in inner:
        if shared_constants and node.soft_get('op') == 'Const':
            continue
        if any(port.node.id not in inner_ids for port in node.out_port(0).get_destinations()):
            return None  # an intermediate value something else reads
    return Match(root, captured)


def _match_node(pattern, node: Node, captured: dict, inner: list) -> bool:
    spec, inputs = (pattern, None) if isinstance(pattern, str) else pattern
    parsed = _NODE.match(spec)
    if parsed is None:
        raise ValueError('bad pattern node {!r}: expected "Op", "Op1|Op2" or "alias=Op"'.format(spec))
    if node.soft_get('op') not in parsed.group('ops').split('|'):
        return False
    if parsed.group('alias'):
        captured[parsed.group('alias')] = node
    if inputs is None:
        return True
    ports = [p for _, p in sorted(node.in_ports().items()) if p.is_connected()]
    if len(ports) != len(inputs):
        return False
    orders = [inputs]
    if len(inputs) == 2 and node.soft_get('op') in COMMUTATIVE:
        orders.append(inputs[::-1])
    for order in orders:
        trial_captured, trial_inner = dict(captured), list(inner)
        if all(_match_input(sub, port.get_source(), trial_captured, trial_inner) for sub, port in zip(order, ports)):
            captured.clear()
            captured.update(trial_captured)
            inner[:] = trial_inner
            return True
    return False


def _match_input(pattern, source, captured: dict, inner: list) -> bool:
    if isinstance(pattern, str) and _CAPTURE.match(pattern):
        if pattern in captured:
            return captured[pattern] == source
        captured[pattern] = source
        return True
    if source.idx != 0:
        return False
    inner.append(source.node)
    return _match_node(pattern, source.node, captured, inner)
