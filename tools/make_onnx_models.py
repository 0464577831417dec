"""Export small PyTorch models with seeded random weights to ONNX, as test models for mo's ONNX front end.

    python tools/make_onnx_models.py [--out tests/onnx/models] [NAME ...]

Each model is written to ``<out>/NAME.onnx`` with opset 17 by torch's TorchScript exporter
(``torch.onnx.export(..., dynamo=False)``), the exporter most models on the hub went through. The architectures
are those of real exports (torchvision's ResNet blocks and MobileNetV3, ``torch.nn.TransformerEncoder``, LSTM,
GRU, a U-Net with ConvTranspose and Upsample, an embedding text classifier) at widths that keep each file well
under 1.5 MB. The detectors are torchvision's own detection classes (Faster/Mask/Keypoint R-CNN, RetinaNet, FCOS,
SSD, SSDlite) around a backbone of two or three small convolutions, so that their exports keep the real
pre- and post-processing graph (Resize, If, Loop, NonMaxSuppression, RoiAlign, TopK, NonZero, shapes computed at run
time) with dynamic image height and width. ``tests/onnx/test_real_models.py`` (``test_detection_models.py`` for
the detectors) converts the committed files with mo and compares OpenVINO's results with onnxruntime's; this script
needs torch and torchvision (``bert_tiny`` transformers too; ``tests/onnx/test_qoperator_models.py`` runs it through
onnxruntime's transformer optimizer and dynamic quantizer) and is run by hand when a model is added.
"""
import argparse
import os
import sys

OPSET = 17
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'onnx', 'models')
MAX_BYTES = 1536 * 1024


def resnet18_w8():
    """torchvision's ResNet-18 layout (BasicBlock, [2, 2, 2, 2]) at widths 8/16/32/64 instead of 64..512."""
    import torch.nn as nn
    from torchvision.models.resnet import BasicBlock, ResNet

    class NarrowResNet(ResNet):
        def __init__(self, widths=(8, 16, 32, 64), num_classes=10):
            nn.Module.__init__(self)
            self._norm_layer = nn.BatchNorm2d
            self.inplanes, self.dilation, self.groups, self.base_width = widths[0], 1, 1, 64
            self.conv1 = nn.Conv2d(3, widths[0], kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(widths[0])
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = self._make_layer(BasicBlock, widths[0], 2)
            self.layer2 = self._make_layer(BasicBlock, widths[1], 2, stride=2)
            self.layer3 = self._make_layer(BasicBlock, widths[2], 2, stride=2)
            self.layer4 = self._make_layer(BasicBlock, widths[3], 2, stride=2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(widths[3], num_classes)

    model = NarrowResNet()
    _randomize_batch_norm(model)
    return model, {'input': ((1, 3, 64, 64), 'float')}, {'input': {0: 'batch'}, 'logits': {0: 'batch'}}, ['logits']


def mobilenet_v3_small():
    """torchvision's MobileNetV3-Small (Hardswish, Hardsigmoid, squeeze-excitation) at width 0.25."""
    import torchvision
    model = torchvision.models.mobilenet_v3_small(width_mult=0.25, num_classes=10)
    _randomize_batch_norm(model)
    return model, {'input': ((1, 3, 64, 64), 'float')}, None, ['logits']


def transformer_encoder():
    """Two ``nn.TransformerEncoderLayer`` (d_model 64, 4 heads, GELU, post-norm), batch-first, dynamic batch and
    sequence axes."""
    import torch
    import torch.nn as nn
    torch.backends.mha.set_fastpath_enabled(False)  # the fused inference kernel has no ONNX export
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0, activation='gelu',
                                       batch_first=True)
    model = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    axes = {'input': {0: 'batch', 1: 'sequence'}, 'output': {0: 'batch', 1: 'sequence'}}
    return model, {'input': ((2, 7, 64), 'float')}, axes, ['output']


def _recurrent(cell):
    import torch.nn as nn

    class Recurrent(nn.Module):
        """A 2-layer batch-first ``cell`` and a Linear on its last step."""

        def __init__(self):
            super().__init__()
            self.rnn = cell(input_size=16, hidden_size=32, num_layers=2, batch_first=True)
            self.head = nn.Linear(32, 4)

        def forward(self, x):
            outputs, _ = self.rnn(x)
            return outputs, self.head(outputs[:, -1])

    axes = {'input': {0: 'batch', 1: 'sequence'}, 'outputs': {0: 'batch', 1: 'sequence'}, 'last': {0: 'batch'}}
    return Recurrent(), {'input': ((2, 5, 16), 'float')}, axes, ['outputs', 'last']


def lstm():
    """``nn.LSTM`` (2 layers, batch first) and a Linear head; dynamic batch and sequence."""
    import torch.nn as nn
    return _recurrent(nn.LSTM)


def gru():
    """``nn.GRU`` (2 layers, batch first) and a Linear head; dynamic batch and sequence."""
    import torch.nn as nn
    return _recurrent(nn.GRU)


def unet():
    """A two-level U-Net: Conv-BN-ReLU blocks, MaxPool down, ConvTranspose and bilinear Upsample up, skip Concats,
    a 1x1 Conv to 3 classes."""
    import torch
    import torch.nn as nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                             nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.down1, self.down2, self.bottom = block(3, 8), block(8, 16), block(16, 32)
            self.pool = nn.MaxPool2d(2)
            self.up2 = nn.ConvTranspose2d(32, 16, 2, stride=2)
            self.dec2 = block(32, 16)
            self.up1 = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False)
            self.reduce1 = nn.Conv2d(16, 8, 1)
            self.dec1 = block(16, 8)
            self.head = nn.Conv2d(8, 3, 1)

        def forward(self, x):
            d1 = self.down1(x)
            d2 = self.down2(self.pool(d1))
            bottom = self.bottom(self.pool(d2))
            u2 = self.dec2(torch.cat([self.up2(bottom), d2], dim=1))
            u1 = self.dec1(torch.cat([self.reduce1(self.up1(u2)), d1], dim=1))
            return self.head(u1)

    model = UNet()
    _randomize_batch_norm(model)
    return model, {'input': ((1, 3, 32, 32), 'float')}, {'input': {0: 'batch'}, 'mask': {0: 'batch'}}, ['mask']


