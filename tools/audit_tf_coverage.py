"""Audit of mo's TensorFlow coverage for issue 26's closing note, as a Markdown report.

(a) TF ops that OpenVINO's converter (``ovc``, its TensorFlow front end) converts and ``mo`` does not,
    grouped as strings, hash tables and others. Two sources, both shown:

    * ovc's documented table: the YES rows of ``src/frontends/tensorflow/docs/supported_ops.md`` of
      openvinotoolkit/openvino, kept beside this script in ``ovc_tf_supported_ops.tsv`` (it cannot be
      fetched at run time; the file's header names the commit it was read from);
    * the installed ``openvino`` package, asked directly: every op of TF's registry (``tf.raw_ops``) that
      mo has no extractor for is put alone in a GraphDef (Placeholder inputs of a type the op accepts)
      and given to the TF front end. "No conversion rule found for operations: <op>" means ovc has no
      translator; any other answer (converted, or the translator refused the synthetic graph) means it
      has one. Runs in a child process, so a crash in the front end costs one op, not the audit.

    "mo does not convert" is the built-in extractor registry (``FrontExtractorOp.registry['tf']``, as
    tools/op_coverage.py reads it); each op ovc converts and mo lacks is also given to ``mo`` in the same
    one-op graph, to tell an op mo names as unconvertible from one a transform removes or handles
    without an extractor.

(b) Per TF op mo has an extractor for: the dtypes TF registers a CPU kernel for
    (``kernels.get_registered_kernels_for_op``, per type attribute the kernels constrain, such as ``T``)
    that no case of the differential harness (tests/ops) exercises. What a case exercises is read from
    its frozen GraphDef -- the graph mo converts -- node by node (function library included): the value
    of each type attribute of each node of that op type. Tracing ~2600 cases takes about two minutes;
    the traces are cached (``--cache``), keyed by the contents of the case's module and of harness.py.

    python tools/audit_tf_coverage.py                      # report to stdout and /tmp/tf_audit.md
    python tools/audit_tf_coverage.py --cache FILE --out FILE --no-probe
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
OVC_TABLE = os.path.join(HERE, 'ovc_tf_supported_ops.tsv')

HASH_TABLE = re.compile(r'HashTable|LookupTable|InitializeTable')
STRINGISH = re.compile(r'String|Regex|Unicode|Substr|AsString|ReduceJoin|Base64|Ragged')

QUANTIZED = {'qint8', 'quint8', 'qint16', 'quint16', 'qint32'}
HANDLES = {'resource', 'variant'}


# --------------------------------------------------------------------------------------------
# the op lists
# --------------------------------------------------------------------------------------------

def mo_tf_ops() -> set:
    """TF op types with a built-in mo extractor."""
    sys.path.insert(0, ROOT)
    from mo.front.extractor import FrontExtractorOp
    from mo.utils.class_registration import is_builtin
    from mo.utils.import_extensions import load_builtin
    load_builtin(with_transforms=False)
    return {op for op, cls in FrontExtractorOp.registry.get('tf', {}).items() if is_builtin(cls)}


def ovc_table(path: str = OVC_TABLE) -> dict:
    """op -> limitation ('' if none), for the YES rows of ovc's table; plus the provenance lines."""
    rows, notes = {}, []
    with open(path, encoding='utf-8') as f:
        for line in f.read().splitlines()[1:]:
            if line.startswith('#'):
                notes.append(line[1:].strip())
                continue
            parts = line.split('\t')
            if len(parts) >= 2 and parts[1].strip() == 'YES':
                rows[parts[0].strip()] = parts[2].strip() if len(parts) > 2 else ''
    return rows, notes


def tf_registry_ops() -> list:
    """Every op of TF's public registry, ``tf.raw_ops`` (the C++ registry adds only test and TPU/DTensor ops)."""
    import tensorflow as tf
    return sorted(n for n in dir(tf.raw_ops) if not n.startswith('_'))


# --------------------------------------------------------------------------------------------
# one-op graphs and the probes
# --------------------------------------------------------------------------------------------

