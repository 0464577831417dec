# A Model Optimizer-style extractor (its imports renamed): ONNX LSTM through the MO's op class mo.ops.LSTM.LSTM.
import numpy as np

from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.LSTM import LSTM


class TeamLSTMExtractor(FrontExtractorOp):
    op = 'LSTM'
    enabled = True

    @classmethod
    def extract(cls, node):
        activations = onnx_attr(node, 'activations', 'strings', None)
        attrs = {
            'batch_dim': 1,
            'sequence_dim': 0,
            'blobs_wrb': True,
            'has_num_directions': True,
            'num_layers': 1,
            'format': 'onnx',
            'multilayers': False,
            'gate_order': [2, 0, 3, 1],  # the MO's reordering of ONNX's iofc gates
            'activations': None if activations is None else [a.decode() for a in activations],
            'clip': onnx_attr(node, 'clip', 'f', None),
            'hidden_size': np.array(onnx_attr(node, 'hidden_size', 'i'), dtype=np.int64),
            'direction': onnx_attr(node, 'direction', 's', b'forward').decode().lower(),
            'input_forget': onnx_attr(node, 'input_forget', 'i', 0),
        }
        LSTM.update_node_stat(node, attrs)
        return cls.enabled
