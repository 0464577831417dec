# A Model Optimizer-style extractor (its imports renamed): TensorFlow's one-input Where through
# mo.ops.non_zero.NonZero (the Model Optimizer transposed its output in a later step).
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.ops.non_zero import NonZero


class TeamWhereExtractor(FrontExtractorOp):
    op = 'Where'
    enabled = True

    @classmethod
    def extract(cls, node):
        NonZero.update_node_stat(node, {'output_type': np.int64})
        return cls.enabled
