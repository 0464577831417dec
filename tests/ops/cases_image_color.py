"""Harness cases for the colour-space image ops: RGBToHSV, HSVToRGB, AdjustHue (deltas that wrap the hue around
either way) and AdjustSaturation (scales that clamp), on pixels with ties between channels, gray and black pixels
(zero saturation and range), over the types TF registers CPU kernels for, dynamic image sizes, and the tf.image
wrappers that convert an integer image around them."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _pixels(kind):
    def make(rng, shape):
        if kind == 'ties':  # channel values on a coarse grid: equal channels, gray and black pixels
            return rng.integers(0, 5, shape) / 4.0
        if kind == 'hsv':  # hue in [0, 1), saturation and value in [0, 1], some zero saturation
            values = rng.uniform(0.0, 1.0, shape)
            values[..., 1] *= rng.integers(0, 2, shape[:-1])
            return values
        return rng.uniform(0.0, 1.0, shape)
    return make


_SHAPE = (2, 5, 6, 3)
_RTOL = {np.float32: 1e-5, np.float64: 1e-5, np.float16: 4e-3}


def _color(op, pixels, dtype):
    kind = 'hsv' if op == 'HSVToRGB' and pixels == 'uniform' else pixels
    fn = {'RGBToHSV': lambda x: tf.raw_ops.RGBToHSV(images=x), 'HSVToRGB': lambda x: tf.raw_ops.HSVToRGB(images=x)}[op]
    return OpCase('', fn, [In(_SHAPE, dtype=dtype, values=_pixels(kind))], rtol=_RTOL[dtype])


def _hue(delta, pixels):
    return OpCase('', lambda x: tf.raw_ops.AdjustHue(images=x, delta=delta),
                  [In(_SHAPE, values=_pixels(pixels))], rtol=1e-5)


def _saturation(scale, pixels):
    return OpCase('', lambda x: tf.raw_ops.AdjustSaturation(images=x, scale=scale),
                  [In(_SHAPE, values=_pixels(pixels))], rtol=1e-5)


def _in_graph(op):
    """The factor an input of the graph; the image's size known at run time (3 channels)."""
    image = In((None, None, 3), values=_pixels('uniform'), run=[(4, 5, 3), (2, 7, 3)])
    factor = In((), values=lambda rng, shape: rng.uniform(-1.5, 1.5, shape), run=[(), ()])
    if op == 'AdjustHue':
        return OpCase('', lambda x, d: tf.raw_ops.AdjustHue(images=x, delta=d), [image, factor], rtol=1e-5)
    return OpCase('', lambda x, s: tf.raw_ops.AdjustSaturation(images=x, scale=s), [image, factor], rtol=1e-5)


def _wrapper(fn):
    """tf.image's wrappers on a uint8 image (converted to float and back) and round trips."""
    image = In((3, 4, 3), dtype=np.uint8, low=0, high=256)
    return OpCase('', {'adjust_hue': lambda x: tf.image.adjust_hue(x, 0.4),
                       'adjust_saturation': lambda x: tf.image.adjust_saturation(x, 0.6),
                       'hsv_roundtrip': lambda x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(
                           tf.image.convert_image_dtype(x, tf.float32)))}[fn], [image], int_exact=False, rtol=1e-2)


register(grid('image_color/op', _color, op=['RGBToHSV', 'HSVToRGB'], pixels=['uniform', 'ties'],
              dtype=[np.float32])
         + grid('image_color/op', _color, op=['RGBToHSV', 'HSVToRGB'], pixels=['uniform'],
                dtype=[np.float16, np.float64])
         + grid('image_color/AdjustHue', _hue, delta=[0.0, 0.25, -0.4, 0.999, -1.0], pixels=['uniform', 'ties'])
         + grid('image_color/AdjustSaturation', _saturation, scale=[0.0, 0.5, 1.0, 2.5], pixels=['uniform', 'ties'])
         + grid('image_color/factor_in_graph', _in_graph, op=['AdjustHue', 'AdjustSaturation'])
         + grid('image_color/tf_image', _wrapper, fn=['adjust_hue', 'adjust_saturation', 'hsv_roundtrip']))
