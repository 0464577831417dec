import os

import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
# TensorFlow is the reference: its plain CPU kernels, not oneDNN's. TF 2.21's oneDNN Conv2D with
# unequal strides returns zeros for whole rows (x [2,2,3,1], w [1,2,1,1], strides [1,1,2,1], VALID),
# and oneDNN's fast paths may round differently; the Eigen kernels compute what the op defines.
os.environ.setdefault('TF_ENABLE_ONEDNN_OPTS', '0')

#: what the reference tests need; .ci/run installs them, so under CI a missing one fails the run instead of
#: letting ``pytest.importorskip`` skip the tests that need it
REFERENCE_PACKAGES = ('tensorflow', 'openvino', 'hypothesis', 'onnx', 'onnxruntime', 'google_crc32c', 'paddle')


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


# --------------------------------------------------------------------------------------------
# every IR a test writes is read and compiled by OpenVINO
# --------------------------------------------------------------------------------------------
# Reading an IR checks its XML and that each Const's bytes lie in the .bin; compiling checks types, shapes
# and the CPU plugin's support. A test that only looks at the XML text (or only reads the model) would pass
# with an IR no user can load, which is how an If whose bodies' weights were never written went unnoticed
# (issue 26). So after each passing test, every IR it wrote that it did not compile through
# ``tests.support.oracles.compile_openvino`` is compiled here; a refusal is an error of that test.

def pytest_configure(config):
    config.addinivalue_line('markers', 'ir_not_compiled(reason): the IRs this test writes are not meant to be '
                                       'compiled by OpenVINO (say why)')


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == 'call':
        item.ir_call_passed = report.passed and not hasattr(report, 'wasxfail')


@pytest.fixture(autouse=True)
def every_written_ir_compiles(request, monkeypatch):
    """Compile (OpenVINO CPU, f32) each IR the test wrote: those ``mo``'s writer wrote in this process, and the
    ``.xml`` + ``.bin`` pairs that appeared under the test's ``tmp_path`` (an ``mo`` run in a subprocess)."""
    import time
    from mo.back.ir import writer
    written = []
    open_temporary = writer._open_temporary  # write_ir opens the .xml and .bin through it, by their final paths

    def recording(final_path, pending):
        if str(final_path).endswith('.xml'):
            written.append(str(final_path))
        return open_temporary(final_path, pending)
    monkeypatch.setattr(writer, '_open_temporary', recording)
    started = time.time() - 1  # file times may be coarser than the clock
    # taken now: tmp_path's own teardown runs before this fixture's
    root = request.getfixturevalue('tmp_path') if 'tmp_path' in request.fixturenames else None
    yield
    if not getattr(request.node, 'ir_call_passed', False) or request.node.get_closest_marker('ir_not_compiled'):
        return  # a failed or expected-to-fail test's IR is not the point; a skipped test wrote nothing that counts
    if root is not None:
        written += [str(p) for p in root.rglob('*.xml') if p.stat().st_mtime >= started]
    if not written:
        return
    import importlib.util
    if importlib.util.find_spec('openvino') is None:
        return  # outside CI the reference packages are optional (REFERENCE_PACKAGES)
    from tests.support.oracles import check_irs_compile
    failures = check_irs_compile(written)
    assert not failures, 'OpenVINO refuses IRs this test wrote:\n' + '\n'.join(failures)
