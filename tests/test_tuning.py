"""The tuning entry: it reaches the compiled variant in use, holds per thread, and checks its
fields."""

import contextvars
import threading

import numpy as np
import pytest

import argmin
from argmin import _api, _tuning

from . import oracle

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels


def test_tuning_reaches_the_variant_in_use(kernels):
    # The `kernels` fixture puts each compiled variant in use in turn: the plan that variant
    # makes follows the tuning in force.
    rows = np.zeros((100, 64), np.float32)
    assert _api.plan(rows, 1)["way"] == "short"
    with _tuning.tuned(short_row_len=0):
        assert _api.plan(rows, 1)["way"] == "rows"
        assert _api.row_way(64, 4) == "rows"
        with _tuning.tuned(min_row_len=1000, short_row_len=-1):
            assert _api.plan(rows, 1)["way"] == "columns"
        assert _api.plan(rows, 1)["way"] == "rows"
    assert _api.plan(rows, 1)["way"] == "short"
    fortran = np.asfortranarray(np.zeros((16, 512, 64), np.uint8))
    assert _api.plan(fortran, 0)["stream_out"] is False
    with _tuning.tuned(stream_bytes=0, block_shift=3):
        plan = _api.plan(fortran, 0)
        assert (plan["block"], plan["stream_out"], plan["block_shift"]) == (8, True, 3)
    assert _api.tuning_defaults() == kernels.default_tuning_of_cpu()


def test_tuning_changes_loops_not_results(kernels):
    # Every way of reading the rows gives numpy's answer.
    rng = np.random.default_rng(3)
    data = rng.integers(0, 4, size=(257, 40)).astype(np.int16)
    expected = oracle.argmin(data, 1, True, True)
    for fields in ({}, {"short_row_len": 0}, {"min_row_len": 1 << 20},
                   {"prefetch_rows": True, "parallel_bytes": 0}):
        with _tuning.tuned(**fields):
            for threads in (1, 3):
                np.testing.assert_array_equal(
                    argmin.argmin(data, 1, True, True, num_threads=threads), expected)


def test_tuning_holds_for_its_thread_only():
    seen = []
    with _tuning.tuned(short_row_len=0):
        worker = threading.Thread(target=lambda: seen.append(_tuning.current()))
        worker.start()
        worker.join()
        assert _tuning.current().short_row_len == 0
    assert seen == [None]
    assert _tuning.current() is None


def test_a_copied_context_keeps_its_tuning():
    # A context copied inside a tuned block (as asyncio tasks and some executors do) holds the
    # tuning after the block ends, and argmin's calls in it are handed that tuning: the
    # compiled entry's and the Python path's.
    with _tuning.tuned(short_row_len=0):
        context = contextvars.copy_context()
    assert [getattr(context.run(read), "short_row_len", None) for read in
            (_api.kernels.tuning_in_force, _tuning.current)] == [0, 0]
    assert _api.kernels.tuning_in_force() is None


def test_an_empty_output_has_no_plan():
    with pytest.raises(ValueError, match="empty output"):
        _api.plan(np.zeros((5, 0), np.float32), 0)


@pytest.mark.parametrize("fields, error, match", [
    ({"short_rows": 1}, TypeError, "short_rows"),
    ({"block_shift": 8}, ValueError, r"block_shift must be \[-1, 7\]"),
    ({"block_shift": -2}, ValueError, "block_shift"),
    ({"parallel_bytes": -1}, ValueError, "parallel_bytes must be >= 0"),
    ({"parallel_seconds": -1e-6}, ValueError, "parallel_seconds must be >= 0 and finite"),
    ({"parallel_seconds": float("inf")}, ValueError, "parallel_seconds"),
    ({"parallel_seconds": float("nan")}, ValueError, "parallel_seconds"),
    ({"parallel_seconds": "5us"}, TypeError, "parallel_seconds must be a number"),
    ({"min_row_len": 2.5}, TypeError, "min_row_len must be an int"),
    ({"stream_bytes": True}, TypeError, "stream_bytes"),
    ({"prefetch_rows": 1}, TypeError, "prefetch_rows must be a bool"),
])
def test_tuning_refuses_bad_fields(fields, error, match):
    with pytest.raises(error, match=match):
        with _tuning.tuned(**fields):
            pass
    assert _tuning.current() is None
