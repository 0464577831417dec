"""What ``mo.convert_model`` returns: the IR files with the model's inputs and outputs, and, when the
``openvino`` package is importable, an ``openvino.Model`` as well.

Why a subclass of ``openvino.Model`` rather than a path-like object: ``openvino.compile_model``,
``Core.compile_model`` and ``openvino.save_model`` accept a model object or a ``str``/``bytes``/
``pathlib.Path``, nothing path-like of another class (``os.PathLike`` is not asked for), and
``save_model`` accepts only a model. An ``openvino.Model`` keeps its native model in its
``_Model__model`` attribute and every one of those functions reads it from there, so the subclass
supplies it as a property that reads the IR on first use (a conversion whose result is only saved
never loads the runtime's model).
"""
import dataclasses
import os
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import List, Optional, Tuple

from mo.pipeline.model_io import TensorInfo
from mo.utils.error import Error
from mo.utils.file_utils import create_temporary, replace_file


@dataclasses.dataclass(repr=False, eq=False)
class ConversionResult:
    """What ``convert_model`` made: the IR files, the model's inputs and outputs, and how it went.

    ``inputs``/``outputs`` are ``TensorInfo``s (``name``, ``names``, ``shape`` with -1 for a dynamic
    dimension, numpy ``dtype``). Without ``output_dir`` the files live in a temporary directory that goes
    away with this object: keep them with ``save_model`` (or ``to_openvino``).

    With ``openvino`` importable the result is also an ``openvino.Model`` (``isinstance(result,
    openvino.Model)``): ``openvino.compile_model(result)``, ``Core().compile_model(result, 'CPU')``,
    ``openvino.save_model(result, path)``, ``result.reshape(...)``, ``PrePostProcessor(result)`` and the
    model's methods (``input()``, ``get_parameters()``, ...) work on it as on the model ovc returns.
    ``inputs``/``outputs`` stay mo's ``TensorInfo``s and answer the port's methods too
    (``get_any_name()``, ``get_partial_shape()``, ``get_element_type()``, ...)."""
    xml_path: Path
    bin_path: Path
    inputs: List[TensorInfo]
    outputs: List[TensorInfo]
    seconds: float
    source_nodes: int
    ir_layers: int
    _scratch: Optional[tempfile.TemporaryDirectory] = None

    def __repr__(self):
        return '<ConversionResult {}: inputs [{}] outputs [{}]>'.format(
            self.xml_path, '; '.join(str(i) for i in self.inputs), '; '.join(str(o) for o in self.outputs))

    def to_openvino(self):
        """A new ``openvino.Model`` read from the IR files; needs the ``openvino`` package."""
        return _read_model(self.xml_path, self.bin_path)

    def save(self, path) -> Tuple[Path, Path]:
        """``mo.save_model(self, path)``."""
        xml = Path(path)
        return copy_ir(self.xml_path, self.bin_path, xml if xml.suffix == '.xml' else xml.with_suffix('.xml'))


def copy_ir(xml_path, bin_path, xml: Path) -> Tuple[Path, Path]:
    """Copy the IR files to ``xml`` and the ``.bin`` beside it, each written whole or not at all (the ``.bin``
    first, as the writer does); returns the two paths."""
    xml.parent.mkdir(parents=True, exist_ok=True)
    targets = [(bin_path, xml.with_suffix('.bin')), (xml_path, xml)]  # .bin first, as the writer
    for source, target in targets:
        if Path(source).resolve() == target.resolve():
            continue
        tmp_path, fd = create_temporary(str(target))
        try:
            with os.fdopen(fd, 'wb') as out, open(source, 'rb') as src:
                shutil.copyfileobj(src, out)
            replace_file(tmp_path, str(target))
        except BaseException:
            try:
                os.unlink(tmp_path)
            except OSError:
                pass
            raise
    return xml, xml.with_suffix('.bin')


