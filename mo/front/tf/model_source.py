"""What kind of TensorFlow model a path is, told by its content, and how to read it.

``--input_model`` may name a SavedModel directory, a ``saved_model.pb``, a frozen GraphDef
(binary or text), a ``.meta`` MetaGraphDef or, wrongly, a checkpoint or a Keras file; each kind
that needs another flag gets a message naming what the file is and the flag that reads it.
"""
import os

from mo.utils.error import Error, UsageError
from mo.front.tf.proto import MetaGraphDef, SavedModel
from mo.front.tf.graphdef_io import _looks_like_text, _parse_binary, read_graph_def, read_graph_def_and_bytes
from mo.front.tf.wire import const_contents
from mo.front.common.input_spec import parse_output

SAVED_MODEL_DIR = 'SavedModel directory'
SAVED_MODEL = 'SavedModel'
META_GRAPH = 'MetaGraphDef'
GRAPH_DEF = 'GraphDef'
CHECKPOINT = 'checkpoint'
KERAS = 'Keras model'

_HDF5_MAGIC = b'\x89HDF\r\n\x1a\n'
_ZIP_MAGIC = b'PK\x03\x04'
_SSTABLE_MAGIC = bytes.fromhex('57fb808b247547db')


def _unknown_fields(message) -> int:
    try:
        from google.protobuf.unknown_fields import UnknownFieldSet
        return len(UnknownFieldSet(message))
    except ImportError:  # pragma: no cover - protobuf < 4.22
        return len(message.UnknownFields())


def _is_saved_model(data: bytes) -> bool:
    try:
        saved_model = SavedModel.FromString(data)
    except Exception:  # noqa: B902 - not this message
        return False
    return (not _unknown_fields(saved_model) and len(saved_model.meta_graphs) > 0 and
            all(m.HasField('graph_def') for m in saved_model.meta_graphs))


def _is_meta_graph(data: bytes) -> bool:
    try:
        meta_graph = MetaGraphDef.FromString(data)
    except Exception:  # noqa: B902
        return False
    return meta_graph.HasField('graph_def') and (meta_graph.HasField('meta_info_def') or
                                                  meta_graph.HasField('saver_def'))


def detect(path: str, deep: bool = False) -> str:
    """The kind of model at ``path`` (one of the constants above).

    Directories, magic numbers and extensions decide at once. Otherwise the answer is GRAPH_DEF
    unless ``deep``: then the content is parsed to tell a SavedModel or a MetaGraphDef from a
    GraphDef (``mo convert`` instead tries the GraphDef first and looks closer only when that
    fails: see ``kind_of_message``), so a frozen graph is never parsed twice.
    """
    if os.path.isdir(path):
        return SAVED_MODEL_DIR
    if path.endswith('.index') or '.data-' in os.path.basename(path):
        return CHECKPOINT
    try:
        with open(path, 'rb') as f:
            head = f.read(8)
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(size - 8, 0))
            tail = f.read(8)
    except OSError:
        return GRAPH_DEF  # the GraphDef reader reports it
    if head.startswith(_HDF5_MAGIC) or (head.startswith(_ZIP_MAGIC) and path.endswith('.keras')) or \
            path.endswith(('.h5', '.hdf5', '.keras')):
        return KERAS
    if tail == _SSTABLE_MAGIC:
        return CHECKPOINT
    if path.endswith('.meta'):
        return META_GRAPH
    if os.path.basename(path) == 'saved_model.pb':
        return SAVED_MODEL
    if not deep or size > (1 << 31) - 1:  # protobuf cannot parse 2 GiB whole: no kind to tell
        return GRAPH_DEF
    with open(path, 'rb') as f:
        data = f.read()
    if _looks_like_text(data) or _parse_binary(data, path)[0] is not None:
        return GRAPH_DEF
    return kind_of_message(data) or GRAPH_DEF


def kind_of_message(data: bytes):
    """SAVED_MODEL or META_GRAPH when binary ``data`` (not a GraphDef) is one of them, else None."""
    if _is_saved_model(data):
        return SAVED_MODEL
    if _is_meta_graph(data):
        return META_GRAPH
    return None


