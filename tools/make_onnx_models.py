"""Export small PyTorch models with seeded random weights to ONNX, as test models for mo's ONNX front end.

    python tools/make_onnx_models.py [--out tests/onnx/models] [NAME ...]

Each model is written to ``<out>/NAME.onnx`` with opset 17 by torch's TorchScript exporter
(``torch.onnx.export(..., dynamo=False)``), the exporter most models on the hub went through. The architectures
are those of real exports (torchvision's ResNet blocks and MobileNetV3, ``torch.nn.TransformerEncoder``, LSTM,
GRU, a U-Net with ConvTranspose and Upsample, an embedding text classifier) at widths that keep each file well
under 1.5 MB. ``tests/onnx/test_real_models.py`` converts the committed files with mo and compares OpenVINO's
results with onnxruntime's; this script needs torch and torchvision and is run by hand when a model is added.
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


MODELS = {f.__name__: f for f in (resnet18_w8, mobilenet_v3_small, transformer_encoder, lstm, gru, unet,
                                  text_classifier)}


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
    model.eval()
    args = []
    for shape, kind in inputs.values():
        args.append(torch.randint(0, 1000, shape) if kind == 'ids' else torch.randn(*shape))
    path = os.path.join(out_dir, name + '.onnx')
    with torch.no_grad():
        torch.onnx.export(model, tuple(args), path, opset_version=OPSET, input_names=list(inputs),
                          output_names=output_names, dynamic_axes=dynamic_axes, do_constant_folding=True,
                          dynamo=False)
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        raise SystemExit('{} is {} bytes, more than the {} a test model may take'.format(path, size, MAX_BYTES))
    return path


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
