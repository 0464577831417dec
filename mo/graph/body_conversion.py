"""Converting the body of a Loop or If: the readers ask for it, the pipeline driver does it.

A reader that meets a body (a TensorFlow function, an ONNX graph attribute) builds its graph and calls
``convert_body``; the conversion of the model installs the converter (``converting_bodies``) for as long as it
runs. So no reader imports the driver, and the driver knows no reader.
"""
import contextlib
import contextvars

from mo.graph.graph import Graph
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


def convert_body(key, make_graph, where: str = None):
    """The back-phase graph of the body that ``make_graph()`` loads (an empty graph whose options say what to load,
    or one a reader has loaded already), converted by every step but those with ``run_not_recursively``. ``key``
    names the body and its inputs: within one model's conversion the same key gives the same graph (treat it as
    read-only). ``where`` (what the body is, "The body of Loop "x"") comes before the message of an Error."""
    converter = _CONVERTER.get()
    if converter is None:
        raise Error('A loop or conditional body can only be converted during a model\'s conversion')
    if where is None:
        return converter(key, make_graph)
    try:
        return converter(key, make_graph)
    except Error as exc:
        raise Error('{}: {}', where, exc) from exc


def body_graph(framework: str):
    """An empty graph to load a body of a ``framework`` model into (in NCHW, as the ONNX, Paddle and MXNet readers
    make their graphs), which ``convert_body`` converts as a sub-graph."""
    return Graph(cmd_params={'framework': framework, 'sub_graph': True}, source_format=framework, layout='NCHW')
