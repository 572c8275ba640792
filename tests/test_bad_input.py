"""A catalogue of bad input: each raises its documented exception with a clear message.

Every refusal leaves the input as it was; the accepted spellings of the same
arguments (numpy integers and booleans, lists, objects with ``__array__``)
give the oracle's answer.  Calls that could bring the process down run in a
subprocess.
"""

import os
import re
import textwrap

import ml_dtypes
import numpy as np
import pytest
from numpy.exceptions import AxisError

import argmin
from argmin import opset1, opset11, opset12, opset13

from . import oracle
from .fresh import run_code
from .conftest import BY_NAME

OPSETS = {1: opset1.ArgMin, 11: opset11.ArgMin, 12: opset12.ArgMin, 13: opset13.ArgMin}
MODULES = {1: opset1, 11: opset11, 12: opset12, 13: opset13}
# Every public function of both operators: "opset12" is opset12.ArgMin, "opset12 ArgMax" its
# ArgMax, "argmin" and "argmax" the Python-style functions.
ENTRY_POINTS = {**{f"opset{k}": f for k, f in OPSETS.items()}, "argmin": argmin.argmin,
                **{f"opset{k} ArgMax": m.ArgMax for k, m in MODULES.items()},
                "argmax": argmin.argmax}


def opset_of(entry):
    return 13 if entry in ("argmin", "argmax") else int(entry.split()[0][5:])


def op_of(entry):
    return "ArgMax" if entry.endswith(("ArgMax", "argmax")) else "ArgMin"


def reference(entry):
    """The oracle of the entry point's operator."""
    return BY_NAME[op_of(entry)].oracle


def opset_entries(opsets):
    """The opset functions of both operators (ArgMin and ArgMax) of the given opsets."""
    return [e for e in ENTRY_POINTS if e.startswith("opset") and opset_of(e) in opsets]


def matrix():
    """A small valid input with ties, NaN and -0.0."""
    return np.array([[3.0, -0.0, 0.0, 1.0], [np.nan, 2.0, np.nan, -1.0], [5.0, 5.0, 4.0, 4.0]],
                    dtype=np.float32)


def snapshot(data):
    return data.dtype, data.shape, data.strides, data.tobytes(order="A")


def check_unchanged(data, before):
    assert snapshot(data) == before


def expect(call, data, exception, *patterns):
    """``call(data)`` raises ``exception`` whose message matches every pattern; data unchanged."""
    before = snapshot(data) if isinstance(data, np.ndarray) else None
    with pytest.raises(exception) as info:
        call(data)
    message = str(info.value)
    for pattern in patterns:
        assert re.search(pattern, message), f"{pattern!r} not in {message!r}"
    if before is not None:
        check_unchanged(data, before)
    return message


# -- element types ----------------------------------------------------------------------------

BAD_ELEMENT_TYPES = {
    "bool": np.array([[True, False], [False, True]]),
    "complex64": np.array([1 + 1j, 0.5j], dtype=np.complex64),
    "complex128": np.array([1 + 1j, 0.5j], dtype=np.complex128),
    "complex128 big-endian": np.array([1 + 1j, 0.5j], dtype=">c16"),
    "object": np.array([3, 1, 2], dtype=object),
    "str": np.array(["b", "a"]),
    "bytes": np.array([b"b", b"a"]),
    "datetime64": np.array(["2020-01-02", "2020-01-01"], dtype="datetime64[D]"),
    "datetime64 big-endian": np.array([2, 1], dtype=">M8[s]"),
    "timedelta64": np.array([2, 1], dtype="timedelta64[s]"),
    "structured": np.zeros(3, dtype=[("a", "f4"), ("b", "i4")]),
    # numpy compares these equal to float32 and int32: a type with fields all the same.
    "float32 with a field": np.zeros(3, dtype=("<f4", [("a", "<f4")])),
    "int32 with two int16 fields": np.array([5, 1, 1], dtype="<i4").view(
        ("<i4", [("low", "<i2"), ("high", "<i2")])),
    "void": np.zeros(3, dtype="V4"),
    "longdouble": np.array([2.0, 1.0], dtype=np.longdouble),
}
if np.dtype(np.longdouble) == np.dtype(np.float64):  # pragma: no cover - e.g. Windows, arm64 macOS
    del BAD_ELEMENT_TYPES["longdouble"]


