"""Small TensorFlow test models, frozen to GraphDef bytes, built at most once per test session.

Every model is described by a :class:`ModelRecord`: the serialized frozen ``GraphDef``, the
placeholder (input) node names with shapes and dtypes, and the node names of the outputs.
Weights are random but reproducible (fixed seeds), and every normalization layer carries
non-trivial statistics (see :func:`_randomize_keras_weights`).

Usage::

    from tests.support import models, oracles
    rec = models.get_model('small_cnn_bn')          # or models.small_cnn_bn()
    feeds = rec.random_feeds(seed=0)                 # {'input': ndarray}
    expected = oracles.reference(rec, feeds)         # {'Identity': ndarray}

Models (``MODEL_NAMES``):

=========================  =================================================================
``small_cnn_bn``           Keras: Conv2D, BatchNormalization, ReLU, DepthwiseConv2D, MaxPool,
                           AvgPool, Flatten, Dense, Softmax.  Input ``input`` [2,16,16,3].
``small_cnn_bn_funclib``   The same network, but not inlined: ``input`` -> ``StatefulPartitionedCall``
                           (f=``mo_test_wrapper``) -> ``Identity``.  ``mo_test_wrapper`` calls
                           ``mo_test_body`` through a ``PartitionedCall`` and applies a ``Relu6``;
                           ``mo_test_body`` holds the whole network with its weights as ``Const``.
``mobilenet_v2``           keras.applications.MobileNetV2, 32x32, alpha=1.0, 10 classes.
``resnet50``               keras.applications.ResNet50, 32x32, 10 classes.
``inception_v3``           keras.applications.InceptionV3, 75x75 (its minimum), 10 classes.
``efficientnet_b0``        keras.applications.EfficientNetB0, 64x64, 10 classes (inputs in [0, 255]).
``densenet121``            keras.applications.DenseNet121, 32x32, 10 classes.
``transformer_encoder``    Keras: MultiHeadAttention, residual Add, LayerNormalization,
                           Dense(gelu).  Input ``input`` [2,8,16].
``lstm_gru``               Keras: LSTM(return_sequences, unroll=True), GRU(unroll=True), Dense.
                           Input ``input`` [2,5,4].
``inception_blocks``       TF1-style slim graph, see :func:`build_inception_blocks`.
``ssd_like_postprocessor`` TF1-style detector with a ``Postprocessor/`` scope, see
                           :func:`build_ssd_like_postprocessor`.
``yolo_like_head``         TF1-style darknet head for RegionYolo, see :func:`build_yolo_like_head`.
=========================  =================================================================

Keras models are frozen with ``tf.function`` -> concrete function ->
``convert_variables_to_constants_v2``: the placeholder is called ``input`` (the name of the
``tf.TensorSpec``) and the outputs are ``Identity`` (``Identity_1``, ... for more outputs).  The
frozen graphs are flat (no function library, no ``PartitionedCall``).  Node names are
``<model>_1/<layer>_1/<op>`` (TF uniquifies the Keras name scopes inside the trace), e.g.
``small_cnn_bn_1/conv1_1/convolution``; the weights of a layer are
``Const .../ReadVariableOp/resource`` -> ``Identity .../ReadVariableOp``, a Conv2D's bias goes
through ``Reshape`` -> ``Squeeze`` before ``BiasAdd`` (a Dense's does not), there is a
``NoOp`` with control inputs from all of those, and ``Identity`` (the output) with a control input
``^NoOp``.  Keras 3 ``BatchNormalization`` freezes to primitive ops
(``batchnorm/add, Rsqrt, mul, mul_1, mul_2, sub, add_1``), never ``FusedBatchNorm*``; the TF1-style
models use ``FusedBatchNormV3`` instead, so both forms are covered.

Caching: :func:`get_model` keeps records in memory (``functools.lru_cache``); if the environment
variable ``MO_TEST_CACHE`` names a directory, records are also stored there as ``NAME.pb`` +
``NAME.json`` and reused while the key (this file's contents and the TF/Keras/NumPy versions)
is unchanged.  Loading a cached record does not import TensorFlow.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

__all__ = [
    'MODEL_NAMES', 'TensorInfo', 'ModelRecord', 'get_model', 'build_model', 'cache_key',
    'small_cnn_bn', 'small_cnn_bn_funclib', 'mobilenet_v2', 'resnet50', 'inception_v3',
    'efficientnet_b0', 'densenet121', 'transformer_encoder', 'lstm_gru', 'inception_blocks',
    'ssd_like_postprocessor', 'yolo_like_head',
]

CACHE_ENV = 'MO_TEST_CACHE'
FORMAT_VERSION = 1


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class TensorInfo:
    """A placeholder of a test model: node name, static shape and NumPy dtype name."""
    name: str
    shape: Tuple[int, ...]
    dtype: str = 'float32'


@dataclasses.dataclass(frozen=True, eq=False)
class ModelRecord:
    """A frozen test model.

    ``inputs`` are the Placeholder nodes; ``outputs`` are node names (output port 0 of each);
    ``output_shapes`` are the static shapes TensorFlow reports; ``meta`` holds model-specific
    facts (scopes, start/end points, RegionYolo attributes...), ``notes`` says it in prose.
    """
    name: str
    graph_def: bytes
    inputs: Tuple[TensorInfo, ...]
    outputs: Tuple[str, ...]
    output_shapes: Tuple[Tuple[int, ...], ...] = ()
    feed_range: Tuple[float, float] = (-1.0, 1.0)
    notes: str = ''
    meta: Mapping = dataclasses.field(default_factory=dict)
    node_count: int = 0
    build_seconds: float = 0.0

    # convenient views -------------------------------------------------------------------
    @property
    def input_names(self) -> List[str]:
        return [i.name for i in self.inputs]

    @property
    def input_shapes(self) -> Dict[str, Tuple[int, ...]]:
        return {i.name: tuple(i.shape) for i in self.inputs}

    @property
    def input_dtypes(self) -> Dict[str, str]:
        return {i.name: i.dtype for i in self.inputs}

    @property
    def output_names(self) -> List[str]:
        return list(self.outputs)

    @property
    def size(self) -> int:
        return len(self.graph_def)

    def random_feeds(self, seed: int = 0) -> Dict[str, np.ndarray]:
        """Reproducible random inputs within ``feed_range`` (integers for integer inputs)."""
        rng = np.random.default_rng(seed)
        lo, hi = self.feed_range
        feeds = {}
        for info in self.inputs:
            dt = np.dtype(info.dtype)
            if dt.kind in 'iu':
                feeds[info.name] = rng.integers(int(lo), int(hi) + 1, size=info.shape).astype(dt)
            elif dt.kind == 'b':
                feeds[info.name] = rng.integers(0, 2, size=info.shape).astype(dt)
            else:
                feeds[info.name] = rng.uniform(lo, hi, size=info.shape).astype(dt)
        return feeds

    def graph_def_proto(self):
        """The GraphDef as a ``tf.compat.v1.GraphDef`` (imports TensorFlow)."""
        tf = _tf()
        gd = tf.compat.v1.GraphDef()
        gd.ParseFromString(self.graph_def)
        return gd

    def write_pb(self, path) -> Path:
        path = Path(path)
        _atomic_write(path, self.graph_def)
        return path

    # (de)serialization ------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            'name': self.name,
            'inputs': [{'name': i.name, 'shape': list(i.shape), 'dtype': i.dtype} for i in self.inputs],
            'outputs': list(self.outputs),
            'output_shapes': [list(s) for s in self.output_shapes],
            'feed_range': list(self.feed_range),
            'notes': self.notes,
            'meta': _jsonable(self.meta),
            'node_count': self.node_count,
            'pb_bytes': len(self.graph_def),
            'sha256': hashlib.sha256(self.graph_def).hexdigest(),
            'build_seconds': round(self.build_seconds, 3),
        }

    @classmethod
    def from_json(cls, data: Mapping, graph_def: bytes) -> 'ModelRecord':
        return cls(
            name=data['name'], graph_def=graph_def,
            inputs=tuple(TensorInfo(d['name'], tuple(d['shape']), d.get('dtype', 'float32'))
                         for d in data['inputs']),
            outputs=tuple(data['outputs']),
            output_shapes=tuple(tuple(s) for s in data.get('output_shapes', ())),
            feed_range=tuple(data.get('feed_range', (-1.0, 1.0))),
            notes=data.get('notes', ''), meta=data.get('meta', {}),
            node_count=data.get('node_count', 0), build_seconds=data.get('build_seconds', 0.0))

    def save(self, directory, extra: Optional[Mapping] = None) -> Tuple[Path, Path]:
        """Write ``NAME.pb`` and ``NAME.json`` into ``directory`` (each written whole or not at all)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        data = self.to_json()
        if extra:
            data.update(extra)
        pb = directory / (self.name + '.pb')
        js = directory / (self.name + '.json')
        _atomic_write(pb, self.graph_def)
        _atomic_write(js, (json.dumps(data, indent=2, sort_keys=True) + '\n').encode())
        return pb, js

    @classmethod
    def load(cls, directory, name: str) -> 'ModelRecord':
        directory = Path(directory)
        data = json.loads((directory / (name + '.json')).read_text())
        graph_def = (directory / (name + '.pb')).read_bytes()
        if 'sha256' in data and hashlib.sha256(graph_def).hexdigest() != data['sha256']:
            raise ValueError('%s: %s.pb does not match its json' % (directory, name))
        return cls.from_json(data, graph_def)


