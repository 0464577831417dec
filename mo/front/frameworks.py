"""The framework records: what mo knows of each framework it reads, asked by the pipeline, the CLI and extension loading.

A framework is a folder: ``mo/front/<name>/`` holds its reader and a ``framework.py`` whose ``FRAMEWORK`` is a
``Framework`` record; ``extensions/load/<name>/`` and ``extensions/front/<name>/`` hold its load steps and
extractors. Nothing outside those folders names a framework: the records are found by listing ``mo/front``, and
a model's framework is told by asking each record in turn whether it claims the model (by the options that name
one, then by content). A record's module imports nothing of its framework's reader, so asking every record costs
a conversion no foreign imports.
"""
import importlib
import json
import os
from functools import lru_cache
from typing import Callable, Optional, Tuple

from mo.utils.error import Error, UsageError

#: how many bytes of a model file the records look at to claim it
HEAD_BYTES = 4096
#: the phase folders that may hold a framework's own folder (``front/onnx``, ``middle/onnx``, ...)
FRAMEWORK_PHASES = ('load', 'front', 'middle', 'back')


class ModelSource:
    """The model a conversion was asked for, as the records see it: the options, the path, its first bytes."""

    def __init__(self, options: dict):
        self.options = options
        self.data = options.get('graph_def_bytes')  # a model given to the API as bytes
        path = options.get('input_model')
        self.path = path if isinstance(path, (str, os.PathLike)) else None
        self._head = None

    @property
    def is_dir(self) -> bool:
        return self.path is not None and os.path.isdir(self.path)

    @property
    def is_file(self) -> bool:
        return self.path is not None and os.path.isfile(self.path)

    def head(self) -> bytes:
        """The first ``HEAD_BYTES`` of the model's bytes or file (b'' for a directory or a file that cannot be read)."""
        if self._head is None:
            if self.data is not None:
                self._head = bytes(self.data[:HEAD_BYTES])
            elif self.is_file:
                try:
                    with open(self.path, 'rb') as f:
                        self._head = f.read(HEAD_BYTES)
                except OSError:
                    self._head = b''
            else:
                self._head = b''
        return self._head

    def suffix(self) -> str:
        return os.path.splitext(str(self.path))[1].lower() if self.path is not None else ''


class Framework:
    """One framework's record (``mo/front/<name>/framework.py``): read-only once made.

    A plain class rather than a frozen dataclass: a dataclass's methods are generated and compiled when its module
    is imported, which every run of the command line would pay for this one record type.
    """
    __slots__ = ('name', 'title', 'layout', 'formats', 'claims', 'order', 'reader_steps', 'prepare', 'near_miss',
                 'tensor_names_from_ops')

    def __init__(self, name: str, title: str, layout: str, formats: str, claims: Callable[[ModelSource], bool],
                 order: int = 50, reader_steps: Tuple[str, ...] = (), prepare: Optional[Callable[[dict], None]] = None,
                 near_miss: Optional[Callable[[ModelSource], Optional[str]]] = None,
                 tensor_names_from_ops: bool = False):
        values = dict(
            #: the name: ``--framework NAME``, the graph's ``source_format``, the folders ``front/NAME`` and
            #: ``load/NAME``
            name=name,
            #: how messages and the summary name it (``TensorFlow``)
            title=title,
            #: the layout its graphs' convolutions are in (``NHWC``, ``NCHW``)
            layout=layout,
            #: the formats it reads, for ``--input_model``'s help and the error about a model no record claims
            formats=formats,
            #: whether the model is this framework's: by the options that only it reads, then by content
            claims=claims,
            #: records are asked in this order (a loose content test, such as a GraphDef's, asks late)
            order=order,
            #: the load steps that only read the model (all that ``--tensorflow_custom_operations_config_update`` runs)
            reader_steps=tuple(reader_steps),
            #: turns the options into the ones its reader takes (e.g. a model given as bytes), or None
            prepare=prepare,
            #: a few words on a model that is nearly this framework's but not quite (a directory without the file that
            #: would make it one), for the error about a model no record claims; None when it is not such a near miss
            near_miss=near_miss,
            #: whether a tensor is also known by its op's name and port (``op:0``, ``op:1``), as TensorFlow's are;
            #: otherwise the IR's tensors carry the names the model gives them, and only a nameless one takes its op's
            tensor_names_from_ops=tensor_names_from_ops)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError('a framework record is read-only: {}.{}'.format(self.name, key))

    def __repr__(self):
        return 'Framework({!r})'.format(self.name)

    @property
    def folders(self) -> Tuple[str, ...]:
        """The sub-directories of an extension directory that hold this framework's steps and extractors."""
        return tuple('{}/{}'.format(phase, self.name) for phase in FRAMEWORK_PHASES)


