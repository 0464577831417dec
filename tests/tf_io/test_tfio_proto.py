"""Our GraphDef schema against TensorFlow's: same descriptors, interchangeable bytes."""
import subprocess
import sys

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, text_format

from mo.front.tf import proto


def _tf_modules():
    from tensorflow.core.framework import (attr_value_pb2, full_type_pb2, function_pb2, graph_debug_info_pb2,
                                           graph_pb2, node_def_pb2, op_def_pb2, resource_handle_pb2, tensor_pb2,
                                           tensor_shape_pb2, types_pb2, versions_pb2)
    mods = [attr_value_pb2, full_type_pb2, function_pb2, graph_debug_info_pb2, graph_pb2, node_def_pb2,
            op_def_pb2, resource_handle_pb2, tensor_pb2, tensor_shape_pb2, types_pb2, versions_pb2]
    return {m.DESCRIPTOR.name: m for m in mods}


def _normalized(fdp):
    """Drop what does not affect the wire or text format: options of files, json names, nested order."""
    fdp.ClearField('options')
    if fdp.syntax == 'proto2':
        fdp.ClearField('syntax')  # proto2 is also spelled as "no syntax"

    def visit(msg):
        for f in msg.field:
            f.ClearField('json_name')
        nested = sorted((type(n).FromString(n.SerializeToString()) for n in msg.nested_type), key=lambda n: n.name)
        del msg.nested_type[:]
        msg.nested_type.extend(nested)
        for n in msg.nested_type:
            visit(n)

    for m in fdp.message_type:
        visit(m)
    for e in fdp.enum_type:
        e.ClearField('options')
    return fdp


def test_descriptors_match_tensorflow(tf):
    tf_files = _tf_modules()
    ours = [fdp for fdp in proto.file_descriptor_protos() if fdp.name.startswith('tensorflow/core/framework/')
            and fdp.name != 'tensorflow/core/framework/tensor_slice.proto']
    assert len(ours) == len(tf_files)
    for fdp in ours:
        theirs = descriptor_pb2.FileDescriptorProto()
        tf_files[fdp.name].DESCRIPTOR.CopyToProto(theirs)
        assert _normalized(fdp) == _normalized(theirs), fdp.name


def _saved_model_modules():
    from tensorflow.core.framework import tensor_slice_pb2
    from tensorflow.core.protobuf import (meta_graph_pb2, saved_model_pb2, saved_object_graph_pb2, saver_pb2,
                                          tensor_bundle_pb2, trackable_object_graph_pb2)
    mods = [tensor_slice_pb2, meta_graph_pb2, saved_model_pb2, saved_object_graph_pb2, saver_pb2, tensor_bundle_pb2,
            trackable_object_graph_pb2]
    return {m.DESCRIPTOR.name: m for m in mods}


def test_saved_model_descriptors_are_a_subset_of_tensorflows(tf):
    """The SavedModel/checkpoint messages leave fields out on purpose; every field they declare is
    TensorFlow's field: same number, label, and type (enums of variable.proto read as int32)."""
    tf_files = _saved_model_modules()
    ours = [fdp for fdp in proto.file_descriptor_protos() if fdp.name in tf_files]
    assert sorted(f.name for f in ours) == sorted(tf_files)
    checked = 0
    for fdp in ours:
        theirs = descriptor_pb2.FileDescriptorProto()
        tf_files[fdp.name].DESCRIPTOR.CopyToProto(theirs)

        def index(messages, scope):
            for m in messages:
                yield scope + m.name, m
                yield from index(m.nested_type, scope + m.name + '.')

        their_messages = dict(index(theirs.message_type, ''))
        for name, message in index(fdp.message_type, ''):
            assert name in their_messages, (fdp.name, name)
            their_fields = {f.name: f for f in their_messages[name].field}
            for field in message.field:
                other = their_fields[field.name]
                assert (field.number, field.label) == (other.number, other.label), (name, field.name)
                if other.type == other.TYPE_ENUM and field.type == field.TYPE_INT32:
                    assert other.type_name.startswith('.tensorflow.Variable'), (name, field.name)
                else:
                    assert (field.type, field.type_name) == (other.type, other.type_name), (name, field.name)
                checked += 1
    assert checked > 60


def test_private_pool_coexists_with_tensorflow(tf):
    default = descriptor_pool.Default().FindMessageTypeByName('tensorflow.GraphDef')
    assert proto.GraphDef.DESCRIPTOR is not default
    assert proto.GraphDef.DESCRIPTOR.file.pool is proto.POOL
    assert proto.GraphDef is not tf.compat.v1.GraphDef


def test_mo_does_not_import_tensorflow():
    code = ('import sys\n'
            'import mo.front.tf.proto, mo.front.tf.tensor, mo.front.tf.attrs, mo.front.tf.graphdef_io\n'
            'import mo.front.tf.loader, mo.front.tf.node_def, mo.back.tf.graphdef_writer\n'
            'assert "tensorflow" not in sys.modules, "tensorflow was imported"\n')
    subprocess.run([sys.executable, '-c', code], check=True)


