"""Long fuzzing run of the mo CLI: mutated GraphDefs, transform strings and JSON configs.

    python tools/fuzz.py --seconds 600 [--seed 1] [--keep DIR]

Each case runs the CLI in-process and must end with exit 0 and whole outputs, or exit 1/2 with
an ``[ ERROR ]`` line, no traceback and no partial file (the rule the test suite checks with a
small fixed budget). Failing inputs are saved under --keep for reproduction. Prints how many
cases ran, by kind and outcome.
"""
import argparse
import collections
import os
import random
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

from tests.robustness.fuzzing import BYTE_MUTATIONS, check_outcome, mutate_graph_def, mutate_text, run_cli  # noqa
from tests.robustness.test_fuzz_cli import CONFIG, EXAMPLE, TRANSFORMS, tiny_graph_def  # noqa

import logging  # noqa: E402


def case_bytes(rng, work):
    data = rng.choice(BYTE_MUTATIONS)(tiny_graph_def().SerializeToString(), rng)
    model = os.path.join(work, 'model.pb')
    open(model, 'wb').write(data)
    out = os.path.join(work, 'ir')
    return ['convert', '--input_model', model, '--output_dir', out], [os.path.join(out, 'model.xml')], [model]


def case_graph(rng, work):
    gd = tiny_graph_def()
    for _ in range(rng.randrange(1, 4)):
        gd = mutate_graph_def(gd, rng)
    model = os.path.join(work, 'model.pb')
    open(model, 'wb').write(gd.SerializeToString())
    out = os.path.join(work, 'ir')
    return ['convert', '--input_model', model, '--output_dir', out], [os.path.join(out, 'model.xml')], [model]


def case_example_bytes(rng, work):
    data = rng.choice(BYTE_MUTATIONS)(open(EXAMPLE, 'rb').read(), rng)
    model = os.path.join(work, 'in.pb')
    open(model, 'wb').write(data)
    out = os.path.join(work, 'out.pb')
    command = rng.choice(['transform', 'summarize', 'convert'])
    if command == 'transform':
        return (['transform', '--in_graph', model, '--out_graph', out, '--outputs', 'Identity', '--transforms',
                 'strip_unused_nodes fold_constants fold_batch_norms'], [out], [model])
    if command == 'summarize':
        return ['summarize', '--in_graph', model], [], [model]
    return ['convert', '--input_model', model, '--output_dir', os.path.join(work, 'ir')], \
        [os.path.join(work, 'ir', 'in.xml')], [model]


def case_transforms(rng, work):
    text = TRANSFORMS
    for _ in range(rng.randrange(1, 6)):
        text = mutate_text(text, rng)
    out = os.path.join(work, 'out.pb')
    return (['transform', '--in_graph', EXAMPLE, '--out_graph', out, '--inputs', 'input', '--outputs', 'Identity',
             '--transforms', text], [out], [])


def case_config(rng, work):
    text = CONFIG
    for _ in range(rng.randrange(1, 6)):
        text = mutate_text(text, rng)
    config = os.path.join(work, 'cfg.json')
    open(config, 'w').write(text)
    model = os.path.join(work, 'tiny.pb')
    open(model, 'wb').write(tiny_graph_def().SerializeToString())
    out = os.path.join(work, 'ir')
    return (['convert', '--input_model', model, '--output_dir', out, '--transformations_config', config],
            [os.path.join(out, 'tiny.xml')], [config, model])


CASES = (case_bytes, case_graph, case_example_bytes, case_transforms, case_config)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seconds', type=float, default=300)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--keep', default=os.path.join(tempfile.gettempdir(), 'mo-fuzz-failures'))
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    rng = random.Random(args.seed)
    counts = collections.Counter()
    failures = 0
    deadline = time.time() + args.seconds
    while time.time() < deadline:
        case = rng.choice(CASES)
        work = tempfile.mkdtemp(prefix='mo-fuzz-')
        try:
            cli, outputs, inputs = case(rng, work)
            code, _, err = run_cli(cli)
            try:
                check_outcome(code, err, outputs if code else [], case.__name__)
                counts[(case.__name__, 'ok' if code == 0 else 'exit {}'.format(code))] += 1
            except AssertionError as exc:
                failures += 1
                keep = os.path.join(args.keep, 'case{}'.format(failures))
                os.makedirs(keep, exist_ok=True)
                for path in inputs:
                    shutil.copy(path, keep)
                open(os.path.join(keep, 'report.txt'), 'w').write('{}\n{}\n'.format(' '.join(cli), exc))
                counts[(case.__name__, 'CRASH')] += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    total = sum(counts.values())
    print('{} cases in {:.0f}s, {} failures'.format(total, args.seconds, failures))
    for (kind, outcome), n in sorted(counts.items()):
        print('  {:<22} {:<8} {}'.format(kind, outcome, n))
    if failures:
        print('failing inputs kept in {}'.format(args.keep))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
