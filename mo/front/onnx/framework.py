"""ONNX's framework record (``mo.front.frameworks``): a ModelProto, told by its top-level fields.

A ModelProto starts with ``ir_version`` (field 1, a varint) as every ONNX writer orders it, has a ``graph``
(field 7) and no field a ModelProto does not declare; a GraphDef starts with a length-delimited field 1, and a
SavedModel has a varint field 1 too but then only field 2 (its meta graphs) and no graph. A ``.onnx`` name alone
does not decide: a renamed GraphDef still converts.
"""
import mmap
import os

from mo.front.frameworks import Framework, ModelSource
from mo.utils.proto_wire import fields

#: the top-level field numbers of a ModelProto
_MODEL_FIELDS = {1, 2, 3, 4, 5, 6, 7, 8, 14, 20, 25, 26}


def is_onnx_bytes(data) -> bool:
    """True when ``data`` (a whole file's bytes or its mmap) is an ONNX ModelProto (top-level keys walked, payloads
    skipped)."""
    if len(data) < 2 or data[0] != 0x08:
        return False
    seen = set()
    try:
        for number, _, _, _, _ in fields(data, 0, len(data)):
            if number not in _MODEL_FIELDS:
                return False
            seen.add(number)
    except ValueError:
        return False
    return 7 in seen


def is_onnx_file(path) -> bool:
    """``is_onnx_bytes`` of the file at ``path`` (memory-mapped: only its top-level keys are read)."""
    try:
        with open(path, 'rb') as f:
            if os.fstat(f.fileno()).st_size < 2:
                return False
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return is_onnx_bytes(data)
    except (OSError, ValueError):
        return False


def _claims(source: ModelSource) -> bool:
    if source.options.get('onnx_model') is not None:
        return True
    if source.data is not None:
        return is_onnx_bytes(source.data)
    return source.is_file and not source.options.get('saved_model_dir') and is_onnx_file(source.path)


def _prepare(options: dict):
    """A model given to the API as bytes is the ONNX reader's ``onnx_model``."""
    if options.get('graph_def_bytes') is not None:
        options['onnx_model'] = options.pop('graph_def_bytes')


FRAMEWORK = Framework(
    name='onnx', title='ONNX', layout='NCHW', order=10, claims=_claims, prepare=_prepare,
    formats='an ONNX model (.onnx, external data beside it)',
    reader_steps=('ONNXLoader', 'ONNXInputsOutputs'))