def text_classifier():
    """Embedding (vocabulary 1000, 32) -> mean over the sequence -> Linear(32, 4); int64 token ids with dynamic
    batch and sequence axes."""
    import torch.nn as nn

    class TextClassifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(1000, 32)
            self.head = nn.Linear(32, 4)

        def forward(self, ids):
            return self.head(self.embedding(ids).mean(dim=1))

    axes = {'ids': {0: 'batch', 1: 'sequence'}, 'logits': {0: 'batch'}}
    return TextClassifier(), {'ids': ((2, 9), 'ids')}, axes, ['logits']


def bert_tiny():
    """transformers' BertModel (2 layers, hidden 16, 2 heads, vocabulary 1000, eager attention) -> last_hidden_state;
    int64 input_ids, attention_mask and token_type_ids with dynamic batch and sequence axes. The export onnxruntime's
    transformer optimizer fuses into EmbedLayerNormalization, Attention and SkipLayerNormalization (needs
    transformers)."""
    import torch.nn as nn
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=1000, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=32, type_vocab_size=2,
                        attn_implementation='eager')

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = BertModel(config, add_pooling_layer=False)

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    names = ('input_ids', 'attention_mask', 'token_type_ids')
    axes = {name: {0: 'batch', 1: 'sequence'} for name in names + ('last_hidden_state',)}
    inputs = {'input_ids': ((2, 7), 'ids'), 'attention_mask': ((2, 7), 'mask'), 'token_type_ids': ((2, 7), 'segments')}
    return Bert(), inputs, axes, ['last_hidden_state']


