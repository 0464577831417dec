"""Independent reference oracles: TensorFlow, TensorFlow's C++ Graph Transform Tool, OpenVINO.

None of this shares code with ``mo``: a test computes something with ``mo`` and checks it
against what these functions compute with the real libraries.

- :func:`run_tf`: run a GraphDef with a v1 Session, grappler off (fresh graph each call; use
  :class:`TFRunner` to run one graph many times).
- :func:`reference`: the outputs of a :class:`~tests.support.models.ModelRecord` as a dict.
- :func:`run_tf_gtt`: TensorFlow's own Graph Transform Tool, as shipped in the TF wheel.
- :func:`tf_gtt_registry`: the names of the transforms that tool has registered.
- :func:`compile_openvino`: compile an IR in exact f32; every test that runs an IR compiles it here.
- :func:`check_irs_compile`: compile the IRs given that :func:`compile_openvino` has not (tests/conftest.py runs it
  on every IR a test writes).
- :func:`run_openvino`: run an IR (``.xml`` path or ``openvino.Model``) on CPU in f32.
- :func:`ov_convert_tf`: OpenVINO's own TF frontend writes an IR (a second opinion, not ``mo``).
- :func:`compare`: max|a - e| / max|e| (absolute error when max|e| is 0).
- :func:`summarize_tf`: op counts of a GraphDef.

Names: a tensor is ``'node'`` (port 0) or ``'node:k'``.  TensorFlow and OpenVINO are imported
when first needed.
"""
from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as np

__all__ = [
    'run_tf', 'TFRunner', 'reference', 'run_tf_gtt', 'tf_gtt_registry', 'GTTError', 'compile_openvino', 'run_openvino',
    'run_openvino_by_name', 'ov_convert_tf', 'compare', 'summarize_tf', 'graph_def_from', 'check_irs_compile', 'is_ir',
    'ir_key', 'COMPILED_IRS',
]

GraphLike = Union[bytes, bytearray, str, os.PathLike, object]


def _tf():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    import tensorflow as tf
    return tf


def _tensor_name(name: str) -> str:
    return name if ':' in name else name + ':0'


def graph_def_from(graph: GraphLike):
    """A ``tf.compat.v1.GraphDef`` from bytes, a GraphDef, a ``.pb`` path or a ModelRecord."""
    tf = _tf()
    if isinstance(graph, tf.compat.v1.GraphDef):
        return graph
    if hasattr(graph, 'graph_def') and isinstance(getattr(graph, 'graph_def'), (bytes, bytearray)):
        graph = graph.graph_def
    if isinstance(graph, (str, os.PathLike)):
        graph = Path(graph).read_bytes()
    if not isinstance(graph, (bytes, bytearray)):
        raise TypeError('expected GraphDef bytes, a GraphDef, a path or a ModelRecord, got %r'
                        % type(graph).__name__)
    gd = tf.compat.v1.GraphDef()
    gd.ParseFromString(bytes(graph))
    return gd


def _graph_bytes(graph: GraphLike) -> bytes:
    if isinstance(graph, (bytes, bytearray)):
        return bytes(graph)
    if hasattr(graph, 'graph_def') and isinstance(getattr(graph, 'graph_def'), (bytes, bytearray)):
        return bytes(graph.graph_def)
    if isinstance(graph, (str, os.PathLike)):
        return Path(graph).read_bytes()
    return graph_def_from(graph).SerializeToString()


# --------------------------------------------------------------------------------------------
# TensorFlow
# --------------------------------------------------------------------------------------------

def _session_config(optimize: bool):
    tf = _tf()
    config = tf.compat.v1.ConfigProto()
    if not optimize:
        # Run the ops the GraphDef names, as written: no grappler rewrites (constant folding,
        # remapper fusions, layout changes).  Also much faster to start on big graphs.
        config.graph_options.rewrite_options.disable_meta_optimizer = True
    return config


