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
``NAME.json`` and reused while the key (the model builders' code and the TF/Keras/NumPy versions)
is unchanged (the key covers every module of this package).  Loading a cached record does not
import TensorFlow.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import os
import time
from pathlib import Path
from typing import Tuple


from . import keras_models, scope_graphs  # noqa: F401  (the builders register themselves)
from .records import (CACHE_ENV, FORMAT_VERSION, ModelRecord, TensorInfo, _BUILDERS, _keras,  # noqa: F401
                      _tf)

__all__ = [
    'MODEL_NAMES', 'TensorInfo', 'ModelRecord', 'get_model', 'build_model', 'cache_key',
    'small_cnn_bn', 'small_cnn_bn_funclib', 'mobilenet_v2', 'resnet50', 'inception_v3',
    'efficientnet_b0', 'densenet121', 'transformer_encoder', 'lstm_gru', 'inception_blocks',
    'ssd_like_postprocessor', 'yolo_like_head',
]

# --------------------------------------------------------------------------------------------
# Registry and caching
# --------------------------------------------------------------------------------------------

def _version(*dists: str) -> str:
    for d in dists:
        try:
            return importlib.metadata.version(d)
        except importlib.metadata.PackageNotFoundError:
            continue
    return 'none'


@functools.lru_cache(maxsize=None)
def cache_key() -> str:
    """Changes whenever the builders' code or the TF / Keras / NumPy versions change."""
    h = hashlib.sha256()
    for module in ('records.py', 'keras_models.py', 'scope_graphs.py', 'models.py'):
        h.update((Path(__file__).parent / module).read_bytes())
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