def _jsonable(obj):
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def _atomic_write(path: Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix='.' + path.name + '.', dir=str(path.parent))
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --------------------------------------------------------------------------------------------
# Registry and caching
# --------------------------------------------------------------------------------------------

_BUILDERS: Dict[str, Callable[[], ModelRecord]] = {}


def _register(name: str):
    def deco(fn):
        _BUILDERS[name] = fn
        return fn
    return deco


def _version(*dists: str) -> str:
    for d in dists:
        try:
            return importlib.metadata.version(d)
        except importlib.metadata.PackageNotFoundError:
            continue
    return 'none'


@functools.lru_cache(maxsize=None)
def cache_key() -> str:
    """Changes whenever this file or the TF / Keras / NumPy versions change."""
    h = hashlib.sha256()
    h.update(Path(__file__).read_bytes())
    for part in (str(FORMAT_VERSION), _version('tensorflow', 'tensorflow-cpu'), _version('keras'),
                 _version('numpy')):
        h.update(b'\0' + part.encode())
    return h.hexdigest()[:16]


def build_model(name: str) -> ModelRecord:
    """Build ``name`` now, with no caching at all."""
    try:
        builder = _BUILDERS[name]
    except KeyError:
        raise KeyError('unknown test model %r; known: %s' % (name, ', '.join(MODEL_NAMES))) from None
    tf = _tf()
    _keras()  # the import (5-10 s) is not part of build_seconds
    start = time.perf_counter()
    if tf.executing_eagerly() and not tf.inside_function():
        rec = builder()
    else:  # called inside `with tf.Graph().as_default():` or a tf.function: build in a clean thread
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            rec = pool.submit(builder).result()
    return dataclasses.replace(rec, build_seconds=time.perf_counter() - start)


@functools.lru_cache(maxsize=None)
def get_model(name: str) -> ModelRecord:
    """The record for ``name``: built at most once per process, and reused from ``$MO_TEST_CACHE``."""
    cache_dir = os.environ.get(CACHE_ENV)
    if cache_dir:
        cache_dir = Path(cache_dir)
        try:
            data = json.loads((cache_dir / (name + '.json')).read_text())
            if data.get('cache_key') == cache_key():
                return ModelRecord.load(cache_dir, name)
        except (OSError, ValueError, KeyError):
            pass
    rec = build_model(name)
    if cache_dir:
        try:
            rec.save(cache_dir, extra={'cache_key': cache_key()})
        except OSError:
            pass  # a read-only cache is not an error
    return rec


def _tf():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    import tensorflow as tf
    return tf


def _keras():
    _tf()
    import keras
    return keras


# --------------------------------------------------------------------------------------------
# Keras helpers: random weights, BN statistics, freezing
# --------------------------------------------------------------------------------------------

def _seed(seed: int):
    keras = _keras()
    try:
        keras.backend.clear_session(free_memory=False)  # resets the automatic layer-name counters
    except AssertionError:
        pass  # inside a user's `with tf.Graph().as_default():` TF refuses to reset the graph
    keras.utils.set_random_seed(seed)


def _all_layers(model):
    return list(model._flatten_layers(include_self=False, recursive=True))