class TFRunner:
    """One imported graph and one session, for running the same GraphDef repeatedly.

    ``optimize=False`` (the default) turns grappler off, so the graph runs op by op exactly as
    written; ``optimize=True`` runs it the way a default TF session would.
    """

    def __init__(self, graph_def: GraphLike, optimize: bool = False):
        tf = _tf()
        gd = graph_def_from(graph_def)
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.graph_util.import_graph_def(gd, name='')
        self.session = tf.compat.v1.Session(graph=self.graph, config=_session_config(optimize))
        self._lock = threading.Lock()

    def run(self, feeds: Mapping[str, np.ndarray], outputs: Sequence[str]) -> List[np.ndarray]:
        fetches = [self.graph.get_tensor_by_name(_tensor_name(o)) for o in outputs]
        feed_dict = {self.graph.get_tensor_by_name(_tensor_name(k)): np.asarray(v)
                     for k, v in feeds.items()}
        with self._lock:
            values = self.session.run(fetches, feed_dict=feed_dict)
        return [np.asarray(v) for v in values]

    __call__ = run

    def close(self) -> None:
        self.session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_tf(graph_def_bytes: GraphLike, feeds: Mapping[str, np.ndarray],
           outputs: Sequence[str], optimize: bool = False) -> List[np.ndarray]:
    """Import the GraphDef into a fresh ``tf.Graph`` and run ``outputs`` with a v1 Session.

    Grappler is off unless ``optimize`` (see :class:`TFRunner`).
    """
    if isinstance(outputs, str):
        outputs = [outputs]
    with TFRunner(graph_def_bytes, optimize=optimize) as runner:
        return runner.run(feeds, list(outputs))


def reference(record, feeds: Optional[Mapping[str, np.ndarray]] = None,
              seed: int = 0) -> Dict[str, np.ndarray]:
    """TensorFlow's outputs of a ModelRecord, keyed by output name (random feeds if none given)."""
    if feeds is None:
        feeds = record.random_feeds(seed)
    values = run_tf(record.graph_def, feeds, list(record.outputs))
    return dict(zip(record.outputs, values))


class GTTError(ValueError):
    """TensorFlow's Graph Transform Tool rejected the graph, a name or a transform."""


def _join_names(names: Union[str, Iterable[str]]) -> str:
    if isinstance(names, str):
        return names
    return ','.join(names)


def run_tf_gtt(graph_def_bytes: GraphLike, inputs: Union[str, Sequence[str]],
               outputs: Union[str, Sequence[str]], transforms: str) -> bytes:
    """Run TensorFlow's own C++ Graph Transform Tool (from the TF wheel); returns GraphDef bytes.

    ``transforms`` uses the ``transform_graph --transforms`` syntax, e.g.
    ``'strip_unused_nodes fold_constants(ignore_errors=true)'``.  The tool reports a failure by
    raising ``ValueError`` with the status message (bad GraphDef, unknown transform, missing
    input/output node, ...); that becomes :class:`GTTError` with the same message.
    """
    _tf()
    from tensorflow.python.util._pywrap_transform_graph import TransformGraphWithStringInputs
    data = _graph_bytes(graph_def_bytes)
    try:
        out = TransformGraphWithStringInputs(data, _join_names(inputs), _join_names(outputs),
                                             transforms)
    except ValueError as e:
        raise GTTError(str(e)) from None
    return bytes(out)


#: ``tensorflow::graph_transforms::GetTransformRegistry()``, exported by libtensorflow_cc
_REGISTRY_SYMBOL = '_ZN10tensorflow16graph_transforms20GetTransformRegistryB5cxx11Ev'


def tf_gtt_registry() -> List[str]:
    """The names TF's Graph Transform Tool has registered, read from the registry inside the wheel.

    ``GetTransformRegistry()`` returns the ``std::map<std::string, TransformFunc>`` that
    ``REGISTER_GRAPH_TRANSFORM`` fills; its red-black tree is walked in libstdc++'s layout (header:
    root at +16, node count at +40; node: left child at +16, right at +24, key string's data pointer
    at +32 and length at +40). The count the map keeps must match the names walked, and TF's own
    tool must recognise every name and reject one it does not hold, or this raises ``AssertionError``.
    """
    import ctypes
    tf = _tf()
    from tensorflow.python.util import _pywrap_transform_graph  # noqa: F401  (loads the library)
    library = ctypes.CDLL(os.path.join(os.path.dirname(tf.__file__), 'libtensorflow_cc.so.2'))
    get_registry = library[_REGISTRY_SYMBOL]
    get_registry.restype = ctypes.c_void_p
    registry = get_registry()

    def pointer(address):
        return ctypes.c_void_p.from_address(address).value

    def size(address):
        return ctypes.c_size_t.from_address(address).value

    names, stack, node = [], [], pointer(registry + 16)
    while stack or node:  # in-order walk: the keys come out sorted
        if node:
            stack.append(node)
            node = pointer(node + 16)
            continue
        node = stack.pop()
        names.append(ctypes.string_at(pointer(node + 32), size(node + 40)).decode())
        node = pointer(node + 24)
    assert len(names) == size(registry + 40) and names == sorted(set(names)), names
    empty = tf.compat.v1.GraphDef()
    empty.node.add(name='a', op='NoOp')
    for name in names + ['not_a_registered_transform']:
        try:
            run_tf_gtt(empty.SerializeToString(), '', 'a', name)
            recognized = True
        except GTTError as exc:
            recognized = 'not recognized' not in str(exc)
        assert recognized == (name in names), name
    return names


