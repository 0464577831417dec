"""Run a batch of numpy ufunc calls on two cores: each call split in two halves, one per thread.

A conversion is single-threaded while its middle phase runs, and the few steps that compute big
constants there (folding a batch norm into hundreds of megabytes of convolution weights) spend most
of their time filling fresh memory, page by page. numpy releases the interpreter lock inside a ufunc's
loop, so two threads that each fill half of every output take about half the time.

Each output is split along its outermost axis in memory (the one with the largest stride), so the two
threads touch different pages. The halves are run in the batch's order on both threads, so a call
may read the output of an earlier call of the batch at the same positions (a chain of scalings of one
array): each thread then reads only what it wrote itself.
"""
import os
import threading

import numpy as np

#: below this many output bytes in a batch a second thread costs more than it saves
MIN_PARALLEL_BYTES = 8 << 20


class UfuncBatch:
    """``ufunc(*inputs, out=out)`` calls queued by ``add`` and run, in order, by ``run``.

    ``out`` is a fresh array that the caller may already hand around (a Const's value): its contents
    are defined once ``run`` returns. The inputs broadcast to ``out``'s shape and have its rank or less.
    """

    def __init__(self):
        self._calls = []

    def add(self, ufunc, inputs, out: np.ndarray):
        self._calls.append((ufunc, tuple(inputs), out))

    def run(self):
        calls, self._calls = self._calls, []
        nbytes = sum(out.nbytes for _, _, out in calls)
        if nbytes < MIN_PARALLEL_BYTES or (os.cpu_count() or 1) < 2 or not _same_halves_for_chained(calls):
            for ufunc, inputs, out in calls:
                ufunc(*inputs, out=out, casting='unsafe')
            return
        failures = []

        def second_halves():
            try:
                _run_halves(calls, first=False)
            except BaseException as exc:  # re-raised on the calling thread
                failures.append(exc)

        helper = threading.Thread(target=second_halves, name='mo-ufunc-half', daemon=True)
        helper.start()
        try:
            _run_halves(calls, first=True)
        finally:
            helper.join()
        if failures:
            raise failures[0]


def _split(out: np.ndarray):
    """(axis, index) that cuts ``out`` in two along its outermost axis in memory, or None (nothing to cut)."""
    axes = [axis for axis in range(out.ndim) if out.shape[axis] > 1]
    if not axes:
        return None
    axis = max(axes, key=lambda a: abs(out.strides[a]))
    return axis, out.shape[axis] // 2


def _same_halves_for_chained(calls) -> bool:
    """Whether every input that is an earlier call's output is cut where that output is (else a thread
    could read what the other one writes)."""
    splits = {}
    for _, inputs, out in calls:
        for value in inputs:
            if id(value) in splits and (value.shape != out.shape or splits[id(value)] != _split(out)):
                return False
        splits[id(out)] = _split(out)
    return True


def _half(value, axis: int, part: slice, rank: int):
    """``value``'s part along ``axis`` of an output of ``rank`` dimensions (broadcast inputs are kept whole)."""
    if not isinstance(value, np.ndarray) or value.ndim < rank - axis or value.shape[axis - rank] == 1:
        return value
    return value[(slice(None),) * (value.ndim - rank + axis) + (part,)]


def _run_halves(calls, first: bool):
    for ufunc, inputs, out in calls:
        split = _split(out)
        if split is None:
            if first:
                ufunc(*inputs, out=out, casting='unsafe')
            continue
        axis, middle = split
        part = slice(0, middle) if first else slice(middle, None)
        ufunc(*(_half(value, axis, part, out.ndim) for value in inputs),
              out=_half(out, axis, part, out.ndim), casting='unsafe')
