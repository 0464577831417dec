"""The Python API: the three commands as functions with Python-typed options.

    import mo
    result = mo.convert_model('model.pb', input_shape=[1, 224, 224, 3], compress_to_fp16=True)
    print(result.inputs, result.outputs)
    mo.save_model(result, 'out/model.xml')
    model = result.to_openvino()          # an openvino.Model, when openvino is installed

Options are the command line's (``mo convert --help``) as keyword arguments; lists and tuples
take the place of the comma-separated texts. A failure raises ``mo.Error`` carrying the message
the command line prints.
"""
import dataclasses
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import numpy as np

from mo.pipeline.model_io import TensorInfo, ir_layer_count, model_io
from mo.utils.error import Error, UsageError
from mo.back.ir.ir_types import element_type
from mo.main import build_parser
from mo.pipeline.convert import convert, options_from_args
from mo.utils.file_utils import create_temporary, replace_file
from mo.pipeline import registry_of_commands

__all__ = ['convert_model', 'save_model', 'transform_graph', 'summarize_graph', 'ConversionResult', 'TensorInfo']


@dataclasses.dataclass
class ConversionResult:
    """What ``convert_model`` made: the IR files, the model's inputs and outputs, and how it went.

    Without ``output_dir`` the files live in a temporary directory that goes away with this object:
    keep them with ``save_model`` (or ``to_openvino``)."""
    xml_path: Path
    bin_path: Path
    inputs: List[TensorInfo]
    outputs: List[TensorInfo]
    seconds: float
    source_nodes: int
    ir_layers: int
    _scratch: Optional[tempfile.TemporaryDirectory] = dataclasses.field(default=None, repr=False)

    def to_openvino(self):
        """The IR read by the OpenVINO runtime (``openvino.Model``); needs the ``openvino`` package."""
        try:
            import openvino
        except ImportError as exc:
            raise Error('to_openvino() needs the openvino package (pip install openvino)') from exc
        return openvino.Core().read_model(str(self.xml_path), str(self.bin_path))

    def save(self, path) -> Tuple[Path, Path]:
        return save_model(self, path)


def _shape_text(shape) -> str:
    return '[{}]'.format(','.join('?' if d is None or int(d) < 0 else str(int(d)) for d in shape))


def _type_text(dtype) -> str:
    return element_type(np.dtype(dtype))


def _input_text(value) -> str:
    """``input=`` as the command line's text: names, ``(name, shape[, dtype])`` tuples or a dict name -> shape."""
    if isinstance(value, str):
        return value
    items = value.items() if isinstance(value, dict) else value
    texts = []
    for item in items:
        if isinstance(item, str):
            texts.append(item)
            continue
        name, rest = item[0], list(item[1:])
        text = str(name)
        for part in rest:
            if part is None:
                continue
            if isinstance(part, (list, tuple)):
                text += _shape_text(part)
            else:
                text += '{' + _type_text(part) + '}'
        texts.append(text)
    return ','.join(texts)


def _input_shape_text(value) -> str:
    if isinstance(value, str):
        return value
    value = list(value)
    if value and all(isinstance(d, (int, np.integer)) or d is None for d in value):
        return _shape_text(value)
    return ','.join(_shape_text(shape) for shape in value)


