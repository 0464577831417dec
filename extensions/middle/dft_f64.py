"""Fourier transforms of float64 signals: computed in float32.

The opset's DFT, IDFT, RDFT and IRDFT take f32, f16 or bf16 only (OpenVINO refuses the IR otherwise), while
ONNX's DFT and STFT also take double: the signal is converted to f32 and the result back to f64 (f32's
relative precision, 1e-7, is what OpenVINO's CPU plugin computes anyway).
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.convert import Convert
from mo.ops.fft import DFT, IDFT, IRDFT, RDFT

_TRANSFORMS = {'DFT': DFT, 'IDFT': IDFT, 'RDFT': RDFT, 'IRDFT': IRDFT}


class FourierTransformF64(MiddleOpRule):
    """DFT/IDFT/RDFT/IRDFT(x: f64, ...) = Convert(transform(Convert(x, f32), ...), f64)."""
    id = 'FourierTransformF64'
    op = tuple(_TRANSFORMS)

    def matches(self, node: Node) -> bool:
        dtype = node.in_port(0).data.get_data_type()
        return dtype is not None and np.dtype(dtype) == np.float64

    def rewrite(self, node: Node, b: Builder):
        signal = b.op(Convert, [node.in_port(0)], 'as_f32', dst_type=np.dtype(np.float32))
        others = [node.in_port(port) if node.is_in_port_connected(port) else None for port in (1, 2)]
        transformed = b.op(_TRANSFORMS[node.op], [signal] + others, 'f32')
        return b.op(Convert, [transformed], 'as_f64', dst_type=np.dtype(np.float64))
