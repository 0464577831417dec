"""mo: TensorFlow frozen graphs to OpenVINO IR, and the Graph Transform Tool, in pure Python."""

#: the package version (setup.cfg reads it from here); the IR records it in <rt_info><MO_version>
__version__ = '0.1.0'
