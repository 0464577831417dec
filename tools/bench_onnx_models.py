"""Full-size ONNX benchmark models for ``tools/bench_onnx.py``, built here with torch from configs and seeded random
weights (nothing is downloaded, no pretrained weights) and cached outside the repository.

- ``resnet50``: torchvision ``resnet50(weights=None)``, 1x3x224x224, dynamic batch, ~98 MiB of weights;
- ``vit_b16_external``: torchvision ``vit_b_16(weights=None)`` (ViT-Base/16: 12 layers, width 768, 12 heads,
  MLP 3072), 1x3x224x224, ~330 MiB of weights saved as ONNX external data (``save_as_external_data=True``, the
  format of every export over 2 GB);
- ``bert_base``: a BERT-base encoder written out in torch (vocabulary 30522, 512 positions, 2 token types, 12
  layers, width 768, 12 heads, GELU feed-forward of 3072, post-norm LayerNorms, tanh pooler; the layout of
  transformers' ``BertModel``), inputs ``input_ids``/``attention_mask``/``token_type_ids`` with dynamic batch and
  sequence (fed 1x128), ~420 MiB of weights;
- ``fasterrcnn_mnv3_320``: torchvision ``fasterrcnn_mobilenet_v3_large_320_fpn(weights=None,
  weights_backbone=None, box_score_thresh=0)``, 1x3x320x320; the export has ``If`` (empty-box branches; but
  no ``Loop`` with torch 2.8's exporter) nodes, NonMaxSuppression, RoiAlign and TopK;
- ``maskrcnn_r50_320``: torchvision ``maskrcnn_resnet50_fpn(weights=None, weights_backbone=None,
  box_score_thresh=0, min_size=320, max_size=320)``, 1x3x320x320: the detector with a ``Loop`` (torchvision's
  scripted-when-traced mask pasting) and ``If`` nodes, ~170 MiB of weights.

All are exported by torch's TorchScript exporter at opset 17 (as ``tools/make_onnx_models.py``). A model is cached
as ``<work>/<name>/model.onnx`` with a ``key.json`` naming the builder version and the torch/torchvision versions;
it is rebuilt when the key changes.
"""
import json
import os
import time
from pathlib import Path

OPSET = 17
VERSION = 1   # bump when a builder changes

#: symbolic dimension sizes the benchmark feeds (``bench_onnx._inputs``)
FEED_SIZES = {'bert_base': {'batch': 1, 'sequence': 128}, 'resnet50': {'batch': 1}}
#: relative tolerance of the check against onnxruntime, where the default is too strict for the model's depth
TOLERANCE = {'fasterrcnn_mnv3_320': 1e-3, 'maskrcnn_r50_320': 1e-3}


def _randomize_batch_norm(model, seed=0):
    """Non-trivial running statistics and affine parameters (fresh BatchNorms are identities)."""
    import torch
    generator = torch.Generator().manual_seed(seed)
    for module in model.modules():
        if isinstance(module, (torch.nn.BatchNorm2d, torch.nn.modules.batchnorm._NormBase)) and \
                getattr(module, 'running_mean', None) is not None:
            with torch.no_grad():
                n = module.running_mean.numel()
                module.running_mean.copy_(torch.rand(n, generator=generator) - 0.5)
                module.running_var.copy_(torch.rand(n, generator=generator) + 0.5)
                if module.weight is not None:
                    module.weight.copy_(torch.rand(n, generator=generator) + 0.5)
                    module.bias.copy_(torch.rand(n, generator=generator) - 0.5)


def resnet50():
    import torch
    import torchvision
    model = torchvision.models.resnet50(weights=None)
    _randomize_batch_norm(model)
    return model, {'input': torch.randn(1, 3, 224, 224)}, ['logits'], {'input': {0: 'batch'}, 'logits': {0: 'batch'}}


def vit_b16_external():
    import torch
    import torchvision
    torch.backends.mha.set_fastpath_enabled(False)   # the fused inference kernel has no ONNX export
    model = torchvision.models.vit_b_16(weights=None)
    with torch.no_grad():   # torchvision zero-initialises the class token and the head: outputs would be all 0
        torch.nn.init.normal_(model.class_token, std=0.02)
        torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    return model, {'input': torch.randn(1, 3, 224, 224)}, ['logits'], None


