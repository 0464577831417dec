import os

import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
# TensorFlow is the reference: its plain CPU kernels, not oneDNN's. TF 2.21's oneDNN Conv2D with
# unequal strides returns zeros for whole rows (x [2,2,3,1], w [1,2,1,1], strides [1,1,2,1], VALID),
# and oneDNN's fast paths may round differently; the Eigen kernels compute what the op defines.
os.environ.setdefault('TF_ENABLE_ONEDNN_OPTS', '0')

#: what the reference tests need; .ci/run installs them, so under CI a missing one fails the run instead of
#: letting ``pytest.importorskip`` skip the tests that need it
REFERENCE_PACKAGES = ('tensorflow', 'openvino', 'hypothesis')


def pytest_sessionstart(session):
    if os.environ.get('CI'):
        import importlib.util
        missing = [name for name in REFERENCE_PACKAGES if importlib.util.find_spec(name) is None]
        if missing:
            raise pytest.UsageError('CI run without {}: .ci/run must install them'.format(', '.join(missing)))


@pytest.fixture(autouse=True)
def isolated_replacer_registry():
    """Each test sees the registry as it was before it: classes a test defines do not leak."""
    from mo.ops.op import Op
    from mo.utils.class_registration import restore_registry, snapshot_registry
    from mo.utils.import_extensions import load_builtin
    load_builtin()
    replacers = snapshot_registry()
    ops = dict(Op.registered_ops)
    yield
    restore_registry(replacers)
    Op.registered_ops.clear()
    Op.registered_ops.update(ops)


@pytest.fixture(autouse=True)
def isolated_extractors(isolated_replacer_registry):
    """Extractors a test registers do not leak into other tests either (snapshot taken after the
    built-ins are loaded, which ``isolated_replacer_registry`` does)."""
    from mo.front.extractor import restore_extractors, snapshot_extractors
    saved = snapshot_extractors()
    yield
    restore_extractors(saved)
