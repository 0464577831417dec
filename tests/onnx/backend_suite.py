"""The ONNX backend test suite run through mo and the OpenVINO runtime.

The ``onnx`` package builds each case in memory (``onnx.backend.test.loader.load_model_tests``): a model and
its inputs and expected outputs, which ONNX's reference implementation computed. Each case is converted with
``mo.convert_model``, compiled and run by OpenVINO on the case's inputs, and each output is compared with the
expected one at the case's own tolerances. Nothing here shares code with mo's conversion.

``python -m tests.onnx.backend_suite [-k SUBSTRING] [--failures]`` prints the pass count (and why each case
failed), the same run the test does, for working on the front end.
"""
import argparse
import collections
import os
import sys
import tempfile
import traceback
import warnings
from typing import Dict, List

import numpy as np

#: the sets of the suite run here (``kind`` of ``load_model_tests``)
KINDS = ('node', 'simple', 'pytorch-converted', 'pytorch-operator')


def load_cases(kinds=KINDS) -> Dict[str, object]:
    """``{name: TestCase}`` of every case in ``kinds`` (a name occurring in two sets gets the set's prefix)."""
    from onnx.backend.test.loader import load_model_tests
    cases = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for kind in kinds:
            for case in load_model_tests(kind=kind):
                name = case.name if case.name not in cases else '{}/{}'.format(kind, case.name)
                cases[name] = case
    return cases


def _model(case):
    """The case's ModelProto (the ``real`` and pytorch sets keep theirs in files)."""
    if case.model is not None:
        return case.model
    import onnx
    return onnx.load(os.path.join(case.model_dir, 'model.onnx'))


def _data_sets(case):
    """``[(inputs, outputs)]``: the in-memory sets, or those stored as ``test_data_set_*`` beside the model."""
    if case.data_sets:
        return case.data_sets
    import glob
    import onnx
    from onnx import numpy_helper
    sets = []
    for directory in sorted(glob.glob(os.path.join(case.model_dir, 'test_data_set_*'))):
        def read(prefix):
            values = []
            for path in sorted(glob.glob(os.path.join(directory, prefix + '_*.pb')),
                               key=lambda p: int(p.rsplit('_', 1)[1][:-3])):
                tensor = onnx.TensorProto()
                with open(path, 'rb') as f:
                    tensor.ParseFromString(f.read())
                values.append(numpy_helper.to_array(tensor))
            return values
        sets.append((read('input'), read('output')))
    return sets


class CaseFailure(AssertionError):
    """A case that converted wrongly or not at all: ``stage`` is convert, compile, run or compare."""

    def __init__(self, stage: str, message: str):
        super().__init__('{}: {}'.format(stage, message))
        self.stage = stage


def run_case(case, out_dir: str) -> None:
    """Convert, compile and run one case; raise CaseFailure when any output differs from the expected one."""
    import mo
    from tests.support.oracles import compile_openvino
    from tests.support.ov_tensors import infer
    model = _model(case)
    graph_inputs = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    graph_outputs = [o.name for o in model.graph.output]
    try:
        result = mo.convert_model(model, output_dir=out_dir, model_name='model')
    except mo.Error as exc:
        raise CaseFailure('convert', str(exc).splitlines()[0]) from None
    except Exception as exc:  # a traceback is a bug of mo's: say where
        raise CaseFailure('convert', 'crash {}: {}'.format(type(exc).__name__, exc)) from None
    try:
        # exact f32: on CPUs with bf16 units the plugin's default precision is bf16, not what the model computes
        compiled = compile_openvino(result.xml_path)
    except Exception as exc:
        raise CaseFailure('compile', str(exc).strip().splitlines()[-1][:300]) from None
    for inputs, expected in _data_sets(case):
        feeds = {}
        for name, value in zip(graph_inputs, inputs):
            value = _as_array(value)
            if not isinstance(value, np.ndarray):
                raise CaseFailure('run', 'input "{}" is a {}, not a tensor'.format(name, type(value).__name__))
            port = _port_named(compiled.inputs, name)
            if port is None:
                if value.size == 0 or name not in _used_inputs(model):
                    continue  # an input the model does not read
                raise CaseFailure('run', 'the IR has no input "{}"'.format(name))
            feeds[port] = value
        try:
            outputs = infer(compiled, feeds)  # bf16, f8, i4, u4 as ml_dtypes arrays
        except Exception as exc:
            raise CaseFailure('run', str(exc).strip().splitlines()[-1][:300]) from None
        for name, want in zip(graph_outputs, expected):
            port = _port_named(compiled.outputs, name)
            if port is None:
                raise CaseFailure('compare', 'the IR has no output "{}"'.format(name))
            _compare(name, np.asarray(outputs[port]), want, case.rtol, case.atol)


