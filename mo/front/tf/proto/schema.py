"""The TensorFlow GraphDef schema, written down as data.

Each ``.proto`` file TensorFlow uses to describe a frozen graph is one ``proto_file(...)`` entry
below; ``_pool.py`` turns the entries into ``FileDescriptorProto`` messages and then into message
classes. Field names, numbers, types and labels match TensorFlow's own files (tensorflow/core/
framework/*.proto) exactly, because the bytes must be interchangeable with TensorFlow both ways.
Fields are listed in the order TensorFlow declares them; only the numbers matter on the wire.

Field types are proto scalar names (``'int64'``, ``'string'``, ...) or the full name of a
message or enum (``'.tensorflow.TensorProto'``); the builder tells messages from enums by the
enums declared here.
"""
from mo.utils.proto_schema.dsl import enum, field, map_field, message, proto_file, repeated

TF = '.tensorflow.'


def _path(short):
    return 'tensorflow/core/framework/{}.proto'.format(short)


# TensorFlow dtype numbers: the plain types, then each one's *_REF twin at +100.
_DTYPE_NAMES = [
    (0, 'DT_INVALID'), (1, 'DT_FLOAT'), (2, 'DT_DOUBLE'), (3, 'DT_INT32'), (4, 'DT_UINT8'),
    (5, 'DT_INT16'), (6, 'DT_INT8'), (7, 'DT_STRING'), (8, 'DT_COMPLEX64'), (9, 'DT_INT64'),
    (10, 'DT_BOOL'), (11, 'DT_QINT8'), (12, 'DT_QUINT8'), (13, 'DT_QINT32'), (14, 'DT_BFLOAT16'),
    (15, 'DT_QINT16'), (16, 'DT_QUINT16'), (17, 'DT_UINT16'), (18, 'DT_COMPLEX128'), (19, 'DT_HALF'),
    (20, 'DT_RESOURCE'), (21, 'DT_VARIANT'), (22, 'DT_UINT32'), (23, 'DT_UINT64'),
    (24, 'DT_FLOAT8_E5M2'), (25, 'DT_FLOAT8_E4M3FN'), (26, 'DT_FLOAT8_E4M3FNUZ'),
    (27, 'DT_FLOAT8_E4M3B11FNUZ'), (28, 'DT_FLOAT8_E5M2FNUZ'), (29, 'DT_INT4'), (30, 'DT_UINT4'),
    (31, 'DT_INT2'), (32, 'DT_UINT2'), (33, 'DT_FLOAT4_E2M1FN'),
]
_DATA_TYPE_VALUES = tuple((name, number) for number, name in _DTYPE_NAMES) + tuple(
    (name + '_REF', number + 100) for number, name in _DTYPE_NAMES if number)

_FULL_TYPE_IDS = (
    ('TFT_UNSET', 0), ('TFT_VAR', 1), ('TFT_ANY', 2), ('TFT_PRODUCT', 3), ('TFT_NAMED', 4),
    ('TFT_FOR_EACH', 20), ('TFT_CALLABLE', 100), ('TFT_TENSOR', 1000), ('TFT_ARRAY', 1001),
    ('TFT_OPTIONAL', 1002), ('TFT_LITERAL', 1003), ('TFT_ENCODED', 1004), ('TFT_SHAPE_TENSOR', 1005),
    ('TFT_BOOL', 200), ('TFT_UINT8', 201), ('TFT_UINT16', 202), ('TFT_UINT32', 203),
    ('TFT_UINT64', 204), ('TFT_INT8', 205), ('TFT_INT16', 206), ('TFT_INT32', 207),
    ('TFT_INT64', 208), ('TFT_HALF', 209), ('TFT_FLOAT', 210), ('TFT_DOUBLE', 211),
    ('TFT_BFLOAT16', 215), ('TFT_COMPLEX64', 212), ('TFT_COMPLEX128', 213), ('TFT_STRING', 214),
    ('TFT_DATASET', 10102), ('TFT_RAGGED', 10103), ('TFT_ITERATOR', 10104),
    ('TFT_MUTEX_LOCK', 10202), ('TFT_LEGACY_VARIANT', 10203),
)

