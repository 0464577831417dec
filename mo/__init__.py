"""mo: models of TensorFlow, ONNX and the other frameworks of ``mo.front.frameworks`` to OpenVINO IR, and TensorFlow's Graph
Transform Tool, in pure Python."""

from mo.version import __version__  # noqa: F401 - the package's version, as ``mo.__version__``
from mo.compat import install as _install_legacy_paths

# the Model Optimizer's module paths (``mo.front.sub``, ``mo.ops.roialign``...) resolve through the compat wing
_install_legacy_paths()

#: the Python API (``mo.api``), imported on first use so that ``import mo`` stays cheap
_API = ('convert_model', 'save_model', 'transform_graph', 'summarize_graph', 'ConversionResult', 'TensorInfo')


def __getattr__(name):
    if name in _API:
        from mo import api
        return getattr(api, name)
    if name == 'Error':
        from mo.utils.error import Error
        return Error
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))


def __dir__():
    return sorted(list(globals()) + list(_API) + ['Error'])