def _randomize_keras_weights(model, calib_inputs, seed: int, tame_classifier: bool = False,
                             mean_fraction: Tuple[float, float] = (0.1, 0.3),
                             var_scale: Tuple[float, float] = (0.8, 1.25),
                             var_floor: float = 1.0) -> None:
    """Give every bias, gamma and beta random values and every BatchNormalization random statistics.

    Statistics that ignore the data make deep random networks explode or vanish, and a plain
    calibration (moving stats = batch stats) makes them ill-conditioned: at 1x1 spatial size the
    input-dependent part of a feature is tiny next to its constant part and each BN blows it up
    to unit variance, so float32 round-off grows to 1e-3 and a fresh input gives a one-hot
    softmax.  So the statistics are set *sequentially in inference mode* in one forward pass over
    ``calib_inputs`` (each BN is set when it is reached, from the input it really gets with every
    BN before it already final).  Per channel, with m the observed mean:
    ``moving_mean = f * m``, f ~ U(0.1, 0.3), and
    ``moving_variance = max(E[(x - moving_mean)^2], median over channels) * U(0.8, 1.25)``.
    Every statistic is far from (0, 1), each BN keeps its output at about unit RMS or below, and
    no BN amplifies relative variation by much: TF and OpenVINO's own converter then agree to
    ~5e-5 on inception_v3 and resnet50 (they differed by 2e-4 with f ~ U(0.25, 0.5)).

    ``tame_classifier``: in the same pass, scale the kernel of the model's last layer (a Dense)
    so that its logits have std 1.5 on ``calib_inputs``; with random weights the logits of the
    big applications are otherwise so large that the softmax is exactly one-hot in float32,
    which would hide any numerical error in a comparison.
    """
    keras = _keras()
    rng = np.random.default_rng(seed)
    layers = _all_layers(model)
    for layer in layers:
        if isinstance(layer, keras.layers.Normalization):
            continue  # input preprocessing (EfficientNet): leave as built
        for var in layer.weights:
            leaf = var.path.rsplit('/', 1)[-1]
            shape = tuple(var.shape)
            if leaf == 'bias':
                var.assign(rng.normal(0.0, 0.1, shape).astype(var.dtype))
            elif leaf == 'gamma':
                var.assign(rng.uniform(0.5, 1.5, shape).astype(var.dtype))
            elif leaf == 'beta':
                var.assign(rng.normal(0.0, 0.2, shape).astype(var.dtype))
    bns = [l for l in layers if isinstance(l, keras.layers.BatchNormalization)]
    last = model.layers[-1]
    if tame_classifier and not isinstance(last, keras.layers.Dense):
        raise ValueError('tame_classifier: the last layer of %s is not a Dense' % model.name)
    if not bns and not tame_classifier:
        return
    if calib_inputs is None:
        raise ValueError('calibration inputs are needed')

    def calibrating_call(layer, original):
        def call(inputs, *args, **kwargs):
            x = np.asarray(inputs, dtype=np.float32)
            axis = layer.axis if isinstance(layer.axis, int) else layer.axis[0]
            axis %= x.ndim
            axes = tuple(i for i in range(x.ndim) if i != axis)
            mean = x.mean(axis=axes, dtype=np.float64)
            mm = mean * rng.uniform(mean_fraction[0], mean_fraction[1], mean.shape)
            centered = x - mm.astype(np.float32).reshape([-1 if i == axis else 1 for i in range(x.ndim)])
            mv = np.square(centered).mean(axis=axes, dtype=np.float64)
            mv = np.maximum(mv, var_floor * max(float(np.median(mv)), 1e-6))
            mv = mv * rng.uniform(var_scale[0], var_scale[1], mv.shape)
            layer.moving_mean.assign(mm.astype(np.float32))
            layer.moving_variance.assign(mv.astype(np.float32))
            kwargs['training'] = False
            return original(inputs, *args, **kwargs)
        return call

    def taming_call(layer, original, target_std=1.5):
        def call(inputs, *args, **kwargs):
            kernel = np.asarray(layer.kernel.numpy(), dtype=np.float64)
            logits = np.asarray(inputs, dtype=np.float64) @ kernel
            scale = target_std / max(float(logits.std()), 1e-12)
            layer.kernel.assign((kernel * scale).astype(np.float32))
            return original(inputs, *args, **kwargs)
        return call

    patched = list(bns)
    for l in bns:
        l.call = calibrating_call(l, l.call)
    if tame_classifier:
        last.call = taming_call(last, last.call)
        patched.append(last)
    try:
        model(calib_inputs, training=False)
    finally:
        for l in patched:
            del l.call  # back to the class's method


def _calib(shape, lo, hi, seed, batch=32):
    rng = np.random.default_rng(seed + 1000)
    return rng.uniform(lo, hi, size=(batch,) + tuple(shape[1:])).astype(np.float32)


def _freeze_keras(model, inputs: Sequence[TensorInfo]):
    """Freeze a Keras model into a flat GraphDef.

    Returns (graph_def proto, output names, output shapes, concrete function).  Uses the steps of
    ``convert_variables_to_constants_v2`` that produce the GraphDef, without wrapping the result
    in a new concrete function (that step alone took ~4 s for ResNet50 and is not needed); falls
    back to the public function if those internals move.
    """
    tf = _tf()
    from tensorflow.python.framework import convert_to_constants as c2c
    specs = [tf.TensorSpec(i.shape, tf.as_dtype(i.dtype), name=i.name) for i in inputs]
    if len(specs) == 1:
        fn = tf.function(lambda x: model(x, training=False), autograph=False)
    else:
        fn = tf.function(lambda *xs: model(list(xs), training=False), autograph=False)
    concrete = fn.get_concrete_function(*specs)
    try:
        data = c2c._FunctionConverterDataInEager(func=concrete, lower_control_flow=True,
                                                 aggressive_inlining=False)
        gd, _ = c2c._replace_variables_by_constants(converter_data=data)
        _prune_to_outputs(gd, [t.name for t in concrete.outputs])
    except (AttributeError, TypeError, ImportError):  # pragma: no cover - TF internals moved
        gd = c2c.convert_variables_to_constants_v2(concrete).graph.as_graph_def()
    shapes = [tuple(int(d) for d in t.shape) for t in concrete.outputs]
    out_names = []
    for t in concrete.outputs:
        node, _, port = t.name.partition(':')
        out_names.append(node if port in ('', '0') else t.name)
    return gd, out_names, shapes, concrete


def _prune_to_outputs(gd, outputs: Sequence[str]) -> None:
    """Drop nodes the outputs do not depend on (by data or control edges), keeping node order.

    ``convert_variables_to_constants_v2`` prunes the same way when it wraps its result.
    """
    by_name = {n.name: n for n in gd.node}
    keep = set()
    stack = [o.split(':')[0] for o in outputs]
    while stack:
        name = stack.pop()
        if name in keep or name not in by_name:
            continue
        keep.add(name)
        for inp in by_name[name].input:
            stack.append(inp.lstrip('^').split(':')[0])
    kept = [n for n in gd.node if n.name in keep]
    if len(kept) != len(gd.node):
        del gd.node[:]
        gd.node.extend(kept)


