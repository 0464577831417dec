"""The Model Optimizer's module ``mo.ops.einsum`` (extension authors import it): Einsum."""
from mo.ops.matmul import Einsum

__all__ = ['Einsum']
