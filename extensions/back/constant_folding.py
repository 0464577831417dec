"""Back phase, last step: what the back rewrites left constant becomes Consts too."""
from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph
from mo.middle.passes.constant_folding import fold_inferred_constants
from mo.utils.anchors import BackFinish, BackStart
from mo.utils.class_registration import steps_before


class FinalConstantFolding(BackReplacementPattern):
    """After the back phase: what the rewrites left constant becomes Consts too."""
    id = 'FinalConstantFolding'

    def run_after(self):
        # last in the back phase: after every other back step, users' included (but SignatureTensorNames)
        return [BackStart] + steps_before(BackFinish, 'back', exclude=[type(self)])

    def run_before(self):
        return [BackFinish]

    def find_and_replace_pattern(self, graph: Graph):
        self.match_count = fold_inferred_constants(graph)
