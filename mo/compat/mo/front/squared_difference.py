"""The Model Optimizer's ``openvino.tools.mo.front.squared_difference`` (releases 2022-2024) under mo's import
rename: the same class as ``extensions.front.squared_difference``, a ``legacy_only`` replacer for authors' unit
tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.squared_difference import SquaredDifference  # noqa: F401

__all__ = ['SquaredDifference']
