"""The SavedModel and checkpoint messages mo reads, written down as data (see ``schema.py``).

These are the parts of TensorFlow's ``tensorflow/core/protobuf/{saved_model,meta_graph,
saved_object_graph,trackable_object_graph,saver,tensor_bundle}.proto`` and
``framework/tensor_slice.proto`` that a conversion needs: field names and numbers are
TensorFlow's, but fields mo never reads (collections, assets, function specs, type specs, ...)
are left out, so they parse as unknown fields and are ignored. The two enums of
``variable.proto`` (synchronization, aggregation) are read as plain ``int32``, which is the same
on the wire.
"""
from mo.utils.proto_schema.dsl import enum, field, map_field, message, proto_file, repeated

TF = '.tensorflow.'


def _core(short):
    return 'tensorflow/core/protobuf/{}.proto'.format(short)


def _framework(short):
    return 'tensorflow/core/framework/{}.proto'.format(short)


_OBJECT_REFERENCE = TF + 'TrackableObjectGraph.TrackableObject.ObjectReference'

FILES = (
    proto_file(
        _framework('tensor_slice'), [],
        message('TensorSliceProto',
                repeated('extent', 1, TF + 'TensorSliceProto.Extent'),
                nested=[message('Extent', field('start', 1, 'int64'),
                                field('length', 2, 'int64', oneof='has_length'), oneofs=['has_length'])]),
    ),
    proto_file(
        _core('tensor_bundle'),
        [_framework('tensor_shape'), _framework('tensor_slice'), _framework('types'), _framework('versions')],
        message('BundleHeaderProto',
                field('num_shards', 1, 'int32'),
                field('endianness', 2, TF + 'BundleHeaderProto.Endianness'),
                field('version', 3, TF + 'VersionDef'),
                enums=[enum('Endianness', ('LITTLE', 0), ('BIG', 1))]),
        message('BundleEntryProto',
                field('dtype', 1, TF + 'DataType'),
                field('shape', 2, TF + 'TensorShapeProto'),
                field('shard_id', 3, 'int32'),
                field('offset', 4, 'int64'),
                field('size', 5, 'int64'),
                field('crc32c', 6, 'fixed32'),
                repeated('slices', 7, TF + 'TensorSliceProto')),
    ),
    proto_file(
        _core('trackable_object_graph'), [],
        message('TrackableObjectGraph',
                repeated('nodes', 1, TF + 'TrackableObjectGraph.TrackableObject'),
                nested=[message(
                    'TrackableObject',
                    repeated('children', 1, _OBJECT_REFERENCE),
                    repeated('attributes', 2, TF + 'TrackableObjectGraph.TrackableObject.SerializedTensor'),
                    nested=[
                        message('ObjectReference', field('node_id', 1, 'int32'), field('local_name', 2, 'string')),
                        message('SerializedTensor', field('name', 1, 'string'), field('full_name', 2, 'string'),
                                field('checkpoint_key', 3, 'string')),
                    ])]),
    ),
    proto_file(
        _core('saver'), [],
        message('SaverDef',
                field('filename_tensor_name', 1, 'string'),
                field('save_tensor_name', 2, 'string'),
                field('restore_op_name', 3, 'string'),
                field('max_to_keep', 4, 'int32'),
                field('sharded', 5, 'bool'),
                field('keep_checkpoint_every_n_hours', 6, 'float'),
                field('version', 7, TF + 'SaverDef.CheckpointFormatVersion'),
                enums=[enum('CheckpointFormatVersion', ('LEGACY', 0), ('V1', 1), ('V2', 2))]),
    ),
    proto_file(
        _core('saved_object_graph'),
        [_framework('tensor_shape'), _framework('types'), _core('trackable_object_graph')],
        message('SavedObjectGraph',
                repeated('nodes', 1, TF + 'SavedObject'),
                map_field('concrete_functions', 2, 'string', TF + 'SavedConcreteFunction')),
        message('SavedObject',
                repeated('children', 1, _OBJECT_REFERENCE),
                repeated('dependencies', 15, _OBJECT_REFERENCE),
                field('user_object', 4, TF + 'SavedUserObject', oneof='kind'),
                field('function', 6, TF + 'SavedFunction', oneof='kind'),
                field('variable', 7, TF + 'SavedVariable', oneof='kind'),
                field('bare_concrete_function', 8, TF + 'SavedBareConcreteFunction', oneof='kind'),
                field('constant', 9, TF + 'SavedConstant', oneof='kind'),
                field('resource', 10, TF + 'SavedResource', oneof='kind'),
                oneofs=['kind']),
        message('SavedUserObject', field('identifier', 1, 'string')),
        message('SavedFunction', repeated('concrete_functions', 1, 'string')),
        message('SavedConcreteFunction', repeated('bound_inputs', 2, 'int32')),
        message('SavedBareConcreteFunction',
                field('concrete_function_name', 1, 'string'),
                repeated('argument_keywords', 2, 'string'),
                field('allowed_positional_arguments', 3, 'int64')),
        message('SavedConstant', field('operation', 1, 'string')),
        message('SavedVariable',
                field('dtype', 1, TF + 'DataType'),
                field('shape', 2, TF + 'TensorShapeProto'),
                field('trainable', 3, 'bool'),
                field('synchronization', 4, 'int32'),
                field('aggregation', 5, 'int32'),
                field('name', 6, 'string'),
                field('device', 7, 'string'),
                repeated('experimental_distributed_variable_components', 8, TF + 'SavedVariable')),
        message('SavedResource', field('device', 1, 'string')),
    ),
    proto_file(
        _core('meta_graph'),
        [_framework('graph'), _framework('op_def'), _framework('tensor'), _framework('tensor_shape'),
         _framework('types'), _core('saved_object_graph'), _core('saver')],
        message('MetaGraphDef',
                field('meta_info_def', 1, TF + 'MetaGraphDef.MetaInfoDef'),
                field('graph_def', 2, TF + 'GraphDef'),
                field('saver_def', 3, TF + 'SaverDef'),
                map_field('signature_def', 5, 'string', TF + 'SignatureDef'),
                field('object_graph_def', 7, TF + 'SavedObjectGraph'),
                nested=[message('MetaInfoDef',
                                field('meta_graph_version', 1, 'string'),
                                field('stripped_op_list', 2, TF + 'OpList'),
                                repeated('tags', 4, 'string'),
                                field('tensorflow_version', 5, 'string'),
                                field('tensorflow_git_version', 6, 'string'),
                                field('stripped_default_attrs', 7, 'bool'),
                                map_field('function_aliases', 8, 'string', 'string'))]),
        message('TensorInfo',
                field('name', 1, 'string', oneof='encoding'),
                field('coo_sparse', 4, TF + 'TensorInfo.CooSparse', oneof='encoding'),
                field('dtype', 2, TF + 'DataType'),
                field('tensor_shape', 3, TF + 'TensorShapeProto'),
                oneofs=['encoding'],
                nested=[message('CooSparse',
                                field('values_tensor_name', 1, 'string'),
                                field('indices_tensor_name', 2, 'string'),
                                field('dense_shape_tensor_name', 3, 'string'))]),
        message('SignatureDef',
                map_field('inputs', 1, 'string', TF + 'TensorInfo'),
                map_field('outputs', 2, 'string', TF + 'TensorInfo'),
                field('method_name', 3, 'string'),
                map_field('defaults', 4, 'string', TF + 'TensorProto')),
    ),
    proto_file(
        _core('saved_model'), [_core('meta_graph')],
        message('SavedModel',
                field('saved_model_schema_version', 1, 'int64'),
                repeated('meta_graphs', 2, TF + 'MetaGraphDef')),
    ),
)
