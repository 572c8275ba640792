"""ONNX ArgMin and ArgMax for ``onnx.reference.ReferenceEvaluator``, computed by argmin.

``ReferenceEvaluator(model, new_ops=[argmin.onnx.ArgMin, argmin.onnx.ArgMax])``
runs every ArgMin and ArgMax node of ``model`` (domain ``ai.onnx``) with
argmin's kernels instead of ``numpy.argmin`` and ``numpy.argmax``, following
the version of each operator that the model's opset import selects (1, 11,
12 or 13) for attributes and element types.  Needs the
``onnx`` extra (``pip install '.[onnx]'`` from the source, or ``pip install onnx``).
"""

import numpy as np

from . import _api, _extras, _rules

_NEEDS = ("argmin.onnx", "the onnx package, argmin's onnx extra", "pip install onnx")
onnx = _extras.require("onnx", *_NEEDS)
OpRun = _extras.require("onnx.reference.op_run", *_NEEDS).OpRun

__all__ = ["ArgMax", "ArgMin"]
__dir__ = _extras.public_dir(__all__)


def _imported_version(onnx_node, run_params):
    """The opset version that the model (or function) imports for the node's domain."""
    opsets = run_params.get("opsets") or {}
    domain = onnx_node.domain
    for name in ("", "ai.onnx") if domain in ("", "ai.onnx") else (domain,):
        if name in opsets:
            return opsets[name]
    raise ValueError(
        f"the model imports no opset for domain {domain!r} of node "
        f"{onnx_node.name or onnx_node.op_type!r}; imported: {dict(opsets)!r}"
    )


def _bfloat16_as_ml_dtypes(data):
    """``data`` with onnx's own bfloat16 storage type read as ``ml_dtypes.bfloat16``.

    onnx releases without ml_dtypes give bfloat16 tensors as uint16 with one
    field named ``bfloat16`` (``onnx.reference.custom_element_types``), which
    numpy takes for plain uint16.  The bits are those of bfloat16.
    """
    if isinstance(data, np.ndarray) and data.dtype.names == ("bfloat16",):
        bits = data.dtype.fields["bfloat16"][0]
        if bits.kind == "u" and bits.itemsize == 2 and data.dtype.itemsize == 2:
            plain = data.view(bits)
            if not bits.isnative:
                plain = plain.astype(bits.newbyteorder("="))
            return plain.view(_rules.bfloat16())
    return data


class _ArgReduce(OpRun):
    # A node of ArgMin or ArgMax (the subclass's name), of the version the model imports.

    op_domain = ""
    _maximum = False

    def __init__(self, onnx_node, run_params, schema=None):
        op = type(self).__name__
        if schema is None:
            version = _imported_version(onnx_node, run_params)
            schema = onnx.defs.get_schema(op, version, "")
        self.opset = schema.since_version
        if self.opset not in _rules.OPSETS:
            raise NotImplementedError(
                f"argmin implements {op} versions {', '.join(map(str, _rules.OPSETS))}, "
                f"not {op}-{self.opset}"
            )
        for attribute in onnx_node.attribute:
            if attribute.name not in schema.attributes:
                raise TypeError(
                    f"{op}-{self.opset} has no attribute {attribute.name!r}; its "
                    f"attributes are {', '.join(sorted(schema.attributes))}"
                )
        super().__init__(onnx_node, run_params, schema)

    def _run(self, data, axis=0, keepdims=1, select_last_index=0):
        data = _bfloat16_as_ml_dtypes(data)
        return (_api.arg_reduce(data, axis, keepdims, select_last_index, self.opset,
                                maximum=self._maximum),)


class ArgMin(_ArgReduce):
    """ONNX ArgMin for ``onnx.reference.ReferenceEvaluator``, computed by argmin.

    Pass the class in ``new_ops``: ``ReferenceEvaluator`` then builds one
    instance per ArgMin node.  Each instance follows the version of ArgMin
    that the model imports: ArgMin-1 for opsets 1 to 10, ArgMin-11 for 11,
    ArgMin-12 for 12 and ArgMin-13 for opset 13 and later.  That version
    decides which attributes the node may have and which element types its
    input may have (bfloat16 needs ArgMin-13), exactly as `argmin.opset1`,
    `argmin.opset11`, `argmin.opset12` and `argmin.opset13` do.  Ties give the
    first index (the last with ``select_last_index=1``); NaN counts as the
    minimum.

    Parameters
    ----------
    onnx_node : onnx.NodeProto
        The ArgMin node, with attributes ``axis`` (int, default 0),
        ``keepdims`` (0 or 1, default 1) and, from ArgMin-12 on,
        ``select_last_index`` (0 or 1, default 0).
    run_params : dict
        Run parameters from ``ReferenceEvaluator``; its ``"opsets"`` entry
        gives the opset version imported for the node's domain.
    schema : onnx.defs.OpSchema, optional
        The ArgMin schema to follow; by default the one of the imported opset.

    Attributes
    ----------
    opset : int
        The version of ArgMin the node follows: 1, 11, 12 or 13.

    Raises
    ------
    TypeError
        When built, if the node has an attribute that its version of ArgMin
        does not define (``select_last_index`` before ArgMin-12).  When run,
        for an input element type that the version does not accept (wrapped
        by ``OpRun.run`` in a TypeError whose ``__cause__`` names the allowed
        types), or a non-integer ``axis``.
    NotImplementedError
        When built, for a version of ArgMin other than 1, 11, 12 and 13.
    numpy.exceptions.AxisError
        When run, if ``axis`` is out of range for the input (rank ``r``:
        ``[-r, r - 1]``), or the input has rank 0.
    ValueError
        When run, if the reduced axis has length 0, or ``keepdims`` or
        ``select_last_index`` is not 0 or 1.

    Notes
    -----
    Running the node takes ``data``, an array of shape ``(d_0, ..., d_{r-1})``
    and of one of the version's element types, and gives a one-element tuple
    holding a new C-contiguous int64 array of shape
    ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims=1``, or the shape without
    ``d_axis`` with ``keepdims=0``.  bfloat16 comes as ``ml_dtypes.bfloat16``,
    or, from onnx releases without ml_dtypes, as their uint16-based bfloat16
    type, which is read as bfloat16.

    Examples
    --------
    >>> import numpy as np
    >>> from onnx import TensorProto, helper
    >>> from onnx.reference import ReferenceEvaluator
    >>> import argmin.onnx
    >>> node = helper.make_node("ArgMin", ["x"], ["y"], axis=1, keepdims=0,
    ...                         select_last_index=1)
    >>> graph = helper.make_graph(
    ...     [node], "g",
    ...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, None])],
    ...     [helper.make_tensor_value_info("y", TensorProto.INT64, [None])])
    >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    >>> session = ReferenceEvaluator(model, new_ops=[argmin.onnx.ArgMin])
    >>> x = np.array([[2.0, 1.0, 1.0], [np.nan, 0.0, np.nan]], dtype=np.float32)
    >>> session.run(None, {"x": x})
    [array([2, 2])]
    """


class ArgMax(_ArgReduce):
    _maximum = True


# The same contract for the maximum; in the example, the last NaN of the second row wins.
ArgMax.__doc__ = (ArgMin.__doc__.replace("ArgMin", "ArgMax").replace("minimum", "maximum")
                  .replace("[array([2, 2])]", "[array([0, 2])]"))
