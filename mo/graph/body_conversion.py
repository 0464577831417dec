"""Converting the body of a Loop or If: the readers ask for it, the pipeline driver does it.

A reader that meets a body (a TensorFlow function, an ONNX graph attribute) builds its graph and calls
``convert_body``; the conversion of the model installs the converter (``converting_bodies``) for as long as it
runs. So no reader imports the driver, and the driver knows no reader.
"""
import contextlib
import contextvars

from mo.utils.error import Error

_CONVERTER = contextvars.ContextVar('body_converter', default=None)


@contextlib.contextmanager
def converting_bodies(converter):
    """Within this block, ``convert_body(key, make_graph)`` is ``converter(key, make_graph)``."""
    token = _CONVERTER.set(converter)
    try:
        yield
    finally:
        _CONVERTER.reset(token)


def convert_body(key, make_graph):
    """The back-phase graph of the body that ``make_graph()`` loads (an empty graph whose options say what to load,
    or one a reader has loaded already), converted by every step but those with ``run_not_recursively``. ``key``
    names the body and its inputs: within one model's conversion the same key gives the same graph (treat it as
    read-only)."""
    converter = _CONVERTER.get()
    if converter is None:
        raise Error('A loop or conditional body can only be converted during a model\'s conversion')
    return converter(key, make_graph)
