"""The ONNX rules of ArgMin and ArgMax: element types per opset, attributes, axis.

Everything here is plain Python on purpose: it is the one place that says
what each opset accepts.  The kernels assume these checks have passed.
"""

import functools
import operator
import sys

import numpy as np
from numpy.exceptions import AxisError

#: The operators, and the opsets that define them (the same for both).
OPERATORS = ("ArgMin", "ArgMax")
OPSETS = (1, 11, 12, 13)

#: The element types of every opset, numpy's own: all but bfloat16.
NUMERIC_TYPES = tuple(
    np.dtype(name)
    for name in (
        "float16", "float32", "float64",
        "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64",
    )
)


@functools.cache
def bfloat16():
    """``ml_dtypes.bfloat16`` as a numpy dtype (importing ml_dtypes, which is slow, at first)."""
    import ml_dtypes

    return np.dtype(ml_dtypes.bfloat16)


def loaded_bfloat16():
    """`bfloat16` if ml_dtypes is imported, else None: no array has that type before."""
    return bfloat16() if "ml_dtypes" in sys.modules else None


def element_types(opset):
    """Element types of ArgMin-``opset``'s and ArgMax-``opset``'s input: numpy dtypes in native
    byte order."""
    return NUMERIC_TYPES + (bfloat16(),) if opset >= 13 else NUMERIC_TYPES


def __getattr__(name):
    # BFLOAT16 and ELEMENT_TYPES import ml_dtypes: only when asked for.
    if name == "BFLOAT16":
        return bfloat16()
    if name == "ELEMENT_TYPES":
        return {opset: element_types(opset) for opset in OPSETS}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _type_name(dtype):
    if dtype.names is not None:
        return f"{dtype} (a type with fields)"
    return dtype.name


def check_element_type(dtype, opset, op="ArgMin"):
    """Return ``dtype`` in native byte order if ``op``-``opset`` accepts it.

    Raises
    ------
    TypeError
        If the element type is not one of the opset's, with the allowed ones.
    """
    native = dtype.newbyteorder("=") if dtype.byteorder not in "=|" else dtype
    bfloat16_type = loaded_bfloat16()
    if native.names is None and native in NUMERIC_TYPES:
        return NUMERIC_TYPES[NUMERIC_TYPES.index(native)]
    # (A dtype compares equal to None where it is float64: test for None first.)
    is_bfloat16 = bfloat16_type is not None and native == bfloat16_type
    if native.names is None and is_bfloat16 and opset >= 13:
        return bfloat16_type
    allowed = ", ".join([t.name for t in NUMERIC_TYPES] + ["bfloat16"] * (opset >= 13))
    hint = " (bfloat16 needs opset 13)" if is_bfloat16 else ""
    raise TypeError(
        f"{op}-{opset} does not accept element type {_type_name(native)}{hint}; "
        f"allowed: {allowed}"
    )


def check_flag(value, name, op="ArgMin"):
    """Return an ONNX 0/1 attribute ``name`` of ``op`` as a bool.

    Accepts 0, 1, False, True and numpy integers and booleans of those values.

    Raises
    ------
    ValueError
        For anything else.
    """
    if value.__class__ is bool:
        return value
    if value.__class__ is int and (value == 0 or value == 1):
        return value == 1
    if isinstance(value, np.bool_):
        return bool(value)
    try:
        number = operator.index(value)
    except TypeError:
        number = None
    if number == 0 or number == 1:
        return bool(number)
    raise ValueError(f"{op}: {name} must be 0 or 1 (or False/True), got {value!r}")


def normalize_axis(axis, ndim, op="ArgMin"):
    """Return ``axis`` in ``[0, ndim)``; ONNX allows ``[-ndim, ndim - 1]``.

    Raises
    ------
    TypeError
        If ``axis`` is not an integer (a bool is not).
    numpy.exceptions.AxisError
        If ``axis`` is out of range; a rank-0 input has no valid axis.
    """
    if axis.__class__ is int:
        index = axis
    elif isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"{op}: axis must be an integer, got {axis!r}")
    else:
        try:
            index = operator.index(axis)
        except TypeError:
            raise TypeError(
                f"{op}: axis must be an integer, got {type(axis).__name__} {axis!r}"
            ) from None
    if -ndim <= index < ndim:
        return index + ndim if index < 0 else index
    raise AxisError(index, ndim, msg_prefix=op)


def check_axis_length(shape, axis, op="ArgMin"):
    """Refuse an empty reduced axis: ``op`` of nothing has no index.

    Raises
    ------
    ValueError
        If ``shape[axis]`` is 0.
    """
    if shape[axis] == 0:
        raise ValueError(
            f"cannot take {op} of an empty axis: axis {axis} of shape {shape} has length 0"
        )