def allowed_names(opset):
    types = [t for t in oracle.ELEMENT_TYPES if opset == 13 or t != oracle.BFLOAT16]
    return ["bfloat16" if t == oracle.BFLOAT16 else t.name for t in types]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("case", BAD_ELEMENT_TYPES)
def test_element_type_refused(case, entry):
    data = BAD_ELEMENT_TYPES[case].copy()
    opset = opset_of(entry)
    message = expect(ENTRY_POINTS[entry], data, TypeError)
    match = re.fullmatch(
        rf"{op_of(entry)}-{opset} does not accept element type (.+); allowed: (.+)", message)
    assert match, message
    refused, allowed = match.group(1), [name.strip() for name in match.group(2).split(",")]
    assert sorted(allowed) == sorted(allowed_names(opset))
    # What was wrong: the type given, not one of the allowed ones.
    assert refused not in allowed, message
    if data.dtype.names is None:
        native = data.dtype.newbyteorder("=") if data.dtype.byteorder == ">" else data.dtype
        assert refused == native.name


@pytest.mark.parametrize("entry", opset_entries((1, 11, 12)))
@pytest.mark.parametrize("order", ["=", ">"])
def test_bfloat16_before_opset13(entry, order):
    data = np.array([2.0, 1.0, np.nan], dtype=ml_dtypes.bfloat16)
    data = data.astype(data.dtype.newbyteorder(order))
    expect(ENTRY_POINTS[entry], data, TypeError, "bfloat16 needs opset 13", "allowed: float16")
    np.testing.assert_array_equal(getattr(opset13, op_of(entry))(data), reference(entry)(data))


# -- attributes that an opset does not have ------------------------------------------------------

@pytest.mark.parametrize("entry", opset_entries((1, 11)))
def test_select_last_index_before_opset12(entry):
    data, function = matrix(), ENTRY_POINTS[entry]
    expect(lambda x: function(x, select_last_index=1), data, TypeError,
           "unexpected keyword argument 'select_last_index'")
    expect(lambda x: function(x, select_last_index=0), data, TypeError,
           "unexpected keyword argument 'select_last_index'")
    expect(lambda x: function(x, 0, 1, 1), data, TypeError, "positional argument")
    np.testing.assert_array_equal(function(data, 1, 0), reference(entry)(data, 1, False))


@pytest.mark.parametrize("entry", opset_entries(OPSETS))
def test_unknown_keyword(entry):
    data, function = matrix(), ENTRY_POINTS[entry]
    expect(lambda x: function(x, num_threads=1), data, TypeError,
           "unexpected keyword argument 'num_threads'")
    expect(lambda x: function(x, axes=[0]), data, TypeError,
           "unexpected keyword argument 'axes'")
    np.testing.assert_array_equal(function(data), reference(entry)(data))


# -- axis -------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("axis", [2, -3, 100, -(2**70), np.int64(2), np.uint64(2**63), np.int8(-3)])
def test_axis_out_of_range(entry, axis):
    expect(lambda x: ENTRY_POINTS[entry](x, axis=axis), matrix(), AxisError,
           rf"^{op_of(entry)}: axis {int(axis)} is out of bounds for array of dimension 2")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize(
    "axis", [1.0, 0.0, np.float64(1), "0", None, [0], (1,), np.array([0]), 1j, True, False,
             np.True_, np.False_],
    ids=repr,
)
def test_axis_not_an_integer(entry, axis):
    expect(lambda x: ENTRY_POINTS[entry](x, axis=axis), matrix(), TypeError,
           f"^{op_of(entry)}: axis must be an integer", re.escape(repr(axis)))


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize(
    "axis", [np.int8(-1), np.int16(1), np.int32(0), np.int64(-2), np.uint8(1), np.uint64(0),
             np.intp(1), np.array(1)],
    ids=repr,
)
def test_axis_numpy_integers_accepted(entry, axis):
    data = matrix()
    before = snapshot(data)
    result = ENTRY_POINTS[entry](data, axis=axis)
    np.testing.assert_array_equal(result, reference(entry)(data, int(axis)))
    check_unchanged(data, before)


# -- keepdims and select_last_index -----------------------------------------------------------

BAD_FLAGS = [2, -1, 0.5, 1.0, 0.0, np.float64(1), "1", "", None, np.int64(2), np.uint8(255),
             [1], (0,), 1j]


def flag_entries(name):
    return [e for e in ENTRY_POINTS if name == "keepdims" or opset_of(e) >= 12]


