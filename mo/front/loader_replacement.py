"""Load-phase replacer base: steps that read the model into the graph (before LoadFinish)."""
from mo.utils.replacement import ReplacementPattern


class LoadReplacementPattern(ReplacementPattern):
    """Reads or prepares the model before any front replacer runs; ordered before LoadFinish."""
    _abstract = True
    phase = 'load'

    def run_before(self):
        from mo.utils.anchors import LoadFinish
        return [LoadFinish]
