"""The Model Optimizer's ``openvino.tools.mo.front.standalone_const_eraser`` (releases 2022-2024) under mo's import
rename: mo's built-in step ``extensions.front.standalone_const_eraser.StandaloneConstEraser`` itself (importing it
here adds no step)."""
from extensions.front.standalone_const_eraser import StandaloneConstEraser  # noqa: F401

__all__ = ['StandaloneConstEraser']
