"""PaddlePaddle models: readers for the classic ``ProgramDesc`` (``.pdmodel``, ``__model__``), Paddle 3's PIR
JSON program (``.json``) and the parameter files (``.pdiparams``, one file per parameter), with numpy and
protobuf only: ``paddle`` itself is never imported.

``load.read_model`` is the entry point; ``model`` holds the plain structures every reader returns.
"""
