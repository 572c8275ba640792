"""ONNX's own ArgMin and ArgMax node test cases, run through the opset API."""

import importlib
import warnings

import numpy as np
import pytest

import argmin

from .conftest import BY_NAME

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

onnx_cases = pytest.importorskip("onnx.backend.test.case.node")

OPSETS = {1: argmin.opset1, 11: argmin.opset11, 12: argmin.opset12, 13: argmin.opset13}


def collect(op):
    """ONNX's node cases of ``op``.  collect_testcases imports the modules of the cases once,
    keeping those of the operator it is first asked for; another operator's module is then
    imported again under that operator's filter."""
    cases = onnx_cases.collect_testcases(op)
    if not any(case.model.graph.node[0].op_type == op for case in cases):
        onnx_cases._TargetOpType = op
        importlib.reload(importlib.import_module(f"{onnx_cases.__name__}.{op.lower()}"))
        cases = onnx_cases._NodeTestCases
    return [case for case in cases if case.model.graph.node[0].op_type == op]

with warnings.catch_warnings():
    # Other operators' case generators divide by zero on purpose.
    warnings.simplefilter("ignore", RuntimeWarning)
    CASES = {op: collect(op) for op in ("ArgMin", "ArgMax")}


def api_for(model, op):
    """The ``op`` of the newest of our opsets that the model's default-domain import allows."""
    version = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    return getattr(OPSETS[max(v for v in OPSETS if v <= version)], op)


@pytest.mark.parametrize("op", CASES)
def test_cases_were_collected(op):
    names = [case.name for case in CASES[op]]
    assert any(name.endswith("select_last_index") for name in names)
    assert any("negative_axis" in name for name in names)


@pytest.mark.parametrize("op, case", [(op, case) for op, cases in CASES.items() for case in cases],
                         ids=lambda value: getattr(value, "name", value))
def test_onnx_node_case(op, case):
    (node,) = case.model.graph.node
    assert node.op_type == op
    attributes = {a.name: a.i for a in node.attribute}
    api = api_for(case.model, op)
    for inputs, outputs in case.data_sets:
        (data,), (expected,) = inputs, outputs
        result = api(data, **attributes)
        assert result.dtype == np.int64
        np.testing.assert_array_equal(result, expected)
        np.testing.assert_array_equal(
            result,
            BY_NAME[op].oracle(data, attributes.get("axis", 0), attributes.get("keepdims", 1),
                        attributes.get("select_last_index", 0)),
        )
