"""How ``mo`` scales with graph size: synthetic GraphDefs of 10k to 1M nodes, converted side by side.

Three shapes, built with mo's own GraphDef schema (no TensorFlow needed to build them):

- ``chain``: x -> AddV2(c_i) -> Tanh -> AddV2 -> Tanh ... (a long dependency chain; each AddV2 has
  its own small Const)
- ``fanout``: x feeds n/3 independent AddV2(c_i)/Tanh branches, summed by AddN in groups of 64
  and those sums by one AddN (a wide graph)
- ``residual``: blocks y = y + Tanh(Identity(y) * c_i) with Identities around every weight, as frozen
  Keras models read their weights (Identity erasure and folding at scale)

For each shape and size: ``mo convert`` in a fresh process (time, peak RSS, time per node, the five
slowest steps of ``--report``); the floor, in a fresh process too: a bare networkx MultiDiGraph (no attributes)
with as many nodes and edges as mo's middle phase holds for that graph (op and data nodes), built, whose time
and peak RSS mo's are printed as multiples of (issue 28: mo keeps networkx, so this is what any representation
on it costs); ``mo summarize`` and ``mo transform --transforms=strip_unused_nodes
fold_constants`` (time, RSS), and ``ovc`` on the sizes below ``--ovc_max_nodes`` with ``--timeout``.
The 10k graphs are checked numerically: the IR runs in the OpenVINO runtime and is compared with
TensorFlow running the same GraphDef (when both are installed), in a child process given ``--check_timeout``
seconds (OpenVINO's CPU plugin takes over ten minutes to compile the 10k chain, 6,700 layers deep).

    python tools/bench_scale.py                        # 10k and 100k, every shape
    python tools/bench_scale.py --sizes 10000,100000,1000000 --shapes chain
    python tools/bench_scale.py --sizes 1000000 --repeat 2 --no_ovc --no_gtt   # best of two, in turns
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WIDTH = 8  # elements of the one input: small tensors, so time goes to per-node cost


def _graph_builder():
    from mo.front.tf.proto import GraphDef
    graph_def = GraphDef()
    graph_def.versions.producer = 1000
    nodes = graph_def.node

    def add(name, op, inputs=(), **attrs):
        node = nodes.add()
        node.name, node.op = name, op
        node.input.extend(inputs)
        for key, value in attrs.items():
            if key == 'T' or key == 'dtype':
                node.attr[key].type = value
            elif key == 'N':
                node.attr[key].i = value
        return name
    return graph_def, add


DT_FLOAT = 1


def _const(add, graph_def, name, value: float):
    node_name = add(name, 'Const', dtype=DT_FLOAT)
    tensor = graph_def.node[-1].attr['value'].tensor
    tensor.dtype = DT_FLOAT
    tensor.float_val.append(value)
    return node_name


def _input(add, graph_def):
    add('x', 'Placeholder', dtype=DT_FLOAT)
    dim = graph_def.node[-1].attr['shape'].shape.dim.add()
    dim.size = WIDTH
    return 'x'


def chain(n: int):
    graph_def, add = _graph_builder()
    y = _input(add, graph_def)
    for i in range(max(1, n // 3)):
        c = _const(add, graph_def, 'c%d' % i, 1e-3 * (i % 7 - 3))
        y = add('add%d' % i, 'AddV2', [y, c], T=DT_FLOAT)
        y = add('tanh%d' % i, 'Tanh', [y], T=DT_FLOAT)
    add('out', 'Identity', [y], T=DT_FLOAT)
    return graph_def, 'out'


def fanout(n: int, group: int = 64):
    graph_def, add = _graph_builder()
    x = _input(add, graph_def)
    branches = [add('tanh%d' % i, 'Tanh', [add('add%d' % i, 'AddV2', [x, _const(add, graph_def, 'c%d' % i, 0.01 * (i % 5))],
                                                T=DT_FLOAT)], T=DT_FLOAT)
                for i in range(max(2, n // 3))]
    sums = [add('sum%d' % g, 'AddN', branches[g:g + group], T=DT_FLOAT, N=len(branches[g:g + group]))
            for g in range(0, len(branches), group)]
    add('out', 'AddN', sums, T=DT_FLOAT, N=len(sums)) if len(sums) > 1 else add('out', 'Identity', sums, T=DT_FLOAT)
    return graph_def, 'out'


def residual(n: int):
    graph_def, add = _graph_builder()
    y = _input(add, graph_def)
    for i in range(max(1, n // 6)):
        c = add('w%d/read' % i, 'Identity', [_const(add, graph_def, 'w%d' % i, 0.5 + 0.01 * (i % 3))], T=DT_FLOAT)
        ident = add('id%d' % i, 'Identity', [y], T=DT_FLOAT)
        mul = add('mul%d' % i, 'Mul', [ident, c], T=DT_FLOAT)
        y = add('res%d' % i, 'AddV2', [y, add('tanh%d' % i, 'Tanh', [mul], T=DT_FLOAT)], T=DT_FLOAT)
    add('out', 'Mul', [y, _const(add, graph_def, 'scale', 1e-3)], T=DT_FLOAT)
    return graph_def, 'out'


SHAPES = {'chain': chain, 'fanout': fanout, 'residual': residual}


def build(shape: str, n: int, work: Path) -> Path:
    path = work / '{}_{}.pb'.format(shape, n)
    if not path.exists():
        graph_def, _ = SHAPES[shape](n)
        path.write_bytes(graph_def.SerializeToString())
    return path


def middle_phase_size(report_path: Path, pb: Path):
    """(nodes, edges) of mo's middle phase for ``pb``: the nodes after PartialInfer (op and data nodes, from the
    report); the edges: one from each data node's producer plus one per consumer (the GraphDef's data inputs,
    plus the Result of each output)."""
    report = json.loads(report_path.read_text())
    step = next(s for s in report['steps'] if s.get('id') == 'PartialInfer')
    from mo.front.tf.proto import GraphDef
    graph_def = GraphDef()
    graph_def.ParseFromString(pb.read_bytes())
    inputs = sum(1 for node in graph_def.node for name in node.input if not name.startswith('^'))
    data_nodes = step['nodes_after'] - step['nodes_before']
    return step['nodes_after'], data_nodes + inputs + 1


_FLOOR = """
import sys, networkx as nx
nodes, edges = int(sys.argv[1]), int(sys.argv[2])
g = nx.MultiDiGraph()
g.add_nodes_from(range(nodes))
half = nodes // 2
g.add_edges_from((i, half + i) for i in range(half))  # each op to its output data node
g.add_edges_from((half + i % half, (i + 1) % half) for i in range(edges - half))  # data nodes to consumers
"""


def floor(nodes: int, edges: int, timeout: float):
    """(seconds, peak RSS in MiB, code) of the bare MultiDiGraph of ``nodes`` nodes and ``edges`` edges."""
    return measure([sys.executable, '-c', _FLOOR, str(nodes), str(edges)], timeout)


def measure(cmd, timeout: float):
    """(seconds, peak RSS in MiB, return code) of one child process."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')
    wrapper = [sys.executable, '-c', (
        'import resource, subprocess, sys, time\n'
        't = time.perf_counter()\n'
        'code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n'
        'dt = time.perf_counter() - t\n'
        'print(dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0, code)')] + list(cmd)
    try:
        out = subprocess.run(wrapper, capture_output=True, text=True, timeout=timeout, env=env).stdout.split()
    except subprocess.TimeoutExpired:
        return float('inf'), float('nan'), 'timeout'
    return float(out[0]), float(out[1]), int(out[2])


