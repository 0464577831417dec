"""The plain structures every Paddle reader returns: a ``Program`` of ``Block``s of ``Var``s and ``Op``s.

Both program formats land here. The classic ``ProgramDesc`` names an op's inputs and outputs by slot
(``inputs={'X': ['a'], 'Y': ['b']}``); a PIR program lists them by position only, so its ops carry
``operands``/``results`` and leave ``inputs``/``outputs`` empty until ``Op.named`` is given the slot names
(from an op table, which is not the reader's business). Values of a PIR program get names too: a
parameter's and an input's own name, ``%<id>`` for every other value, so that both formats key vars,
weights and op wiring by the same strings.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from mo.utils.error import Error


@dataclass
class Var:
    """A variable (classic) or a value (PIR).

    ``dtype`` is a numpy dtype, or None where it is not a tensor of one (a feed list, a step scope) or not
    known; ``shape`` lists the dimensions with -1 for a dynamic one (None where the var has no shape).
    ``kind`` is the variable type in lower case: ``'dense_tensor'`` (Paddle 2's ``LOD_TENSOR`` too),
    ``'dense_tensor_array'``, ``'selected_rows'``, ``'vector'`` (PIR's ``builtin.combine`` results, whose
    members are in ``items``), ...
    """
    name: str
    dtype: Any = None
    shape: Optional[List[int]] = None
    persistable: bool = False
    kind: str = 'dense_tensor'
    items: List['Var'] = field(default_factory=list)


@dataclass
class Op:
    """One operator.

    ``type`` is the classic op type (``'conv2d'``) or the PIR name with its dialect (``'pd_op.conv2d'``).
    ``attrs`` holds Python values (int, float, bool, str, lists of them; a block attribute as the index of
    its block in ``Program.blocks``; numpy dtypes for PIR's dtype attributes; a classic STRING whose bytes are
    no UTF-8 stays ``bytes``) and ``attr_types`` the type tag each came with (``'INT'``, ``'LONG'``, ``'BLOCK'``...
    for classic ops, ``'0.a_i32'``... for PIR), which tells an INT from a LONG or a block index from a plain int.
    ``regions`` (PIR) lists, per region of the op, the indices of its blocks in ``Program.blocks``.
    """
    type: str
    inputs: Dict[str, List[str]] = field(default_factory=dict)
    outputs: Dict[str, List[str]] = field(default_factory=dict)
    attrs: Dict[str, Any] = field(default_factory=dict)
    attr_types: Dict[str, str] = field(default_factory=dict)
    operands: List[Optional[str]] = field(default_factory=list)
    results: List[Optional[str]] = field(default_factory=list)
    regions: List[List[int]] = field(default_factory=list)

    def input(self, slot: str, index: int = 0) -> Optional[str]:
        """The name of the ``index``-th var in input ``slot``, or None when the slot is absent or shorter."""
        names = self.inputs.get(slot) or ()
        return names[index] if index < len(names) else None

    def output(self, slot: str, index: int = 0) -> Optional[str]:
        """The name of the ``index``-th var in output ``slot``, or None when the slot is absent or shorter."""
        names = self.outputs.get(slot) or ()
        return names[index] if index < len(names) else None

    def named(self, input_slots, output_slots=()) -> 'Op':
        """This PIR op with ``inputs``/``outputs`` keyed by the given slot names, position by position.

        A null operand (an optional input left out) leaves its slot empty. More names than operands is fine
        (trailing optional inputs); more operands than names is an ``Error``: the op table is out of date.
        A classic op has its slots already and is returned as it is, so callers can treat both formats alike.
        """
        if (self.inputs or self.outputs) and not (self.operands or self.results):
            return self
        for kind, slots, values in (('operands', input_slots, self.operands),
                                    ('results', output_slots, self.results)):
            if len(values) > len(slots):
                raise Error('Paddle op {} has {} {}, but only {} names were given for them ({})',
                            self.type, len(values), kind, len(slots), ', '.join(slots) or 'none')

        def by_slot(slots, values):
            return {slot: ([value] if value is not None else []) for slot, value in zip(slots, values)}

        return Op(self.type, by_slot(input_slots, self.operands), by_slot(output_slots, self.results),
                  self.attrs, self.attr_types, self.operands, self.results, self.regions)


@dataclass
class Block:
    """A block: its index, its parent's (-1 for the top block), its vars by name and its ops in order.

    ``args`` names a PIR block's arguments (a ``pd_op.while`` body's loop-carried values), in order.
    """
    idx: int
    parent_idx: int = -1
    vars: Dict[str, Var] = field(default_factory=dict)
    ops: List[Op] = field(default_factory=list)
    args: List[str] = field(default_factory=list)


@dataclass
class Program:
    """A whole program.

    ``inputs`` are the names of the fed vars in feed order, ``outputs`` the names of the fetched vars in
    fetch order; the feed and fetch ops (classic ``feed``/``fetch``, PIR ``pd_op.data``/``pd_op.feed``/
    ``pd_op.fetch``) and PIR's ``builtin.parameter`` ops are turned into these lists and into vars, so
    ``blocks[0].ops`` holds the computation only. ``output_labels`` are the names the fetch ops give their
    results (PIR's ``fetch_name_0``; classic programs: the fetched var names).
    ``format`` is ``'program_desc'`` or ``'pir'``; ``version`` the writer's version (classic: Paddle's version
    as an integer, 3003001 for 3.3.1, 0 for unknown; PIR: ``base_code.version``); ``op_versions`` the classic
    ``op_version_map``.
    """
    blocks: List[Block]
    inputs: List[str] = field(default_factory=list)
    outputs: List[str] = field(default_factory=list)
    output_labels: List[str] = field(default_factory=list)
    format: str = 'program_desc'
    version: int = 0
    op_versions: Dict[str, int] = field(default_factory=dict)
    path: str = ''

    def var(self, name: str, block: int = 0) -> Var:
        """The var ``name`` as seen from block ``block``: its own, else its ancestors' (an ``Error`` if none)."""
        idx = block
        while idx >= 0:
            found = self.blocks[idx].vars.get(name)
            if found is not None:
                return found
            idx = self.blocks[idx].parent_idx
        raise Error('Paddle program "{}" uses var "{}" in block {}, but declares it nowhere', self.path, name, block)

    def persistable_vars(self) -> Dict[str, Var]:
        """The vars whose values live in the parameter file(s), by name, from every block."""
        found = {}
        for block in self.blocks:
            for name, var in block.vars.items():
                if var.persistable and var.kind not in _NOT_SAVED:
                    found.setdefault(name, var)
        return found


#: persistable vars that no combined params file holds: Paddle's loader leaves out the feed and fetch lists,
#: readers and RAW vars, and loads SELECTED_ROWS ones from a directory of slices of their own
_NOT_SAVED = frozenset({'feed_minibatch', 'fetch_list', 'reader', 'raw', 'selected_rows'})
