"""The Model Optimizer's ``openvino.tools.mo.front.Log1p`` (releases 2022-2024) under mo's import rename: the same
class as ``extensions.front.Log1p``, a ``legacy_only`` replacer for authors' unit tests (README, "Built-in
replacers under the Model Optimizer's module paths")."""
from extensions.front.Log1p import Log1p  # noqa: F401

__all__ = ['Log1p']
