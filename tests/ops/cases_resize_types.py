"""Harness cases for the output type of TensorFlow's resizes (issue 26): ResizeBilinear, ResizeBicubic and ResizeArea
return float32 whatever the image's type; ResizeNearestNeighbor returns the image's type. Every input type TF
registers a CPU kernel for (bfloat16 left out: the harness feeds numpy arrays, and numpy has no bfloat16), through the
raw ops and through ``tf.image.resize``. The harness compares the IR's output types with TensorFlow's."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: the image types of the resizes' CPU kernels (TF_CALL_REAL_NUMBER_TYPES less bfloat16)
TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64]
_FLAGS = {'legacy': (False, False), 'align_corners': (True, False), 'half_pixel': (False, True)}


def _image(dtype):
    if np.issubdtype(np.dtype(dtype), np.integer):
        low = 0 if np.issubdtype(np.dtype(dtype), np.unsignedinteger) else -100
        return In((2, 5, 4, 3), dtype=dtype, low=low, high=120)
    return In((2, 5, 4, 3), dtype=dtype)


def _raw(op, flags, dtype):
    align, half = _FLAGS[flags]
    if op == 'ResizeArea' and half:
        return None  # ResizeArea has no half_pixel_centers
    kwargs = {} if op == 'ResizeArea' else {'half_pixel_centers': half}

    def fn(x):
        return getattr(tf.raw_ops, op)(images=x, size=[7, 3], align_corners=align, **kwargs)
    # float16 images are rounded to half on the way in; TF then computes in float as the IR does
    return OpCase('', fn, [_image(dtype)], rtol=1e-3 if dtype == np.float16 else 1e-4)


def _image_resize(method, dtype):
    return OpCase('', lambda x: tf.image.resize(x, [7, 3], method=method), [_image(dtype)],
                  rtol=1e-3 if dtype == np.float16 else 1e-4)


register(
    grid('image/resize_type', _raw, op=['ResizeBilinear', 'ResizeNearestNeighbor', 'ResizeBicubic', 'ResizeArea'],
         flags=['legacy', 'half_pixel'], dtype=TYPES)
    + grid('image/resize_type', _raw, op=['ResizeBilinear', 'ResizeNearestNeighbor'], flags=['align_corners'],
           dtype=[np.uint8, np.int32, np.float64])
    + grid('image/tf_image_resize_type', _image_resize, method=['bilinear', 'nearest', 'bicubic', 'area'],
           dtype=[np.uint8, np.int32, np.float16, np.float64])
)
