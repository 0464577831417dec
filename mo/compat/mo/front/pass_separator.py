"""The Model Optimizer's ``openvino.tools.mo.front.pass_separator`` (releases 2022-2024) under mo's import rename: its
phase anchors, which authors' replacers order themselves against, are mo's anchors (``mo.utils.anchors``), the same
classes: importing them here adds no step."""
from mo.utils.anchors import FrontStart, FrontFinish  # noqa: F401

__all__ = ['FrontStart', 'FrontFinish']
