"""The Model Optimizer's ``openvino.tools.mo.front.div`` (releases 2022-2024) under mo's import rename: the same
class as ``extensions.front.div``, a ``legacy_only`` replacer for authors' unit tests (README, "Built-in replacers
under the Model Optimizer's module paths")."""
from extensions.front.div import Div  # noqa: F401

__all__ = ['Div']