def _best(runs):
    """(least seconds, least peak MiB, 0) of successful ``measure`` results, or the first failure."""
    failed = [run for run in runs if run[2] != 0]
    if failed:
        return failed[0]
    return min(run[0] for run in runs), min(run[1] for run in runs), 0


def slowest_steps(report_path: Path, count: int = 5):
    try:
        report = json.loads(report_path.read_text())
    except (OSError, ValueError):
        return []
    steps = report.get('steps', report if isinstance(report, list) else [])
    steps = [s for s in steps if isinstance(s, dict) and 'seconds' in s]
    steps.sort(key=lambda s: -s['seconds'])
    return [(s.get('id') or s.get('class'), s['seconds']) for s in steps[:count]]


def verify(pb: Path, xml: Path, output: str, timeout: float) -> str:
    """``compare_with_tensorflow`` in a child process, given ``timeout`` seconds: OpenVINO's CPU plugin compiles a chain thousands of
    layers deep for many minutes (over ten on the 10k chain), which would stall the whole benchmark."""
    command = [sys.executable, str(Path(__file__).resolve()), '--check', str(pb), str(xml), output]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'not checked (TensorFlow and OpenVINO took over {:.0f} s; --check_timeout)'.format(timeout)
    lines = result.stdout.strip().splitlines()
    return lines[-1] if result.returncode == 0 and lines else 'check failed: {}'.format(
        (result.stderr.strip().splitlines() or ['exit %d' % result.returncode])[-1])