@pytest.mark.parametrize("name,entry", [(n, e) for n in ("keepdims", "select_last_index")
                                        for e in flag_entries(n)])
@pytest.mark.parametrize("value", BAD_FLAGS, ids=repr)
def test_flag_outside_0_1(name, entry, value):
    expect(lambda x: ENTRY_POINTS[entry](x, **{name: value}), matrix(), ValueError,
           rf"^{op_of(entry)}: {name} must be 0 or 1 \(or False/True\)", re.escape(repr(value)))


@pytest.mark.parametrize("name,entry", [(n, e) for n in ("keepdims", "select_last_index")
                                        for e in flag_entries(n)])
@pytest.mark.parametrize(
    "value", [0, 1, False, True, np.int8(1), np.int64(0), np.uint64(1), np.True_, np.False_],
    ids=repr,
)
def test_flag_spellings_accepted(name, entry, value):
    data = matrix()
    before = snapshot(data)
    kwargs = {"axis": 1, name: value}
    result = ENTRY_POINTS[entry](data, **kwargs)
    expected = reference(entry)(data, 1, keepdims=bool(kwargs.get("keepdims", True)),
                                select_last_index=bool(kwargs.get("select_last_index", False)))
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result, expected)
    check_unchanged(data, before)


# -- shapes -----------------------------------------------------------------------------------

