"""Harness cases for NonMaxSuppressionV2-V5: random boxes in both corner orders, with overlaps."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _boxes(rng, shape):
    """Boxes around a few centres (so that many overlap), corners given in either order."""
    n = shape[0]
    centres = rng.uniform(0, 10, (4, 2))[rng.integers(0, 4, n)] + rng.normal(0, 0.5, (n, 2))
    sizes = rng.uniform(1, 3, (n, 2))
    y1x1, y2x2 = centres - sizes / 2, centres + sizes / 2
    flip = rng.random(n) < 0.3
    first = np.where(flip[:, None], y2x2, y1x1)
    second = np.where(flip[:, None], y1x1, y2x2)
    return np.concatenate([first, second], axis=1)


def _scores(rng, shape):
    return rng.permutation(shape[0]) / shape[0] + 0.01  # distinct: TF's order of ties is its own


def _nms(version, max_out, iou, score):
    inputs = [In((20, 4), values=_boxes), In((20,), values=_scores)]
    if version == 'V2':
        if score is not None:
            return None
        return OpCase('', lambda b, s: tf.raw_ops.NonMaxSuppressionV2(
            boxes=b, scores=s, max_output_size=max_out, iou_threshold=iou), inputs)
    score = -np.inf if score is None else score
    if version == 'V3':
        return OpCase('', lambda b, s: tf.raw_ops.NonMaxSuppressionV3(
            boxes=b, scores=s, max_output_size=max_out, iou_threshold=iou, score_threshold=score), inputs)
    if version == 'V4':
        return OpCase('', lambda b, s: tuple(tf.raw_ops.NonMaxSuppressionV4(
            boxes=b, scores=s, max_output_size=max_out, iou_threshold=iou, score_threshold=score,
            pad_to_max_output_size=True)), inputs)
    return OpCase('', lambda b, s: tuple(tf.raw_ops.NonMaxSuppressionV5(
        boxes=b, scores=s, max_output_size=max_out, iou_threshold=iou, score_threshold=score,
        soft_nms_sigma=0.0)), inputs)


register(grid('base/NonMaxSuppression', _nms, version=['V2', 'V3', 'V4', 'V5'], max_out=[5, 50], iou=[0.3, 0.6],
              score=[None, 0.4]))
