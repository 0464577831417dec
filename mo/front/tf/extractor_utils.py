"""Reading TensorFlow attributes of a loaded node, for extractors."""
from mo.front.tf.attrs import decode_attr
from mo.front.tf.dtypes import np_dtype


def tf_attrs(node) -> dict:
    """All TF attributes of ``node`` decoded to Python values (cached on the node)."""
    cached = node.soft_get('_tf_attrs', None)
    if cached is None:
        pb = node.soft_get('pb', None)
        cached = {name: decode_attr(value) for name, value in pb.attr.items()} if pb is not None else {}
        node['_tf_attrs'] = cached
    return cached


def tf_attr(node, name, default=None):
    """One decoded TF attribute of ``node``, or ``default``."""
    return tf_attrs(node).get(name, default)


def tf_dtype_attr(node, name='T', default=None):
    """A ``type`` attribute as a numpy dtype (``default`` when absent)."""
    value = tf_attrs(node).get(name)
    return np_dtype(value) if value is not None else default


def data_format(node) -> str:
    """``NHWC``/``NCHW``/``NDHWC``... as str (TF stores it as bytes)."""
    value = tf_attrs(node).get('data_format', b'NHWC')
    return value.decode() if isinstance(value, bytes) else str(value)
