"""Test support: small TensorFlow test models and independent reference oracles.

- :mod:`tests.support.models` builds the test models (Keras with random weights, or TF1-style graphs
  with predictable node names) and freezes them to GraphDef bytes, once per test session.
- :mod:`tests.support.oracles` runs them with TensorFlow, TensorFlow's own C++ Graph Transform Tool
  and the OpenVINO runtime, so that ``mo``'s output can be checked against code it does not share.

Neither module imports TensorFlow or OpenVINO at import time; they are imported when first needed.
"""
