"""The errors mo reports to its users.

``Error`` is what a replacer, loader or writer raises for a problem in the user's input: the CLI
turns it into one ``[ ERROR ]`` line and exit code 1, with no traceback unless
``--log_level=DEBUG``. Anything else escaping to the CLI is a bug in mo and is reported as such.
"""


class Error(Exception):
    """A problem with the user's model, config or command line, described for the user.

    ``Error('Node {} has no input {}', name, port)`` formats its message like ``str.format``,
    so callers need not format eagerly.
    """

    def __init__(self, message='', *args, hint: str = None):
        text = message.format(*args) if args else str(message)
        super().__init__(text)
        self.hint = hint


class UsageError(Error):
    """Bad command-line usage: the CLI exits with code 2 instead of 1."""


class FrameworkError(Error):
    """A failure inside the framework itself (not the user's fault); the CLI still reports it cleanly."""


def classify_error_type(exc) -> str:
    """The part of an exception's message that names a missing module or name (``No module named 'x'``,
    ``cannot import name 'y'``), else ``'undefined'``: how the Model Optimizer grouped start-up failures."""
    import re
    message = str(exc)
    for pattern in (r"No module named '\S+'", r"cannot import name '\S+'"):
        found = re.search(pattern, message)
        if found:
            return found.group(0)
    return 'undefined'
