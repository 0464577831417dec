"""Have the operating system read the model file while Python imports mo.

Starting ``mo convert`` spends a tenth of a second importing numpy and mo's modules, with one core busy. ``start``
asks the kernel to read the model file into the page cache meanwhile (``posix_fadvise(WILLNEED)``: asynchronous
readahead, no thread, no memory of the process's own), so that the reader that maps or reads it later finds it in
memory when it was not already. Readers map big files (``mo.front.tf.graphdef_io``, ``mo.front.onnx.loader``): a copy
of the file held by this module would only add the model's size to the peak memory of the conversion.
"""
import os


def start(path: str):
    """Begin reading the regular file at ``path`` into the page cache (no-op where that cannot be asked for)."""
    if not hasattr(os, 'posix_fadvise'):
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except (OSError, ValueError, TypeError):
        return
    try:
        if os.path.isfile(path):
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
    except OSError:
        pass
    finally:
        os.close(fd)


#: the option that names the model file, by command
_MODEL_OPTIONS = {'convert': '--input_model', 'transform': '--in_graph', 'summarize': '--in_graph'}


def model_path_in(argv) -> str:
    """The model file a ``convert`` (``--input_model``), ``transform`` or ``summarize`` (``--in_graph``)
    command line names (exact option spelling only), or None."""
    if not argv:
        return None
    option = _MODEL_OPTIONS.get(argv[0], '--input_model' if argv[0].startswith('--input_model') else None)
    if option is None:
        return None
    for i, arg in enumerate(argv):
        if arg == option and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(option + '='):
            return arg[len(option) + 1:]
    return None
