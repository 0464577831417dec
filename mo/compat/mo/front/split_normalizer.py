"""The Model Optimizer's ``openvino.tools.mo.front.split_normalizer`` (releases 2022-2024) under mo's import rename:
the same classes as ``extensions.front.split_normalizer``, ``legacy_only`` replacers for authors' unit tests
(README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.split_normalizer import (  # noqa: F401
    SqueezeAxis, SplitInputsReconnect, AttributedSplitToSplit, AttributedVariadicSplitToVariadicSplit,
    VariadicSplitInputsSwap)

__all__ = ['SqueezeAxis', 'SplitInputsReconnect', 'AttributedSplitToSplit', 'AttributedVariadicSplitToVariadicSplit',
           'VariadicSplitInputsSwap']