def summarize_tf(graph_def_bytes: GraphLike, include_functions: bool = False) -> Dict[str, int]:
    """Op type -> number of nodes, sorted by op type (library functions' bodies if asked)."""
    gd = graph_def_from(graph_def_bytes)
    counts = Counter(n.op for n in gd.node)
    if include_functions:
        for f in gd.library.function:
            counts.update(n.op for n in f.node_def)
    return dict(sorted(counts.items()))


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------

_CORE = None


def _ov_core():
    global _CORE
    if _CORE is None:
        import openvino as ov
        _CORE = ov.Core()
    return _CORE


def _match_inputs(ports, feeds: Mapping[str, np.ndarray]) -> Dict[int, np.ndarray]:
    """Feeds by tensor name (``x``, ``x:0`` and ``x`` are the same), else by order."""
    by_name = {}
    for idx, port in enumerate(ports):
        for n in port.get_names():
            by_name.setdefault(n, idx)
            if n.endswith(':0'):
                by_name.setdefault(n[:-2], idx)
            else:
                by_name.setdefault(n + ':0', idx)
    out: Dict[int, np.ndarray] = {}
    matched = True
    for key, value in feeds.items():
        idx = by_name.get(key)
        if idx is None or idx in out:
            matched = False
            break
        out[idx] = np.asarray(value)
    if matched and len(out) == len(ports):
        return out
    if len(feeds) == len(ports):
        return {i: np.asarray(v) for i, v in enumerate(feeds.values())}
    raise KeyError('cannot match feeds %s to the model inputs %s'
                   % (sorted(feeds), [sorted(p.get_names()) for p in ports]))


#: The compile config of every IR a test runs.  The CPU plugin's default inference precision is
#: not f32 on every machine: where the CPU has bf16 (AVX512_BF16, AMX) it is bf16, which gives
#: about 0.4% relative error on a small CNN, far above the tolerances the tests compare with.
EXACT_F32 = {'INFERENCE_PRECISION_HINT': 'f32'}


#: ``ir_key`` of each IR file :func:`compile_openvino` compiled (tests/conftest.py compiles every IR a test wrote
#: and did not compile itself)
COMPILED_IRS: set = set()


def ir_key(xml_path) -> tuple:
    """An IR file as written: its real path, modification time and size (a rewrite is another IR)."""
    stat = os.stat(xml_path)
    return os.path.realpath(xml_path), stat.st_mtime_ns, stat.st_size


def compile_openvino(xml_path, device: str = 'CPU', config: Optional[Mapping] = None):
    """Read ``xml_path`` (or take an ``openvino.Model``) and compile it in exact f32.

    ``config`` adds to (or, deliberately, overrides) :data:`EXACT_F32`.
    """
    core = _ov_core()
    if isinstance(xml_path, (str, os.PathLike)):
        model = core.read_model(str(xml_path))
        COMPILED_IRS.add(ir_key(xml_path))
    else:
        model = xml_path
    cfg = dict(EXACT_F32)
    if config:
        cfg.update(config)
    return core.compile_model(model, device, cfg)


