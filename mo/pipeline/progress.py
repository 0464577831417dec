"""The progress of a long conversion: which phase and step it is at, once it has run for a few seconds.

On a terminal it is one line on stderr, rewritten in place; with ``--stream_output`` one line per step; where
stderr is not a terminal (a log), one plain line per phase, and only with ``--progress``. ``--silent`` shows
none of it. Short conversions show nothing: the line appears once ``delay`` seconds have passed, counted from
the start of the ``mo`` command (``mark_start``), and it is drawn by a timer too, so a step that runs long
(reading a big SavedModel, writing the IR) shows what it is doing, with the detail it gives (``detail``).
"""
import os
import sys
import threading
import time

#: seconds a conversion runs before its progress shows (the environment variable overrides the default)
DELAY_ENV = 'MO_PROGRESS_DELAY'
DEFAULT_DELAY = 1.5
#: seconds between redraws of the line while a step runs
_TICK = 0.5

_started = None   # perf_counter() at the start of the command, taken by the next Progress
_detail = ''      # what the running step says it is doing


def mark_start():
    """The command starts now: the next ``Progress`` counts its delay from here (imports count too)."""
    global _started
    _started = time.perf_counter()


def detail(text: str = ''):
    """Say what the running step is doing (``'reading variables 12/1037'``); shown from the next redraw
    of the progress line until the step ends. Costs one assignment: callable per item of a long loop."""
    global _detail
    _detail = text


class Progress:
    """An ``apply_replacements`` step hook that reports progress over ``total`` steps."""

    def __init__(self, total: int, force: bool = False, stream: bool = False, silent: bool = False,
                 delay: float = None, out=None, steps=None):
        global _started
        self.out = out or sys.stderr
        self.total = max(total, 1)
        self.done = 0
        self.delay = float(os.environ.get(DELAY_ENV, DEFAULT_DELAY)) if delay is None else delay
        # (a mark older than a minute was not this conversion's command: an earlier one in the same process)
        fresh = _started is not None and time.perf_counter() - _started < 60
        self.start = _started if fresh else time.perf_counter()
        _started = None
        detail('')
        terminal = bool(getattr(self.out, 'isatty', lambda: False)())
        #: 'line' (rewritten in place), 'steps' (a line each), 'phases' (a line per phase) or None
        self.mode = None if silent else ('steps' if stream and (terminal or force) else
                                         'line' if terminal else 'phases' if force else None)
        self.phase = None
        self.drawn = 0.0
        self.line_open = False
        #: the steps in order (``total`` of them, when given): the timer names the one running
        self.steps = list(steps or ())
        self.first_phase = self.steps[0].cls.phase if self.steps else 'load'
        self.writing = None   # the message() shown, once the steps are done
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._timer = None
        if self.mode is not None:
            self._timer = threading.Thread(target=self._tick, name='mo-progress', daemon=True)
            self._timer.start()

    def _tick(self):
        """Redraw while a step runs (the hook draws only between steps)."""
        wait = max(self.delay - (time.perf_counter() - self.start), 0.0)
        while not self._stop.wait(wait):
            wait = _TICK
            with self._lock:
                if not self._stop.is_set():
                    self._redraw()

    def _redraw(self):
        now = time.perf_counter()
        elapsed = now - self.start
        if elapsed < self.delay:
            return
        if self.writing is not None:
            text = '[ mo ] {} ({:.1f} s)'.format(self.writing, elapsed)
        else:
            running = self.steps[self.done] if self.done < len(self.steps) else None
            label = '{} phase: {}'.format(running.cls.phase, running.id) if running else '{} phase'.format(
                self.phase or self.first_phase)
            text = '[ mo ] {:3d}% {} ({}/{} steps, {:.1f} s)'.format(
                100 * self.done // self.total, label + (', ' + _detail if _detail else ''), self.done, self.total,
                elapsed)
        if self.mode == 'line':
            if now - self.drawn >= _TICK:
                self.out.write('\r' + text.ljust(100)[:100])
                self.out.flush()
                self.drawn, self.line_open = now, True
        elif (self.mode == 'phases' and self.phase is None and self.writing is None) or \
                (self.mode == 'steps' and now - self.drawn >= 4 * _TICK):
            # a log: the first phase's line once it has run long, or a line per step that runs long
            self.out.write(text + '\n')
            self.out.flush()
            self.drawn = now
            self.phase = self.phase or self.first_phase

    def __call__(self, info, graph):
        with self._lock:
            self._step_done(info)

    def _step_done(self, info):
        self.done += 1
        detail('')
        if self.mode is None:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        if elapsed < self.delay:
            self.phase = info.cls.phase
            return
        phase = info.cls.phase
        text = '[ mo ] {:3d}% {} phase: {} ({}/{} steps, {:.1f} s)'.format(
            100 * self.done // self.total, phase, info.id, self.done, self.total, elapsed)
        if self.mode == 'line':
            if now - self.drawn >= 0.1 or self.done == self.total:
                self.out.write('\r' + text.ljust(100)[:100])
                self.out.flush()
                self.drawn, self.line_open = now, True
        elif self.mode == 'steps' or phase != self.phase:
            self.out.write(text + '\n')
            self.out.flush()
            self.drawn = now
        self.phase = phase

    def message(self, text: str):
        """Show what happens after the steps (writing the IR), where progress is shown at all."""
        with self._lock:
            self._message(text)

    def _message(self, text: str):
        self.writing = text
        elapsed = time.perf_counter() - self.start
        if self.mode is None or elapsed < self.delay:
            return
        line = '[ mo ] {} ({:.1f} s)'.format(text, elapsed)
        if self.mode == 'line':
            self.out.write('\r' + line.ljust(100)[:100])
            self.line_open = True
        else:
            self.out.write(line + '\n')
        self.out.flush()
        self.drawn = time.perf_counter()

    def finish(self):
        """Stop the timer and end the rewritten line, if one was drawn (the summary that follows starts on a
        line of its own)."""
        self._stop.set()
        if self._timer is not None:
            self._timer.join()
        detail('')
        if self.line_open:
            self.out.write('\n')
            self.out.flush()
            self.line_open = False