def one_op_graph(op: str, shape=None) -> bytes:
    """A GraphDef of Placeholders feeding one ``op`` node (each type attr: float32 if allowed, else its first
    allowed type; list and number attrs: one element). ``shape``: the Placeholders' shape attr."""
    from tensorflow.core.framework import graph_pb2, node_def_pb2, types_pb2
    from tensorflow.python.framework import op_def_registry
    op_def = op_def_registry.get(op)
    if op_def is None:
        raise KeyError(op)
    types = {}
    for attr in op_def.attr:
        if attr.type == 'type':
            allowed = list(attr.allowed_values.list.type)
            types[attr.name] = types_pb2.DT_FLOAT if not allowed or types_pb2.DT_FLOAT in allowed else allowed[0]
    graph = graph_pb2.GraphDef()
    node = node_def_pb2.NodeDef(name='op', op=op)
    count = 0
    for arg in op_def.input_arg:
        if arg.type_list_attr:
            dtypes = [types_pb2.DT_FLOAT]
            node.attr[arg.type_list_attr].list.type.extend(dtypes)
        else:
            dtypes = [arg.type or types[arg.type_attr]]
            if arg.number_attr:
                node.attr[arg.number_attr].i = 1
        for dtype in dtypes:
            placeholder = graph.node.add(name='x%d' % count, op='Placeholder')
            placeholder.attr['dtype'].type = dtype
            if shape is not None and dtype not in (types_pb2.DT_RESOURCE, types_pb2.DT_VARIANT):
                placeholder.attr['shape'].shape.SetInParent()
                for size in shape:
                    placeholder.attr['shape'].shape.dim.add(size=size)
            node.input.append(placeholder.name)
            count += 1
    for name, dtype in types.items():
        node.attr[name].type = dtype
    for arg in op_def.output_arg:
        if arg.type_list_attr and arg.type_list_attr not in node.attr:
            node.attr[arg.type_list_attr].list.type.append(types_pb2.DT_FLOAT)
        if arg.number_attr and arg.number_attr not in node.attr:
            node.attr[arg.number_attr].i = 1
    graph.node.append(node)
    return graph.SerializeToString()


def _ovc_child() -> None:
    """``--probe-ovc-child``: read op names from stdin, print ``op<TAB>verdict<TAB>detail`` per op."""
    from openvino.frontend import FrontEndManager
    front_end = FrontEndManager().load_by_framework('tf')
    directory = tempfile.mkdtemp(prefix='audit_tf_')
    path = os.path.join(directory, 'g.pb')
    for line in sys.stdin:
        op = line.strip()
        if not op:
            continue
        print('start\t' + op, flush=True)
        try:
            data = one_op_graph(op)
        except Exception as e:  # noqa: BLE001
            print('%s\tnot-probed\t%s' % (op, _oneline(e)), flush=True)
            continue
        with open(path, 'wb') as f:
            f.write(data)
        try:
            front_end.convert(front_end.load(path))
            verdict, detail = 'converts', ''
        except Exception as e:  # noqa: BLE001
            text = str(e)
            missing = re.search(r'No conversion rule found for operations:([^\n]*)', text)
            if missing and op in [s.strip() for s in missing.group(1).split(',')]:
                verdict, detail = 'no-rule', ''
            else:
                failed = re.search(r'-- %s with a message:\s*(.*)' % re.escape(op), text)
                verdict, detail = 'translator', _oneline(failed.group(1) if failed else text)
        print('%s\t%s\t%s' % (op, verdict, detail), flush=True)


def _oneline(text, limit=160) -> str:
    text = ' '.join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + '...'


def probe_ovc(ops: list) -> dict:
    """op -> (verdict, detail): 'converts', 'translator' (has one, refused the synthetic graph), 'no-rule',
    'not-probed', 'crashed'. A child process runs the probes; after a crash it restarts past the op."""
    results = {}
    todo = list(ops)
    while todo:
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--probe-ovc-child'],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True, cwd=ROOT)
        out, _ = child.communicate('\n'.join(todo) + '\n')
        current = None
        for line in out.splitlines():
            parts = line.split('\t')
            if parts[0] == 'start':
                current = parts[1]
            elif len(parts) == 3:
                results[parts[0]] = (parts[1], parts[2])
                current = None
        if current is not None:  # died on this op
            results[current] = ('crashed', 'the front end process died (exit %s)' % child.returncode)
        todo = [op for op in todo if op not in results]
        if current is None and todo:  # died before starting anything
            for op in todo:
                results[op] = ('not-probed', 'probe process failed (exit %s)' % child.returncode)
            todo = []
    return results


