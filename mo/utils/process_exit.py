"""What the ``mo`` console script leaves for the operating system to free.

The console script ends with ``os._exit`` once its output is flushed (``mo.main.cli``). Anything
Python frees before that point is work whose only effect would be lost a moment later: a converted
graph of 10^5 nodes takes about a second to free, object by object or by a cyclic-GC pass, and
10^6 nodes ten. So the console script declares that the process is about to end
(``process_ends_after_command``), and a command hands the big objects it is done with to ``keep``.
Called from Python (``mo.convert_model``, ``mo.main.main``) nothing is kept: ``keep`` does nothing.
"""
_kept = None


def process_ends_after_command():
    """Note that the process exits with ``os._exit`` after the current command: ``keep`` holds objects
    from now on."""
    global _kept
    if _kept is None:
        _kept = []


def process_ends_after_command_is_set() -> bool:
    return _kept is not None


def keep(obj):
    """Hold ``obj`` until the process exits, if it exits right after this command (else nothing)."""
    if _kept is not None:
        _kept.append(obj)
