"""PaddlePaddle's framework record (``mo.front.frameworks``): classic ``.pdmodel`` programs, Paddle 1.x model
directories and Paddle 3's PIR ``.json`` programs.

Asked before TensorFlow's record: a serialized ``ProgramDesc`` starts with a length-delimited field 1, as a
GraphDef does, so the loose GraphDef test would take it. The content tests live here, cheap and importing
nothing (``mo.front.paddle.sniff`` re-exports them for the readers): the record is asked about every model, so a
TensorFlow or ONNX conversion must import no other Paddle module for it.
"""
import os
import re

from mo.front.frameworks import Framework, ModelSource

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


def _claims(source: ModelSource) -> bool:
    if source.data is not None:
        return False  # the Paddle readers take files only
    if source.is_dir:
        return os.path.isfile(os.path.join(str(source.path), '__model__'))
    if not source.is_file:
        return False
    head = source.head()
    return is_paddle_program_bytes(head) or is_pir_json(head)


FRAMEWORK = Framework(
    name='paddle', title='PaddlePaddle', layout='NCHW', order=20, claims=_claims,
    formats='a PaddlePaddle program (.pdmodel or PIR .json, with .pdiparams beside it; a Paddle 1.x directory '
            'with __model__)',
    reader_steps=('PaddleLoader', 'PaddleInputsOutputs'))
