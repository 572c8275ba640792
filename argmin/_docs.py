"""One numpydoc docstring for the ArgMin and ArgMax of every opset, filled from its facts."""

import textwrap

from ._rules import NUMERIC_TYPES

# What each version of ArgMin and ArgMax changed, as the ONNX operator changelog says.
_CHANGES = {
    1: "",
    11: (": as version 1, with the accepted range of ``axis`` stated as ``[-r, r - 1]`` and "
         "the input required to be non-empty along it"),
    12: ", which adds ``select_last_index`` to version 11",
    13: ", which adds bfloat16 to version 12",
}

_TEMPLATE = """\
Indices of the {extreme} elements of ``data`` along ``axis`` (ONNX {op}-{opset}).

{follows}

Parameters
----------
data : array_like, shape (d_0, ..., d_{{r-1}})
{types}
axis : int, default 0
    The axis to reduce, in ``[-r, r - 1]``.
keepdims : {{1, 0}}, default 1
    Keep the reduced axis with length 1 (1) or drop it (0).
{last}
Returns
-------
numpy.ndarray of int64
    Shape ``(d_0, ..., 1, ..., d_{{r-1}})`` with ``keepdims=1``, or the
    shape without ``d_axis`` with ``keepdims=0``.  C-contiguous and newly
    allocated; 0-d when the result has rank 0.

Raises
------
TypeError
{type_error}
numpy.exceptions.AxisError
    If ``axis`` is out of range, or ``data`` has rank 0.
ValueError
{value_error}

Examples
--------
{example}
"""

_LAST = """\
select_last_index : {0, 1}, default 0
    When the {extreme} occurs several times (or several NaNs), give the
    first index (0) or the last (1).
"""


def _paragraph(text, indent=""):
    return textwrap.fill(text, width=74, initial_indent=indent, subsequent_indent=indent)


# A doctest of each operator and opset.
_EXAMPLES = {
    ("ArgMin", 1): """
    >>> import numpy as np
    >>> from argmin import opset1
    >>> opset1.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.float32), axis=1)
    array([[1],
           [0]])
    """,
    ("ArgMin", 11): """
    >>> import numpy as np
    >>> from argmin import opset11
    >>> opset11.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.int32), axis=-1, keepdims=0)
    array([1, 0])
    """,
    ("ArgMin", 12): """
    >>> import numpy as np
    >>> from argmin import opset12
    >>> opset12.ArgMin(np.array([[2, 2], [3, 10]], dtype=np.float32), axis=1,
    ...                select_last_index=1)
    array([[1],
           [0]])
    """,
    ("ArgMin", 13): """
    >>> import ml_dtypes
    >>> import numpy as np
    >>> from argmin import opset13
    >>> x = np.array([[2.0, np.nan], [3.0, -1.0]], dtype=ml_dtypes.bfloat16)
    >>> opset13.ArgMin(x, axis=1, keepdims=0)
    array([1, 1])
    """,
    ("ArgMax", 1): """
    >>> import numpy as np
    >>> from argmin import opset1
    >>> opset1.ArgMax(np.array([[2, 1], [3, 10]], dtype=np.float32), axis=1)
    array([[0],
           [1]])
    """,
    ("ArgMax", 11): """
    >>> import numpy as np
    >>> from argmin import opset11
    >>> opset11.ArgMax(np.array([[2, 1], [3, 10]], dtype=np.int32), axis=-1, keepdims=0)
    array([0, 1])
    """,
    ("ArgMax", 12): """
    >>> import numpy as np
    >>> from argmin import opset12
    >>> opset12.ArgMax(np.array([[2, 2], [3, 10]], dtype=np.float32), axis=1,
    ...                select_last_index=1)
    array([[1],
           [1]])
    """,
    ("ArgMax", 13): """
    >>> import ml_dtypes
    >>> import numpy as np
    >>> from argmin import opset13
    >>> x = np.array([[2.0, np.nan], [3.0, -1.0]], dtype=ml_dtypes.bfloat16)
    >>> opset13.ArgMax(x, axis=1, keepdims=0)
    array([1, 0])
    """,
}

