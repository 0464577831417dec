"""The differential op harness: every TensorFlow op we convert, checked against TensorFlow.

A :class:`OpCase` is one TF function of a few inputs (usually one op with one choice of
attributes). The harness traces it with TensorFlow (dynamic dimensions as ``None``), freezes it
to a GraphDef, converts that with ``mo``, runs the IR in the OpenVINO runtime at every listed
input shape and compares each output with what TensorFlow computes from the same feeds.

Cases live in ``cases_*.py`` modules beside this one; each module builds its list with
:func:`grid` / :class:`OpCase` and registers it with :func:`register`. ``test_ops.py`` runs them
all, and checks that every TF op type an extractor claims occurs in at least one case's graph
(taken from the frozen GraphDef itself, not from a declaration).

Nothing here shares code with ``mo``'s conversion: TensorFlow is the reference, OpenVINO runs
what ``mo`` wrote.
"""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

Shape = Tuple[Optional[int], ...]


@dataclass
class In:
    """One input of a case.

    ``shape`` is what TensorFlow traces with (``None`` for a dynamic dimension); ``run`` lists the
    concrete shapes to feed (default: ``shape`` itself, which must then be static). ``values`` makes
    the feed from ``(rng, shape)``; by default floats are standard normal, ints uniform in
    ``[low, high)``, bools random.
    """
    shape: Shape
    dtype: Any = np.float32
    run: Optional[Sequence[Shape]] = None
    values: Optional[Callable[[np.random.Generator, Shape], np.ndarray]] = None
    low: int = -5
    high: int = 6

    def run_shapes(self) -> List[Shape]:
        if self.run is not None:
            return [tuple(s) for s in self.run]
        if any(d is None for d in self.shape):
            raise ValueError('input with dynamic shape %s needs run shapes' % (self.shape,))
        return [tuple(self.shape)]

    def feed(self, rng: np.random.Generator, shape: Shape) -> np.ndarray:
        if self.values is not None:
            return np.asarray(self.values(rng, shape)).astype(self.dtype)
        dtype = np.dtype(self.dtype)
        if dtype == np.bool_:
            return rng.integers(0, 2, shape).astype(np.bool_)
        if np.issubdtype(dtype, np.integer):
            return rng.integers(self.low, self.high, shape).astype(dtype)
        return rng.standard_normal(shape).astype(dtype)


@dataclass
class OpCase:
    """One TF graph to convert and compare.

    ``fn(*inputs)`` returns a tensor or a tuple of tensors (the model outputs). ``rtol`` bounds
    ``max|ov - tf| / max|tf|`` per output (integer and bool outputs must match exactly unless
    ``rtol`` is given explicitly for them via ``int_exact=False``). ``check(ov, tf)`` replaces the
    comparison for outputs whose order TF leaves unspecified (otherwise each output's shape and element type must be
    TF's). ``options`` go to ``mo convert``
    (``input_shape``, ``input``, ...).
    """
    name: str
    fn: Callable
    inputs: Sequence[In]
    rtol: float = 1e-4
    int_exact: bool = True
    check: Optional[Callable[[List[np.ndarray], List[np.ndarray]], None]] = None
    options: Dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    #: a known limitation: the reason; the case is expected to fail (pytest xfail, strict)
    xfail: Optional[str] = None
    #: freeze with TF's lowered control flow (Switch/Merge/Enter/...; TF's default) or keep While/If
    lower_control_flow: bool = True
    #: a TF function equal to ``fn`` by definition that TensorFlow runs as the reference where its CPU
    #: kernel refuses ``fn``'s attributes (the graph ``mo`` converts is still ``fn``'s)
    reference: Optional[Callable] = None
    #: rewrites the frozen GraphDef in place before it is converted and run (a graph TensorFlow no longer
    #: builds but still runs, such as the legacy TopK of GraphDef version 6)
    edit_graph_def: Optional[Callable] = None
    #: input name (``x0``...) -> the IR input fed with its value, where the conversion made another tensor the
    #: model's input (a queue's dequeued tensor, which the graph fills from ``x0``)
    ir_inputs: Dict[str, str] = field(default_factory=dict)


_CASES: Dict[str, OpCase] = {}


def register(cases: Sequence[OpCase]) -> None:
    """Add ``cases`` to the harness (names must be unique across all case modules)."""
    for case in cases:
        if case.name in _CASES:
            raise ValueError('duplicate op case name %r' % case.name)
        _CASES[case.name] = case


