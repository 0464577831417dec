"""The Model Optimizer's ``openvino.tools.mo.front.tf.floor_div_decomposition`` (releases 2022-2024) under mo's
import rename: the same class as ``extensions.front.tf.floor_div_decomposition``, a ``legacy_only`` replacer for
authors' unit tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.tf.floor_div_decomposition import FloorDivDecomposition  # noqa: F401

__all__ = ['FloorDivDecomposition']