#: The word each operator's docstring uses for the element it finds.
_EXTREMES = {"ArgMin": "minimum", "ArgMax": "maximum"}


def opset_docstring(opset, op="ArgMin"):
    """The docstring of ``argmin.opset{opset}.{op}`` (ArgMin or ArgMax)."""
    extreme = _EXTREMES[op]
    names = [t.name for t in NUMERIC_TYPES]
    if opset >= 13:
        names.insert(1, "bfloat16 (``ml_dtypes.bfloat16``)")
    ties = "" if opset >= 12 else "  Ties give the first index;"
    follows = (f"Follows the ONNX operator {op}, version {opset} (``ai.onnx`` opset {opset}, "
               f'section "{op}-{opset}" of the ONNX operator changelog){_CHANGES[opset]}.'
               f"{ties}{'  NaN' if opset >= 12 else ' NaN'} counts as the {extreme}.")
    flags = "``keepdims`` or ``select_last_index``" if opset >= 12 else "``keepdims``"
    bfloat16 = "" if opset >= 13 else " (bfloat16 needs opset 13)"
    return _TEMPLATE.format(
        op=op,
        extreme=extreme,
        opset=opset,
        follows=_paragraph(follows),
        types=_paragraph(f"Input tensor of rank ``r >= 1``, of element type {', '.join(names[:-1])} "
                         f"or {names[-1]}, in any memory layout or byte order.", "    "),
        last=_LAST.replace("{extreme}", extreme) if opset >= 12 else "",
        type_error=_paragraph(f"For another element type{bfloat16}, a masked array, or a "
                              "non-integer ``axis``.", "    "),
        value_error=_paragraph(f"If the reduced axis has length 0, or {flags} is not 0 or 1.",
                               "    "),
        example=textwrap.dedent(_EXAMPLES[op, opset]).strip(),
    )


# The docstring of argmin.argmin and argmin.argmax: {op} and {extreme} are filled in (the
# braces of d_{r-1} stay as they are).
_FUNCTION = """\
Indices of the {extreme} elements of ``data`` along ``axis`` (ONNX {op}-13).

The same operation as `argmin.{op}` (ONNX {op}-13), with booleans
for the flags and a choice of thread count.  Ties give the first index,
or the last with ``select_last_index=True``; NaN counts as the {extreme};
-0.0 and +0.0 are equal.

Parameters
----------
data : array_like, shape (d_0, ..., d_{r-1})
    Input of rank ``r >= 1``, of element type float16, bfloat16
    (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32,
    int64, uint8, uint16, uint32 or uint64, in any memory layout or byte
    order.  It is never written to and never copied (but for a byte
    order other than the machine's).
axis : int, default 0
    The axis to reduce, in ``[-r, r - 1]``.
keepdims : bool, default True
    Keep the reduced axis with length 1, or drop it.
select_last_index : bool, default False
    On ties, give the last index instead of the first.
num_threads : int, optional
    Most OpenMP threads to use; more than 1024 count as 1024.  By
    default, as many as OpenMP allows (``OMP_NUM_THREADS``, or a
    ``threadpoolctl`` limit in the calling thread) less those that
    other argmin calls of the process run at the same moment, and one
    inside an OpenMP parallel region.  A default call whose threads
    took longer than one thread would have (cores busy with other
    work) makes the next default calls run on one thread until they
    have spent 4 times that loss (up to 64 times where threads keep
    failing); then threads are tried again.  A default call expected
    to take less than 5 us on one thread runs on one: at the pace that
    the process's last default call of the same element size and way
    of reading kept on one thread (before any, at 1 TB/s).  Inputs
    under 128 KiB use one thread whatever this says, and so does a
    process forked from one that had run threads (OpenMP cannot start
    there).  The result does not depend on it.

Returns
-------
numpy.ndarray of int64
    Shape ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims``, or the shape
    without ``d_axis``.  C-contiguous and newly allocated; 0-d when the
    result has rank 0.

Raises
------
TypeError
    For an element type outside the list above, a masked array, or a
    non-integer ``axis``.
numpy.exceptions.AxisError
    If ``axis`` is out of range, or ``data`` has rank 0.
ValueError
    If the reduced axis has length 0, a flag is not 0/1/False/True, or
    ``num_threads`` is not a positive integer.

Examples
--------
"""

