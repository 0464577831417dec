"""The Model Optimizer's ``openvino.tools.mo.front.FillToBroadcast`` (releases 2022-2024) under mo's import rename: the
same class as ``extensions.front.FillToBroadcast``, a ``legacy_only`` replacer for authors' unit tests (README,
"Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.FillToBroadcast import FillToBroadcast  # noqa: F401

__all__ = ['FillToBroadcast']
