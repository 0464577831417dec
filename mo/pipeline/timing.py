"""``MO_TIMING=1``: where the time of one ``mo convert`` process goes, as one line on stderr.

The line is ``[ TIMING ] main_start=EPOCH imports=S load=S pipeline=S write=S``: the wall-clock time
(``time.time()``) at which ``mo.main.main`` started, so that a caller that noted when it started the
process can tell the interpreter's start-up and ``import mo.main`` from the rest, then the seconds of each
phase of the conversion, one after the other:

- ``imports``: from ``main()`` to the first step: the command line, the command's modules, the built-in
  steps of the model's framework and their order;
- ``load``: the load phase, up to ``LoadFinish``: reading and parsing the model, its load-phase folding and
  the extraction of mo ops;
- ``pipeline``: the front, middle and back phases;
- ``write``: writing the IR.

``tools/bench_convert.py`` prints these per model. Without the variable nothing is recorded.
"""
import os
import sys
import time

ENV = 'MO_TIMING'
#: the phases in the order they end, as ``mark`` names them
PHASES = ('imports', 'load', 'pipeline', 'write')

_marks = {}


def enabled() -> bool:
    return bool(os.environ.get(ENV))


def mark(name: str):
    """Note that phase ``name`` ended now (``'start'``: ``main()`` began); the first mark of a name counts, and
    phases are only marked in a command started by ``main()`` (not in calls of the Python API)."""
    if enabled() and name not in _marks and (name == 'start' or 'start' in _marks):
        _marks[name] = time.time()


def after_step_hook():
    """An ``apply_replacements`` hook that marks the end of the load phase, or None when timing is off."""
    if not enabled():
        return None

    def after_step(info, graph):
        if info.id == 'LoadFinish':
            mark('load')
    return after_step


def report():
    """Print the ``[ TIMING ]`` line, once, if timing is on and ``main()`` was marked."""
    if not enabled() or 'start' not in _marks:
        return
    parts = ['main_start={:.6f}'.format(_marks['start'])]
    previous = _marks['start']
    for phase in PHASES:
        if phase in _marks:
            parts.append('{}={:.6f}'.format(phase, _marks[phase] - previous))
            previous = _marks[phase]
    print('[ TIMING ] ' + ' '.join(parts), file=sys.stderr, flush=True)
    _marks.clear()
