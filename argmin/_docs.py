"""One numpydoc docstring for the ArgMin of every opset, filled from the opset's facts."""

import textwrap

from ._rules import NUMERIC_TYPES

# What each version of ArgMin changed, as the ONNX operator changelog says.
_CHANGES = {
    1: "",
    11: (": as version 1, with the accepted range of ``axis`` stated as ``[-r, r - 1]`` and "
         "the input required to be non-empty along it"),
    12: ", which adds ``select_last_index`` to version 11",
    13: ", which adds bfloat16 to version 12",
}

_TEMPLATE = """\
Indices of the minimum elements of ``data`` along ``axis`` (ONNX ArgMin-{opset}).

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
    When the minimum occurs several times (or several NaNs), give the
    first index (0) or the last (1).
"""


def _paragraph(text, indent=""):
    return textwrap.fill(text, width=74, initial_indent=indent, subsequent_indent=indent)


# A doctest of each opset's ArgMin.
_EXAMPLES = {
    1: """
    >>> import numpy as np
    >>> from argmin import opset1
    >>> opset1.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.float32), axis=1)
    array([[1],
           [0]])
    """,
    11: """
    >>> import numpy as np
    >>> from argmin import opset11
    >>> opset11.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.int32), axis=-1, keepdims=0)
    array([1, 0])
    """,
    12: """
    >>> import numpy as np
    >>> from argmin import opset12
    >>> opset12.ArgMin(np.array([[2, 2], [3, 10]], dtype=np.float32), axis=1,
    ...                select_last_index=1)
    array([[1],
           [0]])
    """,
    13: """
    >>> import ml_dtypes
    >>> import numpy as np
    >>> from argmin import opset13
    >>> x = np.array([[2.0, np.nan], [3.0, -1.0]], dtype=ml_dtypes.bfloat16)
    >>> opset13.ArgMin(x, axis=1, keepdims=0)
    array([1, 1])
    """,
}


def opset_docstring(opset):
    """The docstring of ``argmin.opset{opset}.ArgMin``."""
    names = [t.name for t in NUMERIC_TYPES]
    if opset >= 13:
        names.insert(1, "bfloat16 (``ml_dtypes.bfloat16``)")
    ties = "" if opset >= 12 else "  Ties give the first index;"
    follows = (f"Follows the ONNX operator ArgMin, version {opset} (``ai.onnx`` opset {opset}, "
               f'section "ArgMin-{opset}" of the ONNX operator changelog){_CHANGES[opset]}.'
               f"{ties}{'  NaN' if opset >= 12 else ' NaN'} counts as the minimum.")
    flags = "``keepdims`` or ``select_last_index``" if opset >= 12 else "``keepdims``"
    bfloat16 = "" if opset >= 13 else " (bfloat16 needs opset 13)"
    return _TEMPLATE.format(
        opset=opset,
        follows=_paragraph(follows),
        types=_paragraph(f"Input tensor of rank ``r >= 1``, of element type {', '.join(names[:-1])} "
                         f"or {names[-1]}, in any memory layout or byte order.", "    "),
        last=_LAST if opset >= 12 else "",
        type_error=_paragraph(f"For another element type{bfloat16}, a masked array, or a "
                              "non-integer ``axis``.", "    "),
        value_error=_paragraph(f"If the reduced axis has length 0, or {flags} is not 0 or 1.",
                               "    "),
        example=textwrap.dedent(_EXAMPLES[opset]).strip(),
    )
