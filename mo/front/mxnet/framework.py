"""Apache MXNet's framework record (``mo.front.frameworks``): a ``NAME-EPOCH.params`` file or a ``NAME-symbol.json``.

A ``.params`` file is told by its first 8 bytes (the NDArray list magic), a symbol file by being a JSON object
whose first bytes hold a ``"nodes"`` key (the reader's own test then looks for ``"arg_nodes"``/``"heads"``). The
tests here read only the head the pipeline already has, so asking this record costs a TensorFlow or ONNX
conversion no MXNet import; the reader is imported only for a file that already looks like MXNet's.
"""
import struct

from mo.front.frameworks import Framework, ModelSource

#: MXNet's NDArray list magic (``kMXAPINDArrayListMagic``), a little-endian u64 at the start of a .params file
_PARAMS_HEAD = struct.pack('<Q', 0x112)


def _claims(source: ModelSource) -> bool:
    if source.options.get('input_symbol'):
        return True
    if source.data is not None or not source.is_file:
        return False
    head = source.head()
    if head[:8] == _PARAMS_HEAD:
        return True
    text = head.lstrip(b'\xef\xbb\xbf \t\r\n')
    if text[:1] == b'{' and b'"nodes"' in head:
        from mo.front.mxnet.symbol import sniff  # only for JSON that already looks like a graph
        return sniff(source.path)
    return False


FRAMEWORK = Framework(
    name='mxnet', title='Apache MXNet', layout='NCHW', order=20, claims=_claims,
    formats='an MXNet checkpoint (PREFIX-0000.params with PREFIX-symbol.json beside it, or the -symbol.json; '
            '--input_symbol names another)',
    reader_steps=('MXNetLoader', 'MXNetInputsOutputs'))
