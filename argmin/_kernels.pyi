"""Type stubs for the compiled ArgMin kernels (``argmin/_kernels.pyx``)."""

import numpy as np
import numpy.typing as npt

def set_bfloat16(dtype: np.dtype) -> None: ...
def cpu_level() -> int: ...
def max_threads() -> int: ...
def reduce_axis(
    data: np.ndarray,
    axis: int,
    keepdims: bool,
    last: bool,
    num_threads: int,
) -> npt.NDArray[np.int64]: ...