def probe_mo(ops: list) -> dict:
    """op -> (verdict, detail): 'refuses' (mo names the op as one it cannot convert) or 'handled' (mo
    converted the one-op graph or stopped at something else: the op was removed or taken by a transform)."""
    import logging
    logging.disable(logging.CRITICAL)
    sys.path.insert(0, ROOT)
    from mo.pipeline.convert import convert_graph_def
    results = {}
    for op in ops:
        try:
            data = one_op_graph(op, shape=(2,))
        except Exception as e:  # noqa: BLE001
            results[op] = ('not-probed', _oneline(e))
            continue
        with tempfile.TemporaryDirectory() as directory:
            try:
                convert_graph_def(data, directory, model_name='probe')
                results[op] = ('handled', 'converted')
            except BaseException as e:  # noqa: BLE001 -- mo raises SystemExit-like errors too
                text = _oneline(e)
                if 'cannot convert' in text and op in text:
                    results[op] = ('refuses', text)
                else:
                    results[op] = ('handled', text)
    logging.disable(logging.NOTSET)
    return results


# --------------------------------------------------------------------------------------------
# the harness's dtypes
# --------------------------------------------------------------------------------------------

def _file_digest(path: str, memo: dict) -> str:
    if path not in memo:
        try:
            with open(path, 'rb') as f:
                memo[path] = hashlib.sha1(f.read()).hexdigest()[:16]
        except OSError:
            memo[path] = 'unreadable'
    return memo[path]


def _case_key(case, memo) -> str:
    files = {os.path.join(ROOT, 'tests', 'ops', 'harness.py')}
    for fn in (case.fn, case.reference, case.edit_graph_def):
        code = getattr(fn, '__code__', None)
        if code is not None:
            files.add(code.co_filename)
    return '|'.join(_file_digest(f, memo) for f in sorted(files))


def _type_attrs(node) -> dict:
    """attr name -> sorted dtype names, for the node's type and list(type) attrs."""
    import tensorflow as tf
    out = {}
    for name, value in node.attr.items():
        kind = value.WhichOneof('value')
        if kind == 'type':
            out[name] = [tf.as_dtype(value.type).name]
        elif kind == 'list' and value.list.type:
            out[name] = sorted({tf.as_dtype(t).name for t in value.list.type})
    return out


def trace_cases(cache_path: str, log=print) -> dict:
    """case name -> {'xfail': str|None, 'ops': {op: {attr: [dtypes]}}, 'error': str|None}."""
    sys.path.insert(0, ROOT)
    import tensorflow as tf
    from tests.ops import harness
    cases = harness.all_cases()
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path, encoding='utf-8') as f:
            cache = json.load(f)
    memo, result, traced = {}, {}, 0
    start = time.time()
    for name in sorted(cases):
        case = cases[name]
        key = _case_key(case, memo)
        entry = cache.get(name)
        if entry is None or entry.get('key') != key:
            ops, error = defaultdict(lambda: defaultdict(set)), None
            try:
                data, _, _ = harness.frozen_graph(case)
                graph_def = tf.compat.v1.GraphDef()
                graph_def.ParseFromString(data)
                nodes = list(graph_def.node)
                for function in graph_def.library.function:
                    nodes.extend(function.node_def)
                for node in nodes:
                    attrs = ops[node.op]
                    for attr, dtypes in _type_attrs(node).items():
                        attrs[attr].update(dtypes)
            except Exception as e:  # noqa: BLE001
                error = _oneline(e)
            harness._GRAPHS.pop(name, None)
            entry = {'key': key, 'error': error,
                     'ops': {op: {a: sorted(d) for a, d in attrs.items()} for op, attrs in ops.items()}}
            cache[name] = entry
            traced += 1
            if traced % 250 == 0:
                log('  traced %d cases (%.0f s)' % (traced, time.time() - start))
        result[name] = dict(entry, xfail=case.xfail)
    if cache_path and traced:
        stale = set(cache) - set(cases)
        for name in stale:
            del cache[name]
        with open(cache_path, 'w', encoding='utf-8') as f:
            json.dump(cache, f)
    log('  %d cases, %d traced now, %d from the cache (%.0f s)' % (len(cases), traced, len(cases) - traced,
                                                                   time.time() - start))
    return result


