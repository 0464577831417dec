"""Helpers for extension authors' unit tests, where the Model Optimizer kept them."""