def run_openvino(xml_path, feeds: Mapping[str, np.ndarray], *, device: str = 'CPU',
                 config: Optional[Mapping] = None) -> List[np.ndarray]:
    """Read ``xml_path`` (or take an ``openvino.Model``), compile it on CPU in f32 and run it.

    Feeds are matched to inputs by tensor name, or by order when names do not match; the
    results come back in the model's output order.
    """
    compiled = compile_openvino(xml_path, device, config)
    inputs = _match_inputs(compiled.inputs, feeds)
    request = compiled.create_infer_request()
    result = request.infer(inputs)
    return [np.array(result[port]) for port in compiled.outputs]


def run_openvino_by_name(xml_path, feeds: Mapping[str, np.ndarray], names: Sequence[str]) -> List[np.ndarray]:
    """``run_openvino``, with the results in the order of ``names`` (TF tensor or node names the
    IR's outputs carry) instead of the model's output order."""
    core = _ov_core()
    model = core.read_model(str(xml_path))
    results = run_openvino(model, feeds)
    COMPILED_IRS.add(ir_key(xml_path))
    by_name = {}
    for index, port in enumerate(model.outputs):
        for name in port.get_names():
            by_name.setdefault(name, index)
    missing = [n for n in names if n not in by_name and _tensor_name(n) not in by_name]
    if missing:
        raise KeyError('the IR has no outputs named %s (it has %s)' % (missing, sorted(by_name)))
    return [results[by_name.get(n, by_name.get(_tensor_name(n)))] for n in names]


def is_ir(xml_path) -> bool:
    """Whether ``xml_path`` is an OpenVINO IR: an XML file whose root is ``<net`` with a ``.bin`` beside it."""
    bin_path = os.path.splitext(str(xml_path))[0] + '.bin'
    if not os.path.isfile(bin_path):
        return False
    with open(xml_path, 'rb') as handle:
        head = handle.read(512)
    return b'<net ' in head


def check_irs_compile(xml_paths: Iterable) -> List[str]:
    """Read and compile (CPU, exact f32) each IR of ``xml_paths`` that :func:`compile_openvino` has not compiled as it
    is now; returns ``'path: error'`` for each one OpenVINO refuses. Reading alone is not enough: OpenVINO checks an
    op's types and shapes and its CPU plugin's support only when the model is compiled."""
    failures = []
    for path in sorted({os.path.realpath(str(p)) for p in xml_paths}):
        if not os.path.isfile(path) or not is_ir(path) or ir_key(path) in COMPILED_IRS:
            continue
        try:
            compile_openvino(path)
        except Exception as exc:  # noqa: BLE001 - OpenVINO raises RuntimeError and its own types
            failures.append('{}: {}'.format(path, str(exc).strip().splitlines()[-1] if str(exc).strip() else exc))
    return failures


def ov_convert_tf(graph_def_bytes: GraphLike, xml_path, *, input=None, output=None) -> Path:
    """OpenVINO's own TF frontend converts the frozen graph and saves an IR at ``xml_path``.

    A second, independent converter: useful to show the OpenVINO oracle works and to compare
    op-level choices; ``input``/``output`` are passed to ``openvino.convert_model`` as given.
    """
    import openvino as ov
    xml_path = Path(xml_path)
    xml_path.parent.mkdir(parents=True, exist_ok=True)
    pb = xml_path.with_suffix('.frozen.pb')
    pb.write_bytes(_graph_bytes(graph_def_bytes))
    kwargs = {}
    if input is not None:
        kwargs['input'] = input
    if output is not None:
        kwargs['output'] = output
    model = ov.convert_model(str(pb), **kwargs)
    ov.save_model(model, str(xml_path), compress_to_fp16=False)
    return xml_path


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

def compare(actual, expected) -> float:
    """max|actual - expected| / max|expected|; the absolute error when max|expected| is 0.

    Shapes must be equal (``ValueError`` otherwise).  NaN equals NaN and an infinity equals the
    same infinity; any other non-finite mismatch gives ``inf``.
    """
    a = np.asarray(actual)
    e = np.asarray(expected)
    if a.shape != e.shape:
        raise ValueError('shape mismatch: actual %s, expected %s' % (a.shape, e.shape))
    if a.size == 0:
        return 0.0
    a = a.astype(np.float64)
    e = e.astype(np.float64)
    fin_a, fin_e = np.isfinite(a), np.isfinite(e)
    if not np.array_equal(fin_a, fin_e):
        return float('inf')
    nonfin = ~fin_e
    if nonfin.any():
        same = (np.isnan(a) & np.isnan(e)) | (a == e)
        if not same[nonfin].all():
            return float('inf')
    if not fin_e.any():
        return 0.0
    diff = float(np.max(np.abs(a[fin_e] - e[fin_e])))
    scale = float(np.max(np.abs(e[fin_e])))
    return diff / scale if scale > 0 else diff


