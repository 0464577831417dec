"""The Model Optimizer's ``openvino.tools.mo.front.HSwish_fusion`` (releases 2022-2024) under mo's import rename: the
same classes as ``extensions.front.HSwish_fusion``, ``legacy_only`` replacers for authors' unit tests (README,
"Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.HSwish_fusion import HSwishWithClamp, HSwishWithMinMax  # noqa: F401

__all__ = ['HSwishWithClamp', 'HSwishWithMinMax']
