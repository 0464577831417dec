"""Harness cases for TF1 input queues: FIFOQueueV2 (and FIFOQueue) filled from the case's input inside the graph
and read by QueueDequeue(V2), QueueDequeueMany(V2) or QueueDequeueUpTo(V2) into a small model. mo makes the
dequeued tensors the IR's inputs (the enqueue side goes), so the IR input named after each dequeued tensor gets
the value TF enqueued: the same numbers must come out."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_TYPES = [tf.float32, tf.int32]


def _queue_model(version, dequeue):
    if version == 'shuffle' and dequeue != 'one':
        return None  # a shuffling queue hands several elements back in any order
    queue_op = {'V2': tf.raw_ops.FIFOQueueV2, 'padding': tf.raw_ops.PaddingFIFOQueueV2,
                'shuffle': tf.raw_ops.RandomShuffleQueueV2}[version]
    dequeue_op = {'one': tf.raw_ops.QueueDequeueV2, 'many': tf.raw_ops.QueueDequeueManyV2,
                  'up_to': tf.raw_ops.QueueDequeueUpToV2}[dequeue]

    def fn(x, labels):
        handle = queue_op(component_types=_TYPES, shapes=[[2, 3], []], capacity=8)
        if dequeue == 'one':
            enqueue = tf.raw_ops.QueueEnqueueV2(handle=handle, components=[x, labels])
        else:
            enqueue = tf.raw_ops.QueueEnqueueManyV2(handle=handle, components=[x, labels])
        with tf.control_dependencies([enqueue]):
            if dequeue == 'one':
                images, classes = dequeue_op(handle=handle, component_types=_TYPES)
            else:
                images, classes = dequeue_op(handle=handle, n=4, component_types=_TYPES)
        return tf.reduce_sum(images * 2.0, axis=-1), classes + 1

    batch = () if dequeue == 'one' else (4,)
    names = {'one': 'QueueDequeueV2', 'many': 'QueueDequeueManyV2', 'up_to': 'QueueDequeueUpToV2'}[dequeue]
    return OpCase('', fn, [In(batch + (2, 3)), In(batch, dtype=np.int32)],
                  ir_inputs={'x0': names + ':0', 'x1': names + ':1'})


register(grid('queue/FIFOQueue', _queue_model, version=['V2', 'padding', 'shuffle'],
              dequeue=['one', 'many', 'up_to']))


def _queue_v1(queue, dequeue):
    """The TF1 ops with reference handles: FIFOQueue (PaddingFIFOQueue, RandomShuffleQueue), QueueEnqueue(Many),
    QueueDequeue/Many/UpTo."""
    if queue == 'RandomShuffleQueue' and dequeue != 'one':
        return None
    dequeue_op = {'one': tf.raw_ops.QueueDequeue, 'many': tf.raw_ops.QueueDequeueMany,
                  'up_to': tf.raw_ops.QueueDequeueUpTo}[dequeue]

    def fn(x):
        handle = getattr(tf.raw_ops, queue)(component_types=[tf.float32], shapes=[[3]], capacity=8)
        if dequeue == 'one':
            enqueue = tf.raw_ops.QueueEnqueue(handle=handle, components=[x])
        else:
            enqueue = tf.raw_ops.QueueEnqueueMany(handle=handle, components=[x])
        with tf.control_dependencies([enqueue]):
            extra = {} if dequeue == 'one' else {'n': 5}
            return dequeue_op(handle=handle, component_types=[tf.float32], **extra)[0] * 2.0

    name = {'one': 'QueueDequeue', 'many': 'QueueDequeueMany', 'up_to': 'QueueDequeueUpTo'}[dequeue]
    return OpCase('', fn, [In((3,) if dequeue == 'one' else (5, 3))], ir_inputs={'x0': name + ':0'})


register(grid('queue/FIFOQueue_v1', _queue_v1, queue=['FIFOQueue', 'PaddingFIFOQueue', 'RandomShuffleQueue'],
              dequeue=['one', 'many', 'up_to']))


def _as_iterator(op):
    """Rewrites the traced function's AnonymousIteratorV3 into ``op`` (the same iterator made another way: TF1's
    resource iterators, the older anonymous ones), or its IteratorGetNext into IteratorGetNextSync."""
    def edit(graph_def):
        for node in graph_def.node:
            if op == 'IteratorGetNextSync' and node.op == 'IteratorGetNext':
                node.op = op
            elif op != 'IteratorGetNextSync' and node.op == 'AnonymousIteratorV3':
                node.op = op
                if op in ('Iterator', 'IteratorV2'):
                    node.attr['shared_name'].s = ('iterator_' + op).encode()
                    node.attr['container'].s = b''
    return edit


def _dataset_iterator(components, iterator):
    """A tf.data iterator inside the traced function (AnonymousIteratorV3 + MakeIterator + IteratorGetNext, or the
    ops ``_as_iterator`` puts in their place): the dataset holds the case's inputs, so the getter's tensors, which
    mo makes the IR's inputs, carry their values."""
    def fn(*inputs):
        dataset = tf.data.Dataset.from_tensors(tuple(inputs))
        taken = next(iter(dataset))
        if components == 1:
            return tf.nn.relu(taken[0]) * 2.0
        images, classes = taken
        return tf.reduce_sum(images * 2.0, axis=-1), classes + 1

    inputs = [In((2, 3))] + ([In((2,), dtype=np.int32)] if components == 2 else [])
    return OpCase('', fn, inputs, ir_inputs={'x%d' % i: 'IteratorGetNext:%d' % i for i in range(components)},
                  edit_graph_def=None if iterator == 'AnonymousIteratorV3' else _as_iterator(iterator))


register(grid('queue/IteratorGetNext', _dataset_iterator, components=[1, 2],
              iterator=['AnonymousIteratorV3', 'AnonymousIteratorV2', 'AnonymousIterator', 'IteratorV2', 'Iterator',
                        'IteratorGetNextSync']))
