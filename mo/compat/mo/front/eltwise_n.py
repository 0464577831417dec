"""The Model Optimizer's ``openvino.tools.mo.front.eltwise_n`` (releases 2022-2024) under mo's import rename: the same
class as ``extensions.front.eltwise_n``, a ``legacy_only`` replacer for authors' unit tests (README, "Built-in
replacers under the Model Optimizer's module paths")."""
from extensions.front.eltwise_n import EltwiseNReplacement  # noqa: F401

__all__ = ['EltwiseNReplacement']