_FUNCTION_EXAMPLES = {
    "ArgMin": """\
>>> import numpy as np
>>> import argmin
>>> x = np.array([[4, 1, 1], [0, 7, 0]], dtype=np.uint8)
>>> argmin.argmin(x, axis=1, keepdims=False)
array([1, 0])
>>> argmin.argmin(x, axis=1, keepdims=False, select_last_index=True)
array([2, 2])
""",
    "ArgMax": """\
>>> import numpy as np
>>> import argmin
>>> x = np.array([[4, 1, 4], [0, 7, 7]], dtype=np.uint8)
>>> argmin.argmax(x, axis=1, keepdims=False)
array([0, 1])
>>> argmin.argmax(x, axis=1, keepdims=False, select_last_index=True)
array([2, 2])
""",
}


def function_docstring(op):
    """The docstring of `argmin.argmin` (op ArgMin) or `argmin.argmax` (op ArgMax)."""
    text = _FUNCTION.replace("{op}", op).replace("{extreme}", _EXTREMES[op])
    return text + _FUNCTION_EXAMPLES[op]


# The docstring of argmin.min_argmin and argmin.max_argmax.
_VALUES = """\
The {extreme} elements of ``data`` along ``axis``, and their indices, in one pass.

``indices`` is exactly `argmin.{function}` (ONNX {op}-13) of the same
arguments, and ``values`` holds the elements of ``data`` at those
indices, bit for bit: the NaN that won, with its payload, and -0.0 where
-0.0 was chosen.  Both come from one reading of ``data``, which numpy
needs two passes for (``{reduction}`` and ``{function}``).

Parameters
----------
data, axis, keepdims, select_last_index, num_threads
    As for `argmin.{function}`.

Returns
-------
values : numpy.ndarray of data's element type
    The {extreme} elements, of the indices' shape; in the machine's byte
    order.
indices : numpy.ndarray of int64
    As `argmin.{function}` returns them.  Both C-contiguous and newly
    allocated; 0-d when the result has rank 0.  ``values`` is a view of
    a byte buffer of its own (its ``base``), placed to start its cache
    lines where those of ``indices`` start.

Raises
------
TypeError, numpy.exceptions.AxisError, ValueError
    As `argmin.{function}` raises them.

Examples
--------
>>> import numpy as np
>>> import argmin
>>> x = np.array([[4.0, -0.0, 0.0], [np.nan, 7.0, 0.5]], dtype=np.float32)
>>> values, indices = argmin.{name}(x, axis=1, keepdims=False)
>>> values
array({values}, dtype=float32)
>>> indices
array({indices})
"""

_VALUES_EXAMPLES = {
    "ArgMin": {"values": "[-0., nan]", "indices": "[1, 0]"},
    "ArgMax": {"values": "[ 4., nan]", "indices": "[0, 0]"},
}


def values_docstring(op):
    """The docstring of `argmin.min_argmin` (op ArgMin) or `argmin.max_argmax` (op ArgMax)."""
    extreme = _EXTREMES[op]
    return _VALUES.format(
        extreme=extreme, op=op, function=op.lower(), reduction=extreme[:3],
        name="min_argmin" if op == "ArgMin" else "max_argmax", **_VALUES_EXAMPLES[op])