_PRECISIONS = {'float32': 'FP32', 'float16': 'FP16', 'float64': 'FP64', 'bool': 'BOOL', 'int8': 'I8',
               'int32': 'I32', 'int64': 'I64', 'uint8': 'U8'}


def duplicate_layer_names(xml_path) -> List[str]:
    """Layer names that occur twice in one graph of the IR (the model or a Loop/If body), as
    ``"<where>: <name>"``: OpenVINO before 2024 refuses such an IR ("name is not unique")."""
    import collections
    import xml.etree.ElementTree as ET
    found = []

    def walk(layers, where):
        counts = collections.Counter(layer.get('name') for layer in layers)
        found.extend('{}: {}'.format(where, name) for name, count in sorted(counts.items()) if count > 1)
        for layer in layers:
            for section in layer:
                if section.tag.endswith('body') and section.find('layers') is not None:
                    walk(section.find('layers'), '{}/{}:{}'.format(where, layer.get('name'), section.tag))
    walk(ET.parse(str(xml_path)).getroot().find('layers'), '')
    return found


def newest_opset(xml_path) -> int:
    """The highest ``opsetN`` any layer of the IR (bodies included) declares; OpenVINO 2023.x reads up
    to opset13."""
    import re
    import xml.etree.ElementTree as ET
    versions = [layer.get('version', '') for layer in ET.parse(str(xml_path)).getroot().iter('layer')]
    return max((int(m.group(1)) for m in (re.fullmatch(r'opset(\d+)', v) for v in versions) if m), default=0)


def ir_inconsistencies(xml_path, graph_def_bytes: GraphLike) -> List[str]:
    """What is wrong with the ports of an IR, read from its XML and TensorFlow's graph, not by mo:

    an edge whose two ends disagree on precision or dims, a tensor name on more than one output
    port, or a TF tensor name on a port whose precision or static shape is not TF's.
    """
    import xml.etree.ElementTree as ET
    tf = _tf()
    root = ET.parse(str(xml_path)).getroot()
    ports = {}
    named = {}
    for layer in root.iter('layer'):
        for direction in ('input', 'output'):
            for port in layer.findall('{}/port'.format(direction)):
                dims = tuple(int(d.text) for d in port.findall('dim'))
                ports[(layer.get('id'), port.get('id'))] = (port.get('precision'), dims, layer.get('name'))
                if direction == 'output' and port.get('names'):
                    for name in port.get('names').replace('\\,', '\0').split(','):
                        named.setdefault(name.replace('\0', ','), []).append(ports[(layer.get('id'), port.get('id'))])
    problems = []
    for edge in root.iter('edge'):
        src = ports[(edge.get('from-layer'), edge.get('from-port'))]
        dst = ports[(edge.get('to-layer'), edge.get('to-port'))]
        if src[:2] != dst[:2]:
            problems.append('edge {} -> {}: {} vs {}'.format(src[2], dst[2], src[:2], dst[:2]))
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def_from(graph_def_bytes), name='')
    for name, places in named.items():
        if len(places) > 1:
            problems.append('tensor name {!r} on {} ports: {}'.format(name, len(places), [p[2] for p in places]))
        try:  # a bare node name is TF's name of the node's output 0
            tensor = graph.get_tensor_by_name(_tensor_name(name))
        except (KeyError, ValueError):
            continue  # a name mo made up for a node of its own
        precision, dims, layer = places[0]
        expected = _PRECISIONS.get(tensor.dtype.name)
        if expected and precision != expected:
            problems.append('{!r} on {}: precision {}, TF says {}'.format(name, layer, precision, tensor.dtype.name))
        if tensor.shape.is_fully_defined() and tuple(tensor.shape.as_list()) != dims:
            problems.append('{!r} on {}: dims {}, TF says {}'.format(name, layer, dims, tensor.shape.as_list()))
    return problems