@lru_cache(maxsize=None)
def framework_names() -> Tuple[str, ...]:
    """The names of the frameworks mo reads: the folders of ``mo/front`` with a ``framework.py`` (nothing imported)."""
    root = os.path.dirname(__file__)
    return tuple(sorted(name for name in os.listdir(root)
                        if os.path.isfile(os.path.join(root, name, 'framework.py'))))


@lru_cache(maxsize=None)
def frameworks() -> Tuple[Framework, ...]:
    """Every framework record, in the order they are asked to claim a model."""
    records = [importlib.import_module('mo.front.{}.framework'.format(name)).FRAMEWORK for name in framework_names()]
    return tuple(sorted(records, key=lambda record: (record.order, record.name)))


def framework(name: str) -> Framework:
    """The record of framework ``name``; a UsageError naming the known ones for another."""
    for record in frameworks():
        if record.name == name:
            return record
    raise UsageError('--framework {} is not supported ({})', name, ', '.join(framework_names()))


def folder_framework(module: str) -> Optional[str]:
    """The framework whose folder (``front/<name>``, ``load/<name>``, ``middle/<name>``, ``back/<name>``, built-in or
    an --extensions directory's) defines ``module``, else None: the Model Optimizer told a class's framework by its
    folder."""
    parts = module.split('.')
    for before, after in zip(parts, parts[1:]):
        if before in FRAMEWORK_PHASES and after in framework_names():
            return after
    return None


def detect(options: dict) -> Framework:
    """The record of the model ``options`` name: ``--framework`` when given, else the first record that claims it;
    an Error that says what the model looks like, and what mo reads, when none does (or that it does not exist)."""
    if options.get('framework'):
        return framework(options['framework'])
    source = ModelSource(options)
    if source.path is not None and not os.path.exists(source.path):
        raise Error('The model "{}" does not exist', source.path)
    for record in frameworks():
        if record.claims(source):
            return record
    raise Error('"{}" is not a model mo reads: it looks like {}', source.path or '<bytes>', looks_like(source),
                hint='mo reads ' + '; '.join('{}: {}'.format(r.title, r.formats) for r in frameworks()))


def looks_like(source: ModelSource) -> str:
    """A few words on what an unclaimed model is, from its first bytes (never the bytes themselves)."""
    for record in frameworks():
        words = record.near_miss(source) if record.near_miss is not None else None
        if words:
            return words
    if source.is_dir:
        entries = sorted(os.listdir(source.path))[:5]
        return 'a directory of no known model format ({})'.format(', '.join(entries) or 'empty')
    head = source.head()
    if not head:
        return 'an empty file'
    if head[4:8] == b'TFL3':
        return 'a TensorFlow Lite flatbuffer, which mo does not read (convert the model it came from)'
    if head.startswith(b'PK\x03\x04'):
        if b'data.pkl' in head or b'.data/' in head or b'constants.pkl' in head:
            return ('a PyTorch archive, which mo does not read: export the module to ONNX '
                    '(torch.onnx.export) and convert that')
        return 'a zip archive'
    if head[:1] == b'\x80' and head[1:2] in (b'\x02', b'\x03', b'\x04', b'\x05'):
        return 'a Python pickle (a PyTorch checkpoint?), which mo does not read: export the model to ONNX first'
    if head.startswith(b'\x89HDF'):
        return 'an HDF5 file'
    text = head.lstrip()
    if text[:1] in (b'{', b'['):
        return _json_kind(source)
    if all(32 <= b < 127 or b in (9, 10, 13) for b in head[:256]):
        return 'a text file of no known model format'
    return 'a binary file of no known model format'


def _json_kind(source: ModelSource) -> str:
    try:
        if source.data is not None:
            value = json.loads(bytes(source.data))
        else:
            with open(source.path, 'rb') as f:
                value = json.load(f)
    except (ValueError, OSError, UnicodeDecodeError):
        return 'JSON, but not well-formed'
    if isinstance(value, dict):
        keys = sorted(value)[:6]
        return 'JSON of unknown kind (an object with the keys {})'.format(', '.join(map(str, keys)) or 'none')
    return 'JSON of unknown kind (a {})'.format(type(value).__name__)
