"""Extractors for MXNet's variables (model inputs and weights) and the ops that pass their input on."""
import numpy as np

from mo.front.common.model_inputs import make_const, users_shape_and_type
from mo.front.extractor import FrontExtractorOp, OpTableExtractor
from mo.ops.identity import Identity
from mo.ops.parameter import Parameter
from mo.utils.error import Error


def mxnet_attr(node):
    """The typed attributes (``mo.front.mxnet.attrs.Attrs``) of the MXNet node behind ``node``."""
    return node.pb.attr


def pending(node, internal: str = None) -> bool:
    """Leave the node for its rule: its op becomes ``internal``, by default ``MX<mxnet op>`` (the rules' ``op``);
    ``mxnet_op`` keeps the MXNet op's name."""
    node['mxnet_op'] = node.op
    node['op'] = internal or 'MX' + node.op.lstrip('_')
    return True


class ParameterExtractor(FrontExtractorOp):
    """A model input -> Parameter: its shape from --input/--input_shape, else the symbol's ``__shape__`` (0: a dim
    MXNet infers, dynamic here); its type from --input, else ``__dtype__``, else f32."""
    op = 'Parameter'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        declared = node.pb.shape if node.soft_get('pb', None) is not None else None
        shape = [d if d > 0 else -1 for d in declared] if declared else None
        dtype = (node.pb.dtype if node.soft_get('pb', None) is not None else None) or np.dtype(np.float32)
        shape, dtype = users_shape_and_type(node, shape, dtype)
        frozen = node.soft_get('user_value', None)
        if frozen is not None:
            value = np.asarray(frozen, dtype=dtype)
            if shape is not None and value.size == int(np.prod(shape)) and all(d >= 0 for d in shape):
                value = value.reshape(shape)
            return make_const(node, value)
        if shape is None:
            raise Error('The MXNet symbol gives no shape for input "{}"; give it with --input "{}[...]" or '
                        '--input_shape', name, name)
        Parameter.update_node_stat(node, {'shape': np.array(shape, dtype=np.int64), 'data_type': dtype})
        return True


class WeightExtractor(FrontExtractorOp):
    """A variable the params give -> Const (a view of the mapped file)."""
    op = 'Const'

    @classmethod
    def extract(cls, node):
        return make_const(node, node.value)


class PassThroughExtractor(OpTableExtractor):
    """Ops that hand on their input at inference -> Identity (removed by the front phase)."""
    table = {'Dropout': Identity, 'BlockGrad': Identity, 'stop_gradient': Identity, '_copy': Identity,
             'identity': Identity, 'make_loss': Identity, 'MakeLoss': Identity}
    op = sorted(table)
