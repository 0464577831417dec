"""The formulas every lowering rule shares, as methods of the rule's builder (``mo.front.common.rule.Builder``).

Front rules run before shape inference, so a formula cannot ask for a rank or a dimension: it computes them
with ShapeOf and Gather, which fold to constants once inference knows the shapes. Each method is written once
here; the names of the nodes it makes (``<node>/<suffix>/...``) are part of the IR, so they stay as they are.
"""
import numpy as np

from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.shapeof import ShapeOf
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze

I64 = np.int64


class FormulaMethods:
    """Mixed into ``Builder``: needs its ``op`` and ``const``."""

    def shape_of(self, x, suffix: str, dtype=I64):
        """ShapeOf(x) as a 1-D tensor of ``dtype``."""
        return self.op(ShapeOf, [x], suffix, output_type=np.dtype(dtype))

    def element(self, vector, index, suffix: str, const_names=('index', 'axis')):
        """``vector[index]``: a scalar for an int ``index`` (negative counts from the end), a 1-D tensor for a list
        of indices. ``const_names``: the suffixes of the Gather's index and axis constants."""
        index_name, axis_name = const_names
        return self.op(Gather, [vector, self.const(index, suffix + '/' + index_name, I64),
                                self.const(0, suffix + '/' + axis_name, I64)], suffix)

    def dim_of(self, x, axis, suffix: str, dtype=I64, const_names=('index', 'axis')):
        """The size of dimension ``axis`` of ``x`` (negative counts from the end) as a scalar of ``dtype``; for a
        list of one axis, a 1-element vector.

        ``const_names`` are the suffixes of the two constants (see ``element``). The TensorFlow rules
        (``formula_kit.dim``, ``formulas.dim_of``) and the ONNX math rules pass the names their constants have
        always had: with a dynamic shape the constants stay in the IR, and the pinned IRs hold those names.
        """
        return self.element(self.shape_of(x, suffix + '/shape', dtype), axis, suffix, const_names)

    def dims_of(self, x, indices, suffix: str):
        """``shape(x)[indices]`` as a 1-D int64 tensor (negative indices count from the end)."""
        return self.element(self.shape_of(x, suffix + '/shape'), list(indices), suffix, const_names=('indices', 'axis'))

    def rank_of(self, x, suffix: str):
        """The rank of ``x`` as a 1-element int64 vector (ShapeOf of a ShapeOf: a constant once ranks are known)."""
        return self.shape_of(self.shape_of(x, suffix + '/shape'), suffix)

    def cast(self, x, dtype, suffix: str):
        """Convert(x) to ``dtype``."""
        return self.op(Convert, [x], suffix, dst_type=np.dtype(dtype))

    def unsqueeze(self, x, axes, suffix: str):
        """``x`` with a dimension of 1 inserted at each of ``axes`` (a list)."""
        return self.op(Unsqueeze, [x, self.const(list(axes), suffix + '/axes', I64)], suffix)

    def transpose(self, x, order, suffix: str):
        """``x`` with its axes in ``order``."""
        return self.op(Transpose, [x, self.const(list(order), suffix + '/order', I64)], suffix)

    def concat(self, parts, suffix: str, axis: int = 0):
        """Concat of ``parts`` (nodes or ports) along ``axis``."""
        return self.op(Concat, list(parts), suffix, axis=axis, in_ports_count=len(parts))
