"""Middle-phase replacer base: runs on the graph of op and data nodes, after partial inference."""
from mo.utils.replacement import ReplacementPattern


class MiddleReplacementPattern(ReplacementPattern):
    """A middle-phase replacer: ``find_and_replace_pattern(graph)``, or ``pattern()`` + ``replace_pattern``.

    Patterns here include data nodes (``kind='data'``) between ops. Runs between the
    MiddleStart and MiddleFinish anchors unless it says otherwise.
    """
    _abstract = True
    phase = 'middle'

    def run_after(self):
        from mo.utils.anchors import MiddleStart
        return [MiddleStart]

    def run_before(self):
        from mo.utils.anchors import MiddleFinish
        return [MiddleFinish]
