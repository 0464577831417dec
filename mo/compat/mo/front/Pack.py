"""The Model Optimizer's ``openvino.tools.mo.front.Pack`` (releases 2022-2024) under mo's import rename: mo's built-
in step ``extensions.front.Pack.Pack`` itself (importing it here adds no step)."""
from extensions.front.Pack import Pack  # noqa: F401

__all__ = ['Pack']