def _per_input_values_text(value) -> str:
    """``mean_values``/``scale_values``: a list of numbers, or a dict input name -> list."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return ','.join('{}[{}]'.format(name, ','.join(str(v) for v in values)) for name, values in value.items())
    return '[{}]'.format(','.join(str(v) for v in value))


def _layout_text(value) -> str:
    """``layout``: a text, or a dict input name -> layout (``"nchw"`` or ``"nhwc->nchw"``)."""
    if isinstance(value, str):
        return value
    return ','.join('{}({})'.format(name, layout) for name, layout in value.items())


_FORMATTERS = {'layout': _layout_text, 'source_layout': _layout_text, 'target_layout': _layout_text,
               'input': _input_text, 'input_shape': _input_shape_text, 'mean_values': _per_input_values_text,
               'scale_values': _per_input_values_text}


def _argv(options: dict) -> list:
    """Keyword options as command-line arguments (the parser then checks them as it checks the CLI's)."""
    argv = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = '--' + key
        if value is True:
            argv.append(flag)
            continue
        if key in _FORMATTERS:
            value = _FORMATTERS[key](value)
        elif isinstance(value, (list, tuple)):
            value = ','.join(str(v) for v in value)
        argv += [flag, str(value) if not isinstance(value, os.PathLike) else os.fspath(value)]
    return argv


_FUNCTION_OF = {'convert': 'convert_model', 'transform': 'transform_graph', 'summarize': 'summarize_graph'}


def _check_keywords(parser, command: str, options: dict) -> None:
    """A keyword no option of ``command`` has is the caller's typo: name it as the keyword it is, with the closest
    keywords (the CLI's message would name a flag the caller never wrote)."""
    import argparse
    import difflib
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    known = {flag[2:] for action in commands._actions for flag in action.option_strings if flag.startswith('--')}
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=3)
            raise UsageError('mo.{}() got an unknown keyword argument "{}"', _FUNCTION_OF.get(command, command), key,
                             hint='did you mean {}?'.format(' or '.join('"{}"'.format(c) for c in close))
                             if close else 'the keywords are the long options of "mo {} --help"'.format(command))


def _parse(command: str, options: dict):
    parser = build_parser(command)
    _check_keywords(parser, command, options)
    try:
        return parser.parse_args([command] + _argv(options))
    except SystemExit as exc:  # argparse's own exit (e.g. a --help among the options)
        raise Error('mo.{}: invalid options', command) from exc


def _model_bytes(model) -> Optional[bytes]:
    """Serialized GraphDef bytes of an in-memory model, or None for a path."""
    if isinstance(model, (str, os.PathLike)):
        return None
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model)
    if hasattr(model, 'SerializeToString') and hasattr(model, 'node'):  # a GraphDef message
        return model.SerializeToString()
    if hasattr(model, 'SerializeToString') and hasattr(model, 'opset_import'):  # an ONNX ModelProto
        return model.SerializeToString()
    return _freeze_tensorflow(model)


def _freeze_tensorflow(model) -> bytes:
    """A Keras model, tf.function (with an input signature) or concrete function, frozen as TF's own
    ``convert_variables_to_constants_v2`` does, loops kept functional."""
    try:
        import tensorflow as tf
        from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    except ImportError as exc:
        raise Error('input_model of type {} needs TensorFlow to be frozen', type(model).__name__) from exc
    concrete = model
    if hasattr(model, 'inputs') and callable(model) and not hasattr(model, 'get_concrete_function'):
        specs = [tf.TensorSpec(t.shape, t.dtype, name=str(getattr(t, 'name', 'input_{}'.format(i))).split(':')[0])
                 for i, t in enumerate(model.inputs)]
        single = len(specs) == 1
        concrete = tf.function(lambda *xs: model(xs[0] if single else list(xs))).get_concrete_function(*specs)
    elif hasattr(model, 'get_concrete_function'):
        try:
            concrete = model.get_concrete_function()
        except (TypeError, ValueError) as exc:
            raise Error('input_model: a tf.function needs an input_signature to be converted ({})', exc) from exc
    if not hasattr(concrete, 'graph'):
        raise Error('input_model of type {} is neither a path, GraphDef bytes or message, a Keras model nor a '
                    'TensorFlow function', type(model).__name__)
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=False)
    return frozen.graph.as_graph_def().SerializeToString()


