"""Input pipelines: TF1 queues, tf.data iterators and the ops reading them never reach extraction; the load step
``extensions.load.tf.input_pipelines`` makes the tensors they hand the model its inputs. The extractors below document
them (README's table) and name the node should one be left."""
from extensions.load.tf.input_pipelines import DEQUEUES, GETTERS, ITERATORS, QUEUES
from mo.front.extractor import FrontExtractorOp
from mo.utils.error import Error


class QueueExtractor(FrontExtractorOp):
    """FIFOQueue, FIFOQueueV2, QueueDequeue, QueueDequeueV2, QueueDequeueMany(V2), QueueDequeueUpTo(V2) -> model
    inputs: each dequeued component the model reads becomes a Parameter of the queue's component type and shape
    (a leading batch dimension for Many/UpTo); the queue and the input pipeline that fills it are removed."""
    op = sorted(QUEUES + tuple(DEQUEUES))

    @classmethod
    def extract(cls, node):
        raise Error('{} "{}" is left after the input pipelines were made model inputs: it is used by an op mo does '
                    'not follow; cut the model with --input', node.op, node.soft_get('name', node.id))


class IteratorExtractor(QueueExtractor):
    """Iterator(V2), AnonymousIterator(V2/V3), IteratorGetNext(Sync) -> model inputs: each component IteratorGetNext
    hands the model becomes a Parameter of its output type and shape (as the dataset declares it); the iterator and
    the tf.data pipeline that fills it are removed."""
    # TF1's OneShotIterator is made inputs the same way (tests/ops/test_op_batch_cli.py), but a harness case cannot
    # build one (its dataset comes from a function TF1 writes), so the op table does not list it
    op = sorted(set(ITERATORS + GETTERS) - {'OneShotIterator'})
