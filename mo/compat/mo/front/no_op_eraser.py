"""The Model Optimizer's ``openvino.tools.mo.front.no_op_eraser`` (releases 2022-2024) under mo's import rename: mo's
built-in step ``extensions.front.no_op_eraser.NoOpEraser`` itself (importing it here adds no step)."""
from extensions.front.no_op_eraser import NoOpEraser  # noqa: F401

__all__ = ['NoOpEraser']
