"""What the dtype grids share: whether an op's definition lets a type attribute take a dtype, and one graph that
moves a tensor through every TensorArray op."""
import numpy as np
import tensorflow as tf

_R = tf.raw_ops


def op_def_allows(op: str, attr: str, dtype) -> bool:
    """Whether ``op``'s op def lets type attribute ``attr`` be ``dtype`` (TF registers CPU kernels for some types
    its op def refuses: no graph can hold those, so no case can run them)."""
    from tensorflow.python.framework import op_def_registry
    for attr_def in op_def_registry.get(op).attr:
        if attr_def.name == attr and attr_def.allowed_values.list.type:
            return tf.as_dtype(np.dtype(dtype)).as_datatype_enum in attr_def.allowed_values.list.type
    return True


def tensor_array_round_trip(x):
    """``x`` ([6, 4] after a reshape) through TensorArrayV3: scatter, write, read, gather, concat, and a split into a
    second array read back; returns (read, gathered, concat, piece), all of x's type."""
    t = x.dtype
    x = tf.reshape(x, [6, 4])
    ta, flow = _R.TensorArrayV3(size=3, dtype=t, element_shape=[4], clear_after_read=False)
    flow = _R.TensorArrayScatterV3(handle=ta, indices=[2, 0], value=x[:2], flow_in=flow)
    flow = _R.TensorArrayWriteV3(handle=ta, index=1, value=x[5], flow_in=flow)
    read = _R.TensorArrayReadV3(handle=ta, index=2, flow_in=flow, dtype=t)
    gathered = _R.TensorArrayGatherV3(handle=ta, indices=[1, 2], flow_in=flow, dtype=t)
    concat, _ = _R.TensorArrayConcatV3(handle=ta, flow_in=flow, dtype=t, element_shape_except0=[])
    ta2, flow2 = _R.TensorArrayV3(size=3, dtype=t, element_shape=tf.TensorShape(None), clear_after_read=False)
    flow2 = _R.TensorArraySplitV3(handle=ta2, value=x, lengths=tf.constant([2, 2, 2], tf.int64), flow_in=flow2)
    piece = _R.TensorArrayReadV3(handle=ta2, index=1, flow_in=flow2, dtype=t)
    return read, gathered, concat, piece


def complex_parts(result):
    """A TF result (or tuple of them) with each complex tensor given as its real and imaginary parts, as the
    harness compares them (OpenVINO has no complex type: mo's IR gives the parts)."""
    if isinstance(result, (tuple, list)):
        return tuple(t for item in result for t in complex_parts(item))
    return (tf.math.real(result), tf.math.imag(result)) if result.dtype.is_complex else (result,)


def second_operand(z):
    """A second complex operand of z's shape: z reversed along its first axis and rotated by 0.6 - 0.8i."""
    part = z.dtype.real_dtype
    return tf.reverse(z, axis=[0]) * tf.complex(tf.constant(0.6, part), tf.constant(-0.8, part))