def compare_with_tensorflow(pb: Path, xml: Path, output: str) -> str:
    """max |OpenVINO - TensorFlow| on one random input, or why it was not checked."""
    try:
        import numpy as np
        import openvino as ov
        import tensorflow as tf
    except ImportError as exc:
        return 'not checked ({})'.format(exc.name)
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(pb.read_bytes())
    feed = np.random.default_rng(0).standard_normal(WIDTH).astype(np.float32)
    with tf.Graph().as_default() as graph:
        tf.compat.v1.import_graph_def(graph_def, name='')
        with tf.compat.v1.Session(graph=graph) as session:
            expected = session.run(output + ':0', {'x:0': feed})
    compiled = ov.Core().compile_model(str(xml), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})
    actual = compiled({compiled.inputs[0]: feed})[compiled.outputs[0]]
    error = float(np.max(np.abs(actual - expected)) / max(1.0, float(np.max(np.abs(expected)))))
    return 'max rel error {:.2g} vs TensorFlow'.format(error)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--sizes', default='10000,100000')
    parser.add_argument('--shapes', default=','.join(SHAPES))
    parser.add_argument('--work', default=os.path.join(tempfile.gettempdir(), 'mo_bench_scale'))
    parser.add_argument('--ovc_max_nodes', type=int, default=30000)
    parser.add_argument('--timeout', type=float, default=600)
    parser.add_argument('--no_ovc', action='store_true')
    parser.add_argument('--no_gtt', action='store_true', help='skip mo summarize / mo transform')
    parser.add_argument('--repeat', type=int, default=1,
                        help='runs of mo convert and of the floor, taken in turns: the least time and peak of each')
    parser.add_argument('--check_timeout', type=float, default=300,
                        help='seconds for the numeric check of a 10k graph against TensorFlow')
    parser.add_argument('--check', nargs=3, metavar=('PB', 'XML', 'OUTPUT'), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.check:  # the child process of verify()
        print(compare_with_tensorflow(Path(args.check[0]), Path(args.check[1]), args.check[2]))
        return
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    mo_cmd = [sys.executable, '-m', 'mo']
    ovc = None if args.no_ovc else _which('ovc')
    print('{:<9} {:>8} {:>16} {:>9} {:>10} {:>12} {:>12} {:>14}  {}'.format(
        'shape', 'nodes', 'tool', 'seconds', 'MiB', 'us/node', 'vs mo', '', 'slowest steps / check'))
    for shape in args.shapes.split(','):
        for size in (int(s) for s in args.sizes.split(',')):
            pb = build(shape, size, work)
            nodes, output = size, 'out'
            out_dir = work / 'ir_{}_{}'.format(shape, size)
            report = work / 'report_{}_{}.json'.format(shape, size)
            convert = mo_cmd + ['convert', '--input_model', str(pb), '--output_dir', str(out_dir),
                                '--report', str(report), '--model_name', 'model']
            seconds, rss, code = measure(convert, args.timeout)
            steps = ', '.join('{} {:.1f}s'.format(name, sec) for name, sec in slowest_steps(report))
            check = verify(pb, out_dir / 'model.xml', output, args.check_timeout) \
                if size <= 10000 and code == 0 else ''
            if code == 0:
                # mo and the floor take turns, so that a slow spell of the machine falls on both
                middle_nodes, middle_edges = middle_phase_size(report, pb)
                floor_runs = [floor(middle_nodes, middle_edges, args.timeout)]
                mo_runs = [(seconds, rss, code)]
                for _ in range(args.repeat - 1):
                    mo_runs.append(measure(convert, args.timeout))
                    floor_runs.append(floor(middle_nodes, middle_edges, args.timeout))
                seconds, rss, code = _best(mo_runs)
                s, r, c = _best(floor_runs)
            best = ' (best of {})'.format(args.repeat) if args.repeat > 1 else ''
            _row(shape, nodes, 'mo convert', seconds, rss, code, None,
                 steps + ('; ' + check if check else '') + best)
            base = seconds
            if code == 0:
                _row(shape, nodes, 'floor', s, r, c, None,
                     'bare MultiDiGraph, {} nodes, {} edges: mo takes {:.1f}x its time, {:.1f}x its memory{}'.format(
                         middle_nodes, middle_edges, seconds / s, rss / r, best))
            if not args.no_gtt:
                s, r, c = measure(mo_cmd + ['summarize', '--in_graph', str(pb)], args.timeout)
                _row(shape, nodes, 'mo summarize', s, r, c, None, '')
                s, r, c = measure(mo_cmd + ['transform', '--in_graph', str(pb), '--out_graph', str(work / 'gtt.pb'),
                                            '--inputs', 'x', '--outputs', output,
                                            '--transforms', 'strip_unused_nodes fold_constants'], args.timeout)
                _row(shape, nodes, 'mo transform', s, r, c, None, '')
            if ovc and size <= args.ovc_max_nodes:
                s, r, c = measure([ovc, str(pb), '--output_model', str(work / 'ovc_{}_{}.xml'.format(shape, size))],
                                  args.timeout)
                _row(shape, nodes, 'ovc', s, r, c, s / base if base else None, '')
        sys.stdout.flush()


def _row(shape, nodes, tool, seconds, rss, code, ratio, note):
    status = '' if code == 0 else ' (exit {})'.format(code)
    print('{:<9} {:>8} {:>16} {:>9.2f} {:>10.0f} {:>12.1f} {:>12} {:>14}  {}'.format(
        shape, nodes, tool, seconds, rss, seconds / nodes * 1e6,
        '{:.2f}x'.format(ratio) if ratio else '', status, note), flush=True)


def _which(name):
    from shutil import which
    return which(name)


if __name__ == '__main__':
    main()
