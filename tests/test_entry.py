"""The compiled entry of the common call (argmin/kernels/entry.pxi): which calls it answers,
and how (against the oracle), and which it hands back to Python.  The public functions'
results and errors on every input are the other tests' subject; here, the line between the two
paths, that the public functions take the compiled one, and the row that a call of one short
row reads without a plan."""

import sys

import numpy as np
import pytest

import argmin
import argmin.numpy
from argmin import _api, _tuning

from . import oracle
from .test_lengths import check_all

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

# Most bytes of the one row that a call on one thread reads without a plan (execute.pxi).
PLANLESS_ROW_BYTES = 4096


def quick(data, axis=0, keepdims=True, last=False, opset=13, num_threads=None, maximum=False,
          values=False):
    return _api.kernels.quick_reduce(data, axis, keepdims, last, opset, num_threads, maximum,
                                     values)


def _bfloat16_seen():
    # bfloat16's type is told to the kernels at its first input, through the Python path.
    argmin.argmin(np.zeros(2, oracle.BFLOAT16))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_the_common_call_is_answered_as_onnx_says(dtype):
    _bfloat16_seen()
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((3, 5, 4)) * 50).astype(dtype)
    for axis in range(-3, 3):
        for keepdims in (True, False, 0, 1):
            for last in (False, True, 0, 1):
                for threads in (None, 1, 2):
                    for maximum, reference in ((False, oracle.argmin), (True, oracle.argmax)):
                        found = quick(x, axis, keepdims, last, 13, threads, maximum)
                        assert found is not None
                        expected = reference(x, axis, bool(keepdims), bool(last))
                        assert found.dtype == np.int64 and found.flags.c_contiguous
                        np.testing.assert_array_equal(found, expected)
        values, indices = quick(x, axis, False, False, values=True)
        np.testing.assert_array_equal(indices, oracle.argmin(x, axis, False))
        oracle.assert_same_bits(values, oracle.elements_at(x, indices, axis, False))


def _swapped():
    x = np.arange(6, dtype=np.float32)
    return x.astype(x.dtype.newbyteorder())


DECLINED = {
    "a list": ([3, 1, 2], {}),
    "a masked array": (np.ma.MaskedArray([3.0, 1.0]), {}),
    "byte-swapped": (_swapped(), {}),
    "bool": (np.ones(3, bool), {}),
    "longdouble": (np.ones(3, np.longdouble), {}),
    "complex64": (np.ones(3, np.complex64), {}),
    "float32 with a field": (np.zeros(3, np.dtype((np.float32, [("a", "<f4")]))), {}),
    "datetime64": (np.zeros(3, "datetime64[s]"), {}),
    "empty": (np.zeros((0, 3), np.float32), dict(axis=1)),
    "rank 0": (np.ones((), np.float32), {}),
    "a numpy integer axis": (np.ones((2, 3)), dict(axis=np.int64(1))),
    "a bool axis": (np.ones((2, 3)), dict(axis=True)),
    "a float axis": (np.ones((2, 3)), dict(axis=1.0)),
    "an axis past the rank": (np.ones((2, 3)), dict(axis=2)),
    "an axis before the rank": (np.ones((2, 3)), dict(axis=-3)),
    "an axis past a C long": (np.ones((2, 3)), dict(axis=1 << 70)),
    "keepdims numpy bool": (np.ones(3), dict(keepdims=np.True_)),
    "keepdims 2": (np.ones(3), dict(keepdims=2)),
    "last None": (np.ones(3), dict(last=None)),
    "num_threads 0": (np.ones(3), dict(num_threads=0)),
    "num_threads True": (np.ones(3), dict(num_threads=True)),
    "num_threads numpy int": (np.ones(3), dict(num_threads=np.int64(2))),
    "num_threads past a C long": (np.ones(3), dict(num_threads=1 << 70)),
    "bfloat16 in opset 12": (np.ones(3, oracle.BFLOAT16), dict(opset=12)),
}


@pytest.mark.parametrize("name", DECLINED)
def test_other_calls_go_to_python(name):
    # Declined (None), for argmin._api to convert or refuse: the public functions then give
    # what the Python path gives, which test_bad_input and test_oracle check.
    _bfloat16_seen()
    data, arguments = DECLINED[name]
    assert quick(data, **arguments) is None