def all_cases() -> Dict[str, OpCase]:
    """Every registered case, after importing every ``cases_*`` module beside this file."""
    import importlib
    import pkgutil
    package = __name__.rsplit('.', 1)[0]
    here = os.path.dirname(__file__)
    for info in sorted(pkgutil.iter_modules([here]), key=lambda i: i.name):
        if info.name.startswith('cases_'):
            importlib.import_module(package + '.' + info.name)
    return dict(_CASES)


def grid(prefix: str, make: Callable[..., OpCase], **axes: Sequence[Any]) -> List[OpCase]:
    """The cartesian product of ``axes``: ``make(**point)`` for each point, named
    ``prefix[key=value,...]`` (``make`` receives the point as keyword arguments and returns a case
    whose name is replaced, or None for a point the op does not accept)."""
    keys = list(axes)
    cases = []
    for values in itertools.product(*(axes[k] for k in keys)):
        point = dict(zip(keys, values))
        case = make(**point)
        if case is None:  # a point the op does not accept (``make`` says so by returning None)
            continue
        label = ','.join('{}={}'.format(k, _label(v)) for k, v in point.items())
        case.name = '{}[{}]'.format(prefix, label)
        cases.append(case)
    return cases


def _label(value) -> str:
    if isinstance(value, (list, tuple)):
        return 'x'.join(_label(v) for v in value) or '()'
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, np.dtype):
        return value.name
    return str(value).replace(' ', '')


# --------------------------------------------------------------------------------------------
# building, converting, running
# --------------------------------------------------------------------------------------------

_GRAPHS: Dict[str, Tuple[bytes, List[str], List[str]]] = {}


def frozen_graph(case: OpCase, fn: Optional[Callable] = None) -> Tuple[bytes, List[str], List[str]]:
    """``(GraphDef bytes, input names, output tensor names)`` of ``case`` (cached), or of ``fn`` traced
    with ``case``'s inputs."""
    key = case.name if fn is None else case.name + '#reference'
    if key in _GRAPHS:
        return _GRAPHS[key]
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    names = ['x%d' % i for i in range(len(case.inputs))]
    specs = [tf.TensorSpec(i.shape, tf.as_dtype(np.dtype(i.dtype)), name=n) for i, n in zip(case.inputs, names)]
    concrete = tf.function(fn or case.fn, autograph=False).get_concrete_function(*specs)
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=case.lower_control_flow)
    graph_def = frozen.graph.as_graph_def()
    if case.edit_graph_def is not None:
        case.edit_graph_def(graph_def)
    outputs = [t.name for t in frozen.outputs]
    # freezing lowered control flow leaves Placeholders nothing reads ("unused_control_flow_input")
    read = {i.lstrip('^').split(':')[0] for n in graph_def.node for i in n.input}
    placeholders = {n.name for n in graph_def.node if n.op == 'Placeholder' and (n.name in read or n.name in names)}
    if set(names) != placeholders:
        raise ValueError('%s: the frozen graph\'s placeholders %s are not the inputs %s' % (
            case.name, sorted(placeholders), names))
    result = (graph_def.SerializeToString(), names, outputs)
    _GRAPHS[key] = result
    return result


def graph_op_types(case: OpCase) -> set:
    """The TF op types in ``case``'s frozen graph (and its function library)."""
    import tensorflow as tf
    data, _, _ = frozen_graph(case)
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(data)
    ops = {n.op for n in graph_def.node}
    for function in graph_def.library.function:
        ops.update(n.op for n in function.node_def)
    return ops


def _run_tf(graph_def: bytes, feeds: Dict[str, np.ndarray], outputs: List[str]) -> List[np.ndarray]:
    from tests.support.oracles import run_tf
    return [np.asarray(v) for v in run_tf(graph_def, {k + ':0': v for k, v in feeds.items()}, outputs)]


def _compile(xml_path: str):
    from tests.support.oracles import compile_openvino
    return compile_openvino(xml_path)


def rel_error(actual: np.ndarray, expected: np.ndarray) -> float:
    from tests.support.oracles import compare
    return compare(actual, expected)


