"""Extractors for TensorFlow's remainder, division, x-weighted and norm ops: Mod, TruncateMod, Div, Xdivy, Xlogy,
Xlog1py, EuclideanNorm and L2Loss.

Mod and TruncateMod are the opset's Mod (the remainder with the dividend's sign); the others keep their
TensorFlow op name (Div becomes TFDiv: ``Div`` is the opset Divide's internal name) with ``data_type`` (and
EuclideanNorm its ``keep_dims``) and ``division_norm_lowering`` builds them from opset ops.
"""
from extensions.front.tf.lowered_ext import LoweredExtractor
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr
from mo.ops.elementwise import Mod

#: TF op -> what division_norm_lowering makes of it
LOWERED = {
    'Div': 'Divide (floats); Sign(x) * Sign(y) * Divide(|x|, |y|) (integers: rounded toward zero, as TF)',
    'Xdivy': 'Select(x == 0, 0, Divide(x, y))',
    'Xlogy': 'Select(x == 0, 0, x * Log(y))',
    'Xlog1py': 'Select(x == 0, 0, x * Log1p(y)), Log1p in its precise form',
    'EuclideanNorm': 'ReduceL2 (opset4; keep_dims; integers truncated); Abs(x) for empty axes, as TF',
    'L2Loss': 'ReduceSum(x * x) / 2 over every axis',
}


class ModExtractor(FrontExtractorOp):
    """Mod, TruncateMod -> Mod (the remainder of the division rounded toward zero; floats and integers)."""
    op = ['Mod', 'TruncateMod']

    @classmethod
    def extract(cls, node):
        Mod.update_node_stat(node, {})
        return True


class LoweredMathMoreExtractor(LoweredExtractor):
    """Math ops built from several opset ops by ``division_norm_lowering``."""
    op = sorted(LOWERED)
    table = LOWERED
    renamed = {'Div': 'TFDiv'}

    @classmethod
    def attributes(cls, node):
        return {'keep_dims': bool(tf_attr(node, 'keep_dims', False))}
