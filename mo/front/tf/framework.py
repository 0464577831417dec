"""TensorFlow's framework record (``mo.front.frameworks``): frozen GraphDefs, SavedModels, meta graphs, checkpoints.

It claims what only TensorFlow's options name (a SavedModel directory, a meta graph, a checkpoint), a SavedModel
directory, a file TensorFlow writes by its name or first bytes (a Keras or checkpoint file too: its reader then
says which flag reads it), a protobuf text file and a binary protobuf whose first field is one a GraphDef,
SavedModel or MetaGraphDef starts with. It is asked last: that binary test is the loosest of the records'.
"""
import os
import re

from mo.front.frameworks import Framework, ModelSource
from mo.utils.proto_wire import LENGTH_DELIMITED, VARINT, top_level_fields

_HDF5_MAGIC = b'\x89HDF\r\n\x1a\n'
_SSTABLE_MAGIC = bytes.fromhex('57fb808b247547db')
#: top-level fields of GraphDef (node 1, library 2, version 3, versions 4), SavedModel (schema version 1, meta
#: graphs 2) and MetaGraphDef (1-9, all messages or maps)
_FIRST_FIELDS = {(1, LENGTH_DELIMITED), (2, LENGTH_DELIMITED), (3, VARINT), (4, LENGTH_DELIMITED), (1, VARINT)} | {
    (n, LENGTH_DELIMITED) for n in range(5, 10)}
#: how protobuf text of a GraphDef, MetaGraphDef or SavedModel starts (after comments)
_TEXT_START = re.compile(rb'^(\s*#[^\n]*\n)*\s*(node|library|versions|version|meta_info_def|graph_def|saver_def|'
                         rb'collection_def|signature_def|asset_file_def|object_graph_def|saved_model_schema_version|'
                         rb'meta_graphs)\s*[{:]')


def _claims(source: ModelSource) -> bool:
    options = source.options
    if any(options.get(k) for k in ('saved_model_dir', 'input_meta_graph', 'input_checkpoint')):
        return True
    if source.is_dir:
        return any(os.path.isfile(os.path.join(source.path, name)) for name in ('saved_model.pb', 'saved_model.pbtxt'))
    if source.path is not None and source.data is None:
        name = os.path.basename(str(source.path))
        if name.endswith(('.index', '.meta', '.h5', '.hdf5', '.keras')) or '.data-' in name or name == 'saved_model.pb':
            return True
        if _ends_with_sstable_magic(source.path):
            return True
    head = source.head()
    if head.startswith(_HDF5_MAGIC) or _TEXT_START.match(head):
        return True
    first = top_level_fields(head, limit=2)
    return bool(first) and first[0] in _FIRST_FIELDS


def _near_miss(source: ModelSource):
    if source.is_dir:
        entries = sorted(os.listdir(source.path))[:5]
        return 'a directory, but not a SavedModel directory: it has no saved_model.pb ({})'.format(
            ', '.join(entries) or 'it is empty')
    return None


def _ends_with_sstable_magic(path) -> bool:
    try:
        with open(path, 'rb') as f:
            f.seek(0, os.SEEK_END)
            if f.tell() < 8:
                return False
            f.seek(-8, os.SEEK_END)
            return f.read(8) == _SSTABLE_MAGIC
    except OSError:
        return False


FRAMEWORK = Framework(
    name='tf', title='TensorFlow', layout='NHWC', order=90, claims=_claims, near_miss=_near_miss,
    formats='a frozen GraphDef (.pb, .pbtxt), a SavedModel directory, a .meta MetaGraphDef, or a GraphDef with '
            '--input_checkpoint',
    reader_steps=('TFLoader', 'TFInputsOutputs'), tensor_names_from_ops=True)