def _check_frozen(model, gd_bytes: bytes, inputs, outputs, feed_range, tol=1e-4):
    """The frozen graph must compute what the Keras model computes (eagerly, op by op).

    (Different execution paths differ by up to ~3e-5 on inception_v3; a freezing bug would show
    as an O(1) difference.)
    """
    from . import oracles
    rng = np.random.default_rng(7)
    feeds = {i.name: rng.uniform(*feed_range, size=i.shape).astype(i.dtype) for i in inputs}
    args = [feeds[i.name] for i in inputs]
    want = model(args[0] if len(args) == 1 else args, training=False)
    want = want if isinstance(want, (list, tuple)) else [want]
    got = oracles.run_tf(gd_bytes, feeds, list(outputs))
    for w, g, o in zip(want, got, outputs):
        err = oracles.compare(g, np.asarray(w))
        if not err <= tol:
            raise AssertionError('frozen graph differs from the Keras model at %s: %g' % (o, err))


def _keras_record(name, model, inputs, *, feed_range=(-1.0, 1.0), notes='', meta=None,
                  check=True) -> ModelRecord:
    gd, outs, shapes, concrete = _freeze_keras(model, inputs)
    data = gd.SerializeToString(deterministic=True)
    if check:
        _check_frozen(model, data, inputs, outs, feed_range)
    return ModelRecord(name=name, graph_def=data, inputs=tuple(inputs), outputs=tuple(outs),
                       output_shapes=tuple(shapes), feed_range=tuple(feed_range), notes=notes,
                       meta=dict(meta or {}), node_count=len(gd.node))


# --------------------------------------------------------------------------------------------
# Keras models
# --------------------------------------------------------------------------------------------

SMALL_CNN_SHAPE = (2, 16, 16, 3)


def _small_cnn_bn_keras():
    keras = _keras()
    L = keras.layers
    _seed(1)
    inp = keras.Input(SMALL_CNN_SHAPE[1:], batch_size=SMALL_CNN_SHAPE[0], name='input')
    x = L.Conv2D(8, 3, padding='same', name='conv1')(inp)
    x = L.BatchNormalization(name='bn1')(x)
    x = L.ReLU(name='relu1')(x)
    x = L.DepthwiseConv2D(3, padding='same', name='dwconv')(x)
    x = L.BatchNormalization(name='bn2')(x)
    x = L.ReLU(name='relu2')(x)
    x = L.MaxPooling2D(2, name='maxpool')(x)
    x = L.Conv2D(12, 3, padding='valid', use_bias=False, name='conv2')(x)
    x = L.BatchNormalization(name='bn3')(x)
    x = L.ReLU(name='relu3')(x)
    x = L.AveragePooling2D(2, name='avgpool')(x)
    x = L.Flatten(name='flatten')(x)
    x = L.Dense(10, name='dense')(x)
    x = L.Softmax(name='softmax')(x)
    model = keras.Model(inp, x, name='small_cnn_bn')
    _randomize_keras_weights(model, _calib(SMALL_CNN_SHAPE, -1, 1, 1), seed=1)
    return model


@_register('small_cnn_bn')
def build_small_cnn_bn() -> ModelRecord:
    model = _small_cnn_bn_keras()
    return _keras_record(
        'small_cnn_bn', model, [TensorInfo('input', SMALL_CNN_SHAPE)],
        notes='Keras Conv2D(8,3,same)+BN+ReLU, DepthwiseConv2D(3)+BN+ReLU, MaxPool 2, '
              'Conv2D(12,3,valid,no bias)+BN+ReLU, AvgPool 2, Flatten, Dense(10), Softmax. '
              'Node names "small_cnn_bn_1/<layer>_1/...", e.g. small_cnn_bn_1/bn1_1/batchnorm/add_1.')


def _rename_functions(gd, mapping: Mapping[str, str]) -> None:
    """Rename library functions and every ``func`` attribute that refers to them."""
    def fix_attrs(nodes):
        for node in nodes:
            for value in node.attr.values():
                if value.HasField('func') and value.func.name in mapping:
                    value.func.name = mapping[value.func.name]
    fix_attrs(gd.node)
    for f in gd.library.function:
        if f.signature.name in mapping:
            f.signature.name = mapping[f.signature.name]
        fix_attrs(f.node_def)
    for g in gd.library.gradient:
        if g.function_name in mapping:
            g.function_name = mapping[g.function_name]


@_register('small_cnn_bn_funclib')
def build_small_cnn_bn_funclib() -> ModelRecord:
    """small_cnn_bn behind function calls, for loader tests (function library kept, nothing inlined)."""
    tf = _tf()
    model = _small_cnn_bn_keras()
    trainable = [np.asarray(v.numpy()) for v in model.trainable_variables]
    non_trainable = [np.asarray(v.numpy()) for v in model.non_trainable_variables]

    @tf.function(autograph=False)
    def body(x):
        tv = [tf.constant(a) for a in trainable]
        ntv = [tf.constant(a) for a in non_trainable]
        y, _ = model.stateless_call(tv, ntv, x, training=False)
        return y

    @tf.function(autograph=False)
    def wrapper(x):
        return tf.nn.relu6(body(x) * 4.0)

    outer = tf.function(lambda x: wrapper(x), autograph=False)
    concrete = outer.get_concrete_function(tf.TensorSpec(SMALL_CNN_SHAPE, tf.float32, name='input'))
    gd = concrete.graph.as_graph_def()
    mapping = {}
    for f in gd.library.function:
        n = f.signature.name
        if n.startswith('__inference_body_'):
            mapping[n] = 'mo_test_body'
        elif n.startswith('__inference_wrapper_'):
            mapping[n] = 'mo_test_wrapper'
    _rename_functions(gd, mapping)
    for node in gd.node:
        if node.op == 'PartitionedCall':  # a Keras/SavedModel graph calls its model statefully
            node.op = 'StatefulPartitionedCall'
    calls = [n for n in gd.node if n.op == 'StatefulPartitionedCall']
    assert len(calls) == 1 and sorted(mapping.values()) == ['mo_test_body', 'mo_test_wrapper'], \
        (mapping, [n.op for n in gd.node])
    out = [t.name.split(':')[0] for t in concrete.outputs]
    data = gd.SerializeToString(deterministic=True)
    from . import oracles
    feeds = {'input': np.random.default_rng(3).uniform(-1, 1, SMALL_CNN_SHAPE).astype(np.float32)}
    want = np.clip(np.asarray(model(feeds['input'], training=False)) * 4.0, 0, 6)
    err = oracles.compare(oracles.run_tf(data, feeds, out)[0], want)
    assert err < 1e-5, err
    return ModelRecord(
        name='small_cnn_bn_funclib', graph_def=data, inputs=(TensorInfo('input', SMALL_CNN_SHAPE),),
        outputs=tuple(out), output_shapes=((SMALL_CNN_SHAPE[0], 10),),
        notes='input -> StatefulPartitionedCall(f=mo_test_wrapper) -> Identity. mo_test_wrapper: '
              'PartitionedCall(f=mo_test_body) -> Mul(4) -> Relu6 -> Identity. mo_test_body: the '
              'small_cnn_bn network with weights as Const nodes (function arg "x").',
        meta={'functions': ['mo_test_body', 'mo_test_wrapper'], 'call_node': calls[0].name},
        node_count=len(gd.node))


