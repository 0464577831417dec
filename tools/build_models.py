#!/usr/bin/env python
"""Build the test models of tests/support/models.py and write them out as NAME.pb + NAME.json.

    python tools/build_models.py --out DIR [--models a,b,...]
    python tools/build_models.py --list

NAME.json records the placeholder names, shapes and dtypes, the output node names and shapes,
the node count, the .pb size and sha256, and the build time.  Needs TensorFlow (the ``test``
extra).  Prints one line per model (wall and CPU seconds) and a total.  The output directory
can serve as $MO_TEST_CACHE: each json carries the cache key of tests/support/models.py.
"""
import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')


def parse_args(argv):
    from tests.support.models import MODEL_NAMES
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--out', help='directory to write NAME.pb and NAME.json into')
    p.add_argument('--models', default=','.join(MODEL_NAMES),
                   help='comma-separated model names (default: all)')
    p.add_argument('--list', action='store_true', help='print the model names and exit')
    args = p.parse_args(argv)
    if not args.list and not args.out:
        p.error('--out is required')
    names = [m.strip() for m in args.models.split(',') if m.strip()]
    unknown = [m for m in names if m not in MODEL_NAMES]
    if unknown:
        p.error('unknown model(s): %s; known: %s' % (', '.join(unknown), ', '.join(MODEL_NAMES)))
    args.names = names
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from tests.support import models
    if args.list:
        for name in models.MODEL_NAMES:
            print(name)
        return 0
    out = Path(args.out)
    start = time.perf_counter()
    models._keras()  # import TensorFlow/Keras once, outside the per-model times
    imported = time.perf_counter() - start
    print('%-24s %8s %8s %7s %10s  %s' % ('model', 'wall s', 'cpu s', 'nodes', 'pb bytes', 'outputs'))
    total = total_cpu = 0.0
    for name in args.names:
        cpu = time.process_time()
        rec = models.build_model(name)
        cpu = time.process_time() - cpu
        rec.save(out, extra={'cache_key': models.cache_key()})  # usable as $MO_TEST_CACHE
        total += rec.build_seconds
        total_cpu += cpu
        print('%-24s %8.2f %8.2f %7d %10d  %s' % (name, rec.build_seconds, cpu, rec.node_count,
                                                  rec.size, ','.join(rec.outputs)), flush=True)
    print('built %d model(s) in %.1f s wall, %.1f s cpu (+ %.1f s importing TensorFlow) into %s'
          % (len(args.names), total, total_cpu, imported, out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