def bert_base():
    import torch
    import torch.nn as nn

    hidden, heads, layers, ffn, vocab, positions, types = 768, 12, 12, 3072, 30522, 512, 2

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), \
                nn.Linear(hidden, hidden)
            self.attention_output = nn.Linear(hidden, hidden)
            self.attention_norm = nn.LayerNorm(hidden, eps=1e-12)
            self.intermediate = nn.Linear(hidden, ffn)
            self.output = nn.Linear(ffn, hidden)
            self.output_norm = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x, mask):
            batch, length = x.shape[0], x.shape[1]

            def split(t):
                return t.view(batch, length, heads, hidden // heads).transpose(1, 2)
            q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / (hidden // heads) ** 0.5 + mask
            context = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(batch, length, hidden)
            x = self.attention_norm(x + self.attention_output(context))
            return self.output_norm(x + self.output(nn.functional.gelu(self.intermediate(x))))

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.word, self.position, self.token_type = nn.Embedding(vocab, hidden), \
                nn.Embedding(positions, hidden), nn.Embedding(types, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(Layer() for _ in range(layers))
            self.pooler = nn.Linear(hidden, hidden)
            for module in self.modules():   # BertPreTrainedModel._init_weights
                if isinstance(module, (nn.Linear, nn.Embedding)):
                    nn.init.normal_(module.weight, std=0.02)

        def forward(self, input_ids, attention_mask, token_type_ids):
            length = input_ids.shape[1]
            position_ids = torch.arange(length, dtype=torch.long, device=input_ids.device).unsqueeze(0)
            x = self.norm(self.word(input_ids) + self.position(position_ids) + self.token_type(token_type_ids))
            mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
            for layer in self.layers:
                x = layer(x, mask)
            return x, torch.tanh(self.pooler(x[:, 0]))

    ids = torch.randint(0, vocab, (2, 16))
    inputs = {'input_ids': ids, 'attention_mask': torch.ones_like(ids), 'token_type_ids': torch.zeros_like(ids)}
    axes = {name: {0: 'batch', 1: 'sequence'} for name in inputs}
    axes.update({'last_hidden_state': {0: 'batch', 1: 'sequence'}, 'pooler_output': {0: 'batch'}})
    return Bert(), inputs, ['last_hidden_state', 'pooler_output'], axes


def fasterrcnn_mnv3_320():
    import torch
    import torchvision

    class Single(torch.nn.Module):
        """The detector on one image tensor (its forward takes a list), returning its three tensors."""

        def __init__(self):
            super().__init__()
            self.detector = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
                weights=None, weights_backbone=None, box_score_thresh=0.0)

        def forward(self, images):
            out = self.detector(list(images))[0]
            return out['boxes'], out['scores'], out['labels']

    model = Single()
    _randomize_batch_norm(model)
    return model, {'images': torch.rand(1, 3, 320, 320)}, ['boxes', 'scores', 'labels'], None


def maskrcnn_r50_320():
    import torch
    import torchvision

    class Single(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.detector = torchvision.models.detection.maskrcnn_resnet50_fpn(
                weights=None, weights_backbone=None, box_score_thresh=0.0, min_size=320, max_size=320)

        def forward(self, images):
            out = self.detector(list(images))[0]
            return out['boxes'], out['scores'], out['labels'], out['masks']

    model = Single()
    _randomize_batch_norm(model)
    return model, {'images': torch.rand(1, 3, 320, 320)}, ['boxes', 'scores', 'labels', 'masks'], None


BUILDERS = {f.__name__: f for f in (resnet50, vit_b16_external, bert_base, fasterrcnn_mnv3_320, maskrcnn_r50_320)}
EXTERNAL_DATA = {'vit_b16_external'}


def _key(name):
    import torch
    import torchvision
    return {'model': name, 'version': VERSION, 'opset': OPSET, 'torch': torch.__version__,
            'torchvision': torchvision.__version__}


def load_or_build(name: str, work: Path) -> Path:
    """``work/name/model.onnx``, exported (seeded) when missing or stale."""
    directory = Path(work) / name
    path, key_file = directory / 'model.onnx', directory / 'key.json'
    key = _key(name)
    try:
        if path.is_file() and json.loads(key_file.read_text()) == key:
            return path
    except (OSError, ValueError):
        pass
    import onnx
    import torch
    print('building %s ...' % name, end=' ', flush=True)
    start = time.perf_counter()
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    torch.manual_seed(0)
    model, inputs, outputs, axes = BUILDERS[name]()
    model.eval()
    tmp = directory / 'export.onnx'
    with torch.no_grad():
        torch.onnx.export(model, tuple(inputs.values()), str(tmp), opset_version=OPSET, input_names=list(inputs),
                          output_names=outputs, dynamic_axes=axes, do_constant_folding=True, dynamo=False)
    if name in EXTERNAL_DATA:
        proto = onnx.load(str(tmp))
        onnx.save_model(proto, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location='model.onnx.data', size_threshold=1024)
        tmp.unlink()
    else:
        os.replace(tmp, path)
    key_file.write_text(json.dumps(key, indent=1, sort_keys=True) + '\n')
    size = sum(f.stat().st_size for f in directory.iterdir())
    print('%.1f s, %.0f MiB' % (time.perf_counter() - start, size / 2 ** 20), flush=True)
    return path