def _application(name, ctor, size, *, seed, feed_range=(-1.0, 1.0), batch=1, **kwargs):
    _seed(seed)
    shape = (batch, size, size, 3)
    model = ctor(input_shape=shape[1:], weights=None, classes=10, **kwargs)
    _randomize_keras_weights(model, _calib(shape, *feed_range, seed), seed=seed, tame_classifier=True)
    rec = _keras_record(name, model, [TensorInfo('input', shape)], feed_range=feed_range,
                        notes='keras.applications %s(weights=None, classes=10, input %s%s), random '
                              'weights and BN statistics; node names "%s_1/<layer>_1/...".'
                              % (ctor.__name__, shape,
                                 ''.join(', %s=%r' % kv for kv in sorted(kwargs.items())), model.name),
                        meta={'keras_name': model.name})
    return rec


@_register('mobilenet_v2')
def build_mobilenet_v2() -> ModelRecord:
    keras = _keras()
    return _application('mobilenet_v2', keras.applications.MobileNetV2, 32, seed=11, alpha=1.0)


@_register('resnet50')
def build_resnet50() -> ModelRecord:
    keras = _keras()
    return _application('resnet50', keras.applications.ResNet50, 32, seed=12)


@_register('inception_v3')
def build_inception_v3() -> ModelRecord:
    keras = _keras()
    return _application('inception_v3', keras.applications.InceptionV3, 75, seed=13)


@_register('efficientnet_b0')
def build_efficientnet_b0() -> ModelRecord:
    keras = _keras()
    # 64x64: at 32x32 the last stages are 1x1 and a fresh input saturates the softmax.
    return _application('efficientnet_b0', keras.applications.EfficientNetB0, 64, seed=14,
                        feed_range=(0.0, 255.0))


@_register('densenet121')
def build_densenet121() -> ModelRecord:
    keras = _keras()
    return _application('densenet121', keras.applications.DenseNet121, 32, seed=15)


TRANSFORMER_SHAPE = (2, 8, 16)


@_register('transformer_encoder')
def build_transformer_encoder() -> ModelRecord:
    keras = _keras()
    L = keras.layers
    _seed(21)
    b, t, d = TRANSFORMER_SHAPE
    inp = keras.Input((t, d), batch_size=b, name='input')
    att = L.MultiHeadAttention(num_heads=2, key_dim=8, name='mha')(inp, inp)
    x = L.Add(name='residual1')([inp, att])
    x = L.LayerNormalization(epsilon=1e-6, name='ln1')(x)
    f = L.Dense(32, activation='gelu', name='ffn1')(x)
    f = L.Dense(d, name='ffn2')(f)
    x = L.Add(name='residual2')([x, f])
    x = L.LayerNormalization(epsilon=1e-6, name='ln2')(x)
    model = keras.Model(inp, x, name='transformer_encoder')
    _randomize_keras_weights(model, None, seed=21)
    return _keras_record(
        'transformer_encoder', model, [TensorInfo('input', TRANSFORMER_SHAPE)],
        notes='Keras MultiHeadAttention(2 heads, key_dim 8, self-attention; Einsum/Softmax), '
              'residual Add, LayerNormalization, Dense(32, gelu: exact, uses Erf), Dense(16), '
              'residual Add, LayerNormalization. Node names "transformer_encoder_1/<layer>_1/...".')


LSTM_SHAPE = (2, 5, 4)


@_register('lstm_gru')
def build_lstm_gru() -> ModelRecord:
    keras = _keras()
    L = keras.layers
    _seed(22)
    inp = keras.Input(LSTM_SHAPE[1:], batch_size=LSTM_SHAPE[0], name='input')
    x = L.LSTM(8, return_sequences=True, unroll=True, name='lstm')(inp)
    x = L.GRU(6, unroll=True, name='gru')(x)
    x = L.Dense(3, name='dense')(x)
    model = keras.Model(inp, x, name='lstm_gru')
    _randomize_keras_weights(model, None, seed=22)
    return _keras_record(
        'lstm_gru', model, [TensorInfo('input', LSTM_SHAPE)],
        notes='Keras LSTM(8, return_sequences, unroll=True) -> GRU(6, unroll=True, reset_after) '
              '-> Dense(3): 5 unrolled time steps, no While/TensorList ops. Node names '
              '"lstm_gru_1/<layer>_1/...".')


# --------------------------------------------------------------------------------------------
# TF1-style graphs with predictable names
# --------------------------------------------------------------------------------------------

