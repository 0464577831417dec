# A Model Optimizer-style extractor (its imports renamed): NonZero through mo.ops.non_zero.NonZero.
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.ops.non_zero import NonZero


class TeamNonZeroExtractor(FrontExtractorOp):
    op = 'NonZero'
    enabled = True

    @classmethod
    def extract(cls, node):
        NonZero.update_node_stat(node, {'output_type': np.int64})
        return cls.enabled
