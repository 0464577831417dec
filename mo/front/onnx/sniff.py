"""Telling an ONNX model from a TensorFlow file by its first bytes, without loading the ONNX reader (a TF
conversion asks too)."""
import mmap
import os

from mo.front.onnx import wire

#: the top-level field numbers of a ModelProto
_MODEL_FIELDS = {1, 2, 3, 4, 5, 6, 7, 8, 14, 20, 25, 26}


def is_onnx_bytes(data) -> bool:
    """True when ``data`` (a whole file's bytes or its mmap) is an ONNX ModelProto.

    The top-level fields are walked (keys and lengths only, payloads skipped): a ModelProto starts with
    ``ir_version`` (field 1, a varint) as every ONNX writer orders it, has a ``graph`` (field 7) and no field a
    ModelProto does not declare. A GraphDef starts with a length-delimited field 1; a SavedModel has a varint
    field 1 too, but then only field 2 (its meta graphs) and no graph.
    """
    if len(data) < 2 or data[0] != 0x08:
        return False
    seen = set()
    try:
        for number, _, _, _, _ in wire.fields(data, 0, len(data)):
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
