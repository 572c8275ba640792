"""nanargmin and nanargmax (argmin's and argmin.numpy's) against numpy's: every element type,
rank, axis, flag and layout, NaN densities from none to all, NaN at every position of a vector
block, the ends of blocks, tiles and thread chunks, and what an all-NaN slice gives."""

import itertools
import tracemalloc

import numpy as np
import pytest

import argmin
import argmin.numpy
from argmin._api import plan

from . import oracle
from .layouts import LAYOUTS
from .test_lengths import LENGTHS, LONG, positions

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

FUNCTIONS = {"nanargmin": (argmin.nanargmin, oracle.nanargmin, argmin.argmin),
             "nanargmax": (argmin.nanargmax, oracle.nanargmax, argmin.argmax)}
SHAPES = [(1,), (6,), (3, 4), (1, 5), (4, 1), (2, 3, 5), (3, 1, 4, 2), (2, 3, 1, 2, 3)]
DENSITIES = (0.0, 0.05, 0.5, 0.9, 1.0)


@pytest.fixture(params=list(FUNCTIONS))
def nan_function(request):
    """argmin's function, the oracle's, and the function that counts NaN as the extreme."""
    return FUNCTIONS[request.param]


def sample(dtype, shape, density, rng):
    """Values from a small pool with the type's special values (many ties), NaN where a draw
    falls below ``density``."""
    pool = np.concatenate([oracle.special_values(dtype), np.arange(-3, 4).astype(dtype)])
    x = rng.choice(pool, size=shape)
    if oracle.is_float(dtype):
        x[np.isnan(x.astype(np.float64))] = 0
        x[rng.random(shape) < density] = np.nan
    return x


def check(function, expected, data, axis, keepdims, last, threads=None):
    result = function(data, axis, keepdims, last, all_nan=-1, num_threads=threads)
    assert type(result) is np.ndarray and result.dtype == np.int64
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result, expected, err_msg=f"axis={axis} last={last}")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_every_axis_flag_layout_and_density(dtype, layout, kernels, nan_function):
    function, reference, _ = nan_function
    rng = np.random.default_rng(abs(hash((str(dtype), layout))) % 2**32)
    for shape, density in itertools.product(SHAPES, DENSITIES):
        data = LAYOUTS[layout](sample(dtype, shape, density, rng), rng)
        before = data.copy()
        for axis in range(-data.ndim, data.ndim):
            for keepdims, last in itertools.product((False, True), (False, True)):
                expected = reference(data, axis, keepdims, last)
                check(function, expected, data, axis, keepdims, last)
        assert data.tobytes() == before.tobytes()