def _read_model(xml_path, bin_path):
    try:
        import openvino
    except ImportError as exc:
        raise Error('to_openvino() needs the openvino package (pip install openvino)') from exc
    if not Path(xml_path).exists():
        raise Error('{} is gone: the temporary directory of a conversion lives as long as its result; keep the IR '
                    'with mo.save_model(result, path) first', xml_path)
    return openvino.Core().read_model(str(xml_path), str(bin_path))


_OPENVINO_CLASS = []


def _openvino_result_class():
    """``ConversionResult`` that is also an ``openvino.Model``, or None without ``openvino``. Made once, on
    first use, so that ``import mo`` does not import the runtime."""
    if _OPENVINO_CLASS:
        return _OPENVINO_CLASS[0]
    try:
        import openvino
    except ImportError:
        _OPENVINO_CLASS.append(None)
        return None

    _UNREAD = object()

    class OpenVINOConversionResult(ConversionResult, openvino.Model):
        # openvino.Model.__init__ is not called: the native model comes from the IR, on first use
        _native = _UNREAD

        @property
        def _Model__model(self):
            # what openvino.compile_model, Core.compile_model, save_model and Model's own methods read
            if self._native is _UNREAD:
                self._native = _read_model(self.xml_path, self.bin_path)._Model__model
            return self._native

        @_Model__model.setter
        def _Model__model(self, value):  # Model.__exit__ sets None: the model is no longer usable
            self._native = value

        @_Model__model.deleter
        def _Model__model(self):
            self._native = None

        def __dir__(self):  # openvino.Model's lists only the runtime model's attributes
            return sorted(set(openvino.Model.__dir__(self)) | set(object.__dir__(self)))

        def __getattr__(self, name):
            if name.startswith('__') or name in ('_native',):
                raise AttributeError(name)
            return openvino.Model.__getattr__(self, name)

    OpenVINOConversionResult.__name__ = OpenVINOConversionResult.__qualname__ = 'ConversionResult'
    _OPENVINO_CLASS.append(OpenVINOConversionResult)
    return OpenVINOConversionResult


@dataclasses.dataclass(frozen=True, eq=False)
class PortInfo(TensorInfo):
    """A ``TensorInfo`` of an ``openvino.Model`` result that also answers the methods of the runtime's port
    (``get_any_name()``, ``get_partial_shape()``, ``partial_shape``, ``get_element_type()``, ...). Where the
    runtime wants the port object itself (a key of ``reshape`` or ``infer``), use a name or ``.port``."""
    _result: Optional[weakref.ref] = dataclasses.field(default=None, repr=False, compare=False)
    _index: int = dataclasses.field(default=0, repr=False)
    _is_input: bool = dataclasses.field(default=True, repr=False)

    @property
    def port(self):
        """The runtime's port (``openvino.Output``) of this input or output."""
        result = self._result() if self._result is not None else None
        if result is None:
            raise Error('the result of this conversion is gone; keep it while using its ports')
        return result.input(self._index) if self._is_input else result.output(self._index)

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        return getattr(self.port, name)

    def __eq__(self, other):
        if isinstance(other, TensorInfo):
            return (self.names, self.shape, self.dtype) == (other.names, other.shape, other.dtype)
        return NotImplemented

    __hash__ = TensorInfo.__hash__


def make_result(xml_path, bin_path, inputs, outputs, seconds, source_nodes, ir_layers, scratch) -> ConversionResult:
    """The result of a conversion: an ``openvino.Model`` too when the runtime is importable."""
    cls = _openvino_result_class()
    if cls is None:
        return ConversionResult(Path(xml_path), Path(bin_path), inputs, outputs, seconds, source_nodes, ir_layers,
                                scratch)
    result = cls(Path(xml_path), Path(bin_path), [], [], seconds, source_nodes, ir_layers, scratch)
    ref = weakref.ref(result)
    result.inputs = [PortInfo(i.names, i.shape, i.dtype, ref, n, True) for n, i in enumerate(inputs)]
    result.outputs = [PortInfo(o.names, o.shape, o.dtype, ref, n, False) for n, o in enumerate(outputs)]
    return result
