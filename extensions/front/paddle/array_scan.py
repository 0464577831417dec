"""A tensor array a Paddle ``while`` appends to, one tensor per iteration: a scan output of the Loop.

``paddle.jit.to_static`` turns ``outs.append(y)`` in a ``while`` loop into an array written at its own length:

* classic: ``len = lod_array_length(X=arr)``, ``write_to_array(X=y, I=len) -> Out=arr`` in the sub-block, the
  array among the ``while``'s ``X`` and ``Out`` vars and made by nothing before it (empty);
* PIR: ``arr = create_array()`` before the loop, ``len = array_length(arr)``, ``array_write_(arr, y, len)`` in
  the body region, which reads ``arr`` from the enclosing block (it is no loop variable: the write is in place).

After the loop the array holds the iterations' tensors in order, which is what a Loop's scan output
concatenated on a new axis 0 holds. So the body keeps ``y`` (unsqueezed at axis 0) as a scan output in place of
the two array ops, and the array after the loop is that stacked ``[iterations, ...]`` tensor, which the array
ops there (``tensor_array_to_tensor``, ``array_length``, ``array_read``: ``array_lowering.py``) read as such.
Any other use of the array in the body (a read, a write at another index, a write under an ``if``) is refused.
"""
from collections import namedtuple

from mo.front.paddle.model import Op, Program, Var
from mo.utils.error import Error

#: ``element``: the var appended each iteration; ``scan``: the name of its unsqueezed copy in the body;
#: ``edits``: {index of an op of the body block: the op standing for it, or None to leave it out}
Append = namedtuple('Append', 'array element scan edits')

_LENGTH = ('lod_array_length', 'pd_op.array_length')
WRITES = ('write_to_array', 'pd_op.array_write_', 'pd_op.array_write')


def _reads(op: Op) -> list:
    if op.operands:
        return [name for name in op.operands if name is not None]
    return [name for names in op.inputs.values() for name in names]


def _nested_blocks(program: Program, op: Op) -> list:
    found = [b for region in op.regions for b in region]
    if 'sub_block' in op.attrs and not op.regions:
        found.append(int(op.attrs['sub_block']))
    for block in list(found):
        for inner in program.blocks[block].ops:
            found += _nested_blocks(program, inner)
    return found


def is_array(program: Program, name: str, block: int = 0) -> bool:
    try:
        return program.var(name, block).kind == 'dense_tensor_array'
    except Error:
        return False


def loop_append(program: Program, block_idx: int, array: str, where: str) -> Append:
    """How the body block ``block_idx`` appends to ``array`` (see the module docstring); an ``Error`` naming
    ``where`` when it does anything else with it."""
    ops = program.blocks[block_idx].ops
    lengths, writes = {}, []
    for index, op in enumerate(ops):
        if op.type in _LENGTH and _reads(op)[:1] == [array]:
            lengths[(op.results or [op.output('Out')])[0]] = index
        elif op.type in WRITES and _write_parts(op)[0] == array:
            writes.append(index)
        elif array in _reads(op):
            raise Error('{}: op {} reads tensor array "{}" inside the loop; mo converts a loop that only appends '
                        'to an array (outs.append(x))', where, op.type, array)
        for nested in _nested_blocks(program, op):
            if any(array in _reads(inner) for inner in program.blocks[nested].ops):
                raise Error('{}: tensor array "{}" is used inside a nested block of op {}; mo converts a loop that '
                            'appends to an array once per iteration, outside any if', where, array, op.type)
    if len(writes) != 1:
        raise Error('{}: the loop writes tensor array "{}" {} times per iteration; mo converts one append per '
                    'iteration', where, array, len(writes))
    write = ops[writes[0]]
    _, element, index_var = _write_parts(write)
    if index_var not in lengths:
        raise Error('{}: the loop writes tensor array "{}" at an index other than its length; mo converts '
                    'appends (outs.append(x)) only', where, array)
    readers = [op.type for op in ops if index_var in _reads(op) and op is not write]
    if readers:
        raise Error('{}: the length of tensor array "{}" is read by {} inside the loop; mo converts a loop that '
                    'only appends to the array', where, array, ', '.join(readers))
    scan = '{}@scan'.format(element)
    unsqueeze = Op('unsqueeze2', inputs={'X': [element]}, outputs={'Out': [scan]}, attrs={'axes': [0]},
                   attr_types={'axes': 'INTS'})
    return Append(array, element, scan, {writes[0]: unsqueeze, lengths[index_var]: None})


def _write_parts(op: Op):
    """``(array, element, index)`` of a write op of either format."""
    if op.operands:  # PIR array_write_(array, x, i)
        names = list(op.operands) + [None] * 3
        return names[0], names[1], names[2]
    return op.output('Out'), op.input('X'), op.input('I')


def scan_var(program: Program, block_idx: int, append: Append) -> Var:
    """The var of the unsqueezed element: the element's type, a leading 1."""
    try:
        element = program.var(append.element, block_idx)
    except Error:
        return Var(append.scan)
    shape = [1] + list(element.shape) if element.shape is not None else None
    return Var(append.scan, element.dtype, shape)