# --- detectors --------------------------------------------------------------------------------------------------
# Each returns (model, inputs, dynamic_axes, output_names) as above; their input kind is 'image': one 3 x H x W
# image in [0, 1] passed as torchvision's list of images, H and W dynamic. Output names are given in the order of
# the model's result dict (RetinaNet, FCOS and SSD give boxes, scores, labels; the R-CNNs boxes, labels, scores).

#: the image size the detectors are exported at; their transforms resize any size to min_size..max_size
DETECTION_IMAGE = (3, 64, 80)


def _tiny_backbone(channels=8, levels=1):
    """Two stride-2 convolutions (then ``levels - 1`` more, each a further feature map): a tensor for one level,
    the OrderedDict of feature maps torchvision's multi-level heads take otherwise; ``out_channels`` as torchvision
    asks of a backbone."""
    from collections import OrderedDict
    import torch.nn as nn

    def down(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.ReLU())

    class TinyBackbone(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(down(3, 8), down(8, channels))
            self.levels = nn.ModuleList(down(channels, channels) for _ in range(levels - 1))
            self.out_channels = channels

        def forward(self, x):
            x = self.stem(x)
            if not len(self.levels):
                return x
            features = OrderedDict([('0', x)])
            for index, level in enumerate(self.levels):
                x = level(x)
                features[str(index + 1)] = x
            return features

    return TinyBackbone()


def _detection(model, outputs):
    axes = {'image': {1: 'height', 2: 'width'}}
    axes.update({name: {0: 'detections'} for name in outputs})
    return model, {'image': (DETECTION_IMAGE, 'image')}, axes, outputs


def _rcnn_parts(num_classes):
    """The R-CNN keyword arguments shared by the three: one anchor level (sizes 16, 32; three ratios), 7x7 box RoIs
    into a 32-wide two-layer head, small images and proposal counts."""
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
    from torchvision.ops import MultiScaleRoIAlign
    return dict(rpn_anchor_generator=AnchorGenerator(((16, 32),), ((0.5, 1.0, 2.0),)),
                box_roi_pool=MultiScaleRoIAlign(['0'], 7, 2), box_head=TwoMLPHead(8 * 7 * 7, 32),
                box_predictor=FastRCNNPredictor(32, num_classes), min_size=64, max_size=96,
                rpn_pre_nms_top_n_test=100, rpn_post_nms_top_n_test=30, box_score_thresh=0.05)


def faster_rcnn():
    """torchvision's FasterRCNN (RPN, RoiAlign, per-class NMS) on a tiny backbone, 4 classes."""
    from torchvision.models.detection import FasterRCNN
    model = FasterRCNN(_tiny_backbone(), num_classes=None, box_detections_per_img=20, **_rcnn_parts(4))
    return _detection(model, ['boxes', 'labels', 'scores'])


def mask_rcnn():
    """torchvision's MaskRCNN: FasterRCNN's and a 14x14 RoI mask head whose masks are pasted into the image (a
    Loop over the detections in the export)."""
    from torchvision.models.detection import MaskRCNN
    from torchvision.models.detection.mask_rcnn import MaskRCNNHeads, MaskRCNNPredictor
    from torchvision.ops import MultiScaleRoIAlign
    model = MaskRCNN(_tiny_backbone(), num_classes=None, box_detections_per_img=10,
                     mask_roi_pool=MultiScaleRoIAlign(['0'], 14, 2), mask_head=MaskRCNNHeads(8, (8, 8), 1),
                     mask_predictor=MaskRCNNPredictor(8, 8, 4), **_rcnn_parts(4))
    return _detection(model, ['boxes', 'labels', 'scores', 'masks'])


def keypoint_rcnn():
    """torchvision's KeypointRCNN: FasterRCNN's (2 classes) and a 5-keypoint heatmap head (a Loop turning heatmaps
    into keypoints in the export)."""
    from torchvision.models.detection import KeypointRCNN
    from torchvision.models.detection.keypoint_rcnn import KeypointRCNNHeads, KeypointRCNNPredictor
    from torchvision.ops import MultiScaleRoIAlign
    model = KeypointRCNN(_tiny_backbone(), num_classes=None, box_detections_per_img=10,
                         keypoint_roi_pool=MultiScaleRoIAlign(['0'], 14, 2), keypoint_head=KeypointRCNNHeads(8, (8, 8)),
                         keypoint_predictor=KeypointRCNNPredictor(8, 5), **_rcnn_parts(2))
    return _detection(model, ['boxes', 'labels', 'scores', 'keypoints', 'keypoints_scores'])


def _classification_bias(logits):
    """Spread a head's class-logit biases around 0 (torchvision starts them at log(0.01 / 0.99), where random
    weights score nothing) and mark them to keep through ``_randomize_detector``."""
    import torch
    torch.nn.init.normal_(logits.bias, 0.0, 0.5)
    logits.bias.keep = True


def retinanet():
    """torchvision's RetinaNet (sigmoid scores, per-level TopK, batched NMS) on two feature levels, 4 classes."""
    from torchvision.models.detection import RetinaNet
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    from torchvision.models.detection.retinanet import RetinaNetHead
    head = RetinaNetHead(8, 3, 4)
    _classification_bias(head.classification_head.cls_logits)
    model = RetinaNet(_tiny_backbone(levels=2), num_classes=4, head=head, min_size=64, max_size=96,
                      anchor_generator=AnchorGenerator(((16,), (32,)), ((0.5, 1.0, 2.0),) * 2), score_thresh=0.3,
                      topk_candidates=50, detections_per_img=20)
    return _detection(model, ['boxes', 'scores', 'labels'])


def fcos():
    """torchvision's FCOS (anchor-free, centerness) on two feature levels of 32 channels (its heads' GroupNorm
    takes 32 groups), 4 classes."""
    from torchvision.models.detection import FCOS
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    from torchvision.models.detection.fcos import FCOSHead
    head = FCOSHead(32, 1, 4, num_convs=2)
    _classification_bias(head.classification_head.cls_logits)
    model = FCOS(_tiny_backbone(32, levels=2), num_classes=4, head=head, min_size=64, max_size=96,
                 anchor_generator=AnchorGenerator(((16,), (32,)), ((1.0,),) * 2), score_thresh=0.2,
                 topk_candidates=50, detections_per_img=20)
    return _detection(model, ['boxes', 'scores', 'labels'])


def ssd():
    """torchvision's SSD (default boxes, softmax scores, a fixed 64x64 resize) on two feature levels, 4 classes."""
    from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
    from torchvision.models.detection.ssd import SSD, SSDHead
    boxes = DefaultBoxGenerator([[2], [2, 3]])
    model = SSD(_tiny_backbone(levels=2), boxes, (64, 64), 4, head=SSDHead([8, 8], boxes.num_anchors_per_location(), 4),
                score_thresh=0.05, topk_candidates=50, detections_per_img=20)
    return _detection(model, ['boxes', 'scores', 'labels'])


def ssdlite():
    """SSD with torchvision's SSDlite head (depthwise-separable convolutions, BatchNorm, ReLU6), 4 classes."""
    from functools import partial
    import torch.nn as nn
    from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
    from torchvision.models.detection.ssd import SSD
    from torchvision.models.detection.ssdlite import SSDLiteHead
    boxes = DefaultBoxGenerator([[2, 3], [2, 3]], min_ratio=0.2, max_ratio=0.95)
    head = SSDLiteHead([8, 8], boxes.num_anchors_per_location(), 4, partial(nn.BatchNorm2d, eps=0.001, momentum=0.03))
    model = SSD(_tiny_backbone(levels=2), boxes, (64, 64), 4, head=head, image_mean=[0.5] * 3, image_std=[0.5] * 3,
                score_thresh=0.05, topk_candidates=50, detections_per_img=20)
    _randomize_batch_norm(model)
    return _detection(model, ['boxes', 'scores', 'labels'])


def retinanet_no_detections():
    """``retinanet`` with a score threshold (0.99) that no box reaches: every tensor after the score filter is empty,
    as it is for an image without objects."""
    model, inputs, axes, outputs = retinanet()
    model.score_thresh = 0.99
    return model, inputs, axes, outputs


def mask_rcnn_no_detections():
    """``mask_rcnn`` with a box score threshold (0.99) that no box reaches: no detections, so the Loop pasting masks
    runs zero times."""
    model, inputs, axes, outputs = mask_rcnn()
    model.roi_heads.score_thresh = 0.99
    return model, inputs, axes, outputs


DETECTORS = (faster_rcnn, mask_rcnn, keypoint_rcnn, retinanet, fcos, ssd, ssdlite, retinanet_no_detections,
             mask_rcnn_no_detections)
MODELS = {f.__name__: f for f in (resnet18_w8, mobilenet_v3_small, transformer_encoder, lstm, gru, unet,
                                  text_classifier, bert_tiny) + DETECTORS}


def _randomize_detector(model):
    """Redraw every Conv2d and Linear with PyTorch's default initialisation: torchvision's detection heads start at
    N(0, 0.01) weights, whose outputs barely depend on the image (every score ties, so NMS order would be arbitrary).
    Biases marked ``keep`` (``_classification_bias``) stay."""
    import torch
    for module in model.modules():
        if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
            kept = module.bias.detach().clone() if getattr(module.bias, 'keep', False) else None
            module.reset_parameters()
            if kept is not None:
                with torch.no_grad():
                    module.bias.copy_(kept)


def _randomize_batch_norm(model):
    """Give BatchNorm layers non-trivial running statistics and affine parameters (fresh ones are identities)."""
    import torch
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            with torch.no_grad():
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.5, 0.5)