RANK_0 = {
    "0-d float32": lambda: np.array(1.5, dtype=np.float32),
    "0-d uint64": lambda: np.array(2**64 - 1, dtype=np.uint64),
    "0-d bfloat16": lambda: np.array(1.0, dtype=ml_dtypes.bfloat16),
    "python float": lambda: 1.5,
    "numpy scalar": lambda: np.int16(3),
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("case", RANK_0)
@pytest.mark.parametrize("axis", [0, -1])
def test_rank_0(entry, case, axis):
    data = RANK_0[case]()
    if opset_of(entry) < 13 and case == "0-d bfloat16":
        # The element type is checked first.
        expect(ENTRY_POINTS[entry], data, TypeError, "bfloat16 needs opset 13")
        return
    expect(lambda x: ENTRY_POINTS[entry](x, axis=axis), data, AxisError,
           rf"^{op_of(entry)}: axis {axis} is out of bounds for array of dimension 0")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("shape,axis", [((0,), 0), ((0, 3), 0), ((3, 0), -1), ((2, 0, 4), 1)])
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_empty_reduced_axis(entry, shape, axis, dtype):
    data = np.zeros(shape, dtype=dtype)
    if dtype == oracle.BFLOAT16 and opset_of(entry) < 13:
        # The element type is checked first.
        expect(ENTRY_POINTS[entry], data, TypeError, "bfloat16 needs opset 13")
        return
    expect(lambda x: ENTRY_POINTS[entry](x, axis=axis), data, ValueError,
           f"cannot take {op_of(entry)} of an empty axis", rf"axis {axis % len(shape)}",
           re.escape(str(shape)))
    with pytest.raises(ValueError):
        reference(entry)(data, axis)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("shape,axis", [((0, 3), 1), ((3, 0), 0), ((2, 0, 4), 2), ((0, 0, 1), 2)])
@pytest.mark.parametrize("keepdims", [0, 1])
def test_zero_length_on_another_axis(entry, shape, axis, keepdims):
    data = np.zeros(shape, dtype=np.int32)
    result = ENTRY_POINTS[entry](data, axis=axis, keepdims=keepdims)
    expected = reference(entry)(data, axis, keepdims=keepdims)
    assert result.dtype == np.int64 and result.shape == expected.shape
    np.testing.assert_array_equal(result, expected)


# -- what numpy.asarray makes of the input ----------------------------------------------------

@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_masked_array(entry):
    for data in (np.ma.array([3.0, 1.0, 2.0], mask=[0, 1, 0]), np.ma.array([[3, 1], [0, 2]]),
                 np.ma.masked_invalid([np.nan, 1.0])):
        before = snapshot(data.data), data.mask.copy()
        expect(ENTRY_POINTS[entry], data, TypeError, rf"^{op_of(entry)} does not take masked array",
               "no mask", r"filled")
        assert snapshot(data.data) == before[0]
        np.testing.assert_array_equal(data.mask, before[1])


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_none(entry):
    opset = opset_of(entry)
    expect(ENTRY_POINTS[entry], None, TypeError,
           rf"{op_of(entry)}-{opset} does not accept element type object", "allowed: float16")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("data", [[[1, 2], [3]], [1, [2, 3]], [[1.0], [2.0, 3.0], []]], ids=repr)
def test_ragged_nested_lists(entry, data):
    expect(ENTRY_POINTS[entry], data, ValueError, "inhomogeneous shape")


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("data", [["b", "a"], [b"b", b"a"], [1 + 0j, 0j], [True, False],
                                  [None, 1], [object()]],
                         ids=lambda data: "[object()]" if type(data[0]) is object else repr(data))
def test_lists_of_bad_elements(entry, data):
    expect(ENTRY_POINTS[entry], data, TypeError, "does not accept element type", "allowed")


class HasArray:
    """An object with ``__array__``, as numpy.asarray accepts."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None, copy=None):
        return self.array


@pytest.mark.parametrize("entry,select_last_index",
                         [(e, 0) for e in ENTRY_POINTS]
                         + [(e, 1) for e in ENTRY_POINTS if opset_of(e) >= 12])
@pytest.mark.parametrize(
    "make",
    [lambda: [[3, 1, 1], [0, 7, 0]], lambda: ((3.5, -1.0), (-1.0, 2.0)),
     lambda: [np.int16(4), np.int16(-9)], lambda: memoryview(b"\x03\x01\x00\x00"),
     lambda: HasArray(np.array([[2, 2], [1, 5]], dtype=np.uint32)), lambda: np.matrix([[4, 2, 2]])],
    ids=["nested list", "tuple", "list of numpy scalars", "memoryview", "__array__", "matrix"],
)
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_array_likes_accepted(entry, make, select_last_index):
    data = make()
    expected = reference(entry)(np.asarray(data), 0, True, bool(select_last_index))
    kwargs = {"select_last_index": select_last_index} if select_last_index else {}
    result = ENTRY_POINTS[entry](data, **kwargs)
    assert type(result) is np.ndarray and result.dtype == np.int64
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_array_like_of_bad_type(entry):
    expect(ENTRY_POINTS[entry], HasArray(np.array([1 + 2j])), TypeError,
           "does not accept element type complex128")


# -- num_threads ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "num_threads", [0, -1, -(2**40), 1.5, 2.0, "2", True, False, np.True_, np.int64(0),
                    np.int8(-3), [2], np.float32(2)],
    ids=repr,
)
@pytest.mark.parametrize("entry", ["argmin", "argmax"])
def test_num_threads_invalid(num_threads, entry):
    expect(lambda x: ENTRY_POINTS[entry](x, num_threads=num_threads), matrix(), ValueError,
           f"^{op_of(entry)}: num_threads must be a positive integer or None",
           re.escape(repr(num_threads)))


@pytest.mark.parametrize("num_threads", [None, 1, 2, np.int64(3), np.uint8(4), 64])
def test_num_threads_valid(num_threads):
    data = np.tile(matrix(), (1, 2**16))  # 1 MiB, enough for threads
    before = snapshot(data)
    for axis in (0, 1):
        for last in (False, True):
            result = argmin.argmin(data, axis=axis, select_last_index=last,
                                   num_threads=num_threads)
            np.testing.assert_array_equal(result, oracle.argmin(data, axis, True, last))
    check_unchanged(data, before)


# -- calls that might bring the process down: in a subprocess ---------------------------------

CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import argmin
    from argmin import opset13

    data = np.load(sys.argv[1])
    for i, case in enumerate(sys.argv[3:]):
        print("case", case, flush=True)
        try:
            if case == "opset13":
                result = opset13.ArgMin(data, axis=1)
            else:
                result = argmin.argmin(data, axis=1, num_threads=int(case))
        except Exception as error:
            print("raised", type(error).__name__, error, flush=True)
        else:
            np.save(f"{sys.argv[2]}/{i}.npy", result)
            print("result", flush=True)
""")


