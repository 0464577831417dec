"""What ``complex_moves`` cannot convert is one clean ``[ ERROR ]`` naming the node through the ``mo convert`` CLI
(exit 1, no output written): an NCHW DepthToSpace on a complex tensor (TensorFlow runs NCHW on GPUs only), and the
element shape of a tensor list of complex elements (the dense list holds the float form's elements)."""
import re

import pytest

from tests.ops.test_op_batch_cli import _convert, _errors, _frozen

tf = pytest.importorskip('tensorflow')


def _nchw_depth_to_space(x):
    z = tf.complex(x, x)
    return tf.math.real(tf.raw_ops.DepthToSpace(input=z, block_size=2, data_format='NCHW'))


def _list_element_shape(x):
    handle = tf.raw_ops.TensorListFromTensor(tensor=tf.complex(x, x), element_shape=[8, 8, 3])
    return tf.raw_ops.TensorListElementShape(input_handle=handle, shape_type=tf.int32)


@pytest.mark.parametrize('case, wanted', [
    (_nchw_depth_to_space, r'"DepthToSpace" \(DepthToSpace\) on a complex tensor.*NHWC layout only'),
    (_list_element_shape, r'"TensorListElementShape" \(TensorListElementShape\) computes on complex numbers'),
], ids=['nchw_depth_to_space', 'list_element_shape'])
def test_what_complex_moves_refuses_is_one_clean_error(case, wanted, tmp_path):
    graph = _frozen(case, tf.TensorSpec([2, 8, 8, 3], tf.float32, name='x'))
    code, stderr, xml = _convert(tmp_path, graph)
    assert code == 1, stderr
    errors = _errors(stderr)
    assert len(errors) == 1 and re.search(wanted, errors[0]), stderr
    assert 'Traceback' not in stderr and not xml.exists()
