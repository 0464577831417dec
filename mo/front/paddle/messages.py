"""Paddle's protobuf messages (``schema.py``), built on first use in a private descriptor pool.

Built lazily: a TensorFlow or ONNX conversion imports nothing of Paddle's, and the pool costs a few
milliseconds only when a Paddle model is read.
"""
import functools

from mo.front.paddle import schema
from mo.utils.proto_schema import pool

PACKAGE = 'paddle.framework.proto'


@functools.lru_cache(maxsize=None)
def _pool():
    built = pool.build_pool(PACKAGE, schema.FILES)
    return built, pool.MessageClasses(built)


def message_class(name: str):
    """The class of message ``name`` (``'ProgramDesc'``, ``'VarType.TensorDesc'``)."""
    return _pool()[1]('{}.{}'.format(PACKAGE, name))


def enum_names(name: str) -> dict:
    """``{number: NAME}`` of the enum ``name`` (``'AttrType'``, ``'VarType.Type'``)."""
    desc = _pool()[0].FindEnumTypeByName('{}.{}'.format(PACKAGE, name))
    return {v.number: v.name for v in desc.values}


def file_descriptor_protos():
    """The schema as ``descriptor_pb2.FileDescriptorProto`` messages (for inspection and tests)."""
    return pool.file_descriptor_protos(PACKAGE, schema.FILES)
