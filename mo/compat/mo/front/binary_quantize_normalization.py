"""The Model Optimizer's ``openvino.tools.mo.front.binary_quantize_normalization`` (releases 2022-2024) under mo's
import rename: the same class as ``extensions.front.binary_quantize_normalization``, a ``legacy_only`` replacer for
authors' unit tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.binary_quantize_normalization import BinaryFakeQuantizeNormalization  # noqa: F401

__all__ = ['BinaryFakeQuantizeNormalization']
