"""Cases of the ONNX backend test suite that are out of scope for an OpenVINO IR, each with the reason.

``EXCLUDED`` cases are not run and not counted. Everything else is in scope: a case that fails there is a
defect of mo's (``KNOWN_FAILURES`` in ``test_backend_suite.py`` lists them until they are fixed).
"""

#: name -> why it is not a case for an IR converter
EXCLUDED = {}
