"""Extractors for MXNet's neural-network ops: each leaves an ``MX<op>`` node that ``nn_lowering``,
``norm_lowering``, ``pool_lowering``, ``resize_lowering`` and ``rnn_lowering`` build from opset ops (their
attributes are read there, from ``pb``)."""
from extensions.front.mxnet.basic_ext import pending
from mo.front.extractor import FrontExtractorOp


class NeuralNetExtractor(FrontExtractorOp):
    """Convolution, Deconvolution, FullyConnected, BatchNorm, Pooling, LeakyReLU, the softmax family,
    L2Normalization, Flatten, UpSampling, BilinearResize2D -> ``MX<op>`` for their rules."""
    op = ['Convolution', 'Deconvolution', 'FullyConnected', 'BatchNorm', 'Pooling', 'LeakyReLU', 'softmax',
          'log_softmax', 'SoftmaxActivation', 'SoftmaxOutput', 'Softmax', 'L2Normalization', 'Flatten', 'flatten',
          'UpSampling', '_contrib_BilinearResize2D', '_contrib_AdaptiveAvgPooling2D']
    _SAME = {'Softmax': 'MXSoftmaxOutput', 'flatten': 'MXFlatten'}

    @classmethod
    def extract(cls, node):
        return pending(node, cls._SAME.get(node.op))


class RecurrentExtractor(FrontExtractorOp):
    """RNN and Gluon's _rnn_param_concat -> ``MXRNN``, ``MXrnn_param_concat`` for ``rnn_lowering``."""
    op = ['RNN', '_rnn_param_concat']

    @classmethod
    def extract(cls, node):
        return pending(node)