def run_child(tmp_path, data, cases, env=None):
    """Run the cases in a fresh process; check each gives the oracle's answer or a ValueError."""
    np.save(tmp_path / "data.npy", data)
    child = run_code(CHILD, tmp_path / "data.npy", tmp_path, *cases, cwd=tmp_path, env=env,
                     timeout=300)
    lines = child.stdout.splitlines()
    ran = [line.split(" ", 1)[1] for line in lines if line.startswith("case ")]
    assert child.returncode == 0, (
        f"the process died (status {child.returncode}) in case {ran[-1] if ran else None}: "
        f"{child.stderr[-2000:]}"
    )
    outcomes = [line for line in lines if not line.startswith("case ")]
    assert ran == list(cases) and len(outcomes) == len(cases), child.stdout
    expected = oracle.argmin(data, 1, True)
    for i, (case, outcome) in enumerate(zip(cases, outcomes)):
        if outcome == "result":
            np.testing.assert_array_equal(np.load(tmp_path / f"{i}.npy"), expected,
                                          err_msg=case)
        else:
            assert outcome.startswith("raised ValueError") and "num_threads" in outcome, \
                (case, outcome)


def many_rows():
    """A million rows of four elements: a million work items, as many as threads could be."""
    rng = np.random.default_rng(7)
    return rng.integers(0, 3, size=(2**20, 4), dtype=np.uint8)


@pytest.mark.kernels
def test_num_threads_huge(tmp_path):
    """A huge thread count is capped (or refused with a ValueError): no crash, no OverflowError."""
    run_child(tmp_path, many_rows(), [str(n) for n in (10**5, 2**31 - 1, 2**31, 2**63, 2**64)])


@pytest.mark.kernels
@pytest.mark.parametrize("omp_num_threads", ["100000", "many"])
def test_omp_num_threads_does_not_crash(tmp_path, omp_num_threads):
    env = dict(os.environ, OMP_NUM_THREADS=omp_num_threads)
    run_child(tmp_path, many_rows(), ["opset13", "2"], env=env)


@pytest.mark.kernels
@pytest.mark.parametrize("keepdims", [0, 1])
def test_rank_64(keepdims):
    """numpy's largest rank, with the reduced axis anywhere."""
    data = np.arange(6, dtype=np.int8)[::-1].reshape((1,) * 31 + (2,) + (1,) * 31 + (3,))
    assert data.ndim == 64
    for axis in (0, 31, -1):
        result = argmin.argmin(data, axis=axis, keepdims=keepdims)
        np.testing.assert_array_equal(result, oracle.argmin(data, axis, keepdims))


@pytest.mark.kernels
def test_huge_output_is_a_memory_error():
    """Zero strides make a tiny input whose output would need 8 TiB: MemoryError, not a crash."""
    data = np.broadcast_to(np.arange(3.0), (2**40, 3))
    with pytest.raises(MemoryError):
        argmin.argmin(data, axis=1)
    with pytest.raises(MemoryError):
        oracle.argmin(data, 1)


@pytest.mark.kernels
def test_kernel_entry_refuses_what_the_rules_would():
    """The compiled entry point checks the axis and survives a zero thread count."""
    from argmin import _api

    data = np.arange(1 << 18, dtype=np.float64)[::-1].copy()
    result = _api.kernels.reduce_axis(data, 0, True, False, 0, False, None)
    np.testing.assert_array_equal(result, oracle.argmin(data, 0))
    for axis in (-1, 1, 64):
        with pytest.raises(ValueError, match="axis"):
            _api.kernels.reduce_axis(data, axis, True, False, 1, False, None)


SWAPPED_FIRST = textwrap.dedent("""
    import sys
    import numpy as np
    import argmin
    import argmin.numpy
    assert "ml_dtypes" not in sys.modules
    types = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
             "uint8", "uint16", "uint32", "uint64"]
    x = np.array([3, 1, 2, 1], dtype=np.float64)
    for name in types:  # each type, byte-swapped, before ml_dtypes is imported
        argmin.argmin(x.astype(np.dtype(name).newbyteorder()))
    for name in types:
        for data in (x.astype(name), x.astype(np.dtype(name).newbyteorder())):
            values, indices = argmin.min_argmin(data)
            assert indices.tolist() == [1] and values.tolist() == [1], (name, values)
            assert argmin.nanargmin(data).tolist() == [1], name
            assert argmin.numpy.nanargmin(data) == 1, name
    assert "ml_dtypes" not in sys.modules
    print("ok")
""")


def test_byte_swapped_types_met_before_ml_dtypes_stay_themselves():
    """No type is taken for bfloat16, whose dtype is known only once ml_dtypes is imported
    (float64 compares equal to None)."""
    child = run_code(SWAPPED_FIRST)
    assert child.returncode == 0 and child.stdout.split() == ["ok"], child.stderr[-3000:]
