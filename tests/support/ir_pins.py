"""IR bytes pinned before code moves: every op case, test model and control-flow model, converted.

``tests/ir/pinned_ir.json`` records, per corpus item, a digest of its TensorFlow source graph and
of the ``.xml`` and ``.bin`` that ``mo convert`` writes for it. A refactoring that claims to change
nothing must leave every IR digest as it is; ``test_pinned_ir.py`` checks that. When a change is
meant to change IR bytes (a new lowering, a better folding), re-pin and say so in the commit:

    python -m tests.support.ir_pins --write         # convert the corpus, rewrite the pins
    python -m tests.support.ir_pins --check         # the comparison the test runs

Source graphs are serialized deterministically and their library functions (whose names carry
TensorFlow's process-wide counters) renamed by order of appearance, so a source graph's digest
depends only on the graph and the TensorFlow version that built it. TensorFlow's own names still
follow the hash seed in places, and its lowered control flow differs from run to run in what
``_drop_run_to_run_noise`` removes, so the corpus is built with ``PYTHONHASHSEED=0``:
``main`` re-runs itself under it.
"""
import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple

PIN_FILE = Path(__file__).resolve().parents[1] / 'ir' / 'pinned_ir.json'

#: the test models that build in seconds (the large Keras applications are covered by their own tests)
MODELS = ('small_cnn_bn', 'small_cnn_bn_funclib', 'inception_blocks', 'lstm_gru', 'transformer_encoder',
          'ssd_like_postprocessor', 'yolo_like_head')

Item = Tuple[str, Callable[[], Tuple[bytes, Dict]]]


def _drop_run_to_run_noise(graph_def) -> None:
    """Remove what TensorFlow writes differently from one run to the next when it lowers a
    tf.function's control flow: unconsumed ``unused_control_flow_input_N`` placeholders (their number
    and numbering vary), internal ``_``-prefixed attributes (``_has_manual_control_dependencies``) and
    the debug info of nodes (``original_func_names`` of inlined functions end in TF's uid counter)."""
    consumed = {text.lstrip('^').split(':')[0] for node in graph_def.node for text in node.input}
    keep = [n for n in graph_def.node
            if not (re.fullmatch(r'unused_control_flow_input(_\d+)?', n.name) and n.name not in consumed)]
    for node in keep:
        for key in [k for k in node.attr if k.startswith('_')]:
            del node.attr[key]
    graph_def.ClearField('node')
    graph_def.node.extend(keep)
    # the names of the functions inlined into a node (TF's uid counter at their end) are debug notes
    for node in _all_nodes(graph_def):
        node.ClearField('experimental_debug_info')


def _canonical(data: bytes) -> bytes:
    """``data`` serialized deterministically: nodes sorted by name and attribute maps by key (TensorFlow
    writes both in an order that follows the hash seed), library functions renamed ``f0, f1, ...`` in
    the order a walk from the main graph first reaches them (their names carry process-wide counters)."""
    import tensorflow as tf
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(data)
    _drop_run_to_run_noise(graph_def)
    _sort_nodes(graph_def.node)
    functions = {f.signature.name: f for f in graph_def.library.function}
    names = {}
    pending = [graph_def.node]
    while pending:  # first pass: number the functions in the order the walk meets them
        nodes = pending.pop(0)
        for node in nodes:
            for called in _called_functions(node, functions):
                if called not in names:
                    names[called] = 'f%d' % len(names)
                    _sort_nodes(functions[called].node_def)
                    pending.append(functions[called].node_def)
    for node in _all_nodes(graph_def):
        _rename_calls(node, names)
    for function in graph_def.library.function:
        function.signature.name = names.get(function.signature.name, function.signature.name)
    ordered = sorted(graph_def.library.function, key=lambda f: f.signature.name)
    graph_def.library.ClearField('function')
    graph_def.library.function.extend(ordered)
    for gradient in graph_def.library.gradient:
        gradient.function_name = names.get(gradient.function_name, gradient.function_name)
    return _renumber_counters(graph_def).SerializeToString(deterministic=True)


def _renumber_counters(graph_def):
    """Names carry TF's and Keras's uid counters (``while_cond_6697___redundant_placeholder0``,
    ``conv2d_1/545``), which differ from run to run: number them by first appearance. Tensor contents are left
    alone."""
    from google.protobuf import text_format
    numbers = {}

    def renumber(match):
        return numbers.setdefault(match.group(0), 'N%d' % len(numbers))
    # TF's uid counter inside function names (while_cond_6697___redundant_placeholder0), and Keras's in a
    # node name component of digits only (conv2d_1/545)
    counters = re.compile(r'(?<=_)\d{3,}(?=_)|(?<=/)\d{3,}(?=["/:^])')
    lines = [line if 'tensor_content' in line or 'string_val' in line else counters.sub(renumber, line)
             for line in text_format.MessageToString(graph_def).splitlines()]
    result = type(graph_def)()
    text_format.Parse('\n'.join(lines), result)
    return result


def _sort_nodes(nodes) -> None:
    ordered = sorted(nodes, key=lambda n: n.name)
    del nodes[:]
    nodes.extend(ordered)


def _all_nodes(graph_def):
    yield from graph_def.node
    for function in graph_def.library.function:
        yield from function.node_def


