"""The Model Optimizer's ``openvino.tools.mo.front.tf.identityN_to_identity`` (releases 2022-2024) under mo's import
rename: the same class as ``extensions.front.tf.identityN_to_identity``, a ``legacy_only`` replacer for authors'
unit tests (README, "Built-in replacers under the Model Optimizer's module paths")."""
from extensions.front.tf.identityN_to_identity import IdentityN_to_Identity  # noqa: F401

__all__ = ['IdentityN_to_Identity']
