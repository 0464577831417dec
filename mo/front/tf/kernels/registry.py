"""The kernel registry, the errors kernels raise, and the helpers every kernel family shares.

A kernel is a plain function ``fn(ctx, *inputs)`` registered with :func:`kernel` under one or more
TensorFlow op type names. ``ctx`` (a :class:`Context`) gives it the op type and the node's decoded
attributes; ``inputs`` are numpy arrays. It returns one array or a list of arrays (one per TF output).

Everything in this package follows TensorFlow's CPU kernels: output dtypes, integer division and
rounding rules, broadcasting, and which inputs are rejected.
"""
import numpy as np

from mo.front.tf import dtypes
from mo.utils.error import Error


class UnsupportedOp(Error):
    """There is no numpy kernel for this TensorFlow op type (the caller should leave the node alone)."""

    def __init__(self, op_type: str):
        super().__init__('No kernel to evaluate TensorFlow op "{}"', op_type)
        self.op_type = op_type


class KernelError(Error):
    """The inputs or attributes are invalid for the op, exactly where TensorFlow would refuse them too."""

    def __init__(self, op_type: str, message: str):
        super().__init__('{}: {}', op_type, message)
        self.op_type = op_type
        self.reason = message


class KernelSpec:
    """What the registry knows about one kernel function."""

    __slots__ = ('fn', 'op_types', 'inputs', 'bf16_attrs', 'bf16_out_attrs')

    def __init__(self, fn, op_types, inputs, bf16_attrs, bf16_out_attrs):
        self.fn = fn
        self.op_types = op_types
        self.inputs = inputs
        self.bf16_attrs = bf16_attrs
        self.bf16_out_attrs = bf16_out_attrs


_KERNELS = {}

#: marker for "the attribute has no default: the node must carry it"
REQUIRED = object()


def kernel(*op_types, inputs=None, bf16=('T',), bf16_out=None):
    """Register the decorated function as the kernel of every op type in ``op_types``.

    ``inputs`` is the number of inputs the op takes: an int, a ``(min, max)`` pair (``max`` None for
    no limit), or None to not check. ``bf16`` names the type attributes that, when DT_BFLOAT16, make
    :func:`evaluate` hand the kernel float32 values instead of the uint16 bit patterns bfloat16
    tensors are stored as, and turn its float32 results back into bfloat16 bits (TensorFlow computes
    bfloat16 math in float32 and rounds each op's result too). Pass ``bf16=()`` for kernels that only
    move data around and so work on the bit patterns directly. ``bf16_out`` (default: ``bf16``)
    names the attributes that decide the re-encoding of the outputs, when they differ.
    """
    if isinstance(inputs, int):
        inputs = (inputs, inputs)

    def register(fn):
        spec = KernelSpec(fn, op_types, inputs, tuple(bf16), tuple(bf16 if bf16_out is None else bf16_out))
        for op_type in op_types:
            if op_type in _KERNELS:
                raise RuntimeError('two kernels registered for TensorFlow op {}'.format(op_type))
            _KERNELS[op_type] = spec
        return fn

    return register


def lookup(op_type: str) -> KernelSpec:
    """The kernel of ``op_type``; raises :class:`UnsupportedOp` if there is none."""
    spec = _KERNELS.get(op_type)
    if spec is None:
        raise UnsupportedOp(op_type)
    return spec


def registered_ops():
    """Every op type that has a kernel, sorted."""
    return sorted(_KERNELS)


class Context:
    """The op type and attributes of the node being evaluated, with typed attribute accessors."""

    __slots__ = ('op', 'attrs')

    def __init__(self, op: str, attrs: dict):
        self.op = op
        self.attrs = attrs

    def error(self, message: str, *args) -> KernelError:
        """A :class:`KernelError` for this op; ``raise ctx.error('bad {}', x)``."""
        return KernelError(self.op, message.format(*args) if args else message)

    def attr(self, name: str, default=REQUIRED):
        value = self.attrs.get(name, default)
        if value is REQUIRED:
            raise self.error('missing required attribute "{}"', name)
        return value

    def int_attr(self, name: str, default=REQUIRED) -> int:
        value = self.attr(name, default)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise self.error('attribute "{}" must be an int, got {!r}', name, value)
        return int(value)

    def bool_attr(self, name: str, default=REQUIRED) -> bool:
        value = self.attr(name, default)
        if not isinstance(value, (bool, np.bool_, int, np.integer)):
            raise self.error('attribute "{}" must be a bool, got {!r}', name, value)
        return bool(value)

    def float_attr(self, name: str, default=REQUIRED) -> float:
        value = self.attr(name, default)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise self.error('attribute "{}" must be a float, got {!r}', name, value)
        return float(value)

    def str_attr(self, name: str, default=REQUIRED) -> str:
        """A string attribute (GraphDef stores them as bytes) as ``str``."""
        value = self.attr(name, default)
        if isinstance(value, (bytes, bytearray)):
            return bytes(value).decode('utf-8', 'replace')
        if isinstance(value, str):
            return value
        raise self.error('attribute "{}" must be a string, got {!r}', name, value)

    def ints_attr(self, name: str, default=REQUIRED) -> list:
        value = self.attr(name, default)
        try:
            return [int(v) for v in value]
        except (TypeError, ValueError):
            raise self.error('attribute "{}" must be a list of ints, got {!r}', name, value) from None

    def dtype_attr(self, name: str, default=REQUIRED) -> np.dtype:
        """A ``type`` attribute (a TF DataType number) as the numpy dtype that stores it."""
        value = self.attr(name, default)
        if isinstance(value, np.dtype):
            return value
        try:
            return dtypes.np_dtype(int(value))
        except (TypeError, ValueError):
            raise self.error('attribute "{}" is not a known TensorFlow dtype: {!r}', name, value) from None