def _as_array(value):
    """A numpy scalar (a 0-d tensor) or a TensorProto (some cases store their data so) as an array."""
    if isinstance(value, np.generic):
        return np.asarray(value)
    if type(value).__name__ == 'TensorProto':
        from onnx import numpy_helper
        return numpy_helper.to_array(value)
    return value


def _port_named(ports, name):
    for port in ports:
        if name in port.get_names():
            return port
    return None


def _used_inputs(model) -> set:
    return {name for node in model.graph.node for name in node.input}


def _compare(name, actual, expected, rtol, atol):
    expected = _as_array(expected)
    if not isinstance(expected, np.ndarray):
        raise CaseFailure('compare', 'output "{}" is a {}, not a tensor'.format(name, type(expected).__name__))
    if actual.shape != expected.shape:
        raise CaseFailure('compare', 'output "{}" has shape {}, expected {}'.format(
            name, list(actual.shape), list(expected.shape)))
    if expected.dtype != actual.dtype and not (expected.dtype == np.bool_ and actual.dtype == np.bool_):
        raise CaseFailure('compare', 'output "{}" is {}, expected {}'.format(name, actual.dtype, expected.dtype))
    if expected.dtype.name in ('bfloat16', 'float8_e4m3fn', 'float8_e5m2', 'float8_e8m0fnu', 'float4_e2m1fn'):
        # ml_dtypes' floats: compare in f32
        actual, expected = actual.astype(np.float32), expected.astype(np.float32)
    if expected.dtype.kind in 'fc':
        close = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = actual == expected
    if not np.all(close):
        bad = int(np.size(close) - np.count_nonzero(close))
        raise CaseFailure('compare', 'output "{}": {} of {} elements differ (max abs diff {})'.format(
            name, bad, close.size, _max_diff(actual, expected)))


def _max_diff(actual, expected):
    try:
        return float(np.nanmax(np.abs(actual.astype(np.float64) - expected.astype(np.float64))))
    except (TypeError, ValueError):
        return '?'


KNOWN_FAILURES_FILE = os.path.join(os.path.dirname(__file__), 'backend_known_failures.py')


def write_known_failures(failed: Dict[str, str]) -> None:
    """Write the in-scope cases that fail, with what each failure said, as ``backend_known_failures.py``."""
    lines = ['"""In-scope cases of the ONNX backend test suite that mo does not convert right yet, with the failure',
             'each gives (written by ``python -m tests.onnx.backend_suite --write-known-failures``; a case that starts',
             'passing fails ``test_backend_suite.py`` until it is taken off this list)."""', '',
             'KNOWN_FAILURES = {']
    for name, why in sorted(failed.items()):
        lines.append('    {!r}: {!r},'.format(name, why.splitlines()[0][:160]))
    lines.append('}')
    with open(KNOWN_FAILURES_FILE, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('-k', default='', help='run the cases whose name contains this')
    parser.add_argument('--failures', action='store_true', help='print each failure')
    parser.add_argument('--traceback', action='store_true', help='print tracebacks of crashes')
    parser.add_argument('--write-known-failures', action='store_true',
                        help='rewrite backend_known_failures.py with the in-scope cases that fail now, and why')
    args = parser.parse_args(argv)
    from tests.onnx.backend_exclusions import exclusion_reason
    cases = {n: c for n, c in load_cases().items() if args.k in n}
    passed, failed, excluded = [], {}, []
    stages = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, case) in enumerate(sorted(cases.items())):
            if exclusion_reason(name, _model(case)):
                excluded.append(name)
                continue
            try:
                run_case(case, os.path.join(tmp, str(index)))
                passed.append(name)
            except CaseFailure as exc:
                failed[name] = str(exc)
                stages[exc.stage] += 1
            except Exception as exc:
                failed[name] = 'harness: {}'.format(exc)
                stages['harness'] += 1
                if args.traceback:
                    traceback.print_exc()
    if args.failures:
        for name, why in sorted(failed.items()):
            print('{}\t{}'.format(name, why))
    if args.write_known_failures:
        write_known_failures(failed)
    in_scope = len(passed) + len(failed)
    print('{} passed, {} failed, {} excluded; {:.1f}% of {} in scope; failures by stage: {}'.format(
        len(passed), len(failed), len(excluded), 100.0 * len(passed) / max(in_scope, 1), in_scope, dict(stages)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
