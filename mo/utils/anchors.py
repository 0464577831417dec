"""The anchors: no-op replacers that mark where each phase starts and ends.

``LoadFinish -> FrontStart -> ... -> FrontFinish -> (data nodes, PartialInfer) -> PreMiddleStart
-> MiddleStart -> ... -> MiddleFinish -> PostMiddleStart -> BackStart -> ... -> BackFinish``

A replacer runs between its phase's Start and Finish by default; ordering against an anchor
(``run_after = [FrontFinish]``) places it at a phase boundary. Anchors set ``graph.stage``.
Besides the anchors, the built-in steps are chained phase by phase in ``extensions/pipeline_order.py``, each
between the anchors of its phase: the config-driven sub-graph replacements run first in the front phase (on the
graph as the framework wrote it), ``FusedBatchNormToScaleShift`` last in it (after every user's front replacer),
``FinalConstantFolding`` and ``SignatureTensorNames`` last in the back phase.
"""
from mo.back.replacement import BackReplacementPattern
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.loader_replacement import LoadReplacementPattern
from mo.middle.replacement import MiddleReplacementPattern


class _Anchor:
    """Mixin for anchors: no default edges, nothing to do but set the stage."""
    anchor = True
    stage = None

    def run_before(self):
        return []

    def run_after(self):
        return []

    def find_and_replace_pattern(self, graph):
        if self.stage:
            graph.stage = self.stage


class LoadFinish(_Anchor, LoadReplacementPattern):
    """The model is in the graph; front replacers come next."""


class FrontStart(_Anchor, FrontReplacementPattern):
    """Start of the front phase: op nodes only, framework attributes extracted."""
    stage = 'front'

    def run_after(self):
        return [LoadFinish]


class FrontFinish(_Anchor, FrontReplacementPattern):
    """End of the front phase; data nodes are created and shapes inferred after it."""

    def run_after(self):
        return [FrontStart]


class PreMiddleStart(_Anchor, MiddleReplacementPattern):
    """Shapes are inferred; steps that must precede the middle phase proper run after this."""
    stage = 'middle'

    def run_after(self):
        return [FrontFinish]


class MiddleStart(_Anchor, MiddleReplacementPattern):
    """Start of the middle phase."""

    def run_after(self):
        return [PreMiddleStart]


class MiddleFinish(_Anchor, MiddleReplacementPattern):
    """End of the middle phase."""

    def run_after(self):
        return [MiddleStart]


class PostMiddleStart(_Anchor, BackReplacementPattern):
    """Between the middle and back phases. (Layout is not converted here: the graph stays NHWC and the
    front step ``NHWCToNCHW`` wraps NCHW-only ops in Transposes that ``TransposeSinking`` cancels.)"""

    def run_after(self):
        return [MiddleFinish]


class BackStart(_Anchor, BackReplacementPattern):
    """Start of the back phase: the graph is in the IR's layout."""
    stage = 'back'

    def run_after(self):
        return [PostMiddleStart]


class BackFinish(_Anchor, BackReplacementPattern):
    """End of the back phase; the IR is emitted after it."""

    def run_after(self):
        return [BackStart]