def registered_cpu_types(op: str) -> dict:
    """attr -> set of dtype names over TF's CPU kernels for ``op`` (None: a kernel leaves it unconstrained);
    {} when the op has no CPU kernel. Labelled kernels (chosen only on request) are left out."""
    import tensorflow as tf
    from tensorflow.python.framework import kernels, op_def_registry
    op_def = op_def_registry.get(op)
    type_attrs = [a.name for a in op_def.attr if a.type in ('type', 'list(type)')] if op_def else []
    cpu = [k for k in kernels.get_registered_kernels_for_op(op).kernel if k.device_type == 'CPU' and not k.label]
    if not cpu:
        return None
    out = {}
    for attr in type_attrs:
        values = set()
        for kernel in cpu:
            constraint = [c for c in kernel.constraint if c.name == attr]
            if not constraint:
                values = None
                break
            values.update(tf.as_dtype(t).name for t in constraint[0].allowed_values.list.type)
        out[attr] = values
    return out


#: why a registered dtype has no case, by kind of dtype (the legend of the report's section (b))
REASONS = {
    'gap': 'no case in the grid (a harness gap: the type is an ordinary OpenVINO element type)',
    'tf_fails': 'TF registers a CPU kernel for the type but cannot run it (the case modules say so where they leave '
                'it out): Where of float16 ("No WhereOp available for float16/half type on CPU"), SplitV with int8 '
                'size_splits (its shape function aborts the process)',
    'op_def': 'TF registers a CPU kernel for the type, but the op\'s definition refuses it: no graph can hold such a '
              'node, so neither a case nor a user\'s model can run it',
    'bf16': 'no bfloat16 case (the harness feeds ml_dtypes.bfloat16 arrays: tests/ops/cases_dtype_bf16.py; TopK v1 '
            'is left out there, as TF no longer builds it)',
    'f8': 'no case: float8 type (TF registers it for data-movement kernels only)',
    'string': 'string tensors: mo converts no string ops (strings are outside the issue\'s scope)',
    'quantized': 'TF quantized type (qint*/quint*): no OpenVINO element type; only Quantize*/Dequantize make them',
    'handle': 'resource/variant handle: not tensor data',
}


def _op_def_allows(op: str, attr: str, dtype: str) -> bool:
    """Whether ``op``'s definition lets type attribute ``attr`` be ``dtype``."""
    import tensorflow as tf
    from tensorflow.python.framework import op_def_registry
    for attr_def in op_def_registry.get(op).attr:
        if attr_def.name == attr and attr_def.allowed_values.list.type:
            return tf.as_dtype(dtype).as_datatype_enum in attr_def.allowed_values.list.type
    return True


#: (op, attr, dtype) whose registered kernel TensorFlow itself cannot run
TF_FAILS = {('Where', 'T', 'float16'), ('SplitV', 'Tlen', 'int8')}


def _reason(dtype: str, op: str = None, attr: str = None) -> str:
    if (op, attr, dtype) in TF_FAILS:
        return 'tf_fails'
    if op is not None and not _op_def_allows(op, attr, dtype):
        return 'op_def'
    if dtype == 'string':
        return 'string'
    if dtype in QUANTIZED:
        return 'quantized'
    if dtype in HANDLES:
        return 'handle'
    if dtype == 'bfloat16':
        return 'bf16'
    if dtype.startswith('float8') or dtype in ('int4', 'uint4', 'int2', 'uint2'):
        return 'f8'
    return 'gap'


# --------------------------------------------------------------------------------------------
# the report
# --------------------------------------------------------------------------------------------

CONTROL_FLOW = {'Enter', 'Exit', 'LoopCond', 'Merge', 'NextIteration', 'Switch', 'RefEnter', 'RefExit', 'RefMerge',
                'RefNextIteration', 'RefSwitch'}
CHECKPOINT = re.compile(r'Save|Restore|Checkpoint|ShardedFilename')