def _saved_model():
    """The SavedModel and checkpoint reader, imported only for models that need it (a frozen
    GraphDef skips ~12 ms of imports)."""
    from mo.front.tf import saved_model
    return saved_model


def _outputs(params):
    return [(name, port or 0) for name, port in parse_output(params.get('output') or '')] or None


def load(params: dict):
    """The ``FrozenModel`` the options describe, or None for a frozen GraphDef (the usual reader)."""
    saved_model_dir, meta_graph = params.get('saved_model_dir'), params.get('input_meta_graph')
    model, checkpoint = params.get('input_model'), params.get('input_checkpoint')
    if checkpoint:
        checkpoint = checkpoint_prefix(checkpoint)
    given = [flag for flag, value in (('--input_model', model), ('--saved_model_dir', saved_model_dir),
                                      ('--input_meta_graph', meta_graph)) if value]
    if len(given) > 1:
        raise UsageError('{} name the model twice; give one of them', ' and '.join(given))
    if saved_model_dir:
        _expect(saved_model_dir, '--saved_model_dir', (SAVED_MODEL_DIR,))
        return _saved_model().load_saved_model(saved_model_dir, params.get('saved_model_tags'),
                                               params.get('signature'))
    if meta_graph:
        _expect(meta_graph, '--input_meta_graph', (META_GRAPH,))
        return _saved_model().load_meta_graph(meta_graph, checkpoint, _outputs(params))
    if not model:
        raise UsageError('--input_model is required (or --saved_model_dir, or --input_meta_graph)')
    if not os.path.exists(model):
        raise Error('Cannot read the TensorFlow model "{}": the file does not exist', model)
    kind = detect(model)
    if kind == SAVED_MODEL_DIR:
        return _saved_model().load_saved_model(model, params.get('saved_model_tags'), params.get('signature'))
    if kind == SAVED_MODEL:
        return _saved_model().load_saved_model(os.path.dirname(model) or '.', params.get('saved_model_tags'),
                                               params.get('signature'))
    if kind == META_GRAPH:
        return _saved_model().load_meta_graph(model, checkpoint, _outputs(params))
    if kind == CHECKPOINT:
        raise Error('"{}" is (part of) a TensorFlow checkpoint: it holds weights but no graph', model,
                    hint='give the graph with --input_meta_graph MODEL.meta (or --input_model GRAPH.pb) and the '
                         'checkpoint with --input_checkpoint PREFIX')
    if kind == KERAS:
        raise Error('"{}" is a Keras model file, which mo does not read', model,
                    hint='export a SavedModel from it with TensorFlow: keras.models.load_model("{}").export("DIR"), '
                         'then run mo convert --input_model DIR'.format(os.path.basename(model)))
    if checkpoint:
        try:
            graph_def = read_graph_def(model)
        except Error as exc:  # a MetaGraphDef under another name?
            with open(model, 'rb') as f:
                return load_other_message(params, f.read(), exc)
        return _saved_model().load_graph_with_checkpoint(graph_def, checkpoint,
                                                         _outputs(params))
    return None


#: the flag that reads each kind of model
_FLAG_FOR = {SAVED_MODEL_DIR: '--input_model DIR (or --saved_model_dir DIR)',
             SAVED_MODEL: '--saved_model_dir on its directory', GRAPH_DEF: '--input_model',
             META_GRAPH: '--input_meta_graph (or --input_model)',
             CHECKPOINT: '--input_checkpoint, with the graph in --input_meta_graph or --input_model',
             KERAS: 'none: export a SavedModel with model.export(DIR) first'}


def _expect(path: str, flag: str, kinds) -> None:
    """An Error naming what ``path`` is and the flag that reads it, unless it is one of ``kinds``."""
    if not os.path.exists(path):
        raise Error('{} "{}": no such file or directory', flag, path)
    kind = detect(path, deep=True)
    if kind not in kinds:
        raise UsageError('{} "{}" is a {}, not a {}; the flag for it is {}', flag, path, kind,
                         ' or '.join(kinds), _FLAG_FOR[kind])