# In dependency order: every file comes after the files it imports.
FILES = (
    proto_file(
        _path('types'), [],
        enum('DataType', *_DATA_TYPE_VALUES),
        message('SerializedDType', field('datatype', 1, TF + 'DataType')),
    ),
    proto_file(
        _path('tensor_shape'), [],
        message(
            'TensorShapeProto',
            repeated('dim', 2, TF + 'TensorShapeProto.Dim'),
            field('unknown_rank', 3, 'bool'),
            nested=[message('Dim', field('size', 1, 'int64'), field('name', 2, 'string'))],
        ),
    ),
    proto_file(
        _path('resource_handle'), [_path('tensor_shape'), _path('types')],
        message(
            'ResourceHandleProto',
            field('device', 1, 'string'),
            field('container', 2, 'string'),
            field('name', 3, 'string'),
            field('hash_code', 4, 'uint64'),
            field('maybe_type_name', 5, 'string'),
            repeated('dtypes_and_shapes', 6, TF + 'ResourceHandleProto.DtypeAndShape'),
            nested=[message('DtypeAndShape',
                            field('dtype', 1, TF + 'DataType'),
                            field('shape', 2, TF + 'TensorShapeProto'))],
            reserved=[(7, 8)],
        ),
    ),
    proto_file(
        _path('tensor'), [_path('resource_handle'), _path('tensor_shape'), _path('types')],
        message(
            'TensorProto',
            field('dtype', 1, TF + 'DataType'),
            field('tensor_shape', 2, TF + 'TensorShapeProto'),
            field('version_number', 3, 'int32'),
            field('tensor_content', 4, 'bytes'),
            repeated('half_val', 13, 'int32', packed=True),
            repeated('float_val', 5, 'float', packed=True),
            repeated('double_val', 6, 'double', packed=True),
            repeated('int_val', 7, 'int32', packed=True),
            repeated('string_val', 8, 'bytes'),
            repeated('scomplex_val', 9, 'float', packed=True),
            repeated('int64_val', 10, 'int64', packed=True),
            repeated('bool_val', 11, 'bool', packed=True),
            repeated('dcomplex_val', 12, 'double', packed=True),
            repeated('resource_handle_val', 14, TF + 'ResourceHandleProto'),
            repeated('variant_val', 15, TF + 'VariantTensorDataProto'),
            repeated('uint32_val', 16, 'uint32', packed=True),
            repeated('uint64_val', 17, 'uint64', packed=True),
            field('float8_val', 18, 'bytes'),
        ),
        message(
            'VariantTensorDataProto',
            field('type_name', 1, 'string'),
            field('metadata', 2, 'bytes'),
            repeated('tensors', 3, TF + 'TensorProto'),
        ),
    ),
    proto_file(
        _path('attr_value'), [_path('tensor'), _path('tensor_shape'), _path('types')],
        message(
            'AttrValue',
            field('s', 2, 'bytes', oneof='value'),
            field('i', 3, 'int64', oneof='value'),
            field('f', 4, 'float', oneof='value'),
            field('b', 5, 'bool', oneof='value'),
            field('type', 6, TF + 'DataType', oneof='value'),
            field('shape', 7, TF + 'TensorShapeProto', oneof='value'),
            field('tensor', 8, TF + 'TensorProto', oneof='value'),
            field('list', 1, TF + 'AttrValue.ListValue', oneof='value'),
            field('func', 10, TF + 'NameAttrList', oneof='value'),
            field('placeholder', 9, 'string', oneof='value'),
            oneofs=['value'],
            nested=[message(
                'ListValue',
                repeated('s', 2, 'bytes'),
                repeated('i', 3, 'int64', packed=True),
                repeated('f', 4, 'float', packed=True),
                repeated('b', 5, 'bool', packed=True),
                repeated('type', 6, TF + 'DataType', packed=True),
                repeated('shape', 7, TF + 'TensorShapeProto'),
                repeated('tensor', 8, TF + 'TensorProto'),
                repeated('func', 9, TF + 'NameAttrList'),
            )],
        ),
        message(
            'NameAttrList',
            field('name', 1, 'string'),
            map_field('attr', 2, 'string', TF + 'AttrValue'),
        ),
    ),
    proto_file(
        _path('full_type'), [],
        enum('FullTypeId', *_FULL_TYPE_IDS),
        message(
            'FullTypeDef',
            field('type_id', 1, TF + 'FullTypeId'),
            repeated('args', 2, TF + 'FullTypeDef'),
            field('s', 3, 'string', oneof='attr'),
            field('i', 4, 'int64', oneof='attr'),
            oneofs=['attr'],
        ),
    ),
    proto_file(
        _path('node_def'), [_path('attr_value'), _path('full_type')],
        message(
            'NodeDef',
            field('name', 1, 'string'),
            field('op', 2, 'string'),
            repeated('input', 3, 'string'),
            field('device', 4, 'string'),
            map_field('attr', 5, 'string', TF + 'AttrValue'),
            field('experimental_debug_info', 6, TF + 'NodeDef.ExperimentalDebugInfo'),
            field('experimental_type', 7, TF + 'FullTypeDef'),
            nested=[message('ExperimentalDebugInfo',
                            repeated('original_node_names', 1, 'string'),
                            repeated('original_func_names', 2, 'string'))],
        ),
    ),
    proto_file(
        _path('op_def'), [_path('attr_value'), _path('full_type'), _path('resource_handle'), _path('types')],
        message(
            'OpDef',
            field('name', 1, 'string'),
            repeated('input_arg', 2, TF + 'OpDef.ArgDef'),
            repeated('output_arg', 3, TF + 'OpDef.ArgDef'),
            repeated('control_output', 20, 'string'),
            repeated('attr', 4, TF + 'OpDef.AttrDef'),
            field('deprecation', 8, TF + 'OpDeprecation'),
            field('summary', 5, 'string'),
            field('description', 6, 'string'),
            field('is_commutative', 18, 'bool'),
            field('is_aggregate', 16, 'bool'),
            field('is_stateful', 17, 'bool'),
            field('allows_uninitialized_input', 19, 'bool'),
            field('is_distributed_communication', 21, 'bool'),
            nested=[
                message('ArgDef',
                        field('name', 1, 'string'),
                        field('description', 2, 'string'),
                        field('type', 3, TF + 'DataType'),
                        field('type_attr', 4, 'string'),
                        field('number_attr', 5, 'string'),
                        field('type_list_attr', 6, 'string'),
                        repeated('handle_data', 7, TF + 'ResourceHandleProto.DtypeAndShape'),
                        field('is_ref', 16, 'bool'),
                        field('experimental_full_type', 17, TF + 'FullTypeDef')),
                message('AttrDef',
                        field('name', 1, 'string'),
                        field('type', 2, 'string'),
                        field('default_value', 3, TF + 'AttrValue'),
                        field('description', 4, 'string'),
                        field('has_minimum', 5, 'bool'),
                        field('minimum', 6, 'int64'),
                        field('allowed_values', 7, TF + 'AttrValue')),
            ],
        ),
        message('OpDeprecation', field('version', 1, 'int32'), field('explanation', 2, 'string')),
        message('OpList', repeated('op', 1, TF + 'OpDef')),
    ),
    proto_file(
        _path('function'), [_path('attr_value'), _path('node_def'), _path('op_def')],
        message(
            'FunctionDefLibrary',
            repeated('function', 1, TF + 'FunctionDef'),
            repeated('gradient', 2, TF + 'GradientDef'),
            repeated('registered_gradients', 3, TF + 'RegisteredGradient'),
        ),
        message(
            'FunctionDef',
            field('signature', 1, TF + 'OpDef'),
            map_field('attr', 5, 'string', TF + 'AttrValue'),
            map_field('arg_attr', 7, 'uint32', TF + 'FunctionDef.ArgAttrs'),
            map_field('resource_arg_unique_id', 8, 'uint32', 'uint32'),
            repeated('node_def', 3, TF + 'NodeDef'),
            map_field('ret', 4, 'string', 'string'),
            map_field('control_ret', 6, 'string', 'string'),
            nested=[message('ArgAttrs', map_field('attr', 1, 'string', TF + 'AttrValue'))],
            reserved=[(2, 3)],
        ),
        message('GradientDef', field('function_name', 1, 'string'), field('gradient_func', 2, 'string')),
        message('RegisteredGradient',
                field('gradient_func', 1, 'string'), field('registered_op_type', 2, 'string')),
    ),
    proto_file(
        _path('versions'), [],
        message(
            'VersionDef',
            field('producer', 1, 'int32'),
            field('min_consumer', 2, 'int32'),
            repeated('bad_consumers', 3, 'int32'),
        ),
    ),
    # GraphDef.debug_info (field 5); TensorFlow writes this one file in proto2 syntax.
    proto_file(
        _path('graph_debug_info'), [],
        message(
            'GraphDebugInfo',
            repeated('files', 1, 'string'),
            map_field('frames_by_id', 4, 'fixed64', TF + 'GraphDebugInfo.FileLineCol'),
            map_field('traces_by_id', 6, 'fixed64', TF + 'GraphDebugInfo.StackTrace'),
            map_field('traces', 2, 'string', TF + 'GraphDebugInfo.StackTrace'),
            map_field('name_to_trace_id', 5, 'string', 'fixed64'),
            nested=[
                message('FileLineCol',
                        field('file_index', 1, 'int32'),
                        field('line', 2, 'int32'),
                        field('col', 3, 'int32'),
                        field('func', 4, 'string'),
                        field('code', 5, 'string')),
                message('StackTrace',
                        repeated('file_line_cols', 1, TF + 'GraphDebugInfo.FileLineCol'),
                        repeated('frame_id', 2, 'fixed64', packed=True)),
            ],
        ),
        syntax='proto2',
    ),
    proto_file(
        _path('graph'), [_path('function'), _path('graph_debug_info'), _path('node_def'), _path('versions')],
        message(
            'GraphDef',
            repeated('node', 1, TF + 'NodeDef'),
            field('versions', 4, TF + 'VersionDef'),
            field('version', 3, 'int32', deprecated=True),
            field('library', 2, TF + 'FunctionDefLibrary'),
            field('debug_info', 5, TF + 'GraphDebugInfo'),
        ),
    ),
)

