"""Batch-norm scales folded into convolution weights big enough to be filled by two threads
(``mo.utils.ufunc_halves``): the IR's numbers against TensorFlow, and the batch's halves against numpy."""
import numpy as np
import pytest

from mo.utils import ufunc_halves
from mo.utils.ufunc_halves import UfuncBatch
from tests.nn.conftest import freeze, rel_error, tf_outputs

RNG = np.random.default_rng(11)


def _layouts():
    """(name, array): C order, the transposed view TF's HWIO weights give, a 1-D and a 0-d array."""
    hwio = RNG.standard_normal((3, 3, 24, 40)).astype(np.float32)
    yield 'oihw view of hwio', hwio.transpose(3, 2, 0, 1)
    yield 'c order', RNG.standard_normal((40, 24, 3, 3)).astype(np.float32)
    yield 'one axis', RNG.standard_normal(1001).astype(np.float32)
    yield 'scalar', np.array(3.0, dtype=np.float32)


@pytest.mark.parametrize('name,weights', list(_layouts()), ids=lambda v: v if isinstance(v, str) else '')
@pytest.mark.parametrize('out_dtype', [np.float32, np.float16])
def test_batch_gives_what_numpy_gives_one_call_at_a_time(monkeypatch, name, weights, out_dtype):
    monkeypatch.setattr(ufunc_halves, 'MIN_PARALLEL_BYTES', 0)  # always two threads
    factor = RNG.uniform(0.5, 2, (weights.shape[0],) + (1,) * (weights.ndim - 1)) if weights.ndim else 0.5
    bias = RNG.standard_normal(weights.shape[-1]).astype(np.float32) if weights.ndim else np.float32(1)
    weights = weights.astype(out_dtype)
    batch = UfuncBatch()
    scaled = np.empty_like(weights, order='K')
    batch.add(np.multiply, (weights, factor), scaled)
    again = np.empty_like(scaled, order='K')  # a chain: reads the first output, as a second folded Mul does
    batch.add(np.multiply, (scaled, factor), again)
    shifted = np.empty_like(again, order='K')  # an input broadcast from the right
    batch.add(np.add, (again, bias), shifted)
    batch.run()
    expected = (weights * factor).astype(out_dtype)
    np.testing.assert_array_equal(scaled, expected)
    expected = (expected * factor).astype(out_dtype)
    np.testing.assert_array_equal(again, expected)
    np.testing.assert_array_equal(shifted, (expected + bias).astype(out_dtype))


def test_an_error_on_the_helper_thread_reaches_the_caller(monkeypatch):
    monkeypatch.setattr(ufunc_halves, 'MIN_PARALLEL_BYTES', 0)
    batch = UfuncBatch()
    out = np.empty((4, 6), np.float32)

    def fails_on_the_second_half(a, out, casting):
        if out.base is not None and out.__array_interface__['data'][0] != full_start:
            raise ValueError('second half')
        np.negative(a, out=out, casting=casting)
    full_start = out.__array_interface__['data'][0]
    batch.add(fails_on_the_second_half, (np.ones((4, 6), np.float32),), out)
    with pytest.raises(ValueError, match='second half'):
        batch.run()


def test_big_convolution_with_two_folded_scales_and_a_depthwise_one_matches_tensorflow(convert_and_run):
    tf = pytest.importorskip('tensorflow')
    # 3x3x384x512 float32 weights: 7 MB, scaled twice, so the batch is past MIN_PARALLEL_BYTES
    w_conv = tf.constant(RNG.standard_normal((3, 3, 384, 512)).astype(np.float32) * 0.05)
    w_dw = tf.constant(RNG.standard_normal((3, 3, 512, 2)).astype(np.float32))
    bias = tf.constant(RNG.standard_normal(512).astype(np.float32))
    s1, s2 = (tf.constant(RNG.uniform(0.5, 2, 512).astype(np.float32)) for _ in range(2))
    s3 = tf.constant(RNG.uniform(0.5, 2, 1024).astype(np.float32))

    def model(x):
        y = tf.nn.conv2d(x, w_conv, 1, 'SAME')
        y = (tf.nn.bias_add(y, bias) * s1) * s2
        return tf.nn.depthwise_conv2d(y, w_dw, [1, 1, 1, 1], 'SAME') * s3

    graph_def, outputs = freeze(model, ((1, 6, 5, 384), 'x'))
    x = RNG.standard_normal((1, 6, 5, 384)).astype(np.float32)
    expected = tf_outputs(graph_def, {'x': x}, outputs)[0]
    actual, xml = convert_and_run(graph_def, {'x': x})
    assert 'type="Multiply"' not in xml, 'every scale should be folded into the weights before it'
    assert rel_error(actual[0], expected) < 1e-5
