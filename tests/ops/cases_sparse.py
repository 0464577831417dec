"""Harness cases for SparseReshape and SparseFillEmptyRows (``extensions/front/tf/sparse_ext.py``; SparseToDense's
cases are in ``cases_array_formulas``): ranks 1 to 3, a -1 in the new shape, entries out of row order and
several in one row, empty rows at the start, middle and end, no entries at all, and entry counts fed at
run time (two run shapes)."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _entries(shape):
    """Distinct random coordinates in ``shape``, in random order: [count, rank] int64."""
    def values(rng, s):
        flat = rng.choice(int(np.prod(shape)), s[0], replace=False)
        return np.stack(np.unravel_index(flat, shape), axis=1).astype(np.int64)
    return values


def _reshape(change):
    old, new = {'flatten': ((2, 3, 4), [-1]), 'split': ((6, 4), [2, -1, 4]), 'merge': ((2, 3, 4), [6, 4]),
                'explicit': ((4, 6), [3, 8]), 'grow_rank': ((12,), [2, 2, 3])}[change]
    shape = np.array(old, np.int64)
    return OpCase('', lambda i: tf.raw_ops.SparseReshape(input_indices=i, input_shape=shape,
                                                        new_shape=np.array(new, np.int64)),
                  [In((None, len(old)), np.int64, run=[(5, len(old)), (1, len(old))], values=_entries(old))])


def _fill(layout, dtype):
    shape = {'rank2': (6, 4), 'rank3': (5, 2, 3), 'rank1': (7,)}[layout]
    dense = np.array(shape, np.int64)
    default = np.array(-1, dtype)
    return OpCase('', lambda i, v: tf.raw_ops.SparseFillEmptyRows(indices=i, values=v, dense_shape=dense,
                                                                  default_value=default),
                  [In((None, len(shape)), np.int64, run=[(4, len(shape)), (0, len(shape))], values=_entries(shape)),
                   In((None,), dtype, run=[(4,), (0,)])])


def _fill_runtime_shape():
    """Entries in row order, several per row, the dense shape fed at run time."""
    return OpCase('batch_a/SparseFillEmptyRows_runtime_shape',
                  lambda i, v, s: tf.raw_ops.SparseFillEmptyRows(indices=i, values=v, dense_shape=s,
                                                                 default_value=np.float32(0.5)),
                  [In((5, 2), np.int64, values=lambda rng, s: np.array([[1, 0], [1, 2], [3, 1], [3, 0], [6, 3]])),
                   In((5,)), In((2,), np.int64, values=lambda rng, s: np.array([8, 4]))])


register(
    grid('batch_a/SparseReshape', _reshape, change=['flatten', 'split', 'merge', 'explicit', 'grow_rank'])
    + grid('batch_a/SparseFillEmptyRows', _fill, layout=['rank2', 'rank3', 'rank1'], dtype=[np.float32, np.int32])
    + [_fill_runtime_shape()]
)