# ---------------------------------------------------------------------------------------------
# helpers shared by the kernel families

def shape_str(shape) -> str:
    """A shape the way TensorFlow prints it in its messages: ``[2,3]``."""
    return '[' + ','.join(str(d) for d in shape) + ']'


def is_float(dtype) -> bool:
    return np.dtype(dtype).kind == 'f'


def is_int(dtype) -> bool:
    return np.dtype(dtype).kind in 'iu'


def is_complex(dtype) -> bool:
    return np.dtype(dtype).kind == 'c'


def is_numeric(dtype) -> bool:
    return np.dtype(dtype).kind in 'iufc'


def require_dtype_kind(ctx, x, kinds: str, what: str = 'input'):
    """Reject ``x`` unless its dtype kind is one of ``kinds`` (numpy kind letters)."""
    if x.dtype.kind not in kinds:
        raise ctx.error('{} of dtype {} is not supported', what, x.dtype)


def same_dtype(ctx, *arrays):
    """TensorFlow binds all these inputs to one type attribute: their dtypes must agree."""
    first = arrays[0].dtype
    for other in arrays[1:]:
        if other.dtype != first:
            raise ctx.error('inputs must have the same dtype, got {} and {}', first, other.dtype)
    return first


def broadcast_shape(ctx, *shapes) -> tuple:
    """numpy/TF broadcasting of ``shapes``, with TensorFlow's "Incompatible shapes" message."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ctx.error('Incompatible shapes: {}', ' vs. '.join(shape_str(s) for s in shapes)) from None


def compute_dtype(dtype) -> np.dtype:
    """The dtype to do float math in: TF evaluates half-precision math in float32 and rounds the result."""
    dtype = np.dtype(dtype)
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def int_scalar(ctx, tensor, name: str, allow_one_element: bool = False) -> int:
    """An integer scalar input; with ``allow_one_element`` a 1-element vector is accepted too."""
    tensor = np.asarray(tensor)
    if not is_int(tensor.dtype):
        raise ctx.error('{} must be an integer tensor, got {}', name, tensor.dtype)
    if tensor.ndim != 0 and not (allow_one_element and tensor.size == 1):
        raise ctx.error('{} must be a scalar, got shape {}', name, shape_str(tensor.shape))
    return int(tensor.reshape(()))


def int_list(ctx, tensor, name: str, max_rank: int = 1) -> list:
    """An integer vector (or scalar) input as a list of Python ints."""
    tensor = np.asarray(tensor)
    if not is_int(tensor.dtype):
        raise ctx.error('{} must be an integer tensor, got {}', name, tensor.dtype)
    if tensor.ndim > max_rank:
        raise ctx.error('{} must be at most {}-D, got shape {}', name, max_rank, shape_str(tensor.shape))
    return [int(v) for v in tensor.reshape(-1)]


def int_vector(ctx, tensor, name: str) -> list:
    """An integer 1-D input as a list of Python ints."""
    tensor = np.asarray(tensor)
    if tensor.ndim != 1:
        raise ctx.error('{} must be a vector, got shape {}', name, shape_str(tensor.shape))
    return int_list(ctx, tensor, name)


def norm_axis(ctx, axis: int, rank: int, name: str = 'axis') -> int:
    """``axis`` in ``[-rank, rank)`` made non-negative."""
    if not -rank <= axis < rank:
        raise ctx.error('{} {} is out of range for a tensor of rank {} (expected [{}, {}))',
                        name, axis, rank, -rank, rank)
    return axis + rank if axis < 0 else axis


# -- bfloat16: TF stores it as the upper half of a float32; dtypes.py keeps it as uint16 bits --------

def bf16_to_float32(bits) -> np.ndarray:
    """bfloat16 bit patterns (uint16) to the float32 values they denote (exact)."""
    bits = np.asarray(bits, dtype=np.uint16)
    # (shifting a 0-d array gives a numpy scalar: asarray keeps it an array)
    return np.asarray(bits.astype(np.uint32) << 16).view(np.float32)


def float32_to_bf16(values, truncate: bool = False) -> np.ndarray:
    """float32 values to bfloat16 bit patterns: round to nearest even (or chop, for ``Truncate``)."""
    values = np.asarray(values, dtype=np.float32)
    bits = values.view(np.uint32)
    if truncate:
        out = bits >> 16
    else:
        # adding 0x7fff plus the lowest kept bit rounds half to even when the low half is dropped
        out = (bits + (np.uint32(0x7FFF) + ((bits >> 16) & 1))) >> 16
    out = np.asarray(out).astype(np.uint16)
    # keep NaN a (quiet) NaN: rounding could carry a NaN payload into the exponent (-> inf)
    nan = np.isnan(values)
    if nan.any():
        out = np.where(nan, np.asarray((bits >> 16) | 0x0040).astype(np.uint16), out)
    return out