def _called_functions(node, functions):
    if node.op in functions:
        yield node.op
    for key in sorted(node.attr):
        value = node.attr[key]
        if value.HasField('func') and value.func.name in functions:
            yield value.func.name
        for func in value.list.func:
            if func.name in functions:
                yield func.name


def _rename_calls(node, names) -> None:
    node.op = names.get(node.op, node.op)
    for value in node.attr.values():
        if value.HasField('func'):
            value.func.name = names.get(value.func.name, value.func.name)
        for func in value.list.func:
            func.name = names.get(func.name, func.name)


def corpus() -> Iterator[Item]:
    """``(name, build)`` pairs; ``build()`` gives the source GraphDef bytes and the convert options."""
    from tests.ops.harness import all_cases, frozen_graph
    for name, case in sorted(all_cases().items()):
        if case.xfail:
            continue

        def build(case=case):
            data, _, _ = frozen_graph(case)
            return data, dict(case.options)
        yield 'op:' + name, build
    from tests.support.models import get_model
    for name in MODELS:
        yield 'model:' + name, lambda name=name: (get_model(name).graph_def, {})
    from tests.control_flow import lowered_models
    for name in sorted(lowered_models.ALL):
        for form in ('lowered', 'functional'):
            if form == 'functional' and name.startswith('v1_'):
                continue

            def build(name=name, form=form):
                if form == 'functional':
                    with lowered_models.functional():
                        model = lowered_models.ALL[name]()
                else:
                    model = lowered_models.ALL[name]()
                outputs = [o[:-2] if o.endswith(':0') else o for o in model.outputs]
                return model.graph_def, {'output': ','.join(outputs)}
            yield 'control_flow:{}-{}'.format(name, form), build


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def pin(build) -> Dict[str, str]:
    """The digests of one corpus item: its source graph and the IR ``mo`` writes for it."""
    from mo.pipeline.convert import convert_graph_def
    data, options = build()
    data = _canonical(data)
    with tempfile.TemporaryDirectory() as out:
        try:
            xml, bin_path = convert_graph_def(data, out, model_name='model', **options)
        except Exception as error:  # noqa: B902 - a conversion failure is pinned as what it says
            return {'source': _digest(data), 'error': type(error).__name__ + ': ' + str(error)[:200]}
        return {'source': _digest(data), 'xml': _digest(Path(xml).read_bytes()),
                'bin': _digest(Path(bin_path).read_bytes())}


def compute(keyword: str = None) -> Dict[str, Dict[str, str]]:
    """The pins of the corpus' items, or of those whose name contains ``keyword``."""
    return {name: pin(build) for name, build in corpus() if keyword is None or keyword in name}


def differences(pinned: Dict[str, Dict[str, str]], current: Dict[str, Dict[str, str]]) -> List[str]:
    """What differs, one line per item; items new since the pins are not differences."""
    lines = []
    for name, record in sorted(pinned.items()):
        now = current.get(name)
        if now is None:
            lines.append('{}: no longer in the corpus'.format(name))
        elif now['source'] != record['source']:
            lines.append('{}: its TensorFlow source graph changed (another TF version?); re-pin'.format(name))
        elif now != record:
            changed = [k for k in ('xml', 'bin', 'error') if now.get(k) != record.get(k)]
            lines.append('{}: {} changed{}'.format(name, '/'.join(changed),
                                                   ' ({})'.format(now['error']) if 'error' in now else ''))
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--write', action='store_true', help='rewrite ' + str(PIN_FILE))
    parser.add_argument('--check', action='store_true', help='compare with the pins; exit 1 on a difference')
    parser.add_argument('-k', dest='keyword', help='only the items whose name contains KEYWORD (--write then '
                                                   'replaces only their pins)')
    args = parser.parse_args(argv)
    if os.environ.get('PYTHONHASHSEED') != '0':
        import subprocess
        env = dict(os.environ, PYTHONHASHSEED='0')
        env.pop('MO_TEST_CACHE', None)  # cached models were built under other hash seeds
        return subprocess.run([sys.executable, '-m', 'tests.support.ir_pins']
                              + (argv if argv is not None else sys.argv[1:]), env=env,
                              cwd=str(PIN_FILE.parents[2])).returncode
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    os.environ.setdefault('TF_ENABLE_ONEDNN_OPTS', '0')
    current = compute(args.keyword)
    pinned = json.loads(PIN_FILE.read_text())
    if args.keyword is not None:
        others = {name: record for name, record in pinned.items() if args.keyword not in name}
        pinned = {name: record for name, record in pinned.items() if args.keyword in name}
        if args.write:
            current = dict(others, **current)  # the other items keep their pins
    if args.write:
        text = json.dumps(current, indent=1, sort_keys=True) + '\n'
        tmp = PIN_FILE.with_suffix('.tmp')
        tmp.write_text(text)
        os.replace(tmp, PIN_FILE)
        print('pinned {} IRs in {}'.format(len(current), PIN_FILE))
        return 0
    lines = differences(pinned, current)
    for line in lines:
        print(line)
    print('{} pinned, {} differ, {} not pinned yet'.format(len(pinned), len(lines), len(set(current) - set(pinned))))
    return 1 if lines and args.check else 0


if __name__ == '__main__':
    sys.exit(main())