def test_a_thread_count_past_the_most_is_the_most():
    # Answered (not refused as too large for a C int), on as many threads as the work allows.
    x = np.arange(400, dtype=np.float32).reshape(4, 100)[:, ::-1]
    with _tuning.tuned(parallel_bytes=0):
        np.testing.assert_array_equal(quick(x, 1, num_threads=1 << 40), [[99]] * 4)


def python_calls(call):
    """The names of the Python functions that ``call()`` runs."""
    names = []

    def seen(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(seen)
    try:
        call()
    finally:
        sys.setprofile(None)
    return names


def test_public_functions_take_the_compiled_path():
    # No Python function of argmin's between the call and the kernels, however many variants
    # have been imported since (argmin.kernel_variants imports every one this CPU runs).
    argmin.kernel_variants()
    x = np.array([[3.0, 1.0, 1.0]], np.float32)
    for function in (argmin.argmin, argmin.argmax, argmin.min_argmin, argmin.max_argmax,
                     argmin.opset13.ArgMin, argmin.opset13.ArgMax, argmin.nanargmin,
                     argmin.nanargmax):
        assert python_calls(lambda: function(x, 1)) == ["<lambda>"], function.__name__
    for all_nan in ("raise", -1):
        assert python_calls(lambda: argmin.nanargmin(x, 1, all_nan=all_nan)) == ["<lambda>"]
    # A slice of NaN only: the Python function raises its error, or writes the placeholder.
    x[0] = np.nan
    assert "nan_reduce" in python_calls(lambda: pytest.raises(ValueError, argmin.nanargmin, x, 1))
    assert python_calls(lambda: argmin.nanargmin(x, 1, all_nan=-1)) == ["<lambda>"]
    for function in (argmin.numpy.argmin, argmin.numpy.argmax):
        for axis in (None, 1):
            assert python_calls(lambda: function(x, axis)) == [
                "<lambda>", function.__name__, "_arg_reduce"]


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float16"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_numpy_entry(dtype, order):
    # numpy's answer of numpy's type: a numpy integer where the result has no axes; None
    # (argmin.numpy's Python path) for a flattening that is not the memory's order.
    rng = np.random.default_rng(5)
    x = np.asarray((rng.standard_normal((4, 3, 5)) * 50).astype(dtype), order=order)
    for data in (x, x[0, 0], x[:, 1]):
        for axis in (None, *range(-data.ndim, data.ndim)):
            for keepdims in (False, True):
                for maximum, function in ((False, np.argmin), (True, np.argmax)):
                    found = _api.kernels.quick_numpy(data, axis, keepdims, maximum)
                    if axis is None and not data.flags.c_contiguous:
                        assert found is None
                        continue
                    expected = function(data, axis=axis, keepdims=keepdims)
                    assert type(found) is type(expected)
                    np.testing.assert_array_equal(found, expected)
                    assert np.shape(found) == np.shape(expected)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_one_row_without_a_plan(dtype, kernels):
    # A call of one contiguous row on one thread, up to PLANLESS_ROW_BYTES, read forwards and
    # backwards (a negative stride), the best element at either end and tied at both.
    _bfloat16_seen()
    rng = np.random.default_rng(7)
    most = PLANLESS_ROW_BYTES // dtype.itemsize
    for n in (1, 2, 3, most - 1, most, most + 1):
        x = (rng.standard_normal(n) * 20).astype(dtype)
        for row in (x, x[::-1]):
            check_all(row, 0)
        tied = np.ones(n, dtype)
        tied[0] = tied[-1] = 0
        for row in (tied, tied[::-1]):
            check_all(row, 0)


def test_public_functions_of_another_variant_hand_their_calls_on(monkeypatch):
    # argmin.argmin and the others are the compiled functions of the variant in use at import;
    # once another is in use (the kernels fixture), they run on that one.
    others = [module for module in _api.available_kernels() if module is not _api.kernels]
    if not others:
        pytest.skip("this build has one variant of the kernels that this CPU runs")
    answered = []
    other, in_use = others[0], _api.kernels
    quick_reduce = other.quick_reduce
    monkeypatch.setattr(other, "quick_reduce",
                        lambda *args: answered.append(args) or quick_reduce(*args))
    x = np.array([[3.0, 1.0, 1.0]], np.float32)
    _api.use_kernels(other)
    try:
        for function in (argmin.argmin, argmin.ArgMin, argmin.max_argmax):
            function(x, 1)
    finally:
        _api.use_kernels(in_use)
    assert len(answered) == 3
    np.testing.assert_array_equal(argmin.argmin(x, 1, select_last_index=True), [[2]])