def _group(op: str, op_def, limitation: str) -> str:
    """strings / hash tables / others-state (variables, checkpoints, iterators, raw control flow, function
    calls: graph plumbing mo resolves while loading or freezing, not with an extractor) / others-compute."""
    from tensorflow.core.framework import types_pb2
    if HASH_TABLE.search(op):
        return 'hash tables'
    args = list(op_def.input_arg) + list(op_def.output_arg) if op_def is not None else []
    if (op in CONTROL_FLOW or CHECKPOINT.search(op) or any(a.is_ref or a.type == types_pb2.DT_RESOURCE for a in args)
            or (op_def is not None and any(a.type == 'func' for a in op_def.attr))):
        return 'others: state and graph plumbing'
    if any(a.type == types_pb2.DT_STRING for a in args) or STRINGISH.search(op) or 'tokenizers' in limitation:
        return 'strings'
    return 'others: compute'


GROUPS = ('strings', 'hash tables', 'others: state and graph plumbing', 'others: compute')


def section_a(mo_ops, table, table_notes, ovc_probe, mo_probe) -> list:
    from tensorflow.python.framework import op_def_registry
    lines = ['## (a) TF ops ovc converts and mo does not', '']
    lines.append('ovc\'s table: ' + ' '.join(table_notes))
    lines.append('')
    lines.append('Installed openvino: `%s` (probed: %d TF ops without an mo extractor; %d convert, %d have a '
                 'translator that refused the synthetic one-op graph, %d have none, %d crashed, %d not probed).' % (
                     _ov_version(), len(ovc_probe),
                     sum(v[0] == 'converts' for v in ovc_probe.values()),
                     sum(v[0] == 'translator' for v in ovc_probe.values()),
                     sum(v[0] == 'no-rule' for v in ovc_probe.values()),
                     sum(v[0] == 'crashed' for v in ovc_probe.values()),
                     sum(v[0] == 'not-probed' for v in ovc_probe.values())))
    lines.append('')
    candidates = sorted((set(table) | {op for op, v in ovc_probe.items() if v[0] in ('converts', 'translator')})
                        - mo_ops)
    groups = defaultdict(list)
    for op in candidates:
        groups[_group(op, op_def_registry.get(op), table.get(op, ''))].append(op)
    lines.append('%d ops: %s.' % (len(candidates), ', '.join('%d %s' % (len(groups[g]), g) for g in GROUPS)))
    lines.append('')
    lines.append('Columns: in ovc\'s table (YES, with its limitation); what the installed ovc does with the op alone '
                 'in a GraphDef; what mo does with that graph (`refuses`: mo names the op as one it cannot '
                 'convert; `handled`: mo removed or replaced it without an extractor, its message shown).')
    for group in GROUPS:
        lines += ['', '### %s (%d)' % (group, len(groups[group])), '']
        if group == 'others: state and graph plumbing':
            lines += ['Not ops a model computes with: mo resolves them while loading (mo/front/tf/saved_model.py freezes '
                      'variables from the SavedModel/checkpoint, ReadVariableOp -> Identity, ResourceGather -> GatherV2), '
                      'raises lowered control flow (Switch/Merge/Enter/Exit/NextIteration/LoopCond) to If/Loop and inlines '
                      'function calls; a bare one-op GraphDef does not take that path, hence `refuses` for some.', '']
        if not groups[group]:
            lines.append('none')
            continue
        lines += ['| TF op | ovc table | installed ovc | mo |', '|---|---|---|---|']
        for op in groups[group]:
            in_table = ('YES' + (' (%s)' % table[op] if table[op] else '')) if op in table else 'not YES'
            verdict, detail = ovc_probe.get(op, ('not-probed', ''))
            ovc_text = verdict + (': ' + _oneline(detail, 90) if detail and verdict != 'converts' else '')
            mo_verdict, mo_detail = mo_probe.get(op, ('not-probed', ''))
            mo_text = mo_verdict if mo_verdict == 'refuses' else '%s: %s' % (mo_verdict, _oneline(mo_detail, 90))
            lines.append('| `%s` | %s | %s | %s |' % (op, in_table, ovc_text.replace('|', '\\|'),
                                                      mo_text.replace('|', '\\|')))
    only_table = sorted(op for op in set(table) - mo_ops if ovc_probe.get(op, ('',))[0] == 'no-rule')
    if only_table:
        lines += ['', 'In ovc\'s table but the installed ovc has no rule for them (the table\'s YES needs an '
                  'extension such as openvino-tokenizers, or the release differs): ' +
                  ', '.join('`%s`' % o for o in only_table) + '.']
    return lines


