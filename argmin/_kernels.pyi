"""Type stubs for the compiled kernels (``argmin/kernels/reduce.pyx``), the same in each variant."""

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import numpy as np
import numpy.typing as npt

from ._tuning import Tuning

def set_bfloat16(dtype: np.dtype) -> None: ...
def compiled_level() -> int: ...
def address_sanitized() -> bool: ...
def max_threads() -> int: ...
def threads_started() -> bool: ...
def thread_debt(debt: float | None = None) -> float: ...
def threads_in_use() -> int: ...
def reset_governor() -> None: ...
def plan_threads_for(
    requested: int,
    allowed: int,
    nested: bool,
    nbytes: int,
    debt: float,
    seconds_per_byte: float,
    threads_in_use: int,
    parallel_seconds: float,
) -> int: ...
def settle_after(
    debt: float,
    factor: float,
    seconds: float,
    excess: float | None,
    nbytes: int,
    seconds_per_byte: float = 0,
) -> tuple[float, float, float]: ...
def excess_of(wall: float, busy: list[float], elements: list[int]) -> float: ...
def default_tuning_of_cpu() -> dict[str, int | bool | float]: ...
def short_row_bounds(itemsize: int) -> tuple[int, int]: ...
def row_way(n: int, itemsize: int, tuning: Tuning | None = None) -> str: ...
def plan_of(
    data: np.ndarray,
    axis: int,
    num_threads: int,
    tuning: Tuning | None = None,
    values: bool = False,
) -> dict[str, int | bool | str]: ...
def reduce_axis(
    data: np.ndarray,
    axis: int,
    keepdims: bool,
    last: bool,
    num_threads: int,
    maximum: bool,
    tuning: Tuning | None,
    out: npt.NDArray[np.int64] | None = None,
    values: bool = False,
    skip_nan: bool = False,
) -> npt.NDArray[np.int64] | tuple[np.ndarray, npt.NDArray[np.int64]]: ...
def settle_all_nan(
    values: np.ndarray, indices: npt.NDArray[np.int64], placeholder: int | None
) -> int: ...
def cap_threads(most: int) -> None: ...
def set_tuning_source(source: ContextVar[Tuning | None], tuned: list[bool]) -> None: ...
def tuning_in_force() -> Tuning | None: ...
def set_in_use(chosen: bool) -> None: ...
def set_fallback(arg_reduce: Callable[..., Any], nan_reduce: Callable[..., Any]) -> None: ...
def quick_reduce(
    data: object,
    axis: object,
    keepdims: object,
    select_last_index: object,
    opset: int,
    num_threads: object,
    maximum: bool,
    values: bool,
    skip_nan: bool = False,
) -> Any: ...
def quick_numpy(a: object, axis: object, keepdims: object, maximum: bool) -> Any: ...
def argmin(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, num_threads: int | None = None,
) -> npt.NDArray[np.int64]: ...
def argmax(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, num_threads: int | None = None,
) -> npt.NDArray[np.int64]: ...
def min_argmin(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, num_threads: int | None = None,
) -> tuple[np.ndarray, npt.NDArray[np.int64]]: ...
def max_argmax(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, num_threads: int | None = None,
) -> tuple[np.ndarray, npt.NDArray[np.int64]]: ...
def ArgMin(
    data: npt.ArrayLike, axis: int = 0, keepdims: int = 1, select_last_index: int = 0
) -> npt.NDArray[np.int64]: ...
def ArgMax(
    data: npt.ArrayLike, axis: int = 0, keepdims: int = 1, select_last_index: int = 0
) -> npt.NDArray[np.int64]: ...
def nanargmin(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, all_nan: str | int = "raise", num_threads: int | None = None,
) -> npt.NDArray[np.int64]: ...
def nanargmax(
    data: npt.ArrayLike, axis: int = 0, keepdims: bool = True, select_last_index: bool = False,
    *, all_nan: str | int = "raise", num_threads: int | None = None,
) -> npt.NDArray[np.int64]: ...
