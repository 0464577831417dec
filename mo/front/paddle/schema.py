"""PaddlePaddle's classic program schema (``paddle/fluid/framework/framework.proto``, proto2), written down as data.

This is what a ``.pdmodel`` file (and a Paddle 1.x ``__model__``) holds: a serialized ``ProgramDesc``. The
``.pdiparams`` records embed a serialized ``VarType.TensorDesc`` too.

Field names, numbers, types and labels follow Paddle 3's file; ``tests/paddle/test_paddle_schema.py`` compares
them with the descriptors in the installed ``paddle`` wheel. Paddle 3 renamed ``LoDTensorDesc`` to
``DenseTensorDesc`` (and ``LOD_TENSOR``/``LOD_TENSOR_ARRAY`` to ``DENSE_TENSOR``/``DENSE_TENSOR_ARRAY``, the
``lod_tensor`` field to ``dense_tensor``, ``lod_level`` to ``legacy_lod_level``) without changing any number, so
Paddle 1.x and 2.x files parse with the same schema. Every ``required`` field is declared optional here: the
reader checks what it needs itself and so reports a missing field in its own words instead of protobuf's.
``OpProto`` (the operator registry's self-description) is left out: no model file contains one.
"""
from mo.utils.proto_schema.dsl import enum, field, message, proto_file, repeated

PADDLE = '.paddle.framework.proto.'

#: AttrType: the type tag of an ``OpDesc.Attr`` (which of its value fields is set)
ATTR_TYPES = (
    ('INT', 0), ('FLOAT', 1), ('STRING', 2), ('INTS', 3), ('FLOATS', 4), ('STRINGS', 5), ('BOOLEAN', 6),
    ('BOOLEANS', 7), ('BLOCK', 8), ('LONG', 9), ('BLOCKS', 10), ('LONGS', 11), ('FLOAT64S', 12), ('VAR', 13),
    ('VARS', 14), ('FLOAT64', 15), ('SCALAR', 16), ('SCALARS', 17),
)

#: VarType.Type: element types (0..6, 19..24, 32..38) and variable kinds (7..18, 25..31) share one enum
VAR_TYPES = (
    ('BOOL', 0), ('INT16', 1), ('INT32', 2), ('INT64', 3), ('FP16', 4), ('FP32', 5), ('FP64', 6),
    ('SIZE_T', 19), ('UINT8', 20), ('INT8', 21), ('BF16', 22), ('COMPLEX64', 23), ('COMPLEX128', 24),
    ('FP8_E4M3FN', 32), ('FP8_E5M2', 33), ('UINT16', 36), ('UINT32', 37), ('UINT64', 38),
    ('DENSE_TENSOR', 7), ('SELECTED_ROWS', 8), ('FEED_MINIBATCH', 9), ('FETCH_LIST', 10), ('STEP_SCOPES', 11),
    ('LOD_RANK_TABLE', 12), ('DENSE_TENSOR_ARRAY', 13), ('PLACE_LIST', 14), ('READER', 15), ('RAW', 17),
    ('TUPLE', 18), ('STRING', 25), ('STRINGS', 26), ('VOCAB', 27), ('FEED_LIST', 28), ('PSTRING', 29),
    ('SPARSE_COO', 30), ('SPARSE_CSR', 31),
)

#: Scalar.Type: which value field of a ``Scalar`` attribute is set
SCALAR_TYPES = (('BOOLEAN', 1), ('LONG', 2), ('FLOAT64', 3), ('COMPLEX128', 4))

_TENSOR_DESC = PADDLE + 'VarType.TensorDesc'