def row_cases(dtype, n, rng):
    """Rows of n numbers with NaN at the positions that end lanes, blocks and chunks: the
    minimum just past a run of NaN, NaN just past the minimum, NaN at every other place, and
    every element NaN but one."""
    base = rng.uniform(10, 100, n).astype(dtype)
    for p in positions(n, dtype):
        x = base.copy()
        x[:p] = np.nan
        x[p] = 1
        yield x
        x = base.copy()
        x[p] = 1
        x[p + 1:] = np.nan
        yield x
        x = base.copy()
        x[p::2] = np.nan
        yield x
        x = np.full(n, np.nan, dtype)
        x[p] = -np.inf if p % 2 else 2
        yield x


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_rows_and_columns_at_block_ends(dtype, kernels, nan_function, every):
    function, reference, _ = nan_function
    rng = np.random.default_rng(len(LENGTHS))
    for n in LENGTHS if every else LENGTHS[::3]:
        rows = np.stack(list(row_cases(dtype, n, rng)))
        for data, axis in ((rows, 1), (np.asfortranarray(rows.T), 0), (rows.T, 0)):
            for last in (False, True):
                expected = reference(data, axis, False, last)
                for threads in (1, 3):
                    check(function, expected, data, axis, False, last, threads)


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
@pytest.mark.parametrize("n", [16, 32, 64, 128, 256])
def test_nan_at_every_position_of_a_vector_block(dtype, n, kernels, nan_function):
    """One NaN at each position of rows of whole vectors; the extreme before it, after it, or
    where the NaN is in the next row."""
    function, reference, _ = nan_function
    rng = np.random.default_rng(n)
    rows = np.repeat(rng.uniform(10, 100, (1, n)).astype(dtype), 3 * n, axis=0)
    for p in range(n):
        rows[3 * p, p] = np.nan
        rows[3 * p + 1, p] = np.nan
        rows[3 * p + 1, (p + 1) % n] = rows[3 * p + 1].astype(np.float64).min() - 1
        rows[3 * p + 2, p] = -np.inf
        rows[3 * p + 2, (p + 1) % n] = np.nan
    for data, axis in ((rows, 1), (np.asfortranarray(rows), 1), (rows.T, 0)):
        for last in (False, True):
            check(function, reference(data, axis, False, last), data, axis, False, last)


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_a_row_and_columns_split_between_threads(dtype, kernels, nan_function):
    """A long row, and three long columns, whose reduced axis is split between threads: the
    parts' answers merged, where a part holds only NaN, or its extreme is another part's."""
    function, reference, _ = nan_function
    n = LONG // 3
    rng = np.random.default_rng(9)
    row = rng.uniform(10, 100, n).astype(dtype)
    row[: n // 2] = np.nan                      # the first parts: NaN only
    row[[n // 2 + 5, n - 1]] = 1                # a tie in the last parts
    row[rng.random(n) < 0.01] = np.nan
    columns = np.stack([row, row[::-1], np.roll(row, n // 3)], axis=1)
    assert plan(row, 0, num_threads=3)["splits"] > 1
    assert plan(columns, 0, num_threads=3)["splits"] > 1
    for data in (row, columns):
        for last in (False, True):
            expected = reference(data, 0, False, last)
            for threads in (1, 2, 3):
                check(function, expected, data, 0, False, last, threads)


@pytest.mark.parametrize("dtype", oracle.INTEGER_TYPES, ids=str)
def test_integers_give_argmin(dtype, nan_function):
    function, _, plain = nan_function
    x = sample(dtype, (7, 9), 0.0, np.random.default_rng(3))
    for axis, last in itertools.product((0, 1), (False, True)):
        np.testing.assert_array_equal(function(x, axis, True, last), plain(x, axis, True, last))


def test_all_nan_raises_and_names_the_slice(nan_function):
    function = nan_function[0]
    x = np.ones((2, 3, 4), np.float32)
    x[1, :, 2] = np.nan
    name = function.__name__
    with pytest.raises(ValueError, match=rf"^All-NaN slice encountered: {name} of "
                                         r"data\[1, :, 2\] has no number"):
        function(x, axis=1)
    with pytest.raises(ValueError, match=r"data\[1, :, 2\]"):
        function(x, axis=-2, keepdims=False)
    np.testing.assert_array_equal(function(x, axis=1, keepdims=False, all_nan=7)[1], [0, 0, 7, 0])
    np.testing.assert_array_equal(function(x, axis=1, all_nan=-1)[1, 0], [0, 0, -1, 0])


@pytest.mark.parametrize("all_nan, error", [
    ("skip", ValueError), (None, TypeError), (True, TypeError), (1.0, TypeError),
    ([-1], TypeError), (2**63, ValueError), (-2**63 - 1, ValueError),
])
def test_all_nan_takes_raise_or_an_int64(all_nan, error, nan_function):
    with pytest.raises(error, match="all_nan"):
        nan_function[0](np.ones(3), all_nan=all_nan)


def test_all_nan_placeholders_of_numpy_integers(nan_function):
    x = np.full((2, 3), np.nan)
    for placeholder in (np.int8(-1), np.uint64(5), 2**63 - 1, -2**63):
        result = nan_function[0](x, axis=1, keepdims=False, all_nan=placeholder)
        np.testing.assert_array_equal(result, [int(placeholder)] * 2)


def test_empty_axis_raises_as_argmin_does(nan_function):
    function, _, plain = nan_function
    with pytest.raises(ValueError) as expected:
        plain(np.empty((2, 0)), axis=1)
    with pytest.raises(ValueError) as error:
        function(np.empty((2, 0)), axis=1)
    name = function.__name__
    assert str(error.value) == str(expected.value).replace(plain.__name__.replace(
        "arg", "Arg").replace("min", "Min").replace("max", "Max"), name)


@pytest.mark.parametrize("call, message", [
    (lambda f: f(np.ones(3), keepdims=2), "{name}: keepdims must be 0 or 1"),
    (lambda f: f(np.ones(3, bool)), "{name}-13 does not accept element type bool"),
    (lambda f: f(np.ma.masked_array([1.0])), "{name} does not take masked arrays"),
    (lambda f: f(np.ones(3), axis=1.0), "{name}: axis must be an integer"),
])
def test_errors_name_the_function_called(call, message, nan_function):
    function = nan_function[0]
    with pytest.raises((TypeError, ValueError), match=message.format(name=function.__name__)):
        call(function)


def test_no_copy_of_the_input(nan_function):
    """The traced peak of a call on 16 MiB with NaN, along rows and columns: the indices and
    the values found with them, not the input."""
    x = np.random.default_rng(0).standard_normal((2048, 2048)).astype(np.float32)
    x[np.random.default_rng(1).random(x.shape) < 0.01] = np.nan
    for axis in (0, 1):
        tracemalloc.start()
        result = nan_function[0](x, axis=axis, num_threads=1)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= result.nbytes * (1 + 4 / 8) + 64 * 1024, (axis, peak)
        np.testing.assert_array_equal(result, nan_function[1](x, axis))


NUMPY = {"nanargmin": (argmin.numpy.nanargmin, np.nanargmin),
         "nanargmax": (argmin.numpy.nanargmax, np.nanargmax)}


@pytest.fixture(params=list(NUMPY))
def numpy_pair(request):
    """argmin.numpy's function and numpy's."""
    return NUMPY[request.param]


@pytest.mark.parametrize("layout", ["C", "F", "transposed", "negative", "sliced", "byteswapped"])
@pytest.mark.parametrize("dtype", [np.dtype("float16"), np.dtype("float32"),
                                   np.dtype("float64"), np.dtype("int16")], ids=str)
def test_numpy_drop_in_matches_numpy(dtype, layout, numpy_pair):
    ours, theirs = numpy_pair
    rng = np.random.default_rng(7)
    for shape in [(5,), (3, 4), (2, 3, 5), (4, 1, 3)]:
        x = sample(dtype, shape, 0.4, rng)
        x[np.isinf(x.astype(np.float64))] = 0  # numpy's differs there (see below)
        data = LAYOUTS[layout](x, rng)
        for axis, keepdims in itertools.product([None, *range(-data.ndim, data.ndim)],
                                                (False, True)):
            try:
                expected = theirs(data, axis=axis, keepdims=keepdims)
            except ValueError as error:  # a slice of NaN only
                with pytest.raises(ValueError, match=f"^{error}$"):
                    ours(data, axis=axis, keepdims=keepdims)
                continue
            result = ours(data, axis=axis, keepdims=keepdims)
            assert type(result) is type(expected)
            np.testing.assert_array_equal(result, expected)


def test_numpy_drop_in_never_gives_a_nan_index():
    """Where a slice's only numbers are the infinity numpy's reads NaN as, numpy's can give a
    NaN's index; ours gives the infinity's."""
    x = np.array([np.nan, np.inf, np.nan, np.inf])
    assert (np.nanargmin(x), argmin.numpy.nanargmin(x)) == (0, 1)
    assert (np.nanargmax(-x), argmin.numpy.nanargmax(-x)) == (0, 1)
    np.testing.assert_array_equal(argmin.nanargmin(x, select_last_index=True), [3])


def test_numpy_drop_in_raises_numpys_error_and_leaves_out(numpy_pair):
    ours, theirs = numpy_pair
    x = np.ones((3, 4))
    x[1] = np.nan
    for axis in (None, 1):
        with pytest.raises(ValueError, match="^All-NaN slice encountered$"):
            ours(np.full_like(x, np.nan), axis=axis)
    out = np.full(3, 9, np.intp)
    with pytest.raises(ValueError, match="^All-NaN slice encountered$"):
        ours(x, axis=1, out=out)
    np.testing.assert_array_equal(out, [9, 9, 9])
    out = np.full(4, 9, np.intp)
    assert ours(x, axis=0, out=out) is out
    np.testing.assert_array_equal(out, theirs(x, axis=0))


def test_numpy_drop_in_hands_other_types_to_numpy(numpy_pair):
    ours, theirs = numpy_pair
    for x in (np.array([True, False]), np.array([1 + 2j, np.nan]), [3.0, np.nan, 1.0],
              np.array([], np.float32)):
        try:
            expected = theirs(x)
        except ValueError as error:
            with pytest.raises(ValueError, match=str(error)):
                ours(x)
        else:
            assert ours(x) == expected


def test_numpy_drop_in_skips_nan_of_bfloat16(numpy_pair):
    """numpy's does not (bfloat16 is not np.inexact): the reference is its float32 answer."""
    ours, theirs = numpy_pair
    x = np.array([[np.nan, 3, 1, np.nan], [2, np.nan, 5, 4]], np.float32)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(ours(x.astype(oracle.BFLOAT16), axis=axis),
                                      theirs(x, axis=axis))


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_all_nan_slices_found_at_every_run_end(dtype, kernels):
    """The values are tested for NaN in runs (all_nan.pxi): a NaN first, last, and on both
    sides of a run's end, alone or with another after it."""
    for n in (1, 2, 255, 256, 257, 511, 512, 513, 1000):
        for first in sorted({0, n // 2, n - 1, 255, 256, 257} & set(range(n))):
            values = np.ones(n, dtype)
            values[first] = values[-1] = np.nan
            indices = np.arange(n, dtype=np.int64)
            assert kernels.settle_all_nan(values, indices, None) == first
            np.testing.assert_array_equal(indices, np.arange(n))
            assert kernels.settle_all_nan(values, indices, -3) == first
            expected = np.arange(n)
            expected[[first, n - 1]] = -3
            np.testing.assert_array_equal(indices, expected)
    assert kernels.settle_all_nan(np.ones(300, dtype), np.zeros(300, np.int64), -3) == -1
