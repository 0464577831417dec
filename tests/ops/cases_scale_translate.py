"""Harness cases for ScaleAndTranslate: tf.image.scale_and_translate over every kernel, antialias on and off,
up- and downscaling with translations (output pixels sampling outside the image), the image types TF registers,
and tf.image.resize with antialias=True (which writes ScaleAndTranslate) for each of its methods."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_KERNELS = ['lanczos3', 'lanczos5', 'gaussian', 'box', 'triangle', 'keyscubic', 'mitchellcubic']
#: output size, scale, translation
_GEOMETRY = {'down': ([4, 3], [0.5, 0.45], [0.0, 0.2]), 'up': ([13, 17], [1.6, 2.0], [0.5, -1.0]),
             'shifted': ([9, 7], [1.0, 1.0], [2.5, -3.0])}


def _scale_translate(kernel, antialias, geometry, dtype):
    size, scale, translation = _GEOMETRY[geometry]
    image = In((2, 8, 7, 3), dtype=dtype, low=0, high=200) if np.dtype(dtype).kind != 'f' else In((2, 8, 7, 3),
                                                                                                      dtype=dtype)
    return OpCase('', lambda x: tf.raw_ops.ScaleAndTranslate(
        images=x, size=size, scale=scale, translation=translation, kernel_type=kernel, antialias=antialias),
        [image], rtol=1e-5 if dtype != np.float16 else 1e-3)


def _resize(method, size):
    return OpCase('', lambda x: tf.image.resize(x, size, method=method, antialias=True), [In((1, 9, 12, 2))],
                  rtol=1e-5)


#: every type the op accepts but bfloat16 (no numpy type to feed)
_TYPES = [np.float16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16]

register(grid('scale_translate/ScaleAndTranslate', _scale_translate, kernel=_KERNELS, antialias=[True, False],
              geometry=list(_GEOMETRY), dtype=[np.float32])
         + grid('scale_translate/ScaleAndTranslate', _scale_translate, kernel=['lanczos3'], antialias=[True],
                geometry=['down'], dtype=_TYPES)
         + grid('scale_translate/resize_antialias', _resize,
                method=['bilinear', 'bicubic', 'lanczos3', 'lanczos5', 'gaussian', 'area', 'mitchellcubic'],
                size=[(4, 5), (14, 20)]))
