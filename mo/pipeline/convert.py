"""``mo convert``: a model of any framework mo reads becomes an OpenVINO IR (NAME.xml + NAME.bin)."""
import contextvars
import logging as log
import os
import time

import numpy as np

from mo.graph import body_conversion
from mo.graph.graph import Graph, Node
from mo.utils.class_registration import pipeline
from mo.pipeline.runner import apply_replacements
from mo.utils.error import Error, UsageError
from mo.utils.import_extensions import load_extensions, split_dirs
from mo.utils import process_exit
from mo.pipeline.model_io import ir_layer_count, model_io
from mo.pipeline.progress import Progress
from mo.pipeline import timing
from mo.utils.config_update import update_config
from mo.back.ir.writer import write_ir
from mo.pipeline.report import write_report
from mo.front import frameworks

HELP = 'convert a model ({}) into OpenVINO IR v11'.format(', '.join(r.title for r in frameworks.frameworks()))

#: options recorded in the IR's rt_info, in this order
RECORDED_OPTIONS = ('input_model', 'saved_model_dir', 'saved_model_tags', 'signature', 'input_meta_graph',
                    'input_checkpoint', 'input_symbol', 'nd_prefix_name', 'pretrained_model_name', 'model_name',
                    'input', 'input_shape', 'output', 'batch', 'compress_to_fp16', 'compress_weights', 'group_size',
                    'ratio', 'all_layers', 'stateful', 'static_shape', 'transformations_config', 'extensions',
                    'mean_values', 'scale_values', 'scale',
                    'reverse_input_channels', 'layout', 'source_layout', 'target_layout',
                    'freeze_placeholder_with_value')