def load_other_message(params: dict, data: bytes, error: Error):
    """``--input_model`` did not parse as a GraphDef: the ``FrozenModel`` of a MetaGraphDef, an Error
    that says where a SavedModel's variables are, or ``error`` itself."""
    model = params['input_model']
    kind = kind_of_message(data)
    if kind == META_GRAPH:
        checkpoint = params.get('input_checkpoint')
        return _saved_model().load_meta_graph(model, checkpoint and checkpoint_prefix(checkpoint), _outputs(params))
    if kind == SAVED_MODEL:
        raise Error('"{}" is a SavedModel, whose variables live beside it as variables/; convert its directory '
                    'with --saved_model_dir DIR', model) from None
    raise error


def checkpoint_prefix(path: str) -> str:
    """The checkpoint prefix ``--input_checkpoint`` means: the prefix itself, its ``.index`` file, or a directory
    holding checkpoints (the one its ``checkpoint`` file names as the latest, else its only one)."""
    if path.endswith('.index'):
        return path[:-len('.index')]
    if not os.path.isdir(path):
        return path
    latest = _latest_checkpoint(path)
    if latest is not None:
        return latest
    prefixes = sorted(name[:-len('.index')] for name in os.listdir(path) if name.endswith('.index'))
    if len(prefixes) == 1:
        return os.path.join(path, prefixes[0])
    if not prefixes:
        raise UsageError('--input_checkpoint "{}" is a directory without a checkpoint (no PREFIX.index file in it)',
                         path)
    raise UsageError('--input_checkpoint "{}" is a directory of {} checkpoints; name one', path, len(prefixes),
                     hint='give its prefix: {}'.format(', '.join(os.path.join(path, p) for p in prefixes)))


def _latest_checkpoint(directory: str):
    """The prefix the ``checkpoint`` state file of ``directory`` names (``model_checkpoint_path: "..."``), if it
    names one whose index exists."""
    state = os.path.join(directory, 'checkpoint')
    if not os.path.isfile(state):
        return None
    import re
    with open(state, encoding='utf-8', errors='replace') as f:
        match = re.search(r'^model_checkpoint_path:\s*"((?:[^"\\]|\\.)*)"', f.read(), re.MULTILINE)
    if match is None:
        return None
    prefix = match.group(1).encode().decode('unicode_escape')
    prefix = prefix if os.path.isabs(prefix) else os.path.join(directory, prefix)
    return prefix if os.path.isfile(prefix + '.index') else None


def add_source_arguments(parser):
    """The options that say how to read a SavedModel or a checkpoint (for mo summarize and transform)."""
    parser.add_argument('--saved_model_tags', metavar='TAG[,TAG]', help='a SavedModel\'s meta graph (default: serve)')
    parser.add_argument('--signature', help='a SavedModel\'s signature (default: serving_default)')
    parser.add_argument('--input_checkpoint', metavar='PREFIX',
                        help='the checkpoint of a non-frozen GraphDef or .meta file (default for .meta: beside it)')


def read_frozen_graph_def(path: str, args, outputs=None):
    """The GraphDef at ``path``, or the model there frozen into one (SavedModel, meta graph, GraphDef
    with ``args.input_checkpoint``): what the Graph Transform Tool and summarize_graph read."""
    return read_frozen_graph_def_and_contents(path, args, outputs)[0]


def read_frozen_graph_def_and_contents(path: str, args, outputs=None):
    """``(graph_def, contents)``: the GraphDef as ``read_frozen_graph_def`` reads it, and for a binary
    GraphDef file the ``tensor_content`` bytes of its Consts in the file (``mo.front.tf.wire``;
    None otherwise), so that the loader makes the weights views of them instead of copies."""
    params = {name: getattr(args, name, None) for name in ('saved_model_tags', 'signature', 'input_checkpoint')}
    params.update(input_model=path, output=','.join(outputs or ()))
    frozen = load(params)
    if frozen is None:
        try:
            graph_def, data, binary = read_graph_def_and_bytes(path)
            return graph_def, const_contents(data) if binary else None
        except Error as exc:
            with open(path, 'rb') as f:
                frozen = load_other_message(params, f.read(), exc)
    return frozen.materialized(), None
