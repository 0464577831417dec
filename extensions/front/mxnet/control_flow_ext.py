"""Extractors for MXNet's control flow: each leaves an ``MX<op>`` node for ``control_flow_lowering``."""
from extensions.front.mxnet.basic_ext import pending
from mo.front.extractor import FrontExtractorOp


class ControlFlowExtractor(FrontExtractorOp):
    """_cond, _while_loop (their inputs made OpenVINO's by the loader, see ``mo.front.mxnet.wiring``) and _foreach
    -> ``MXcond``, ``MXwhile_loop``, ``MXforeach`` for ``control_flow_lowering``."""
    op = ['_cond', '_while_loop', '_foreach']

    @classmethod
    def extract(cls, node):
        return pending(node)
