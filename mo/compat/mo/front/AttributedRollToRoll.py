"""The Model Optimizer's ``openvino.tools.mo.front.AttributedRollToRoll`` (releases 2022-2024) under mo's import
rename: the same class as ``extensions.front.AttributedRollToRoll``, a ``legacy_only`` replacer for authors' unit
tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.AttributedRollToRoll import AttributedRollToRoll  # noqa: F401

__all__ = ['AttributedRollToRoll']