def _ov_version() -> str:
    try:
        import openvino
        return openvino.__version__
    except Exception:  # noqa: BLE001
        return 'not installed'


def section_b(mo_ops, traces) -> list:
    from tensorflow.python.framework import op_def_registry
    exercised = defaultdict(lambda: defaultdict(set))      # op -> attr -> dtypes (passing cases)
    xfail_only = defaultdict(lambda: defaultdict(dict))    # op -> attr -> dtype -> xfail reason
    present = set()                                        # ops in any case's graph
    errors = []
    for name, entry in traces.items():
        if entry.get('error'):
            errors.append((name, entry['error']))
            continue
        for op, attrs in entry['ops'].items():
            present.add(op)
            for attr, dtypes in attrs.items():
                for dtype in dtypes:
                    if entry.get('xfail'):
                        xfail_only[op][attr].setdefault(dtype, entry['xfail'])
                    else:
                        exercised[op][attr].add(dtype)
    rows, full, no_kernel, unconstrained, no_case = [], [], [], [], []
    reason_count = defaultdict(int)
    for op in sorted(mo_ops, key=str.lower):
        op_def = op_def_registry.get(op)
        if op_def is None:
            no_kernel.append('%s (not a registered TF op)' % op)
            continue
        registered = registered_cpu_types(op)
        if registered is None:
            no_kernel.append(op)
            continue
        if op not in present:
            no_case.append(op)
        misses, constrained = [], False
        for attr, values in sorted(registered.items()):
            if values is None:
                unconstrained.append('%s.%s' % (op, attr))
                continue
            constrained = True
            seen = exercised[op].get(attr, set())
            for dtype in sorted(values - seen):
                if dtype in xfail_only[op].get(attr, {}):
                    reason = 'only in xfail cases: ' + _oneline(xfail_only[op][attr][dtype], 80)
                else:
                    reason = _reason(dtype, op, attr)
                misses.append((attr, dtype, reason))
                reason_count[reason] += 1
        if misses:
            rows.append((op, registered, exercised[op], misses))
        elif constrained:
            full.append(op)
    lines = ['## (b) Registered CPU dtypes the harness grid misses', '',
             'Per type attribute TF\'s CPU kernels constrain (`T`, `Tidx`, `out_type`, ...): the registered dtypes that no '
             'harness case\'s frozen graph gives that attribute on a node of that op type (the graph mo converts, '
             'function bodies included). Harness: %d cases (%d xfail), %d could not be traced.' % (
                 len(traces), sum(bool(t.get('xfail')) for t in traces.values()), len(errors)), '']
    data_rows = [(op, reg, ex, [m for m in misses if not _is_non_data(m[1])]) for op, reg, ex, misses in rows]
    data_rows = [r for r in data_rows if r[3]]
    f32_only = [op for op, reg, ex, misses in data_rows
                if any(set(ex.get(a, ())) <= {'float32'} and len(v or ()) > 1 for a, v in reg.items() if v)]
    lines.append('%d mo ops: %d cover every registered CPU dtype, %d miss only non-data types (string, quantized, '
                 'handles), %d miss data types (for %d of them the cases give a multi-type attr float32 alone); '
                 '%d have no CPU kernel; %d have only unconstrained or no type attributes; %d occur in no case.' % (
                     len(mo_ops), len(full), len(rows) - len(data_rows), len(data_rows), len(f32_only),
                     len(no_kernel), len(mo_ops) - len(full) - len(rows) - len(no_kernel), len(no_case)))
    lines += ['', 'Reasons (counts are op/attr/dtype triples):', '']
    for key, text in REASONS.items():
        lines.append('- `%s` (%d): %s' % (key, reason_count.get(key, 0), text))
    if any(r.startswith('only in xfail') for r in reason_count):
        lines.append('- `xfail`: exercised only by cases marked xfail (their reason shown)')
    lines += ['', '### Ops missing data types (numeric, bool, complex) -- %d ops' % len(data_rows), '',
              '| TF op | attr | registered (CPU) | cases exercise | missing: gap | missing: other |',
              '|---|---|---|---|---|---|']
    for op, registered, seen, misses in data_rows:
        by_attr = defaultdict(list)
        for attr, dtype, reason in misses:
            by_attr[attr].append((dtype, reason))
        for attr, items in sorted(by_attr.items()):
            gap = [d for d, r in items if r == 'gap']
            other = ['%s (%s)' % (d, r if not r.startswith('only in xfail') else 'xfail: ' + r[len('only in xfail cases: '):])
                     for d, r in items if r != 'gap']
            lines.append('| `%s` | %s | %d | %s | %s | %s |' % (
                op, attr, len(registered[attr]), ', '.join(sorted(seen.get(attr, ()))) or '-',
                ', '.join(gap) or '-', ', '.join(other) or '-'))
    other = [(op, [m for m in misses if _is_non_data(m[1])]) for op, _, _, misses in rows]
    other = [(op, m) for op, m in other if m]
    lines += ['', '### Non-data types missing (string, quantized, resource/variant) -- %d ops' % len(other), '']
    by_kind = defaultdict(list)
    for op, misses in other:
        kinds = sorted({m[1] for m in misses})
        by_kind[', '.join(kinds)].append(op)
    for kinds, ops in sorted(by_kind.items()):
        lines.append('- %s: %s' % (kinds, ', '.join('`%s`' % o for o in ops)))
    lines += ['', 'Covering every registered CPU dtype: ' + ', '.join('`%s`' % o for o in full) + '.']
    lines += ['', '### Not compared', '',
              '- no kernel registered for device CPU (graph-level ops): ' + (', '.join(no_kernel) or 'none'),
              '- a CPU kernel accepts any type for the attribute (nothing to enumerate): ' +
              (', '.join(unconstrained) or 'none'),
              '- mo ops that occur in no case\'s graph: ' + (', '.join(no_case) or 'none')]
    if errors:
        lines += ['- cases that could not be traced: ' + '; '.join('%s: %s' % e for e in errors[:20])]
    return lines


