"""The classic Paddle program: a serialized ``ProgramDesc`` (``.pdmodel``, or ``__model__`` in a Paddle 1.x model
directory) read into ``model.Program``.

What is kept: every block with its vars (dtype, shape, persistable, kind) and its ops (inputs and outputs by
slot, attributes as Python values), the feed and fetch ops as the ordered ``inputs``/``outputs`` names, the
writer's version and ``op_version_map``. What is not: the ``op_callstack`` attribute (the Python traceback
of each op's creation, most of a ``.pdmodel``'s bytes), the var attributes, and ``OpDesc.is_target``.
"""
from mo.front.paddle import dtypes
from mo.front.paddle.messages import enum_names, message_class
from mo.front.paddle.model import Block, Op, Program, Var  # noqa: F401 (re-exported for the readers' users)
from mo.utils.error import Error

#: the newest writer this reader knows: ``Version.version`` is Paddle's version as major * 10**6 + minor * 10**3
#: + patch (3003001 for Paddle 3.3.1; 0 from develop builds and old writers). Paddle 4 may change the format.
MAX_PROGRAM_VERSION = 3_999_999

#: attributes dropped on reading: the Python tracebacks of each op's creation
_DROPPED_ATTRS = frozenset({'op_callstack'})


def _describe(number: int) -> str:
    """'3.3.1' for 3003001."""
    return '{}.{}.{}'.format(number // 1_000_000, number // 1000 % 1000, number % 1000)


def parse_program_desc(data: bytes, path: str):
    """``data`` as a ``ProgramDesc`` message; an ``Error`` naming ``path`` when it is not one."""
    cls = message_class('ProgramDesc')
    try:
        desc = cls.FromString(bytes(data))
    except Exception as e:  # protobuf's DecodeError differs between its backends
        raise Error('Paddle program "{}" is not a valid ProgramDesc ({}): the file is truncated, damaged or no '
                    'Paddle model', path, e) from None
    if not desc.blocks:
        raise Error('Paddle program "{}" has no blocks: the file is empty, truncated or no Paddle model', path)
    return desc


def _scalar(scalar, where):
    kind = scalar.type
    if not scalar.HasField('type'):
        raise Error('{} holds a Scalar of a type this reader does not know', where)
    if kind == 1:
        return bool(scalar.b)
    if kind == 2:
        return int(scalar.i)
    if kind == 3:
        return float(scalar.r)
    return complex(scalar.c.r, scalar.c.i)


def _attr_value(attr, type_name, where):
    """The Python value of an ``OpDesc.Attr`` of type ``type_name``."""
    getters = {
        'INT': lambda a: int(a.i), 'FLOAT': lambda a: float(a.f), 'STRING': lambda a: a.s,
        'INTS': lambda a: list(a.ints), 'FLOATS': lambda a: list(a.floats), 'STRINGS': lambda a: list(a.strings),
        'BOOLEAN': lambda a: bool(a.b), 'BOOLEANS': lambda a: list(a.bools), 'BLOCK': lambda a: int(a.block_idx),
        'LONG': lambda a: int(a.l), 'BLOCKS': lambda a: list(a.blocks_idx), 'LONGS': lambda a: list(a.longs),
        'FLOAT64S': lambda a: list(a.float64s), 'VAR': lambda a: a.var_name, 'VARS': lambda a: list(a.vars_name),
        'FLOAT64': lambda a: float(a.float64), 'SCALAR': lambda a: _scalar(a.scalar, where),
        'SCALARS': lambda a: [_scalar(s, where) for s in a.scalars],
    }
    return getters[type_name](attr)


def _tensor_desc(var_type, kind):
    """The ``TensorDesc`` describing a var of ``kind``, or None for kinds that have none."""
    if kind == 'dense_tensor' and var_type.HasField('dense_tensor'):
        return var_type.dense_tensor.tensor
    if kind == 'dense_tensor_array' and var_type.HasField('tensor_array'):
        return var_type.tensor_array.tensor
    for name in ('selected_rows', 'sparse_coo', 'sparse_csr'):
        if kind == name and var_type.HasField(name):
            return getattr(var_type, name)
    return None


def _var(desc, kinds, where) -> Var:
    if not desc.name:
        raise Error('{} declares a var without a name: the file is damaged', where)
    if not desc.HasField('type') or not desc.type.HasField('type'):
        raise Error('{}: var "{}" has a variable type this reader does not know (or none)', where, desc.name)
    number = desc.type.type
    kind = kinds[number].lower()
    element = dtypes.from_var_type(number)
    if element is not None:  # a var whose type is an element type itself: a scalar
        return Var(desc.name, element, [], bool(desc.persistable), 'scalar')
    dtype = shape = None
    tensor = _tensor_desc(desc.type, kind)
    if tensor is not None:
        if not tensor.HasField('data_type'):
            raise Error('{}: var "{}" has an element type this reader does not know (or none)', where, desc.name)
        dtype = dtypes.from_var_type(tensor.data_type)
        if dtype is None:
            raise Error('{}: var "{}" has element type {}, which is no tensor element type', where, desc.name,
                        kinds.get(tensor.data_type, tensor.data_type))
        shape = [int(d) for d in tensor.dims]
    return Var(desc.name, dtype, shape, bool(desc.persistable), kind)


def _op(desc, attr_types, where) -> Op:
    if not desc.type:
        raise Error('{} has an op without a type: the file is damaged', where)
    op = Op(desc.type)
    for slot in desc.inputs:
        op.inputs[slot.parameter] = list(slot.arguments)
    for slot in desc.outputs:
        op.outputs[slot.parameter] = list(slot.arguments)
    for attr in desc.attrs:
        if attr.name in _DROPPED_ATTRS:
            continue
        if not attr.HasField('type'):
            raise Error('{}: attribute "{}" of op {} has a type this reader does not know', where, attr.name,
                        desc.type)
        type_name = attr_types[attr.type]
        op.attrs[attr.name] = _attr_value(attr, type_name, '{}: attribute "{}" of op {}'.format(
            where, attr.name, desc.type))
        op.attr_types[attr.name] = type_name
    return op


def _feeds_and_fetches(block: Block, path: str):
    """Takes the feed and fetch ops out of the top block: (input names, output names) in their 'col' order."""
    feeds, fetches, kept = [], [], []
    for op in block.ops:
        if op.type == 'feed':
            feeds.append((op.attrs.get('col', len(feeds)), op.output('Out')))
        elif op.type == 'fetch':
            fetches.append((op.attrs.get('col', len(fetches)), op.input('X')))
        else:
            kept.append(op)
    for kind, found in (('feed', feeds), ('fetch', fetches)):
        cols = sorted(col for col, _ in found)
        if cols != list(range(len(found))) or any(name is None for _, name in found):
            raise Error('Paddle program "{}": its {} ops do not number their columns 0..{} or lack a var ({})',
                        path, kind, len(found) - 1, sorted(found, key=lambda item: item[0]))
    block.ops = kept
    return [name for _, name in sorted(feeds)], [name for _, name in sorted(fetches)]


def read_program(data: bytes, path: str = '') -> Program:
    """The ``ProgramDesc`` in ``data`` (the bytes of a ``.pdmodel`` or ``__model__`` file at ``path``).

    Raises ``Error`` for bytes that are no ``ProgramDesc``, a program written by a Paddle newer than
    ``MAX_PROGRAM_VERSION``, blocks out of order, and vars, ops or attributes of types this reader does not know.
    """
    desc = parse_program_desc(data, path)
    version = int(desc.version.version) if desc.HasField('version') else 0
    if version > MAX_PROGRAM_VERSION:
        raise Error('Paddle program "{}" was written by Paddle {}; this reader knows programs up to Paddle {}',
                    path, _describe(version), _describe(MAX_PROGRAM_VERSION))
    kinds, attr_types = enum_names('VarType.Type'), enum_names('AttrType')
    blocks = []
    for i, block_desc in enumerate(desc.blocks):
        where = 'Paddle program "{}", block {}'.format(path, i)
        parent = block_desc.parent_idx if block_desc.HasField('parent_idx') else -1
        if block_desc.idx != i or parent >= i or parent < -1 or (i > 0 and parent < 0):
            raise Error('{} says it is block {} with parent {}: the file is damaged', where, block_desc.idx, parent)
        block = Block(i, parent if i > 0 else -1)
        for var_desc in block_desc.vars:
            var = _var(var_desc, kinds, where)
            block.vars[var.name] = var
        block.ops = [_op(op_desc, attr_types, where) for op_desc in block_desc.ops]
        blocks.append(block)
    for block in blocks:
        for op in block.ops:
            for name, type_name in op.attr_types.items():
                indices = [op.attrs[name]] if type_name == 'BLOCK' else op.attrs[name] if type_name == 'BLOCKS' else ()
                if any(not 0 < idx < len(blocks) for idx in indices):
                    raise Error('Paddle program "{}": op {} in block {} refers to block {} of {}', path, op.type,
                                block.idx, indices, len(blocks))
    inputs, outputs = _feeds_and_fetches(blocks[0], path)
    op_versions = {pair.op_name: int(pair.op_version.version) for pair in desc.op_version_map.pair}
    return Program(blocks, inputs, outputs, list(outputs), 'program_desc', version, op_versions, str(path))