FILES = (
    proto_file(
        'paddle/fluid/framework/framework.proto', [],
        message('Version', field('version', 1, 'int64')),
        message('Complex', field('r', 1, 'double'), field('i', 2, 'double')),
        message(
            'Scalar',
            field('type', 1, PADDLE + 'Scalar.Type'),
            field('b', 2, 'bool'),
            field('i', 3, 'int64'),
            field('r', 4, 'double'),
            field('c', 5, PADDLE + 'Complex'),
            enums=[enum('Type', *SCALAR_TYPES)],
        ),
        message(
            'OpDesc',
            field('type', 3, 'string'),
            repeated('inputs', 1, PADDLE + 'OpDesc.Var'),
            repeated('outputs', 2, PADDLE + 'OpDesc.Var'),
            repeated('attrs', 4, PADDLE + 'OpDesc.Attr'),
            field('is_target', 5, 'bool'),
            nested=[
                message(
                    'Attr',
                    field('name', 1, 'string'),
                    field('type', 2, PADDLE + 'AttrType'),
                    field('i', 3, 'int32'),
                    field('f', 4, 'float'),
                    field('s', 5, 'string'),
                    repeated('ints', 6, 'int32'),
                    repeated('floats', 7, 'float'),
                    repeated('strings', 8, 'string'),
                    field('b', 10, 'bool'),
                    repeated('bools', 11, 'bool'),
                    field('block_idx', 12, 'int32'),
                    field('l', 13, 'int64'),
                    repeated('blocks_idx', 14, 'int32'),
                    repeated('longs', 15, 'int64'),
                    repeated('float64s', 16, 'double'),
                    field('var_name', 17, 'string'),
                    repeated('vars_name', 18, 'string'),
                    field('float64', 19, 'double'),
                    field('scalar', 20, PADDLE + 'Scalar'),
                    repeated('scalars', 21, PADDLE + 'Scalar'),
                ),
                message('Var', field('parameter', 1, 'string'), repeated('arguments', 2, 'string')),
            ],
        ),
        message(
            'VarType',
            field('type', 1, PADDLE + 'VarType.Type'),
            field('selected_rows', 2, _TENSOR_DESC),
            # ``lod_tensor`` before Paddle 3
            field('dense_tensor', 3, PADDLE + 'VarType.DenseTensorDesc'),
            field('tensor_array', 4, PADDLE + 'VarType.DenseTensorArrayDesc'),
            field('reader', 5, PADDLE + 'VarType.ReaderDesc'),
            field('tuple', 7, PADDLE + 'VarType.Tuple'),
            field('string', 8, _TENSOR_DESC),
            field('strings', 9, _TENSOR_DESC),
            field('vocab', 10, _TENSOR_DESC),
            field('sparse_coo', 11, _TENSOR_DESC),
            field('sparse_csr', 12, _TENSOR_DESC),
            nested=[
                message('TensorDesc', field('data_type', 1, PADDLE + 'VarType.Type'), repeated('dims', 2, 'int64')),
                # ``LoDTensorDesc`` / ``lod_level`` before Paddle 3
                message('DenseTensorDesc', field('tensor', 1, _TENSOR_DESC), field('legacy_lod_level', 2, 'int32')),
                message('DenseTensorArrayDesc', field('tensor', 1, _TENSOR_DESC),
                        field('legacy_lod_level', 2, 'int32')),
                message('ReaderDesc', repeated('dense_tensor', 1, PADDLE + 'VarType.DenseTensorDesc')),
                message('Tuple', repeated('element_type', 1, PADDLE + 'VarType.Type')),
            ],
            enums=[enum('Type', *VAR_TYPES)],
        ),
        message(
            'VarDesc',
            field('name', 1, 'string'),
            field('type', 2, PADDLE + 'VarType'),
            field('persistable', 3, 'bool'),
            field('need_check_feed', 4, 'bool'),
            field('is_parameter', 5, 'bool'),
            field('stop_gradient', 6, 'bool'),
            repeated('attrs', 7, PADDLE + 'VarDesc.Attr'),
            nested=[message('Attr', field('name', 1, 'string'), field('type', 2, PADDLE + 'AttrType'),
                            field('i', 3, 'int32'), field('s', 4, 'string'), repeated('ints', 5, 'int32'))],
        ),
        message(
            'BlockDesc',
            field('idx', 1, 'int32'),
            field('parent_idx', 2, 'int32'),
            repeated('vars', 3, PADDLE + 'VarDesc'),
            repeated('ops', 4, PADDLE + 'OpDesc'),
            # proto2 default -1: the reader asks HasField before it trusts a 0
            field('forward_block_idx', 5, 'int32'),
        ),
        message('OpVersion', field('version', 1, 'int32')),
        message(
            'OpVersionMap',
            repeated('pair', 1, PADDLE + 'OpVersionMap.OpVersionPair'),
            nested=[message('OpVersionPair', field('op_name', 1, 'string'),
                            field('op_version', 2, PADDLE + 'OpVersion'))],
        ),
        message(
            'ProgramDesc',
            repeated('blocks', 1, PADDLE + 'BlockDesc'),
            field('version', 4, PADDLE + 'Version'),
            field('op_version_map', 5, PADDLE + 'OpVersionMap'),
            reserved=[(2, 3), (3, 4)],
        ),
        enum('AttrType', *ATTR_TYPES),
        syntax='proto2',
    ),
)