class _Bf16Results:
    """An infer request's results by output port, a bf16 output as ml_dtypes' bfloat16 (OpenVINO's Python API gives
    its bits typed float16)."""

    def __init__(self, request, result, from_ov):
        self.request, self.result, self.from_ov = request, result, from_ov

    def __getitem__(self, port):
        if port.get_element_type().get_type_name() == 'bf16':
            return self.from_ov(self.request.get_tensor(port))
        return self.result[port]


def _in_tf_order(case, compiled, result, outputs) -> List[np.ndarray]:
    """The IR's results in the order of TF's ``outputs``, matched by the tensor names the IR carries."""
    by_name = {}
    for port in compiled.outputs:
        for name in port.get_names():
            by_name.setdefault(name, port)
    ordered = []
    for name in outputs:
        port = by_name.get(name) or by_name.get(name.split(':')[0] if name.endswith(':0') else name)
        assert port is not None, '%s: the IR has no output named %s (it has %s)' % (case.name, name, sorted(by_name))
        ordered.append(np.array(result[port]))
    return ordered


def run_case(case: OpCase, out_dir: str) -> None:
    """Convert ``case`` with mo, run it in OpenVINO at every input shape, compare with TensorFlow.

    Raises AssertionError naming the output, the feed shapes and the error when they differ.
    """
    from mo.pipeline.convert import convert_graph_def
    from tests.support.ov_tensors import from_ov, to_ov
    graph_def, placeholders, outputs = frozen_graph(case)
    reference = graph_def if case.reference is None else frozen_graph(case, case.reference)[0]
    xml, _ = convert_graph_def(graph_def, out_dir, model_name='case', **dict(case.options))
    from tests.support.oracles import duplicate_layer_names
    repeated = duplicate_layer_names(xml)
    assert not repeated, '%s: layer names repeated in one graph of the IR: %s' % (case.name, repeated)
    compiled = _compile(xml)
    # outputs are found by name below, so an extra one would go unnoticed: the IR's are exactly TF's
    assert len(compiled.outputs) == len(outputs), '%s: the IR has %d outputs %s, TF %d %s' % (
        case.name, len(compiled.outputs), [sorted(p.get_names())[:2] for p in compiled.outputs], len(outputs), outputs)
    rng = np.random.default_rng(case.seed)
    shape_sets = list(zip(*[i.run_shapes() for i in case.inputs])) if case.inputs else [()]
    if len({len(i.run_shapes()) for i in case.inputs}) > 1:
        raise ValueError('%s: inputs list different numbers of run shapes' % case.name)
    for shapes in shape_sets:
        feeds = {name: spec.feed(rng, shape) for name, spec, shape in zip(placeholders, case.inputs, shapes)}
        expected = _run_tf(reference, feeds, outputs)
        request = compiled.create_infer_request()
        by_name = {}
        for port in compiled.inputs:
            for n in port.get_names():
                by_name[n] = port
        ov_feeds = {}
        for name, value in feeds.items():
            name = case.ir_inputs.get(name, name)
            port = by_name.get(name) or by_name.get(name + ':0')
            assert port is not None, '%s: IR has no input named %s (inputs: %s)' % (
                case.name, name, sorted(by_name))
            ov_feeds[port] = to_ov(value)  # bfloat16 (ml_dtypes) goes in as OpenVINO bf16
        result = request.infer(ov_feeds)
        actual = _in_tf_order(case, compiled, _Bf16Results(request, result, from_ov), outputs)
        where = '%s at input shapes %s' % (case.name, [tuple(s) for s in shapes])
        assert len(actual) == len(expected), '%s: %d outputs, TF has %d' % (where, len(actual), len(expected))
        if case.check is not None:
            case.check(actual, expected)
            continue
        for index, (a, e) in enumerate(zip(actual, expected)):
            assert a.shape == e.shape, '%s output %d: shape %s, TF %s' % (where, index, a.shape, e.shape)
            # a model's output type is part of its result: a value compared after a silent cast is not TF's
            assert a.dtype == e.dtype, '%s output %d: type %s, TF %s' % (where, index, a.dtype, e.dtype)
            exact = case.int_exact and (e.dtype == np.bool_ or np.issubdtype(e.dtype, np.integer))
            if exact:
                assert np.array_equal(a.astype(e.dtype), e), '%s output %d differs from TF:\n%s\nTF:\n%s' % (
                    where, index, a, e)
            else:
                err = rel_error(a, e)
                assert err <= case.rtol, '%s output %d: relative error %.3g > %.3g' % (where, index, err, case.rtol)
