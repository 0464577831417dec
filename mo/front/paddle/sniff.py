"""Telling a Paddle model by the first bytes of a file, without reading it whole (a framework record asks this
of every input it may claim), and a one-line description of a read program."""
import re

#: how much of a file the recognisers look at
HEAD_BYTES = 1024

#: a ProgramDesc's first bytes after its length: the top block's ``idx = 0`` (field 1) and ``parent_idx = -1``
#: (field 2, a negative int32 as ten varint bytes). Every Paddle writer puts these two required fields first.
_TOP_BLOCK = bytes([0x08, 0x00, 0x10]) + b'\xff' * 9 + b'\x01'

#: ``{"base_code": {... "magic": "pir" ...}`` at the start: Paddle's JSON writer orders keys, so base_code
#: comes first and holds no nested object
_PIR_HEAD = re.compile(rb'^\s*\{\s*"base_code"\s*:\s*\{[^{}]*"magic"\s*:\s*"pir"')


def _varint_end(data, pos: int):
    for i in range(pos, min(pos + 10, len(data))):
        if data[i] < 0x80:
            return i + 1
    return None


def is_paddle_program_bytes(head) -> bool:
    """True when ``head`` (the first KiB of a file, or all of it) starts like a serialized ``ProgramDesc``:
    field 1 (``blocks``) whose first block says it is block 0 with parent -1. A TensorFlow GraphDef also
    starts with a length-delimited field 1, but its NodeDef starts with a string; an ONNX model starts with a
    varint field."""
    if len(head) < 2 or head[0] != 0x0A:
        return False
    start = _varint_end(head, 1)
    return start is not None and bytes(head[start:start + len(_TOP_BLOCK)]) == _TOP_BLOCK


def is_pir_json(head) -> bool:
    """True when ``head`` (the first KiB of a file) starts like a PIR JSON program (``base_code`` with magic
    ``pir``); a UTF-8 byte order mark is allowed."""
    head = bytes(head)
    if head.startswith(b'\xef\xbb\xbf'):
        head = head[3:]
    return _PIR_HEAD.match(head) is not None


def sniff_file(path):
    """``'program_desc'``, ``'pir'`` or None for the file at ``path`` (None too when it cannot be read)."""
    try:
        with open(path, 'rb') as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        return None
    if is_paddle_program_bytes(head):
        return 'program_desc'
    if is_pir_json(head):
        return 'pir'
    return None


def describe(program) -> str:
    """One line about a read ``model.Program``: its format, writer, blocks, ops, inputs and outputs."""
    ops = sum(len(block.ops) for block in program.blocks)
    weights = len(program.persistable_vars())
    if program.format == 'pir':
        writer = 'PIR version {}'.format(program.version)
    elif program.version:
        v = program.version
        writer = 'ProgramDesc by Paddle {}.{}.{}'.format(v // 1_000_000, v // 1000 % 1000, v % 1000)
    else:
        writer = 'ProgramDesc (writer version unknown)'
    return 'Paddle model ({}): {} block{}, {} ops, {} persistable tensors, inputs {}, outputs {}'.format(
        writer, len(program.blocks), '' if len(program.blocks) == 1 else 's', ops, weights,
        ', '.join(program.inputs) or 'none', ', '.join(program.outputs) or 'none')
