"""ONNX's own ArgMin node test cases, run through the opset API."""

import warnings

import numpy as np
import pytest

import argmin

from . import oracle

onnx_cases = pytest.importorskip("onnx.backend.test.case.node")

OPSETS = {1: argmin.opset1, 11: argmin.opset11, 12: argmin.opset12, 13: argmin.opset13}
with warnings.catch_warnings():
    # Other operators' case generators divide by zero on purpose.
    warnings.simplefilter("ignore", RuntimeWarning)
    CASES = onnx_cases.collect_testcases("ArgMin")


def api_for(model):
    """The ArgMin of the newest of our opsets that the model's default-domain import allows."""
    version = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    return OPSETS[max(v for v in OPSETS if v <= version)].ArgMin


def test_cases_were_collected():
    names = [case.name for case in CASES]
    assert any(name.endswith("select_last_index") for name in names)
    assert any("negative_axis" in name for name in names)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_onnx_node_case(case):
    (node,) = case.model.graph.node
    attributes = {a.name: a.i for a in node.attribute}
    op = api_for(case.model)
    for inputs, outputs in case.data_sets:
        (data,), (expected,) = inputs, outputs
        result = op(data, **attributes)
        assert result.dtype == np.int64
        np.testing.assert_array_equal(result, expected)
        np.testing.assert_array_equal(
            result,
            oracle.argmin(data, attributes.get("axis", 0), attributes.get("keepdims", 1),
                          attributes.get("select_last_index", 0)),
        )
