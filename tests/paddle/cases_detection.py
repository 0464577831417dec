"""Cases for the detection family (``test_paddle_detection.py``): ``paddle.vision.ops`` yolo_box, box_coder,
roi_align and deform_conv2d with their attributes varied."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global YoloBox, BoxCoder, BoxCoderList, RoiAlign, DeformConv, DeformConvV1
    import paddle
    from paddle.vision import ops

    class YoloBox(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, x, img_size):
            return ops.yolo_box(x, img_size, **self.kwargs)

    class BoxCoder(paddle.nn.Layer):
        def __init__(self, var_tensor, var_list, **kwargs):
            super().__init__()
            self.var_tensor, self.var_list, self.kwargs = var_tensor, var_list, kwargs

        def forward(self, prior, var, target):
            return ops.box_coder(prior, var, target, **self.kwargs)

    class BoxCoderList(BoxCoder):
        """The variances as a list attribute: no variance input."""
        def forward(self, prior, target):
            return ops.box_coder(prior, self.var_list, target, **self.kwargs)

    class RoiAlign(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, x, boxes, boxes_num):
            return ops.roi_align(x, boxes, boxes_num, **self.kwargs)

    class DeformConv(paddle.nn.Layer):
        def __init__(self, mask, **kwargs):
            super().__init__()
            self.mask = mask
            self.conv = ops.DeformConv2D(4, 6, 3, **kwargs)

        def forward(self, x, offset, mask):
            return self.conv(x, offset, mask)

    class DeformConvV1(DeformConv):
        """No mask: Paddle's deformable_conv_v1."""
        def forward(self, x, offset):
            return self.conv(x, offset)


def _yolo(anchors=(10, 13, 16, 30, 33, 23), classes=3, iou_aware=False, **kwargs):
    def make():
        count = len(anchors) // 2
        channels = count * (5 + classes) + (count if iou_aware else 0)
        x = np.random.randn(2, channels, 5, 6).astype(np.float32) * 2
        img = np.array([[320, 384], [250, 300]], np.int32)
        layer = YoloBox(anchors=list(anchors), class_num=classes, downsample_ratio=kwargs.pop('ds', 32),
                        iou_aware=iou_aware, **dict({'conf_thresh': 0.3}, **kwargs))
        return layer, [('x', [-1, channels, -1, -1], 'float32'), ('img_size', [-1, 2], 'int32')], [x, img]
    return make


def _boxes(count, normalized=True):
    xy = np.random.rand(count, 2).astype(np.float32) * (0.5 if normalized else 50)
    wh = np.random.rand(count, 2).astype(np.float32) * (0.4 if normalized else 40) + (0.05 if normalized else 2)
    return np.concatenate([xy, xy + wh], 1)


def _coder(code_type, normalized=True, axis=0, var_tensor=True, var_list=(0.1, 0.1, 0.2, 0.2)):
    def make():
        priors = _boxes(4, normalized)
        var = (np.random.rand(4, 4).astype(np.float32) * 0.3 + 0.1)
        if code_type == 'encode_center_size':
            target = _boxes(3, normalized)
            target_spec = [-1, 4]
        else:
            rows = 4 if axis == 1 else 3
            cols = 4 if axis == 0 else 3
            target = (np.random.randn(rows, cols, 4) * 0.3).astype(np.float32)
            target_spec = [rows, cols, 4]
        layer = (BoxCoder if var_tensor else BoxCoderList)(var_tensor, list(var_list), code_type=code_type,
                                                          box_normalized=normalized, axis=axis)
        if not var_tensor:
            return layer, [('prior', [4, 4], 'float32'), ('target', target_spec, 'float32')], [priors, target]
        return layer, [('prior', [4, 4], 'float32'), ('var', [4, 4], 'float32'),
                       ('target', target_spec, 'float32')], [priors, var, target]
    return make


def _roi_align(**kwargs):
    def make():
        x = np.random.rand(2, 3, 12, 10).astype(np.float32)
        boxes = np.array([[1, 1, 7, 9], [0.5, 2.2, 3.1, 2.9], [2, 3, 9, 11], [4.4, 0.2, 8.8, 5.5],
                          [0, 0, 10, 12]], np.float32) * kwargs.get('spatial_scale_inv', 1.0)
        counts = np.array([2, 3], np.int32)
        layer = RoiAlign(**{k: v for k, v in kwargs.items() if k != 'spatial_scale_inv'})
        return layer, [('x', [-1, 3, 12, 10], 'float32'), ('boxes', [-1, 4], 'float32'),
                       ('boxes_num', [-1], 'int32')], [x, boxes, counts]
    return make


def _deform(mask=True, stride=1, padding=1, dilation=1, deformable_groups=1, groups=1):
    def make():
        layer = (DeformConv if mask else DeformConvV1)(mask, stride=stride, padding=padding, dilation=dilation,
                           deformable_groups=deformable_groups, groups=groups)
        size = 9
        out = (size + 2 * padding - dilation * 2 - 1) // stride + 1
        x = np.random.rand(1, 4, size, size).astype(np.float32)
        offset = (np.random.randn(1, 2 * deformable_groups * 9, out, out) * 1.5).astype(np.float32)
        m = np.random.rand(1, deformable_groups * 9, out, out).astype(np.float32)
        specs = [('x', [1, 4, size, size], 'float32'), ('offset', list(offset.shape), 'float32'),
                 ('mask', list(m.shape), 'float32')]
        return (layer, specs, [x, offset, m]) if mask else (layer, specs[:2], [x, offset])
    return make


CASES = {
    'yolo_box': _yolo(),
    'yolo_box_noclip_scale': _yolo(clip_bbox=False, scale_x_y=1.2, ds=16),
    'yolo_box_iou_aware': _yolo(iou_aware=True, iou_aware_factor=0.4, classes=2),
    'yolo_box_thresh0': _yolo(conf_thresh=0.0, anchors=(5, 7), classes=1),
    'box_encode': _coder('encode_center_size'),
    'box_encode_pixels_list': _coder('encode_center_size', normalized=False, var_tensor=False),
    'box_decode_axis0': _coder('decode_center_size'),
    'box_decode_axis1_list': _coder('decode_center_size', axis=1, var_tensor=False),
    'box_decode_pixels': _coder('decode_center_size', normalized=False),
    'roi_align': _roi_align(output_size=3),
    'roi_align_unaligned_ratio2': _roi_align(output_size=(2, 4), sampling_ratio=2, aligned=False),
    'roi_align_scale': _roi_align(output_size=2, spatial_scale=0.5, spatial_scale_inv=2.0),
    'deform_conv_mask': _deform(),
    'deform_conv_v1': _deform(mask=False),
    'deform_conv_stride_groups': _deform(stride=2, padding=2, dilation=2, deformable_groups=2, groups=2),
}
