"""argmin.onnx.ArgMin and ArgMax in onnx.reference.ReferenceEvaluator, against the numpy oracle."""

from importlib import resources

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnx.reference.ops import op_argmax, op_argmin

import argmin._api
import argmin.onnx

from . import oracle
from .conftest import BY_NAME
from .test_onnx_node_cases import CASES as ONNX_CASES

OPSETS = (1, 11, 12, 13)
LATEST = onnx.defs.onnx_opset_version()


@pytest.fixture
def calls(entry_calls, monkeypatch):
    """Every call of argmin's entry point (see `entry_calls`); onnx's own ArgMin and ArgMax
    made to fail."""

    def not_ours(*args, **kwargs):
        raise AssertionError("onnx.reference's own ArgMin or ArgMax ran")

    for module, name in ((op_argmin, "_argmin"), (op_argmax, "_argmax")):
        monkeypatch.setattr(module, name, not_ours)
        monkeypatch.setattr(module, f"{name}_use_numpy_select_last_index", not_ours)
    return entry_calls


def _ours(operator):
    """argmin.onnx's class for the operator."""
    return getattr(argmin.onnx, operator.name)


def _attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _with_opset(model, opset):
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    del copy.opset_import[:]
    copy.opset_import.append(helper.make_opsetid("", opset))
    return copy


def _oracle(operator, data, attributes):
    return operator.oracle(
        data,
        axis=attributes.get("axis", 0),
        keepdims=attributes.get("keepdims", 1),
        select_last_index=attributes.get("select_last_index", 0),
    )


def _check(result, expected):
    assert isinstance(result, np.ndarray)
    assert result.dtype == np.int64
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("opset", OPSETS + (LATEST,))
@pytest.mark.parametrize("op, case", [(op, case) for op, cases in ONNX_CASES.items()
                                      for case in cases],
                         ids=lambda value: getattr(value, "name", value))
def test_onnx_node_cases(op, case, opset, calls):
    """ONNX's cases under each opset import; a later opset keeps ArgMin-13 and ArgMax-13."""
    (node,) = case.model.graph.node
    attributes = _attributes(node)
    model = _with_opset(case.model, opset)
    new_ops = [argmin.onnx.ArgMin, argmin.onnx.ArgMax]
    if opset < 12 and "select_last_index" in attributes:
        with pytest.raises(TypeError) as excinfo:
            ReferenceEvaluator(model, new_ops=new_ops)
        assert "%s-%d has no attribute 'select_last_index'" % (op, opset) in str(
            excinfo.value.__cause__
        )
        return
    session = ReferenceEvaluator(model, new_ops=new_ops)
    operator = BY_NAME[op]
    for inputs, outputs in case.data_sets:
        (data,) = inputs
        feeds = dict(zip((i.name for i in case.model.graph.input), inputs))
        (result,) = session.run(None, feeds)
        _check(result, _oracle(operator, data, attributes))
        _check(result, np.asarray(outputs[0], dtype=np.int64))
    version = max(v for v in OPSETS if v <= opset)
    assert [(c["op"], c["opset"]) for c in calls] == [(op, version)] * len(case.data_sets)


