"""The Model Optimizer's ``openvino.tools.mo.front.TransposeOrderNormalizer`` (releases 2022-2024) under mo's import
rename: the same class as ``extensions.front.TransposeOrderNormalizer``, a ``legacy_only`` replacer for authors'
unit tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.TransposeOrderNormalizer import TransposeOrderNormalizer  # noqa: F401

__all__ = ['TransposeOrderNormalizer']
