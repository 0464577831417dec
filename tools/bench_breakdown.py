"""Where the wall time of a `mo convert` process goes, for tools/bench_convert.py.

Two sources, both fresh processes started the way the benchmark starts the tools:

- the floor: ``python -c pass`` (the interpreter with its site packages), ``python -c "import numpy"``,
  ``python -c "import mo.main"``, mo's start-up (numpy and every module a TensorFlow conversion imports
  before it reads the model) and ovc's (``openvino.tools.ovc.main``, what its console script imports),
  best of a few runs each. A tool's run can take no less than its start-up, so the table shows the room
  the target leaves mo after its start-up, and how the two tools compare on the time after start-up;
- the phases that ``mo`` itself reports with ``MO_TIMING=1`` (``mo.pipeline.timing``): the wall-clock
  time at which ``main()`` started, which the launcher's own start time turns into "to main()"
  (interpreter, site, ``import mo.main``), then ``imports`` (command modules, built-in steps and their
  order), ``load`` (reading and parsing the model, load-phase folding, extraction), ``pipeline`` (front,
  middle and back phases) and ``write`` (the IR); ``exit`` is what remains of the measured wall time.
"""
from __future__ import annotations

import sys
from typing import Callable, Dict, Optional, Sequence

TIMING_PREFIX = '[ TIMING ] '
PHASES = ('to_main', 'imports', 'load', 'pipeline', 'write', 'exit')
#: the targets on a fresh install (issue 41): mo's whole process at most this fraction of ovc's as a geometric
#: mean over the models, and at most TARGET_MAX_OF_OVC of it on any one model
TARGET_OF_OVC = 0.6
TARGET_MAX_OF_OVC = 0.75

FLOOR_COMMANDS = (
    ('interpreter', 'pass'), ('numpy', 'import numpy'), ('mo.main', 'import mo.main'),
    # as `mo` runs: the collector off from the start, and no interpreter tear-down at the end (mo.utils.process_exit)
    ('mo start-up', 'import gc; gc.disable(); import numpy; from mo.utils.import_extensions import load_builtin; '
                    "load_builtin(with_transforms=False, framework='tf'); import os; os._exit(0)"),
    ('ovc start-up', 'import openvino.tools.ovc.main'),
)


def parse_timing(output: str, start_epoch: float, seconds: float) -> Optional[Dict[str, float]]:
    """The phases of one run from its ``[ TIMING ]`` line, or None when it has none."""
    line = next((l for l in reversed(output.splitlines()) if l.startswith(TIMING_PREFIX)), None)
    if line is None or start_epoch != start_epoch:  # no line, or a launcher without a start time (NaN)
        return None
    values = dict(item.split('=', 1) for item in line[len(TIMING_PREFIX):].split())
    phases = {'to_main': float(values.pop('main_start')) - start_epoch}
    for name in PHASES[1:-1]:
        if name in values:
            phases[name] = float(values[name])
    phases['exit'] = seconds - sum(phases.values())
    return phases


def measure_floor(measure: Callable, env: Dict[str, str], repeat: int, timeout: float,
                  python: str = sys.executable) -> Dict[str, float]:
    """Best wall seconds of each ``FLOOR_COMMANDS`` process run by ``python`` (numpy and mo.main include the
    interpreter)."""
    floor = {}
    for name, code in FLOOR_COMMANDS:
        runs = [measure([python, '-c', code], timeout, env) for _ in range(repeat)]
        ok = [r.seconds for r in runs if r.returncode == 0]
        floor[name] = min(ok) if ok else float('nan')
    return floor


def floor_line(floor: Dict[str, float]) -> str:
    interpreter = floor.get('interpreter', float('nan'))
    nan = float('nan')
    return ('Floor (fresh processes, best of the runs): `python -c pass` %.3f s; `import numpy` +%.3f s; '
            '`import mo.main` +%.3f s (it imports no numpy); mo start-up (numpy and the modules of a TF '
            'conversion) %.3f s; ovc start-up (`import openvino.tools.ovc.main`) %.3f s.' % (
                interpreter, floor.get('numpy', nan) - interpreter, floor.get('mo.main', nan) - interpreter,
                floor.get('mo start-up', nan), floor.get('ovc start-up', nan)))


def breakdown_table(rows: Sequence, floor: Dict[str, float]) -> str:
    """Markdown: per model, mo's best run split into phases, next to ovc's best wall time and the target.

    ``rows`` are ``(rec, {tool: Result})`` as the benchmark keeps them; a Result's runs carry ``timing``.
    """
    head = ['model', 'mo wall s', 'ovc wall s', 'mo/ovc', 'target %.2fx ovc s' % TARGET_OF_OVC,
            'to main() s', 'imports s', 'load s', 'pipeline s', 'write s', 'exit s', 'interpreter+numpy share',
            'target - mo start-up s', 'mo/ovc after start-up']
    lines = [floor_line(floor), '', '| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    nan = float('nan')
    base, mo_start, ovc_start = floor.get('numpy', nan), floor.get('mo start-up', nan), floor.get('ovc start-up', nan)
    ratios = []
    for rec, res in rows:
        ours = res.get('mo')
        timed = [r for r in (ours.ok_runs if ours else []) if getattr(r, 'timing', None)]
        if not timed:
            continue
        best = min(timed, key=lambda r: r.seconds)
        ovc = res.get('ovc')
        ovc_s = ovc.seconds if ovc is not None and ovc.ok_runs else float('nan')
        cells = [rec.name, '%.2f' % best.seconds, '%.2f' % ovc_s, '%.2f' % (best.seconds / ovc_s),
                 '%.2f' % (TARGET_OF_OVC * ovc_s)]
        cells += ['%.3f' % best.timing[p] if p in best.timing else '–' for p in PHASES]
        cells.append('%.0f%%' % (100.0 * base / best.seconds))
        cells.append('%.3f' % (TARGET_OF_OVC * ovc_s - mo_start))  # below zero: out of reach of any mo run
        cells.append('%.2f' % ((best.seconds - mo_start) / (ovc_s - ovc_start)))
        lines.append('| ' + ' | '.join(cells) + ' |')
        ratios.append(best.seconds / ovc_s)
    if ratios:
        import math
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        lines += ['', 'mo/ovc wall time: geometric mean %.2f (target <= %.2f: %s), largest %.2f (target <= %.2f: %s)' % (
            geomean, TARGET_OF_OVC, 'met' if geomean <= TARGET_OF_OVC else 'missed', max(ratios), TARGET_MAX_OF_OVC,
            'met' if max(ratios) <= TARGET_MAX_OF_OVC else 'missed')]
    return '\n'.join(lines)