def _is_non_data(dtype: str) -> bool:
    return dtype == 'string' or dtype in QUANTIZED or dtype in HANDLES


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--out', default='/tmp/tf_audit.md', help='where to write the report (default %(default)s)')
    parser.add_argument('--cache', default=os.path.join(tempfile.gettempdir(), 'tf_audit_traces.json'),
                        help='trace cache (default %(default)s; "" for none)')
    parser.add_argument('--no-probe', action='store_true', help='skip the ovc and mo probes (table only)')
    parser.add_argument('--probe-ovc-child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe_ovc_child:
        _ovc_child()
        return 0
    start = time.time()

    def log(message):
        print(message, file=sys.stderr, flush=True)

    import tensorflow as tf
    log('mo extractors...')
    mo_ops = mo_tf_ops()
    table, notes = ovc_table()
    ovc_probe, mo_probe = {}, {}
    if not args.no_probe:
        to_probe = sorted((set(tf_registry_ops()) | set(table)) - mo_ops)
        log('probing the installed ovc with %d one-op graphs...' % len(to_probe))
        ovc_probe = probe_ovc(to_probe)
        candidates = sorted((set(table) | {op for op, v in ovc_probe.items() if v[0] in ('converts', 'translator')})
                            - mo_ops)
        log('probing mo with the %d ops ovc converts and mo has no extractor for...' % len(candidates))
        mo_probe = probe_mo(candidates)
    log('tracing the harness cases...')
    traces = trace_cases(args.cache, log)
    lines = ['# TensorFlow coverage audit (issue 26)', '',
             'Generated by `python tools/audit_tf_coverage.py` (TensorFlow %s, mo extractors: %d TF op types).' % (
                 tf.__version__, len(mo_ops)), '']
    lines += section_a(mo_ops, table, notes, ovc_probe, mo_probe)
    lines += ['']
    lines += section_b(mo_ops, traces)
    report = '\n'.join(lines) + '\n'
    print(report)
    if args.out:
        with open(args.out, 'w', encoding='utf-8') as f:
            f.write(report)
    log('done in %.0f s; report in %s' % (time.time() - start, args.out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
