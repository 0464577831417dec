"""Which framework a model comes from, told by the options and the model's content.

Each framework names its graph's ``source_format`` (what framework-specific steps test in their
``graph_condition``) and the layout its graphs are in.
"""
import os

from mo.front.onnx.sniff import is_onnx_bytes, is_onnx_file
from mo.utils.error import UsageError

#: framework -> the layout of its graphs (TensorFlow's convolutions are channels-last, ONNX's channels-first)
LAYOUTS = {'tf': 'NHWC', 'onnx': 'NCHW'}


def detect_framework(options: dict) -> str:
    """``'tf'`` or ``'onnx'``: ``--framework`` when given, else what the model is.

    An ONNX model is an ``onnx_model`` given to the API, bytes or a file whose content is a ModelProto
    (a ``.onnx`` name alone does not decide: a renamed GraphDef still converts).
    """
    framework = options.get('framework')
    if framework not in (None, 'tf', 'onnx'):
        raise UsageError('--framework {} is not supported (tf, onnx)', framework)
    if options.get('onnx_model') is not None:
        return 'onnx'
    if framework is not None:
        return framework
    data = options.get('graph_def_bytes')
    if data is not None:
        return 'onnx' if is_onnx_bytes(data) else 'tf'
    path = options.get('input_model')
    if path and os.path.isfile(path) and not options.get('saved_model_dir') and not options.get('input_meta_graph'):
        return 'onnx' if is_onnx_file(path) else 'tf'
    return 'tf'