def export(name: str, out_dir: str) -> str:
    """Export model ``name`` (seeded) to ``out_dir/name.onnx``; returns the path."""
    import torch
    torch.manual_seed(0)
    model, inputs, dynamic_axes, output_names = MODELS[name]()
    detector = MODELS[name] in DETECTORS
    if detector:
        _randomize_detector(model)
    model.eval()
    args = []
    for shape, kind in inputs.values():
        if kind == 'image':
            args.append([torch.rand(*shape)])  # torchvision's detectors take a list of images
        else:
            args.append(torch.randint(0, 1000, shape) if kind == 'ids' else torch.ones(*shape, dtype=torch.int64)
                        if kind == 'mask' else torch.randint(0, 2, shape) if kind == 'segments' else torch.randn(*shape))
    path = os.path.join(out_dir, name + '.onnx')
    with torch.no_grad():
        if detector:
            _check_detections(name, model(*args)[0], output_names)
        torch.onnx.export(model, tuple(args), path, opset_version=OPSET, input_names=list(inputs),
                          output_names=output_names, dynamic_axes=dynamic_axes, do_constant_folding=True,
                          dynamo=False)
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        raise SystemExit('{} is {} bytes, more than the {} a test model may take'.format(path, size, MAX_BYTES))
    return path


def _check_detections(name, result, output_names):
    """The detector finds something (nothing for the ``*_no_detections`` ones), with distinct scores (tied scores
    leave the order of detections to the NMS implementation), and names its outputs in its result's order."""
    if list(result) != output_names:
        raise SystemExit('{} returns {}, not the outputs {} named for it'.format(name, list(result), output_names))
    scores = result['scores'].tolist()
    if name.endswith('_no_detections'):
        if scores:
            raise SystemExit('{} gives {} detections, not none'.format(name, len(scores)))
    elif len(scores) < 5 or len(set(scores)) != len(scores):
        raise SystemExit('{} gives {} detections, {} distinct scores: too few to compare'.format(
            name, len(scores), len(set(scores))))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('names', nargs='*', choices=sorted(MODELS) + [[]], help='models to export (default: all)')
    parser.add_argument('--out', default=DEFAULT_OUT, help='directory to write NAME.onnx to')
    options = parser.parse_args(argv)
    os.makedirs(options.out, exist_ok=True)
    for name in options.names or sorted(MODELS):
        path = export(name, options.out)
        print('{}: {} bytes'.format(os.path.relpath(path), os.path.getsize(path)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