def _model(op, elem_type, opset, **attributes):
    """A model of one ``op`` node, from input x to output y."""
    node = helper.make_node(op, ["x"], ["y"], **attributes)
    graph = helper.make_graph(
        [node],
        op.lower(),
        [helper.make_tensor_value_info("x", elem_type, None)],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _elem_type(dtype):
    if np.dtype(dtype) == oracle.BFLOAT16:  # older onnx maps no numpy type to BFLOAT16
        return TensorProto.BFLOAT16
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def _types_of(opset):
    return [t for t in oracle.ELEMENT_TYPES if opset == 13 or t != oracle.BFLOAT16]


@pytest.mark.parametrize(
    ("opset", "dtype"),
    [(opset, dtype) for opset in OPSETS for dtype in _types_of(opset)],
    ids=str,
)
def test_every_type_and_axis(opset, dtype, operator, calls):
    data = np.random.default_rng(opset).choice(oracle.special_values(dtype), size=(4, 5, 6))
    flags = [(k, 0) for k in (0, 1)] + ([(k, 1) for k in (0, 1)] if opset >= 12 else [])
    for axis in range(-3, 3):
        for keepdims, last in flags:
            attributes = {"axis": axis, "keepdims": keepdims}
            if opset >= 12:
                attributes["select_last_index"] = last
            session = ReferenceEvaluator(
                _model(operator.name, _elem_type(dtype), opset, **attributes),
                new_ops=[_ours(operator)],
            )
            (result,) = session.run(None, {"x": data})
            _check(result, _oracle(operator, data, attributes))
    assert {(c["op"], c["opset"]) for c in calls} == {(operator.name, opset)}


def test_bfloat16_needs_opset_13(operator):
    data = np.zeros((2, 3), dtype=oracle.BFLOAT16)
    session = ReferenceEvaluator(
        _model(operator.name, TensorProto.BFLOAT16, 12), new_ops=[_ours(operator)]
    )
    with pytest.raises(TypeError) as excinfo:
        session.run(None, {"x": data})
    assert "bfloat16 needs opset 13" in str(excinfo.value.__cause__)


@pytest.mark.parametrize("byteorder", ["=", ">"])
def test_onnx_own_bfloat16_type_is_read_as_bfloat16(byteorder, operator, calls):
    data = np.random.default_rng(2).choice(oracle.special_values(oracle.BFLOAT16), size=(5, 8))
    bits = data.view(np.uint16).astype(np.dtype(np.uint16).newbyteorder(byteorder))
    stored = bits.view(np.dtype((bits.dtype, {"bfloat16": (bits.dtype, 0)})))
    session = ReferenceEvaluator(
        _model(operator.name, TensorProto.BFLOAT16, 13, axis=1, select_last_index=1),
        new_ops=[_ours(operator)],
    )
    (result,) = session.run(None, {"x": stored})
    _check(result, operator.oracle(data, axis=1, select_last_index=1))
    assert [c["op"] for c in calls] == [operator.name]


def test_bfloat16_constant_in_a_model(operator, calls):
    """However this onnx holds a bfloat16 initializer, ArgMin and ArgMax read bfloat16 values."""
    values = np.array([[1.5, -2.0, np.nan, -2.0], [-0.0, 0.0, -np.inf, 3.0]])
    constant = helper.make_tensor("c", TensorProto.BFLOAT16, values.shape, values.ravel())
    graph = helper.make_graph(
        [
            helper.make_node("Constant", [], ["c"], value=constant),
            helper.make_node(operator.name, ["c"], ["y"], axis=1, keepdims=0),
            helper.make_node(operator.name, ["c"], ["z"], axis=0, keepdims=0,
                             select_last_index=1),
        ],
        "constant",
        [],
        [
            helper.make_tensor_value_info("y", TensorProto.INT64, None),
            helper.make_tensor_value_info("z", TensorProto.INT64, None),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    y, z = ReferenceEvaluator(model, new_ops=[_ours(operator)]).run(None, {})
    data = values.astype(oracle.BFLOAT16)
    _check(y, operator.oracle(data, axis=1, keepdims=0))
    _check(z, operator.oracle(data, axis=0, keepdims=0, select_last_index=1))
    assert [c["op"] for c in calls] == [operator.name] * 2


@pytest.mark.parametrize(
    ("attributes", "error"),
    [
        ({"axis": 2}, np.exceptions.AxisError),
        ({"axis": -3}, np.exceptions.AxisError),
        ({"keepdims": 2}, ValueError),
        ({"select_last_index": 3}, ValueError),
    ],
)
def test_attribute_errors_match_the_opset_api(attributes, error, operator):
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    session = ReferenceEvaluator(
        _model(operator.name, TensorProto.FLOAT, 13, **attributes), new_ops=[_ours(operator)]
    )
    with pytest.raises(error) as got:
        session.run(None, {"x": data})
    with pytest.raises(error) as expected:
        getattr(argmin.opset13, operator.name)(data, **attributes)
    assert str(got.value) == str(expected.value)
    assert operator.name in str(got.value)


def test_empty_axis_is_refused(operator):
    data = np.zeros((0, 3), dtype=np.float32)
    session = ReferenceEvaluator(_model(operator.name, TensorProto.FLOAT, 11),
                                 new_ops=[_ours(operator)])
    with pytest.raises(ValueError, match=f"{operator.name}.*empty axis"):
        session.run(None, {"x": data})


CENTROIDS = np.array(
    [[5.0, 3.5, 1.5, 0.25], [6.0, 2.75, 4.25, 1.25], [6.5, 3.0, 5.5, 2.0], [6.0, 2.75, 4.25, 1.25]]
)


def _centroid_model(op, dtype, opset, keepdims, last):
    """Squared distances of points x (N, 1, D) to centroids (1, K, D), then ``op`` twice.

    Outputs: the distances (N, K), the nearest (ArgMin) or farthest (ArgMax)
    centroid of each point (over axis 1) and the nearest or farthest point of
    each centroid (over axis 0).
    """
    elem_type = _elem_type(dtype)
    flags = {"keepdims": keepdims}
    if opset >= 12:
        flags["select_last_index"] = last
    nodes = [
        helper.make_node("Sub", ["x", "centroids"], ["diff"]),
        helper.make_node("Mul", ["diff", "diff"], ["square"]),
    ]
    initializers = []
    if opset >= 13:
        initializers.append(numpy_helper.from_array(np.array([2], dtype=np.int64), "axes"))
        nodes.append(helper.make_node("ReduceSum", ["square", "axes"], ["dist"], keepdims=0))
    else:
        nodes.append(helper.make_node("ReduceSum", ["square"], ["dist"], axes=[2], keepdims=0))
    nodes += [
        helper.make_node(op, ["dist"], ["label"], axis=1, **flags),
        helper.make_node(op, ["dist"], ["point"], axis=0, **flags),
    ]
    graph = helper.make_graph(
        nodes,
        "centroid",
        [
            helper.make_tensor_value_info("x", elem_type, [None, 1, 4]),
            helper.make_tensor_value_info("centroids", elem_type, [1, 4, 4]),
        ],
        [
            helper.make_tensor_value_info("dist", elem_type, [None, 4]),
            helper.make_tensor_value_info("label", TensorProto.INT64, None),
            helper.make_tensor_value_info("point", TensorProto.INT64, None),
        ],
        initializer=initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _points(dtype):
    """Iris flowers, a flower with a NaN and one at infinity (ties between all centroids)."""
    with resources.files("argmin").joinpath("data/iris.npz").open("rb") as f:
        measurements = np.load(f, allow_pickle=False)["measurements"]
    extra = np.array([[5.0, np.nan, 1.0, 0.5], [np.inf, 3.0, 1.0, 0.5]])
    return np.concatenate([measurements, extra]).astype(dtype)[:, None, :]


@pytest.mark.parametrize("keepdims", [0, 1])
@pytest.mark.parametrize(
    ("opset", "dtype", "last"),
    [
        (opset, dtype, last)
        for opset in (11, 12, 13)
        for dtype in oracle.FLOAT_TYPES
        if opset == 13 or dtype != oracle.BFLOAT16
        for last in ((0, 1) if opset >= 12 else (0,))
    ],
    ids=str,
)
def test_centroid_classifier(opset, dtype, last, keepdims, operator, calls):
    x = _points(dtype)
    session = ReferenceEvaluator(
        _centroid_model(operator.name, dtype, opset, keepdims, last), new_ops=[_ours(operator)]
    )
    centroids = CENTROIDS.astype(dtype)[None]
    dist, label, point = session.run(None, {"x": x, "centroids": centroids})
    assert dist.dtype == dtype and dist.shape == (x.shape[0], 4)
    _check(label, operator.oracle(dist, axis=1, keepdims=keepdims, select_last_index=last))
    _check(point, operator.oracle(dist, axis=0, keepdims=keepdims, select_last_index=last))
    assert [(c["op"], c["opset"], c["axis"]) for c in calls] == [
        (operator.name, opset, 1), (operator.name, opset, 0)]
    np.testing.assert_array_equal(oracle.exact(dist[:, 1]), oracle.exact(dist[:, 3]))  # ties


def _cast_model(op, dtype, opset, **attributes):
    nodes = [
        helper.make_node("Cast", ["x"], ["cast"], to=_elem_type(dtype)),
        helper.make_node(op, ["cast"], ["y"], **attributes),
    ]
    graph = helper.make_graph(
        nodes,
        "cast",
        [helper.make_tensor_value_info("x", TensorProto.INT64, None)],
        [
            helper.make_tensor_value_info("cast", _elem_type(dtype), None),
            helper.make_tensor_value_info("y", TensorProto.INT64, None),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("dtype", oracle.INTEGER_TYPES, ids=str)
def test_cast_then_reduce_integers(dtype, opset, operator, calls):
    values = oracle.special_values(dtype).astype(np.int64)  # Cast back gives them again
    x = np.random.default_rng(7).choice(values, size=(6, 9))
    for axis in (0, 1, -1):
        attributes = {"axis": axis, "keepdims": 0}
        if opset >= 12:
            attributes["select_last_index"] = axis % 2
        session = ReferenceEvaluator(
            _cast_model(operator.name, dtype, opset, **attributes), new_ops=[_ours(operator)]
        )
        cast, result = session.run(None, {"x": x})
        assert cast.dtype == dtype
        _check(result, _oracle(operator, cast, attributes))
    assert [c["op"] for c in calls] == [operator.name] * 3


def test_node_in_a_subgraph_runs_ours(operator, calls):
    """The node inside an If branch: ReferenceEvaluator hands new_ops to subgraphs."""
    then_graph = helper.make_graph(
        [helper.make_node(operator.name, ["x"], ["y"], axis=1, keepdims=0,
                          select_last_index=1)],
        "then",
        [],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )
    else_graph = helper.make_graph(
        [helper.make_node(operator.name, ["x"], ["y"], axis=0, keepdims=0)],
        "else",
        [],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["cond"], ["y"], then_branch=then_graph, else_branch=else_graph)],
        "if",
        [
            helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
            helper.make_tensor_value_info("x", TensorProto.UINT64, None),
        ],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    session = ReferenceEvaluator(model, new_ops=[_ours(operator)])
    x = np.array([[2**63, 5, 5], [5, 2**63 + 1, 2**63 + 1]], dtype=np.uint64)
    for cond, axis, last in ((True, 1, 1), (False, 0, 0)):
        (result,) = session.run(None, {"cond": np.array(cond), "x": x})
        _check(result, operator.oracle(x, axis=axis, keepdims=0, select_last_index=last))
    assert [(c["op"], c["opset"]) for c in calls] == [(operator.name, 13)] * 2


def test_op_run_eval_uses_the_latest_opset(operator, calls):
    data = np.array([[3, 1, 1], [0, 2, 0], [3, 1, 3]], dtype=np.int16)
    result = _ours(operator).eval(data, axis=1, keepdims=0, select_last_index=1)
    _check(result, operator.oracle(data, axis=1, keepdims=0, select_last_index=1))
    assert [(c["op"], c["opset"]) for c in calls] == [(operator.name, 13)]


def test_without_new_ops_onnx_runs_its_own(operator, calls):
    """The spy tells the two apart: without new_ops, onnx.reference's own operator runs."""
    session = ReferenceEvaluator(_model(operator.name, TensorProto.FLOAT, 13))
    with pytest.raises(AssertionError, match="onnx.reference's own ArgMin or ArgMax ran"):
        session.run(None, {"x": np.ones((2, 2), dtype=np.float32)})
    assert calls == []
