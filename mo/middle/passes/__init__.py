"""Middle-phase graph passes under the Model Optimizer's module names (``mo.middle.passes.*``)."""
