"""Telling a Paddle model by the first bytes of a file, without reading it whole (a framework record asks this
of every input it may claim), and a one-line description of a read program."""
from mo.front.paddle.framework import is_paddle_program_bytes, is_pir_json  # noqa: F401 (the tests live in
# the framework record, which every conversion imports; this module re-exports them for the readers)

#: how much of a file the recognisers look at
HEAD_BYTES = 1024


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