class _Tf1Builder:
    """Helpers for building slim-like frozen graphs in graph mode with exact node names.

    A weight is ``Const NAME`` followed by ``Identity NAME/read``, as in a graph frozen from a
    TF1 checkpoint.
    """

    def __init__(self, seed: int):
        self.tf = _tf()
        self.rng = np.random.default_rng(seed)

    def weight(self, name, value):
        tf = self.tf
        c = tf.constant(np.asarray(value, dtype=np.float32), name=name)
        return tf.identity(c, name=name + '/read')

    def conv_bn(self, x, cout, k, stride, padding, scope, activation='Relu', bias=False, bn=True):
        """slim conv2d: SCOPE/weights, SCOPE/Conv2D, SCOPE/BatchNorm/FusedBatchNormV3, SCOPE/<act>."""
        tf = self.tf
        cin = int(x.shape[-1])
        with tf.name_scope(scope):
            w = self.weight('weights', self.rng.normal(0, math.sqrt(2.0 / (k * k * cin)),
                                                       (k, k, cin, cout)))
            y = tf.nn.conv2d(x, w, strides=[1, stride, stride, 1], padding=padding, name='Conv2D')
            if bias:
                b = self.weight('biases', self.rng.normal(0, 0.1, (cout,)))
                y = tf.nn.bias_add(y, b, name='BiasAdd')
            if bn:
                with tf.name_scope('BatchNorm'):
                    gamma = self.weight('gamma', self.rng.uniform(0.5, 1.5, cout))
                    beta = self.weight('beta', self.rng.normal(0, 0.2, cout))
                    mean = self.weight('moving_mean', self.rng.normal(0, 0.2, cout))
                    var = self.weight('moving_variance', self.rng.uniform(0.5, 1.5, cout))
                    y = tf.raw_ops.FusedBatchNormV3(
                        x=y, scale=gamma, offset=beta, mean=mean, variance=var, epsilon=1e-3,
                        is_training=False, data_format='NHWC', name='FusedBatchNormV3')[0]
            if activation == 'Relu':
                y = tf.nn.relu(y, name='Relu')
            elif activation == 'Relu6':
                y = tf.nn.relu6(y, name='Relu6')
            elif activation == 'LeakyRelu':
                y = tf.nn.leaky_relu(y, alpha=0.1, name='LeakyRelu')
            elif activation is not None:
                raise ValueError(activation)
        return y

    def finish(self, graph, name, inputs, outputs, notes, meta, feed_range=(-1.0, 1.0)):
        gd = graph.as_graph_def()
        data = gd.SerializeToString(deterministic=True)
        shapes = []
        for o in outputs:
            t = graph.get_tensor_by_name(o if ':' in o else o + ':0')
            shapes.append(tuple(int(d) for d in t.shape))
        return ModelRecord(name=name, graph_def=data, inputs=tuple(inputs), outputs=tuple(outputs),
                           output_shapes=tuple(shapes), feed_range=feed_range, notes=notes,
                           meta=meta, node_count=len(gd.node))


INCEPTION_SHAPE = (1, 19, 19, 3)
INCEPTION_BLOCKS = ('Mixed_5b', 'Mixed_5c', 'Mixed_5d')


