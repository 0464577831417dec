"""Helpers for ONNX extractors (the Model Optimizer's ``mo.front.onnx.extractors`` package)."""