def add_arguments(parser):
    parser.add_argument('--input_model', '-m', help='the model (also as the first argument, as ovc takes it: '
                        '"mo convert model.onnx"), its kind told by its content: ' + '; '.join(
        '{}: {}'.format(r.title, r.formats) for r in frameworks.frameworks()))
    parser.add_argument('--output_model', metavar='PATH.xml',
                        help='ovc\'s spelling: write PATH.xml and PATH.bin (the same as --output_dir DIR --model_name '
                             'NAME)')
    parser.add_argument('--output_dir', '-o', default=None,
                        help='directory for NAME.xml and NAME.bin (default: the current directory; with --dump_ops, '
                             'no IR is written unless it is given)')
    parser.add_argument('--model_name', '-n', help='NAME of the IR files (default: the model file name)')
    parser.add_argument('--input', help='inputs: name[shape]{type}->value, comma-separated')
    parser.add_argument('--input_shape', help='shapes of the inputs, e.g. [1,224,224,3],[1,10]')
    parser.add_argument('--output', help='outputs to keep (node or node:port), comma-separated; the graph is cut there')
    parser.add_argument('--batch', '-b', type=int, help='batch size for every input (its first dimension)')
    parser.add_argument('--compress_to_fp16', nargs='?', const=True, default=False, type=_bool_text,
                        metavar='BOOL', help='store float weights as f16 (with a Convert); by default mo keeps them '
                                             'f32, where ovc writes f16 (also --compress_to_fp16=False)')
    parser.add_argument('--compress_weights', metavar='MODE',
                        help='store MatMul, Gather and Convolution weights as integer codes with scales, which '
                             'OpenVINO runs compressed: ' + ', '.join(WEIGHT_MODES) + ' (data-free; embeddings, '
                             'convolutions and the last layers stay 8-bit in the 4-bit modes)')
    parser.add_argument('--group_size', metavar='N',
                        help='with a 4-bit --compress_weights: one scale per N input channels (default 128; -1: per '
                             'output channel)')
    parser.add_argument('--ratio', metavar='R',
                        help='with a 4-bit --compress_weights: the fraction (0-1] of the eligible weights\' elements '
                             'in 4 bits, the least sensitive first; the rest in int8_asym (default 1)')
    parser.add_argument('--all_layers', action='store_true',
                        help='with a 4-bit --compress_weights: embeddings, convolutions and last layers in 4 bits too')
    parser.add_argument('--data_type', choices=('FP16', 'FP32', 'half', 'float'),
                        help='the Model Optimizer\'s flag: FP16/half is --compress_to_fp16')
    parser.add_argument('--stateful', nargs='?', const=True, default=False, type=_bool_text, metavar='BOOL',
                        help='a decoder\'s key-value cache (inputs past_key_values.N.key/value, outputs '
                             'present.N.key/value) as OpenVINO state, with a beam_idx input, as OpenVINO GenAI runs it')
    parser.add_argument('--static_shape', action='store_true',
                        help='refuse to write an IR whose shapes are not all static')
    parser.add_argument('--extensions', action='append', default=[], metavar='DIR[,DIR]',
                        help='directories of user replacers and extractors')
    parser.add_argument('--transformations_config', '--tensorflow_use_custom_operations_config',
                        dest='transformations_config', help='JSON sub-graph replacement configs, comma-separated '
                                                            '(the second name is the Model Optimizer 2021\'s)')
    parser.add_argument('--tensorflow_custom_operations_config_update', metavar='CONFIG',
                        help='fill in inputs/outputs of the scope descriptions in CONFIG, then stop')
    parser.add_argument('--report', metavar='FILE', help='write a JSON report of every replacer run')
    # SavedModels, meta graphs and checkpoints (mo.front.tf.model_source)
    parser.add_argument('--saved_model_dir', metavar='DIR', help='a SavedModel directory (same as --input_model DIR)')
    parser.add_argument('--saved_model_tags', metavar='TAG[,TAG]',
                        help='tags of the SavedModel\'s meta graph to convert (default: serve)')
    parser.add_argument('--signature',
                        help='the SavedModel signature to convert (default: serving_default)')
    parser.add_argument('--input_meta_graph', metavar='FILE', help='a TF1 .meta MetaGraphDef (with --input_checkpoint, '
                                                                   'default: the checkpoint beside it)')
    parser.add_argument('--input_checkpoint', metavar='PREFIX', help='the TF1 checkpoint holding the variables')
    parser.add_argument('--input_symbol', metavar='FILE',
                        help='the MXNet graph (NAME-symbol.json) of --input_model NAME-EPOCH.params (default: '
                             'NAME-symbol.json beside it)')
    parser.add_argument('--nd_prefix_name', metavar='PREFIX',
                        help='MXNet: the weights of --input_symbol are in PREFIX_args.nd and PREFIX_auxs.nd (beside '
                             '--pretrained_model_name when PREFIX names no folder), with --pretrained_model_name')
    parser.add_argument('--pretrained_model_name', metavar='NAME-EPOCH.params',
                        help='MXNet: the pretrained checkpoint whose arrays the graph of --input_symbol names fill in '
                             'the weights the .nd files of --nd_prefix_name do not give (a style-transfer network '
                             'and its VGG loss network)')
    parser.add_argument('--legacy_mxnet_model', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: graphs MXNet < 1.0 wrote (attributes '
                             'under "attr"/"param", old op and attribute names) are told by their content and '
                             'upgraded as MXNet upgrades them, without MXNet, whether or not this is given')
    parser.add_argument('--enable_ssd_gluoncv', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: a GluonCV SSD\'s post-processing '
                             '(box decoders and box_nms) converts as MXNet computes it, its three outputs (ids, '
                             'scores, boxes) as the export has them; mo does not replace it by a DetectionOutput')
    # the Model Optimizer's habits: the framework is told by content, --framework says it explicitly
    parser.add_argument('--framework', choices=frameworks.framework_names(), default=None,
                        help='the source framework (default: told by the model\'s content)')
    parser.add_argument('--input_model_is_text', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: text and binary GraphDefs are '
                             'told apart by their content')
    parser.add_argument('--silent', nargs='?', const=True, default=False, type=_bool_text, metavar='BOOL',
                        help='print nothing but errors')
    parser.add_argument('--progress', action='store_true',
                        help='show the progress of a conversion that takes more than a few seconds also when the '
                             'output is not a terminal (on a terminal it is shown anyway)')
    parser.add_argument('--stream_output', action='store_true',
                        help='show progress as one line per step rather than one line rewritten in place')
    parser.add_argument('--freeze_placeholder_with_value', metavar='NAME->VALUE[,...]',
                        help='replace inputs by constants, e.g. "is_training->False" (as --input "name->value")')
    parser.add_argument('--use_new_frontend', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: mo has one TensorFlow reader')
    parser.add_argument('--use_legacy_frontend', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: mo has one TensorFlow reader')
    parser.add_argument('--disable_nhwc_to_nchw', action='store_true',
                        help='accepted for the Model Optimizer\'s command lines: the IR\'s inputs and outputs keep '
                             'the model\'s layout anyway (see --layout to change an input\'s)')
    for flag, why in UNSUPPORTED_FLAGS.items():
        parser.add_argument(flag, metavar='VALUE', help='not supported: ' + why)
    parser.add_argument('--dump_ops', choices=sorted(DUMP_POINTS), metavar='PHASE',
                        help='print every node\'s op, type and name when PHASE starts (load: as extracted; front, '
                             'middle, back: what that phase\'s replacers match), then go on converting (the IR is '
                             'written only with --output_dir)')
    # preprocessing in the IR (extensions/load/preprocessing.py), the Model Optimizer's flags
    parser.add_argument('--mean_values', metavar='VALUES', help='subtract per channel: [123,117,104] for every '
                                                                 'input, or name[123,117,104],...')
    parser.add_argument('--scale_values', metavar='VALUES', help='divide per channel (after the mean): [58,57,57] '
                                                                  'or name[58,57,57],...')
    parser.add_argument('--scale', type=float, help='divide every input by this number (after the mean)')
    parser.add_argument('--reverse_input_channels', action='store_true',
                        help='reverse the channels of every 3-channel input (RGB <-> BGR), before mean and scale')
    parser.add_argument('--layout', help='input layouts: nhwc, name(nhwc), or name(nhwc->nchw) to give the IR input '
                                         'another layout than the model\'s')
    parser.add_argument('--source_layout', help='the model\'s input layouts: nhwc or name(nhwc),...')
    parser.add_argument('--target_layout', help='the IR\'s input layouts: nchw or name(nchw),...')
    parser.add_argument('--max_constant_size', type=parse_size, metavar='BYTES', default=None,
                        help='largest constant inference may fold (e.g. 512M, 2G; default 1G); bigger ones are '
                             'left as computations with a warning')


#: the Model Optimizer's flags mo refuses, with the reason: a clear error rather than "unrecognized argument"
UNSUPPORTED_FLAGS = {
    '--transform': 'LowLatency2, MakeStateful and Pruning act on the OpenVINO model; apply them with '
                   'openvino\'s own passes (openvino.runtime.passes) to the IR mo writes',
    '--tensorflow_object_detection_api_pipeline_config': 'mo ships no Object Detection API sub-graph configs '
                                                         'that read a pipeline.config; TF2 detection SavedModels '
                                                         'convert without one',
    '--tensorboard_logdir': 'mo writes no TensorBoard logs; use --dump_ops PHASE or --report FILE to see the graph',
    '--tensorflow_custom_layer_libraries': 'mo does not load TensorFlow op libraries; write an extractor for the '
                                           'custom op (docs/extensions.md'
                                           '#unsupported-ops-an-extractor-and-an-op-class)',
}

#: --dump_ops PHASE -> the anchor after which the graph is what that phase's replacers see
DUMP_POINTS = {'load': 'LoadFinish', 'front': 'FrontStart', 'middle': 'MiddleStart', 'back': 'BackStart'}


def dump_ops(graph, phase: str) -> str:
    """One line per op node, ``op<TAB>type<TAB>name<TAB>inputs: a:0, b:1``, in the graph's order (--dump_ops).

    The inputs are in port order, each the name of the op that feeds the port and that op's output
    port (in the middle and back phases too, through the data node between them), so a pattern's
    edges and ``{'in': i}`` can be read off; an unconnected port is ``-``, a node without input
    ports ``none``. With ``--dump_ops`` the load phase folds no constants (as with ``--extensions``),
    so this is the graph an extension gets.
    """
    lines = ['[ mo ] ops at the start of the {} phase (op, type, name, inputs as source:port in port order; '
             'no load-phase constant folding, as with --extensions):'.format(phase)]
    for node in graph.pseudo_topological_sort():
        if node.soft_get('kind') == 'op':
            lines.append('{}\t{}\t{}\tinputs: {}'.format(node.soft_get('op', '-'), node.soft_get('type', None) or '-',
                                                        node.soft_get('name', node.id), _inputs_text(node)))
    return '\n'.join(lines)


def _inputs_text(node) -> str:
    """``a:0, b:1``: the source of each input port of ``node`` in port order (``-`` when unconnected)."""
    parts = []
    for _, port in sorted(node.in_ports().items()):
        source = port.get_source() if port.is_connected() else None
        parts.append('-' if source is None else
                     '{}:{}'.format(source.node.soft_get('name', source.node.id), source.idx))
    return ', '.join(parts) or 'none'


def _ops_printer(phase: str):
    """An ``apply_replacements`` step hook that prints ``dump_ops`` when ``phase`` starts."""
    anchor = DUMP_POINTS[phase]

    def after_step(info, graph):
        if info.id == anchor:
            print(dump_ops(graph, phase), flush=True)
    return after_step


def parse_size(text: str) -> int:
    """``1024``, ``512K``, ``64M``, ``2G`` -> bytes."""
    import argparse
    units = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    text = text.strip().upper().rstrip('B')
    scale = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    try:
        value = int(float(number) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError('"{}" is not a size such as 512M or 2G'.format(text)) from None
    if value <= 0:
        raise argparse.ArgumentTypeError('the size must be positive')
    return value


def _bool_text(text: str) -> bool:
    value = str(text).strip().lower()
    if value in ('true', '1', 'yes', 'on'):
        return True
    if value in ('false', '0', 'no', 'off'):
        return False
    raise ValueError(text)


def options_from_args(args) -> dict:
    options = {key: value for key, value in vars(args).items() if key not in ('command', 'log_level')}
    output_model = options.pop('output_model', None)
    if output_model:
        if options.get('output_dir') or options.get('model_name'):
            raise UsageError('--output_model says where the IR goes; do not give --output_dir or --model_name too')
        directory, name = os.path.split(output_model)
        options['output_dir'] = directory or '.'
        options['model_name'] = name[:-4] if name.lower().endswith('.xml') else name
    for flag, why in UNSUPPORTED_FLAGS.items():
        if options.pop(flag.lstrip('-'), None) is not None:
            raise UsageError('{} is not supported: {}', flag, why)
    if options.get('data_type') in ('FP16', 'half'):
        options['compress_to_fp16'] = True
    _check_weight_compression(options)
    return options


#: --compress_weights' modes
WEIGHT_MODES = ('int8_sym', 'int8_asym', 'int4_sym', 'int4_asym')


def _check_weight_compression(options: dict):
    """Validate --compress_weights, --group_size, --ratio and --all_layers; group_size and ratio become numbers."""
    mode = options.get('compress_weights')
    given = [flag for flag in ('group_size', 'ratio', 'all_layers') if options.get(flag) not in (None, False)]
    if mode is None:
        if given:
            raise UsageError('--{} needs --compress_weights', given[0])
        return
    if mode not in WEIGHT_MODES:
        raise UsageError('--compress_weights {} is not a mode: use one of {}', mode, ', '.join(WEIGHT_MODES))
    if mode.startswith('int8') and [flag for flag in given if flag != 'all_layers']:
        raise UsageError('--{} is for the 4-bit modes: --compress_weights {} quantizes per output channel, all '
                         'weights', [flag for flag in given if flag != 'all_layers'][0], mode)
    if options.get('group_size') is not None:
        try:
            group = int(str(options['group_size']).strip())
        except ValueError:
            group = 0
        if group != -1 and group < 1:
            raise UsageError('--group_size {} must be a positive number of input channels, or -1 (per output '
                             'channel)', options['group_size'])
        options['group_size'] = group
    if options.get('ratio') is not None:
        try:
            ratio = float(str(options['ratio']).strip())
        except ValueError:
            ratio = float('nan')
        if not 0 < ratio <= 1:
            raise UsageError('--ratio {} must be a fraction in (0, 1]: the share of the weights in 4 bits',
                             options['ratio'])
        options['ratio'] = ratio


def convert(options: dict):
    """Run the whole pipeline on ``options`` (the CLI's values); returns ``(graph, xml, bin, steps)``.

    ``options['graph_def_bytes']`` may carry the model instead of ``input_model``.
    """
    start = time.perf_counter()
    options = dict(options)
    record = frameworks.detect(options)
    options['framework'] = framework = record.name
    if record.prepare is not None:
        record.prepare(options)
    load_extensions(split_dirs(options.get('extensions')), with_transforms=False, framework=framework, lazy=True)
    # --dump_ops looks at the graph: an IR in the current directory would be a surprise
    write = bool(options.get('output_dir')) or not options.get('dump_ops')
    output_dir = options.get('output_dir') or '.'
    if write and not options.get('tensorflow_custom_operations_config_update'):
        _check_output_dir(output_dir)
    model_name = options.get('model_name') or _default_model_name(options)
    graph = Graph(cmd_params=options, source_format=framework, layout=record.layout)
    steps = []
    update_path = options.get('tensorflow_custom_operations_config_update')
    if update_path:
        # only read the model: the point of a config is often a sub-graph nothing else can convert
        apply_replacements(graph, [i for i in pipeline(['load']) if i.id in record.reader_steps], steps)
        for desc_id in update_config(graph, update_path):
            log.info('[ mo ] updated inputs/outputs of "{}" in {}'.format(desc_id, update_path))
        return graph, None, None, steps
    infos = pipeline()
    enabled = [info for info in infos if info.enabled]
    progress = Progress(len(enabled), force=bool(options.get('progress')), stream=bool(options.get('stream_output')),
                        silent=bool(options.get('silent')), steps=enabled)
    hooks = [progress] + ([_ops_printer(options['dump_ops'])] if options.get('dump_ops') else [])
    hooks += [hook for hook in [timing.after_step_hook()] if hook is not None]
    timing.mark('imports')
    bodies = _BODIES.set(_BodyConversions())
    with body_conversion.converting_bodies(convert_loaded_sub_graph):
        try:
            apply_replacements(graph, infos, steps, lambda info, g: [hook(info, g) for hook in hooks])
            timing.mark('pipeline')
            if options.get('static_shape'):
                _check_static(graph)
            meta = {'cli_parameters': {k: _option_text(options.get(k)) for k in RECORDED_OPTIONS
                                       if options.get(k) not in (None, False, [], '')},
                    'compress_to_fp16': bool(options.get('compress_to_fp16'))}
            xml_path = bin_path = None
            if write:
                progress.message('writing the IR')
                _make_output_dir(output_dir)
                xml_path, bin_path = write_ir(graph, output_dir, model_name, meta)
                timing.mark('write')
        except Exception as exc:
            if options.get('report'):  # what ran, and where it stopped
                write_report(options['report'], steps, {'seconds': round(time.perf_counter() - start, 6),
                                                        'error': str(exc), 'failed_in': getattr(exc, 'replacer', None),
                                                        'steps_completed': len(steps)})
            raise
        finally:
            _BODIES.reset(bodies)
            progress.finish()
    log.info('[ mo ] converted in {:.2f}s'.format(time.perf_counter() - start))
    if options.get('report'):
        write_report(options['report'], steps, {'seconds': round(time.perf_counter() - start, 6),
                                                'xml': xml_path, 'bin': bin_path,
                                                'nodes': graph.number_of_nodes()}, body_reports(graph))
    if not write:
        log.warning('--dump_ops without --output_dir: no IR written')
    return graph, xml_path, bin_path, steps


class _BodyConversions:
    """The bodies converted during one model's conversion, by their GraphDef (whose Placeholders carry
    the input shapes) and outputs: a loop's body is converted again while its shapes settle, and with
    it every loop inside, mostly with the inputs of the round before. Also the bodies' pipeline."""

    def __init__(self):
        self.graphs = {}
        self.infos = None


_BODIES = contextvars.ContextVar('body_conversions', default=None)


def convert_loaded_sub_graph(key, make_graph) -> Graph:
    """Run the body pipeline (every step but those with ``run_not_recursively``) on the graph ``make_graph()``
    returns: an empty graph whose options say what to load, or one a reader has loaded already. ``key`` names
    the body and its inputs: within one model's conversion the same key gives the same back-phase graph (treat
    it as read-only). The readers reach it through ``mo.graph.body_conversion.convert_body``."""
    conversions = _BODIES.get() or _BodyConversions()
    if key in conversions.graphs:
        return conversions.graphs[key]
    if conversions.infos is None:
        conversions.infos = [info for info in pipeline() if not getattr(info.cls, 'run_not_recursively', False)]
    graph = make_graph()
    graph.graph['steps'] = []
    apply_replacements(graph, conversions.infos, graph.graph['steps'])
    conversions.graphs[key] = graph
    return graph


def body_reports(graph: Graph, prefix: str = '') -> dict:
    """``"loop name/body"`` -> the replacer steps that converted that body, nested bodies included."""
    reports = {}
    for _, data in graph.nodes(data=True):
        for tag, body in (data.get('bodies') or {}).items():
            path = '{}{}/{}'.format(prefix, data.get('name'), tag)
            reports[path] = body.graph.get('steps', [])
            reports.update(body_reports(body, path + '/'))
    return reports


def _default_model_name(options) -> str:
    """The model file's name without extension; a SavedModel's directory name; NAME of an MXNet graph
    NAME-symbol.json given alone (--input_symbol); else "model"."""
    symbol = options.get('input_symbol')
    if not options.get('input_model') and symbol and os.path.basename(symbol).endswith('-symbol.json'):
        return os.path.basename(symbol)[:-len('-symbol.json')] or 'model'
    path = (options.get('input_model') or options.get('saved_model_dir') or options.get('input_meta_graph') or symbol
            or 'model')
    path = os.path.normpath(path)
    if os.path.basename(path) == 'saved_model.pb':
        path = os.path.dirname(path) or 'model'
    return os.path.splitext(os.path.basename(os.path.abspath(path)))[0] or 'model'


def _option_text(value) -> str:
    if isinstance(value, (list, tuple)):
        return ','.join(str(v) for v in value)
    return str(value)


def _check_output_dir(output_dir: str):
    """A usage error now, before the conversion runs, for an --output_dir that cannot be written; the directory
    itself is made only when the IR is written, so a failed conversion leaves none behind."""
    if os.path.exists(output_dir) and not os.path.isdir(output_dir):
        raise UsageError('--output_dir "{}" is a file, not a directory', output_dir)
    existing = os.path.abspath(output_dir)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise UsageError('--output_dir "{}" cannot be made: "{}" is a file', output_dir, existing)
    if not os.access(existing, os.W_OK):
        raise Error('The output directory "{}" is not writable', output_dir if existing == os.path.abspath(output_dir)
                    else existing)


def _make_output_dir(output_dir: str):
    try:
        os.makedirs(output_dir, exist_ok=True)
    except OSError as exc:
        raise Error('Cannot create the output directory "{}": {}', output_dir, exc.strerror or exc) from exc


def _is_dynamic(shape) -> bool:
    return shape is None or any(int(d) < 0 for d in np.ravel(shape))


def _check_static(graph: Graph):
    """--static_shape: every tensor's shape is known. A dynamic one is blamed on the inputs only when an input is
    dynamic; otherwise the error names the op that makes a dynamic shape from static ones, which mo cannot infer
    further (OpenVINO may still, when it compiles the IR)."""
    dynamic_inputs = [n for n in graph.get_op_nodes(type='Parameter') if _is_dynamic(n.soft_get('shape', None))]
    for node_id, data in graph.nodes(data=True):
        shape = data.get('shape') if data.get('kind') == 'data' else None
        if shape is None or not _is_dynamic(shape):
            continue
        shape = [int(d) for d in shape]
        tensor = (data.get('tensor_names') or [node_id])[0]
        if dynamic_inputs:
            first = dynamic_inputs[0]
            raise Error('--static_shape: tensor "{}" has a dynamic shape {}: input "{}" has the shape {}', tensor,
                        shape, (first.out_port(0).get_tensor_names() or [first.soft_get('name', first.id)])[0],
                        [int(d) for d in np.ravel(dynamic_inputs[0].shape)],
                        hint='give every input a static shape with --input NAME[SHAPE]')
        origin = _dynamic_origin(graph, node_id)
        raise Error('--static_shape: tensor "{}" has a dynamic shape {} although every input is static: "{}" ({}) '
                    'makes it from static shapes, and mo infers no further there', tensor, shape,
                    origin.soft_get('name', origin.id), origin.soft_get('type', None) or origin.soft_get('op'),
                    hint='convert without --static_shape; OpenVINO infers the shapes it can when it compiles the IR')


def _dynamic_origin(graph: Graph, data_id) -> Node:
    """The op upstream of data node ``data_id`` that gives a dynamic shape from inputs that all have static ones."""
    op = Node(graph, next(iter(graph.predecessors(data_id))))
    while True:
        dynamic = [d for d in graph.predecessors(op.id)
                   if graph.nodes[d].get('kind') == 'data' and _is_dynamic(graph.nodes[d].get('shape'))]
        if not dynamic:
            return op
        producers = list(graph.predecessors(dynamic[0]))
        if not producers:
            return op
        op = Node(graph, producers[0])


def run(args) -> int:
    start = time.perf_counter()
    graph, xml_path, bin_path, _ = convert(options_from_args(args))
    process_exit.keep(graph)  # the console script exits next: freeing the graph would be wasted time
    if xml_path and not args.silent:
        print(run_summary(graph, time.perf_counter() - start))
        print('[ SUCCESS ] XML file: {}'.format(os.path.abspath(xml_path)))
        print('[ SUCCESS ] BIN file: {}'.format(os.path.abspath(bin_path)))
    return 0


def run_summary(graph: Graph, seconds: float) -> str:
    """What a successful conversion says: each input and output (name, shape, type), the time and the
    node counts."""
    inputs, outputs = model_io(graph)
    lines = ['[ INFO ] Input:  {}'.format(info) for info in inputs]
    lines += ['[ INFO ] Output: {}'.format(info) for info in outputs]
    lines.append('[ SUCCESS ] Converted in {:.2f} s: {} {} nodes -> {} IR layers'.format(
        seconds, graph.graph.get('source_nodes', 0), frameworks.framework(graph.graph['source_format']).title,
        ir_layer_count(graph)))
    return '\n'.join(lines)


def convert_graph_def(graph_def_bytes: bytes, output_dir: str, model_name: str = 'model', **options):
    """Python API: convert serialized GraphDef bytes; returns ``(xml_path, bin_path)``."""
    options.update(graph_def_bytes=graph_def_bytes, output_dir=output_dir, model_name=model_name)
    _, xml_path, bin_path, _ = convert(options)
    return xml_path, bin_path
