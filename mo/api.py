"""The Python API: the three commands as functions with Python-typed options.

    import mo
    ov_model = mo.convert_model('model.pb', input=[1, 224, 224, 3])
    print(ov_model.inputs, ov_model.outputs)   # mo's TensorInfo: name, shape, dtype
    mo.save_model(ov_model, 'out/model.xml')    # the IR as converted, without openvino

    import openvino as ov                       # with openvino installed the result is an openvino.Model:
    compiled = ov.compile_model(ov_model)       # Core().compile_model(ov_model, 'CPU') too
    ov.save_model(ov_model, 'out/model.xml')    # openvino's own writer (f16 weights by default)

Options are the command line's (``mo convert --help``) as keyword arguments; lists and tuples
take the place of the comma-separated texts, and ``input`` also takes ovc's values (shapes,
``openvino.PartialShape``, ``(name, shape, type)`` tuples, a dict name -> shape; see ``mo.api_inputs``).
A failure raises ``mo.Error`` carrying the message the command line prints.
"""
import os
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence, Tuple

from mo.api_inputs import input_options, input_shape_text
from mo.api_result import ConversionResult, copy_ir, make_result
from mo.pipeline.model_io import TensorInfo, ir_layer_count, model_io
from mo.utils.error import Error, UsageError
from mo.main import build_parser
from mo.pipeline.convert import convert, options_from_args
from mo.pipeline import registry_of_commands

__all__ = ['convert_model', 'save_model', 'transform_graph', 'summarize_graph', 'ConversionResult', 'TensorInfo']


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
               'input_shape': input_shape_text, 'mean_values': _per_input_values_text,
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


#: in-memory models mo does not convert (told by their classes' modules, without importing the framework) -> what
#: to do instead
_FOREIGN_MODELS = (
    (('torch.',), 'input_model is a PyTorch model ({}), which mo does not read: export it to ONNX first '
                  '(torch.onnx.export(model, example_input, "model.onnx")) and convert "model.onnx"'),
    (('paddle.',), 'input_model is a PaddlePaddle object ({}) that is no paddle.nn.Layer: convert a Layer (with '
                   'example_input=) or the program paddle.jit.save wrote'),
    (('jax.', 'jaxlib.', 'flax.'), 'input_model is a JAX model ({}), which mo does not read: export it to a '
                                   'TensorFlow SavedModel (jax2tf) or to ONNX first'),
    (('openvino.',), 'input_model is an OpenVINO model ({}), converted already: save it with openvino.save_model'),
)


#: ovc's convert_model keywords mo has no option for -> what to write instead
_OVC_KEYWORDS = {
    'verbose': 'write log_level="DEBUG"',
}


def _ovc_keywords(options: dict) -> None:
    # share_weights asks ovc to share memory with the framework's model object; mo's IR never does, either value
    # means the same to it
    options.pop('share_weights', None)
    for key, hint in _OVC_KEYWORDS.items():
        if key in options:
            raise UsageError('mo.convert_model() has no "{}" (an option of ovc\'s convert_model)', key, hint=hint)


def _check_foreign(model) -> None:
    modules = [getattr(cls, '__module__', '') or '' for cls in type(model).__mro__]
    for prefixes, message in _FOREIGN_MODELS:
        if any(m.startswith(prefixes) or m + '.' in prefixes for m in modules):
            raise Error(message, type(model).__name__)


def _model_bytes(model) -> Optional[bytes]:
    """Serialized GraphDef bytes of an in-memory model, or None for a path."""
    if isinstance(model, ConversionResult):
        raise Error('input_model is the result of mo.convert_model, an IR already; save it with mo.save_model')
    if isinstance(model, (str, os.PathLike)):
        return None
    _check_foreign(model)
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
    np.float32)]``, ``[1, 224, 224, 3]``, ``{"x": openvino.PartialShape([1, -1])}``, ...), ``input_shape``
    (``[1, 224, 224, 3]``), ``output`` (``["a", "b"]``), ``batch``, ``compress_to_fp16``,
    ``compress_weights`` (``'int4_asym'``, with ``group_size``, ``ratio``, ``all_layers``:
    docs/weight_compression.md), ``extensions`` (a list of directories), ``transformations_config``,
    ``mean_values``, ``scale_values``,
    ``reverse_input_channels``, ... Without ``output_dir`` the IR goes to a temporary directory owned by
    the result.

    Returns a ``ConversionResult``; with ``openvino`` importable it is also an ``openvino.Model``, which
    ``openvino.compile_model``, ``Core.compile_model`` and ``openvino.save_model`` take as they take
    ovc's. A PyTorch or Paddle model raises an ``mo.Error`` saying how to export it to ONNX first. Raises
    ``mo.Error``.
    """
    example_input = options.pop('example_input', None)
    _ovc_keywords(options)
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
    if options.get('input') is not None:
        options.update(input_options(options.pop('input'), options.get('input_shape')))
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
    return make_result(xml_path, bin_path, inputs, outputs, time.perf_counter() - start,
                       graph.graph.get('source_nodes', 0), ir_layer_count(graph), scratch)


def save_model(result: ConversionResult, path) -> Tuple[Path, Path]:
    """Copy the IR of ``result`` to ``path`` (``NAME.xml``; ``NAME.bin`` beside it), each file written
    whole or not at all; returns the two paths. The IR is the one mo wrote: edits made since through the
    ``openvino.Model`` API (``reshape``, ``PrePostProcessor``) are saved by ``openvino.save_model``; another
    ``openvino.Model`` given here is written by it, as mo writes (f32 weights unless they are f16 already)."""
    xml = Path(path)
    if xml.suffix != '.xml':
        xml = xml.with_suffix('.xml')
    if not isinstance(result, ConversionResult):
        if type(result).__module__.startswith('openvino'):
            import openvino
            xml.parent.mkdir(parents=True, exist_ok=True)
            openvino.save_model(result, str(xml), compress_to_fp16=False)
            return xml, xml.with_suffix('.bin')
        raise Error('mo.save_model saves what mo.convert_model returned, not a {}', type(result).__name__)
    return copy_ir(result.xml_path, result.bin_path, xml)


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
