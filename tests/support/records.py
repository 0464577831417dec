"""What a test model is (``ModelRecord``), the builder registry, and lazy TensorFlow/Keras imports."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Tuple

import numpy as np

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
# Builder registry (the builder modules register themselves on import)
# --------------------------------------------------------------------------------------------

_BUILDERS: Dict[str, Callable[[], ModelRecord]] = {}


def _register(name: str):
    def deco(fn):
        _BUILDERS[name] = fn
        return fn
    return deco


def _tf():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    import tensorflow as tf
    return tf


def _keras():
    _tf()
    import keras
    return keras