def _everything_graph_def(tf):
    """A TF GraphDef with every message type of the schema and most fields set."""
    from tensorflow.core.framework import graph_pb2
    gd = graph_pb2.GraphDef()
    node = gd.node.add(name='n', op='Op', device='/job:a/task:0/device:CPU:0')
    node.input.extend(['a', 'b:2', '^c'])
    attrs = node.attr
    attrs['s'].s = b'\x00\xff'
    attrs['i'].i = -(2 ** 40)
    attrs['f'].f = 1.5
    attrs['b'].b = True
    attrs['type'].type = 14
    attrs['shape'].shape.dim.add(size=-1, name='batch')
    attrs['rank'].shape.unknown_rank = True
    attrs['tensor'].tensor.CopyFrom(tf.make_tensor_proto([[1, 2], [3, 4]], tf.int64))
    attrs['func'].func.name = 'fn'
    attrs['func'].func.attr['T'].type = 1
    attrs['placeholder'].placeholder = 'T'
    attrs['empty'].list.SetInParent()
    lst = attrs['list'].list
    lst.s.extend([b'x', b'y'])
    lst.i.extend([1, -1])
    lst.f.extend([0.25])
    lst.b.extend([True, False])
    lst.type.extend([1, 2, 119])
    lst.shape.add().dim.add(size=3)
    lst.tensor.add().CopyFrom(tf.make_tensor_proto('str'))
    lst.func.add(name='g')
    node.experimental_debug_info.original_node_names.append('orig')
    node.experimental_type.type_id = 1000
    node.experimental_type.args.add(type_id=210, s='x')
    t = attrs['resource'].tensor
    t.dtype = 20
    h = t.resource_handle_val.add(device='d', container='c', name='r', hash_code=2 ** 63, maybe_type_name='T')
    h.dtypes_and_shapes.add(dtype=1).shape.dim.add(size=2)
    t.variant_val.add(type_name='v', metadata=b'm').tensors.add(dtype=3, int_val=[5])
    t.uint32_val.append(2 ** 32 - 1)
    t.uint64_val.append(2 ** 64 - 1)
    t.half_val.append(0x3C00)
    t.scomplex_val.extend([1, 2])
    t.dcomplex_val.extend([3, 4])
    t.float8_val = b'\x01'
    t.version_number = 7

    fn = gd.library.function.add()
    sig = fn.signature
    sig.name = 'fn'
    sig.input_arg.add(name='x', type_attr='T', description='in', is_ref=False).handle_data.add(dtype=1)
    sig.output_arg.add(name='y', type=1).experimental_full_type.type_id = 1000
    sig.attr.add(name='T', type='type', has_minimum=True, minimum=0).allowed_values.list.type.extend([1, 2])
    sig.control_output.append('ctl')
    sig.deprecation.version = 3
    sig.deprecation.explanation = 'old'
    sig.summary, sig.description = 'sum', 'desc'
    sig.is_commutative = sig.is_aggregate = sig.is_stateful = True
    sig.allows_uninitialized_input = sig.is_distributed_communication = True
    fn.attr['_noinline'].b = True
    fn.arg_attr[0].attr['_output_shapes'].list.shape.add()
    fn.resource_arg_unique_id[1] = 4
    fn.node_def.add(name='inner', op='Identity', input=['x'])
    fn.ret['y'] = 'inner:output:0'
    fn.control_ret['ctl'] = 'inner'
    gd.library.gradient.add(function_name='fn', gradient_func='fn_grad')
    gd.library.registered_gradients.add(gradient_func='g', registered_op_type='Op')
    gd.versions.producer = 1882
    gd.versions.min_consumer = 12
    gd.versions.bad_consumers.extend([3, 5])
    gd.version = 17
    gd.debug_info.files.append('model.py')
    gd.debug_info.frames_by_id[7].line = 12
    gd.debug_info.traces_by_id[9].frame_id.extend([7, 7])
    gd.debug_info.traces['n'].file_line_cols.add(file_index=0, line=1, col=2, func='f', code='x = 1')
    gd.debug_info.name_to_trace_id['n'] = 9
    return gd


def test_every_field_round_trips_both_ways(tf):
    theirs = _everything_graph_def(tf)
    data = theirs.SerializeToString(deterministic=True)
    ours = proto.GraphDef.FromString(data)
    assert ours.SerializeToString(deterministic=True) == data
    # Nothing may have landed in unknown fields: reading it field by field proves the schema.
    assert ours.node[0].attr['tensor'].tensor.tensor_content == theirs.node[0].attr['tensor'].tensor.tensor_content
    assert ours.library.function[0].signature.is_distributed_communication
    assert ours.debug_info.traces['n'].file_line_cols[0].code == 'x = 1'
    assert ours.node[0].attr['resource'].tensor.resource_handle_val[0].hash_code == 2 ** 63
    # Text format is identical too.
    assert text_format.MessageToString(ours) == text_format.MessageToString(theirs)
    back = tf.compat.v1.GraphDef.FromString(ours.SerializeToString())
    assert back == theirs


def test_our_messages_parse_in_tensorflow(tf):
    gd = proto.GraphDef()
    node = gd.node.add()
    node.name, node.op = 'c', 'Const'
    node.attr['dtype'].type = 1
    node.attr['value'].tensor.dtype = 1
    node.attr['value'].tensor.float_val.append(3.0)
    node.attr['value'].tensor.tensor_shape.SetInParent()
    gd.versions.producer = 1
    theirs = tf.compat.v1.GraphDef.FromString(gd.SerializeToString())
    assert theirs.SerializeToString(deterministic=True) == gd.SerializeToString(deterministic=True)
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(theirs, name='')
    with tf.compat.v1.Session(graph=g) as sess:
        assert sess.run('c:0') == 3.0


def test_coerce_converts_tensorflow_messages(tf, v1_graph_def):
    ours = proto.coerce(v1_graph_def, proto.GraphDef)
    assert isinstance(ours, proto.GraphDef)
    assert proto.coerce(ours, proto.GraphDef) is ours
    with pytest.raises(TypeError):
        proto.coerce(v1_graph_def.node[0], proto.GraphDef)


def test_enum_names():
    assert proto.DATA_TYPE.values_by_number[14].name == 'DT_BFLOAT16'
    assert proto.DATA_TYPE.values_by_name['DT_HALF_REF'].number == 119
    assert proto.FULL_TYPE_ID.values_by_name['TFT_TENSOR'].number == 1000