def convert_model(input_model, **options) -> ConversionResult:
    """Convert ``input_model`` (a path, GraphDef bytes or message, Keras model or TF function, or a
    ``paddle.nn.Layer`` with ``example_input``) to IR.

    ``options`` are ``mo convert``'s: ``output_dir``, ``model_name``, ``input`` (``["x", ("y", [1, 3],
    np.float32)]``), ``input_shape`` (``[1, 224, 224, 3]``), ``output`` (``["a", "b"]``), ``batch``,
    ``compress_to_fp16``, ``extensions`` (a list of directories), ``transformations_config``,
    ``mean_values``, ``scale_values``, ``reverse_input_channels``, ... Without ``output_dir`` the IR goes
    to a temporary directory owned by the result. Raises ``mo.Error``.
    """
    example_input = options.pop('example_input', None)
    exported = None
    if _is_paddle_layer(input_model):
        from mo.front.paddle.layer import export_layer
        exported = tempfile.TemporaryDirectory(prefix='mo-paddle-')
        input_model = export_layer(input_model, example_input, exported.name)
        options.setdefault('model_name', 'model')
    elif example_input is not None:
        raise Error('example_input is for a paddle.nn.Layer; input_model is a {}', type(input_model).__name__)
    try:
        return _convert(input_model, options)
    finally:
        if exported is not None:
            exported.cleanup()


def _is_paddle_layer(model) -> bool:
    """An instance of ``paddle.nn.Layer``, told by its classes' modules (``paddle`` is not imported to ask)."""
    return any(cls.__module__.split('.')[0] == 'paddle' and cls.__name__ == 'Layer' for cls in type(model).__mro__)


def _convert(input_model, options: dict) -> ConversionResult:
    data = _model_bytes(input_model)
    scratch = None
    if options.get('output_dir') is None:
        scratch = tempfile.TemporaryDirectory(prefix='mo-')
        options['output_dir'] = scratch.name
    if data is None:
        options['input_model'] = input_model
    elif options.get('model_name') is None:
        options['model_name'] = 'model'
    args = _parse('convert', options)
    cli_options = options_from_args(args)
    if data is not None:
        cli_options['graph_def_bytes'] = data
    start = time.perf_counter()
    graph, xml_path, bin_path, _ = convert(cli_options)
    inputs, outputs = model_io(graph)
    return ConversionResult(Path(xml_path), Path(bin_path), inputs, outputs, time.perf_counter() - start,
                            graph.graph.get('source_nodes', 0), ir_layer_count(graph), scratch)


def save_model(result: ConversionResult, path) -> Tuple[Path, Path]:
    """Copy the IR of ``result`` to ``path`` (``NAME.xml``; ``NAME.bin`` beside it), each file written
    whole or not at all; returns the two paths."""
    xml = Path(path)
    if xml.suffix != '.xml':
        xml = xml.with_suffix('.xml')
    xml.parent.mkdir(parents=True, exist_ok=True)
    targets = [(result.bin_path, xml.with_suffix('.bin')), (result.xml_path, xml)]  # .bin first, as the writer
    for source, target in targets:
        if Path(source).resolve() == target.resolve():
            continue
        tmp_path, fd = create_temporary(str(target))
        try:
            with os.fdopen(fd, 'wb') as out, open(source, 'rb') as src:
                shutil.copyfileobj(src, out)
            replace_file(tmp_path, str(target))
        except BaseException:
            try:
                os.unlink(tmp_path)
            except OSError:
                pass
            raise
    return xml, xml.with_suffix('.bin')


def transform_graph(in_graph, out_graph, transforms: str, inputs: Sequence[str] = (), outputs: Sequence[str] = (),
                    **options) -> Path:
    """``mo transform``: apply the Graph Transform Tool ``transforms`` to ``in_graph`` and write ``out_graph``."""
    options.setdefault('silent', True)  # a library call prints nothing on success
    args = _parse('transform', dict(options, in_graph=in_graph, out_graph=out_graph, transforms=transforms,
                                    inputs=list(inputs), outputs=list(outputs)))
    registry_of_commands(only=['transform'])['transform'].run(args)
    return Path(out_graph)


def summarize_graph(in_graph, print_structure: bool = False, **options):
    """``mo summarize``: summarize_graph's report of ``in_graph``: a ``GraphSummary``, the text (a ``str``, printed
    as the command prints it) with its facts as attributes (``inputs``, ``variables``, ``outputs``, parameter
    counts, ``op_counts``)."""
    from mo.pipeline.summarize import summarize_model  # TensorFlow's reader: only for this call
    args = _parse('summarize', dict(options, in_graph=in_graph, print_structure=print_structure))
    return summarize_model(args.in_graph, args)
