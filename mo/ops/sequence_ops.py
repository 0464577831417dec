"""Opset ops that sort, search or shift values: Bucketize (opset3), Roll (opset7), Unique (opset10),
RandomUniform (opset8) and Multinomial (opset13).

Shape inference only (unknown sizes stay -1); Unique's, RandomUniform's and Multinomial's outputs depend on
run-time values, so nothing is folded here.
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op, keep_outputs
from mo.ops.tensor_ops import _ShapeOnly, _value


class Bucketize(_ShapeOnly):
    """Inputs: data, buckets (sorted boundaries). Each element becomes the index of its bucket; with
    ``with_right_bound`` false a bucket holds its left boundary (TensorFlow's Bucketize)."""
    op = type = 'Bucketize'
    version = 'opset3'
    in_ports = 2
    defaults = {'output_type': np.int32, 'with_right_bound': False}

    def backend_attrs(self):
        return [('output_type', lambda n: ir_element_type(n.output_type)),
                ('with_right_bound', lambda n: str(bool(n.with_right_bound)).lower())]

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)


class Roll(_ShapeOnly):
    """Inputs: data, shift, axes (each scalar or 1-D, negative axes allowed): elements shifted cyclically."""
    op = type = 'Roll'
    version = 'opset7'
    in_ports = 3


class Unique(Op):
    """Inputs: data, axis (optional scalar; without it the data is flattened). Outputs: the distinct
    values (or slices along ``axis``; in order of first occurrence when ``sorted`` is false), the index of each
    one's first occurrence, each input element's (slice's) index into the distinct values, and how often each
    distinct value occurs."""
    op = 'Unique'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Unique', 'op': 'Unique', 'version': 'opset10', 'sorted': False,
            'index_element_type': np.int32, 'count_element_type': np.int32,
            'infer': Unique.infer, 'type_infer': Unique.type_infer, 'in_ports_count': 2, 'out_ports_count': 4,
        }, attrs)

    def backend_attrs(self):
        return [('sorted', lambda n: str(bool(n.sorted)).lower()),
                ('index_element_type', lambda n: ir_element_type(n.index_element_type)),
                ('count_element_type', lambda n: ir_element_type(n.count_element_type))]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        shape = [int(d) for d in shape]
        size = -1 if any(d < 0 for d in shape) else int(np.prod(shape))
        values = [-1]
        if node.is_in_port_connected(1):  # slices along axis: the other dimensions stay
            axis = node.in_port(1).data.get_value()
            if axis is None:
                values, size = [-1] * len(shape), -1
            else:
                axis = int(np.ravel(axis)[0]) % max(len(shape), 1)
                values, size = shape[:axis] + [-1] + shape[axis + 1:], shape[axis]
        used = [port for port in range(4) if node.is_out_port_connected(port)]
        keep_outputs(node, range(max(used) + 1) if used else ())
        for port in range(4):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_shape(values if port == 0 else [size] if port == 2 else [-1])

    @staticmethod
    def type_infer(node):
        types = {0: node.in_port(0).data.get_data_type(), 1: node.index_element_type,
                 2: node.index_element_type, 3: node.count_element_type}
        for port, dtype in types.items():
            if node.is_out_port_connected(port) and dtype is not None:
                node.out_port(port).data.set_data_type(dtype)


class RandomUniform(_ShapeOnly):
    """Inputs: shape, min, max. Uniform values in [min, max) of ``output_type`` from the Philox generator
    that TensorFlow's RandomUniform/RandomUniformInt use (``global_seed``, ``op_seed`` are TF's seed and
    seed2, so seeded values are TensorFlow's)."""
    op = type = 'RandomUniform'
    version = 'opset8'
    in_ports = 3
    defaults = {'output_type': np.float32, 'global_seed': 0, 'op_seed': 0}

    def backend_attrs(self):
        return [('output_type', lambda n: ir_element_type(n.output_type)), 'global_seed', 'op_seed']

    @classmethod
    def infer(cls, node):
        shape = _value(node, 0)
        if shape is not None:
            node.out_port(0).data.set_shape([int(d) for d in np.ravel(shape)])
            return
        length = node.in_port(0).data.get_shape()
        if length is not None and len(length) == 1:
            node.out_port(0).data.set_shape([-1] * int(length[0]))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)


class Multinomial(_ShapeOnly):
    """Inputs: probabilities [batch, classes] (with ``log_probs``, unnormalised log-probabilities), the number of
    samples (a scalar or 1-element integer). Output [batch, samples] of ``output_type`` (int32 or int64): class
    indices drawn from each row's distribution (Philox seeded by ``global_seed`` and ``op_seed``)."""
    op = type = 'Multinomial'
    version = 'opset13'
    in_ports = 2
    defaults = {'output_type': np.int64, 'with_replacement': True, 'log_probs': True, 'global_seed': 0,
                'op_seed': 0}

    def backend_attrs(self):
        return [('convert_type', lambda n: ir_element_type(n.output_type)),
                ('with_replacement', lambda n: str(bool(n.with_replacement)).lower()),
                ('log_probs', lambda n: str(bool(n.log_probs)).lower()), 'global_seed', 'op_seed']

    @classmethod
    def infer(cls, node):
        shape = node.in_port(0).data.get_shape()
        samples = _value(node, 1)
        count = int(np.ravel(samples)[0]) if samples is not None else -1
        batch = int(shape[0]) if shape is not None and len(shape) == 2 else -1
        node.out_port(0).data.set_shape([batch, count])

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)
