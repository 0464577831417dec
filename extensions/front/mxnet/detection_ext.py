"""Extractors for MXNet's detection ops: each leaves an ``MX<op>`` node for ``box_lowering``,
``detection_lowering`` and ``multibox_lowering``."""
from extensions.front.mxnet.basic_ext import pending
from mo.front.extractor import FrontExtractorOp


class DetectionExtractor(FrontExtractorOp):
    """MultiBoxPrior, box_decode, ROIAlign, ROIPooling, box_nms, MultiBoxDetection, Proposal, MultiProposal ->
    ``MX<op>``."""
    op = ['_contrib_MultiBoxPrior', '_contrib_box_decode', '_contrib_ROIAlign', 'ROIPooling', '_contrib_box_nms',
          '_contrib_MultiBoxDetection', '_contrib_Proposal', '_contrib_MultiProposal']

    @classmethod
    def extract(cls, node):
        return pending(node)
