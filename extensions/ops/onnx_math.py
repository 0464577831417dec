"""Opset ops the ONNX math ops need beyond mo's: TruncatedDiv, a Divide that rounds integer quotients toward zero."""
import numpy as np

from mo.ops.elementwise import Div


class TruncatedDiv(Div):
    """opset1 Divide with ``m_pythondiv = false``: integer quotients round toward zero (C's and ONNX's division;
    mo's ``Div`` is the opset's default, floor division). Floats divide as ever."""
    op, type = 'TruncatedDiv', 'Divide'

    def backend_attrs(self):
        return ['auto_broadcast', ('m_pythondiv', lambda node: 'false')]

    @staticmethod
    def operation(a, b):
        dtype = np.result_type(a, b)
        if np.issubdtype(dtype, np.integer):
            a, b = np.asarray(a, dtype), np.asarray(b, dtype)
            if dtype.kind == 'u':
                return a // b
            return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(dtype)
        return np.divide(a, b).astype(dtype)
