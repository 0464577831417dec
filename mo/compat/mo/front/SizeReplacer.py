"""The Model Optimizer's ``openvino.tools.mo.front.SizeReplacer`` (releases 2022-2024) under mo's import rename: the
same class as ``extensions.front.SizeReplacer``, a ``legacy_only`` replacer for authors' unit tests (README,
"Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.SizeReplacer import SizeFrontReplacer  # noqa: F401

__all__ = ['SizeFrontReplacer']
