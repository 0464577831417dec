"""Helpers for the NN-op tests: freeze a tf.function to GraphDef bytes, convert, run both."""
import os

import numpy as np
import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

# Register the built-in extractors before the first test's registry snapshot is taken: the
# top-level fixtures snapshot the extractor table before loading the built-ins, and restoring
# that snapshot would otherwise drop them for every later test.
from mo.utils.import_extensions import load_builtin  # noqa: E402

load_builtin()


def freeze(fn, *specs):
    """GraphDef bytes of ``fn`` traced for ``specs`` (``(shape, name)``) with variables frozen."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    signature = [tf.TensorSpec(shape, tf.float32, name=name) for shape, name in specs]
    concrete = tf.function(fn).get_concrete_function(*signature)
    frozen = convert_variables_to_constants_v2(concrete)
    return frozen.graph.as_graph_def().SerializeToString(), [t.name for t in frozen.outputs]


def tf_outputs(graph_def, feeds, outputs):
    from tests.support.oracles import run_tf
    return run_tf(graph_def, feeds, outputs)


@pytest.fixture
def convert_and_run(tmp_path):
    """``(graph_def, feeds) -> (openvino outputs list, xml text)`` through ``mo convert``."""
    def run(graph_def, feeds):
        from mo.pipeline.convert import convert_graph_def
        from tests.support.oracles import run_openvino
        xml, _ = convert_graph_def(graph_def, str(tmp_path))
        result = run_openvino(xml, feeds)
        with open(xml) as f:
            text = f.read()
        return result, text
    return run


def rel_error(actual, expected):
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    scale = np.max(np.abs(expected))
    diff = np.max(np.abs(actual - expected)) if actual.size else 0.0
    return diff / scale if scale else diff