@_register('inception_blocks')
def build_inception_blocks() -> ModelRecord:
    """Slim InceptionV4-like graph with three identical blocks under named scopes.

    Names (every conv unit is ``.../weights`` (Const) -> ``.../weights/read`` -> ``.../Conv2D`` ->
    ``.../BatchNorm/FusedBatchNormV3`` (gamma, beta, moving_mean, moving_variance likewise) ->
    ``.../Relu``)::

        input                                   Placeholder [1,19,19,3]
        InceptionV4/Conv2d_1a_3x3/...           3x3 stride 2 VALID -> [1,9,9,16]
        InceptionV4/Mixed_5a/Branch_0/Conv2d_0a_3x3/...      3x3 SAME, 16 ch
        InceptionV4/Mixed_5a/Branch_1/MaxPool_0a_3x3/MaxPool 3x3 stride 1 SAME
        InceptionV4/Mixed_5a/concat (+ concat/axis)          -> [1,9,9,32]
        InceptionV4/Mixed_5{b,c,d}/                            identical blocks, [1,9,9,32] -> same
            Branch_0/Conv2d_0a_1x1/...                        1x1, 8 ch
            Branch_1/Conv2d_0a_1x1/..., Branch_1/Conv2d_0b_3x3/...
            Branch_2/Conv2d_0a_1x1/..., Branch_2/Conv2d_0b_3x3/..., Branch_2/Conv2d_0c_3x3/...
            Branch_3/AvgPool_0a_3x3/AvgPool, Branch_3/Conv2d_0b_1x1/...
            concat (ConcatV2 of the 4 branches, axis Const concat/axis = 3)
        InceptionV4/Logits/AvgPool_1a/AvgPool   9x9 VALID -> [1,1,1,32]
        InceptionV4/Logits/Flatten/Reshape      -> [1,32]
        InceptionV4/Logits/Logits/MatMul, .../BiasAdd  (weights, biases)
        InceptionV4/Logits/Predictions          Softmax [1,10]   <- output

    The inputs of each Mixed_5{b,c,d} block all read the previous block's ``concat`` on port 0
    (``Branch_0/Conv2d_0a_1x1/Conv2D``, ``Branch_1/Conv2d_0a_1x1/Conv2D``,
    ``Branch_2/Conv2d_0a_1x1/Conv2D``, ``Branch_3/AvgPool_0a_3x3/AvgPool``); the output is ``concat``.
    """
    b = _Tf1Builder(seed=31)
    tf = b.tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, INCEPTION_SHAPE, name='input')
        with tf.name_scope('InceptionV4'):
            net = b.conv_bn(x, 16, 3, 2, 'VALID', 'Conv2d_1a_3x3')
            with tf.name_scope('Mixed_5a'):
                with tf.name_scope('Branch_0'):
                    b0 = b.conv_bn(net, 16, 3, 1, 'SAME', 'Conv2d_0a_3x3')
                with tf.name_scope('Branch_1'):
                    with tf.name_scope('MaxPool_0a_3x3'):
                        b1 = tf.nn.max_pool2d(net, 3, 1, 'SAME', name='MaxPool')
                net = tf.concat([b0, b1], axis=3, name='concat')
            for block in INCEPTION_BLOCKS:
                with tf.name_scope(block):
                    with tf.name_scope('Branch_0'):
                        b0 = b.conv_bn(net, 8, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                    with tf.name_scope('Branch_1'):
                        b1 = b.conv_bn(net, 6, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                        b1 = b.conv_bn(b1, 8, 3, 1, 'SAME', 'Conv2d_0b_3x3')
                    with tf.name_scope('Branch_2'):
                        b2 = b.conv_bn(net, 6, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                        b2 = b.conv_bn(b2, 8, 3, 1, 'SAME', 'Conv2d_0b_3x3')
                        b2 = b.conv_bn(b2, 8, 3, 1, 'SAME', 'Conv2d_0c_3x3')
                    with tf.name_scope('Branch_3'):
                        with tf.name_scope('AvgPool_0a_3x3'):
                            b3 = tf.nn.avg_pool2d(net, 3, 1, 'SAME', name='AvgPool')
                        b3 = b.conv_bn(b3, 8, 1, 1, 'SAME', 'Conv2d_0b_1x1')
                    net = tf.concat([b0, b1, b2, b3], axis=3, name='concat')
            with tf.name_scope('Logits'):
                with tf.name_scope('AvgPool_1a'):
                    net = tf.nn.avg_pool2d(net, net.shape[1:3], 1, 'VALID', name='AvgPool')
                with tf.name_scope('Flatten'):
                    net = tf.reshape(net, [-1, 32], name='Reshape')
                with tf.name_scope('Logits'):
                    w = b.weight('weights', b.rng.normal(0, math.sqrt(1.0 / 32), (32, 10)))
                    bias = b.weight('biases', b.rng.normal(0, 0.1, (10,)))
                    net = tf.nn.bias_add(tf.matmul(net, w, name='MatMul'), bias, name='BiasAdd')
                tf.nn.softmax(net, name='Predictions')
    scopes = ['InceptionV4/' + s for s in INCEPTION_BLOCKS]
    return b.finish(
        graph, 'inception_blocks', [TensorInfo('input', INCEPTION_SHAPE)],
        ['InceptionV4/Logits/Predictions'],
        notes=build_inception_blocks.__doc__,
        meta={'scopes': scopes,
              'scope_instances': ['.*' + s for s in scopes],
              'block_inputs': ['Branch_0/Conv2d_0a_1x1/Conv2D', 'Branch_1/Conv2d_0a_1x1/Conv2D',
                               'Branch_2/Conv2d_0a_1x1/Conv2D', 'Branch_3/AvgPool_0a_3x3/AvgPool'],
              'block_output': 'concat',
              'block_input_producer': {'InceptionV4/Mixed_5b': 'InceptionV4/Mixed_5a/concat',
                                       'InceptionV4/Mixed_5c': 'InceptionV4/Mixed_5b/concat',
                                       'InceptionV4/Mixed_5d': 'InceptionV4/Mixed_5c/concat'}})


SSD_SHAPE = (1, 32, 32, 3)
SSD_GRID, SSD_ANCHORS, SSD_CLASSES = 8, 2, 3   # 8*8*2 = 128 boxes, 3 classes + background


def _ssd_anchors():
    """[N, 4] anchors (ymin, xmin, ymax, xmax) on an 8x8 grid, two sizes per cell."""
    out = []
    for i in range(SSD_GRID):
        for j in range(SSD_GRID):
            cy, cx = (i + 0.5) / SSD_GRID, (j + 0.5) / SSD_GRID
            for h, w in ((0.2, 0.2), (0.3, 0.15)):
                out.append((cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2))
    return np.asarray(out, np.float32)


@_register('ssd_like_postprocessor')
def build_ssd_like_postprocessor() -> ModelRecord:
    """A tiny SSD whose box decoding and score conversion live under ``Postprocessor/``.

    Names::

        input                                     Placeholder [1,32,32,3]
        FeatureExtractor/Conv2d_0/..., FeatureExtractor/Conv2d_1/...   (Conv2D, FusedBatchNormV3, Relu6)
                                                  -> [1,8,8,16]
        BoxPredictor_0/BoxEncodingPredictor/{Conv2D,BiasAdd} -> [1,8,8,8]
        BoxPredictor_0/ClassPredictor/{Conv2D,BiasAdd}       -> [1,8,8,8]
        BoxPredictor_0/Reshape   [1,128,1,4],  BoxPredictor_0/Reshape_1 [1,128,4]
        Squeeze                  box encodings [1,128,4] (squeeze axis 2)
        concat_1                 class predictions [1,128,4] (ConcatV2 of the one predictor)
        anchors                  Const [128,4] (ymin, xmin, ymax, xmax)
        Postprocessor/Shape                 Shape(Squeeze)                    start point
        Postprocessor/strided_slice         batch size
        Postprocessor/ExpandDims, Postprocessor/Tile/multiples (Pack), Postprocessor/Tile
                                            anchors tiled per batch item      start point
        Postprocessor/Reshape               tiled anchors -> [-1,4]
        Postprocessor/Reshape_1             box encodings -> [-1,4]             start point
        Postprocessor/Decode/...            center-size decoding (Split, RealDiv, Exp, Mul,
                                            Add, Sub), Postprocessor/Decode/concat [-1,4]
        Postprocessor/Reshape_2             -> [1,128,4]
        Postprocessor/scale_logits          RealDiv(concat_1, 2.0)             start point
        Postprocessor/convert_scores        Sigmoid
        Postprocessor/Slice                 drop background class -> [1,128,3]
        Postprocessor/strided_slice_1, Postprocessor/Cast_1   number of boxes as float32
        detection_boxes   Identity [1,128,4]   <- outputs
        detection_scores  Identity [1,128,3]
        num_detections    Identity []  (= 128.0)
    """
    b = _Tf1Builder(seed=32)
    tf = b.tf
    n_boxes = SSD_GRID * SSD_GRID * SSD_ANCHORS
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, SSD_SHAPE, name='input')
        with tf.name_scope('FeatureExtractor'):
            f = b.conv_bn(x, 8, 3, 2, 'SAME', 'Conv2d_0', activation='Relu6')
            f = b.conv_bn(f, 16, 3, 2, 'SAME', 'Conv2d_1', activation='Relu6')
        with tf.name_scope('BoxPredictor_0'):
            box = b.conv_bn(f, SSD_ANCHORS * 4, 1, 1, 'SAME', 'BoxEncodingPredictor',
                            activation=None, bias=True, bn=False)
            cls = b.conv_bn(f, SSD_ANCHORS * (SSD_CLASSES + 1), 1, 1, 'SAME', 'ClassPredictor',
                            activation=None, bias=True, bn=False)
            box = tf.reshape(box, [1, n_boxes, 1, 4], name='Reshape')
            cls = tf.reshape(cls, [1, n_boxes, SSD_CLASSES + 1], name='Reshape_1')
        box = tf.squeeze(box, axis=[2], name='Squeeze')
        cls = tf.concat([cls], axis=1, name='concat_1')
        anchors = tf.constant(_ssd_anchors(), name='anchors')
        with tf.name_scope('Postprocessor'):
            shape = tf.shape(box, name='Shape')
            batch = tf.strided_slice(shape, [0], [1], [1], shrink_axis_mask=1, name='strided_slice')
            tiled = tf.tile(tf.expand_dims(anchors, 0, name='ExpandDims'),
                            tf.stack([batch, 1, 1], name='Tile/multiples'), name='Tile')
            flat_anchors = tf.reshape(tiled, [-1, 4], name='Reshape')
            codes = tf.reshape(box, [-1, 4], name='Reshape_1')
            with tf.name_scope('Decode'):
                ymin_a, xmin_a, ymax_a, xmax_a = tf.split(flat_anchors, 4, axis=1, name='split')
                ha = tf.subtract(ymax_a, ymin_a, name='ha')
                wa = tf.subtract(xmax_a, xmin_a, name='wa')
                ycenter_a = tf.add(ymin_a, ha / 2.0, name='ycenter_a')
                xcenter_a = tf.add(xmin_a, wa / 2.0, name='xcenter_a')
                ty, tx, th, tw = tf.split(codes, 4, axis=1, name='split_1')
                ty = tf.truediv(ty, 10.0, name='truediv_ty')
                tx = tf.truediv(tx, 10.0, name='truediv_tx')
                th = tf.truediv(th, 5.0, name='truediv_th')
                tw = tf.truediv(tw, 5.0, name='truediv_tw')
                h = tf.multiply(tf.exp(th, name='Exp'), ha, name='h')
                w = tf.multiply(tf.exp(tw, name='Exp_1'), wa, name='w')
                ycenter = tf.add(ty * ha, ycenter_a, name='ycenter')
                xcenter = tf.add(tx * wa, xcenter_a, name='xcenter')
                ymin = tf.subtract(ycenter, h / 2.0, name='ymin')
                xmin = tf.subtract(xcenter, w / 2.0, name='xmin')
                ymax = tf.add(ycenter, h / 2.0, name='ymax')
                xmax = tf.add(xcenter, w / 2.0, name='xmax')
                decoded = tf.concat([ymin, xmin, ymax, xmax], axis=1, name='concat')
            boxes = tf.reshape(decoded, [-1, n_boxes, 4], name='Reshape_2')
            scores = tf.truediv(cls, 2.0, name='scale_logits')
            scores = tf.sigmoid(scores, name='convert_scores')
            scores = tf.slice(scores, [0, 0, 1], [-1, -1, SSD_CLASSES], name='Slice')
            count = tf.strided_slice(shape, [1], [2], [1], shrink_axis_mask=1, name='strided_slice_1')
            count = tf.cast(count, tf.float32, name='Cast_1')
        tf.identity(boxes, name='detection_boxes')
        tf.identity(scores, name='detection_scores')
        tf.identity(count, name='num_detections')
    outputs = ['detection_boxes', 'detection_scores', 'num_detections']
    return b.finish(
        graph, 'ssd_like_postprocessor', [TensorInfo('input', SSD_SHAPE)], outputs,
        notes=build_ssd_like_postprocessor.__doc__,
        meta={'scope': 'Postprocessor',
              'start_points': ['Postprocessor/Shape', 'Postprocessor/scale_logits',
                               'Postprocessor/Tile', 'Postprocessor/Reshape_1'],
              'end_points': outputs,
              'num_boxes': n_boxes, 'num_classes': SSD_CLASSES,
              'box_coder_scales': [10.0, 10.0, 5.0, 5.0], 'logit_scale': 2.0})


YOLO_SHAPE = (1, 32, 32, 3)
YOLO_REGION = {'classes': 3, 'coords': 4, 'num': 2, 'do_softmax': 1,
               'anchors': [1.08, 1.19, 3.42, 4.41]}


@_register('yolo_like_head')
def build_yolo_like_head() -> ModelRecord:
    """A darknet-style backbone and YOLO detection head; the output is the raw feature map.

    Names::

        input                       Placeholder [1,32,32,3]
        conv0/..., conv1/..., conv2/...   (weights, Conv2D, BatchNorm/FusedBatchNormV3, LeakyRelu 0.1)
        pool0/MaxPool, pool1/MaxPool      2x2 stride 2
        conv_out/{weights,Conv2D,biases,BiasAdd}   1x1 conv, num*(coords+1+classes) = 16 channels
        output                      Identity [1,8,8,16] (NHWC)  <- output

    ``meta['region_yolo']`` holds the RegionYolo attributes that fit the head
    (classes=3, coords=4, num=2, do_softmax=1, anchors).
    """
    b = _Tf1Builder(seed=33)
    tf = b.tf
    r = YOLO_REGION
    channels = r['num'] * (r['coords'] + 1 + r['classes'])
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, YOLO_SHAPE, name='input')
        y = b.conv_bn(x, 8, 3, 1, 'SAME', 'conv0', activation='LeakyRelu')
        with tf.name_scope('pool0'):
            y = tf.nn.max_pool2d(y, 2, 2, 'VALID', name='MaxPool')
        y = b.conv_bn(y, 16, 3, 1, 'SAME', 'conv1', activation='LeakyRelu')
        with tf.name_scope('pool1'):
            y = tf.nn.max_pool2d(y, 2, 2, 'VALID', name='MaxPool')
        y = b.conv_bn(y, 16, 3, 1, 'SAME', 'conv2', activation='LeakyRelu')
        y = b.conv_bn(y, channels, 1, 1, 'SAME', 'conv_out', activation=None, bias=True, bn=False)
        tf.identity(y, name='output')
    return b.finish(graph, 'yolo_like_head', [TensorInfo('input', YOLO_SHAPE)], ['output'],
                    notes=build_yolo_like_head.__doc__,
                    meta={'region_yolo': dict(YOLO_REGION), 'grid': [8, 8],
                          'channels': channels})


MODEL_NAMES: Tuple[str, ...] = tuple(_BUILDERS)


# --------------------------------------------------------------------------------------------
# One accessor per model
# --------------------------------------------------------------------------------------------

def small_cnn_bn() -> ModelRecord:
    return get_model('small_cnn_bn')


def small_cnn_bn_funclib() -> ModelRecord:
    return get_model('small_cnn_bn_funclib')


def mobilenet_v2() -> ModelRecord:
    return get_model('mobilenet_v2')


def resnet50() -> ModelRecord:
    return get_model('resnet50')


def inception_v3() -> ModelRecord:
    return get_model('inception_v3')


def efficientnet_b0() -> ModelRecord:
    return get_model('efficientnet_b0')


def densenet121() -> ModelRecord:
    return get_model('densenet121')


def transformer_encoder() -> ModelRecord:
    return get_model('transformer_encoder')


def lstm_gru() -> ModelRecord:
    return get_model('lstm_gru')


def inception_blocks() -> ModelRecord:
    return get_model('inception_blocks')


def ssd_like_postprocessor() -> ModelRecord:
    return get_model('ssd_like_postprocessor')


def yolo_like_head() -> ModelRecord:
    return get_model('yolo_like_head')
