"""argmin.dask.ArgMin and ArgMax on Dask arrays, threaded and distributed, against the numpy
oracle."""

import itertools
import sys

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

import argmin
import argmin._api
import argmin.dask

from . import oracle
from .conftest import OPERATORS

# Irregular chunks, a zero-length chunk, and chunks of one element.
SHAPE = (11, 6, 5)
CHUNKINGS = [
    ((3, 1, 0, 5, 2), (4, 2), (5,)),
    ((11,), (1,) * 6, (2, 3)),
]
FLAGS = [(keepdims, last) for keepdims in (0, 1) for last in (0, 1)]


def _check_all(data, chunks, scheduler, split_every=None):
    """Both operators over every axis and flag: ArgMin of ``data``, ArgMax of its values in
    reverse order (the positions chosen for minima hold maxima), in ``chunks``."""
    for operator in OPERATORS:
        x = operator.arranged(data)
        _check_operator(operator, x, da.from_array(x, chunks=chunks), scheduler, split_every)


def _check_operator(operator, data, x, scheduler, split_every):
    for axis in (*range(data.ndim), -1):
        for keepdims, last in FLAGS:
            lazy = _ours(operator)(x, axis, keepdims, last, split_every=split_every)
            expected = operator.oracle(data, axis, keepdims, last)
            assert isinstance(lazy, da.Array)
            assert lazy.dtype == np.int64 and lazy.shape == expected.shape
            result = lazy.compute(scheduler=scheduler)
            assert isinstance(result, np.ndarray) and result.dtype == np.int64
            assert result.shape == expected.shape
            np.testing.assert_array_equal(
                result, expected, err_msg=f"{operator.name} {axis=} {keepdims=} {last=}")


@pytest.mark.parametrize("chunks", CHUNKINGS, ids=["irregular", "thin"])
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_every_type_and_axis_threaded(dtype, chunks):
    # Few distinct values: the minimum ties within and across chunks.
    data = np.random.default_rng(3).choice(oracle.special_values(dtype), size=SHAPE)
    _check_all(data, chunks, "threads")


@pytest.mark.parametrize("dtype", [np.float32, oracle.BFLOAT16, np.int8, np.uint64], ids=str)
def test_deep_trees(dtype):
    """split_every=2 over many chunks: several rounds of combining."""
    data = np.random.default_rng(4).choice(oracle.special_values(dtype), size=(37, 9))
    _check_all(data, ((3, 5, 1, 7, 2, 2, 4, 6, 3, 4), (2, 2, 2, 2, 1)), "threads", split_every=2)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_ties_spanning_chunks(dtype):
    """Equal values everywhere, then the minimum once per chunk, at the chunk edges."""
    value = oracle.special_values(dtype)[4]
    data = np.full((12, 4), value, dtype=dtype)
    _check_all(data, ((5, 3, 4), (1, 3)), "threads", split_every=2)
    values = oracle.special_values(dtype)
    values = values[~np.isnan(oracle.exact(values))]
    data = np.random.default_rng(5).choice(values, size=(12, 4))
    data[[4, 5, 7, 8], :] = values[np.argmin(oracle.exact(values))]
    _check_all(data, ((5, 3, 4), (1, 3)), "threads", split_every=2)


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_nan_wins_across_chunks(dtype):
    rng = np.random.default_rng(6)
    data = rng.uniform(-5, 5, size=(10, 7)).astype(dtype)
    data[3:6, :] = np.nan          # a chunk along axis 0 that is all NaN
    data[:, 2] = np.nan            # a column that is all NaN across every chunk
    data[8, 4] = np.nan            # a lone NaN after the all-NaN chunk
    data[0, 5] = -np.inf
    data[1, 6] = -0.0
    data[9, 6] = 0.0
    _check_all(data, ((3, 3, 2, 2), (2, 2, 3)), "threads")
    _check_all(data, ((3, 3, 2, 2), (2, 2, 3)), "threads", split_every=2)


NAN_FUNCTIONS = {"nanargmin": (argmin.dask.nanargmin, oracle.nanargmin),
                 "nanargmax": (argmin.dask.nanargmax, oracle.nanargmax)}


@pytest.mark.parametrize("name", list(NAN_FUNCTIONS))
@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES + (np.dtype("int32"),), ids=str)
def test_nan_skipped_across_chunks(dtype, name):
    """A chunk whose part of a slice is all NaN leaves it to the others; a slice of NaN in
    every chunk gives all_nan."""
    function, reference = NAN_FUNCTIONS[name]
    rng = np.random.default_rng(6)
    data = rng.uniform(-5, 5, size=(10, 7))
    if oracle.is_float(dtype):
        data[3:6, :] = np.nan      # a chunk along axis 0 that is all NaN
        data[:, 2] = np.nan        # a column that is all NaN across every chunk
        data[8, 4] = np.nan
        data[0, 5] = -np.inf
        data[7, :2] = data[1, :2]  # ties in two chunks
    data = data.astype(dtype)
    x = da.from_array(data, chunks=((3, 3, 2, 2), (2, 2, 3)))
    for axis, keepdims, last, split_every in itertools.product(
            (0, 1, -1), (False, True), (False, True), (None, 2)):
        lazy = function(x, axis, keepdims, last, all_nan=-1, split_every=split_every)
        np.testing.assert_array_equal(lazy.compute(scheduler="threads"),
                                      reference(data, axis, keepdims, last))


@pytest.mark.parametrize("name", list(NAN_FUNCTIONS))
def test_all_nan_raises_when_computed(name):
    function = NAN_FUNCTIONS[name][0]
    data = np.ones((4, 3))
    data[:, 1] = np.nan
    lazy = function(da.from_array(data, chunks=2), axis=0)
    with pytest.raises(ValueError, match=f"^All-NaN slice encountered: {name} of a slice "
                                         "along axis 0"):
        lazy.compute(scheduler="sync")
    with pytest.raises(TypeError, match="all_nan"):
        function(da.from_array(data, chunks=2), all_nan=1.5)


def test_integers_are_compared_exactly():
    """No rounding through float64 in the chunk or the combine step."""
    for dtype, big, small in [
        (np.int64, 2**53 + 1, 2**53),
        (np.uint64, 2**63, 5),
        (np.int64, -(2**63), -(2**63) + 1),
    ]:
        data = np.full((8, 3), big, dtype=dtype)
        data[6, :] = small
        data[2, 1] = small
        _check_all(data, ((3, 3, 2), (3,)), "sync", split_every=2)


def test_non_native_byte_order():
    data = np.random.default_rng(8).normal(size=(9, 4)).astype(">f8")
    data[4, 1] = np.nan
    _check_all(data, ((4, 5), (3, 1)), "threads")


def test_one_dimensional_and_rank_zero_result():
    data = np.array([3, 1, 4, 1, 5, 9, 2, 1], dtype=np.int16)
    _check_all(data, 3, "sync")
    for operator in OPERATORS:
        result = _ours(operator)(da.from_array(data, chunks=3), keepdims=0).compute()
        assert type(result) is np.ndarray and result.ndim == 0


def _ours(operator):
    """argmin.dask's function for the operator."""
    return getattr(argmin.dask, operator.name)


def test_lazy_and_computed_by_the_kernel(operator, entry_calls):
    data = np.random.default_rng(9).normal(size=(10, 6)).astype(np.float32)
    x = da.from_array(data, chunks=((4, 4, 2), (3, 3)))
    lazy = _ours(operator)(x, axis=0, keepdims=0)
    assert entry_calls == []
    result = lazy.compute(scheduler="sync")
    np.testing.assert_array_equal(result, operator.oracle(data, 0, 0, 0))
    # One call per chunk, for values and indices in one pass, then one per output chunk on the
    # three chunk minima (maxima).
    blocks = [x.blocks[i, j].shape for i in range(3) for j in range(2)]
    calls = [(call["shape"], call["maximum"], call["values"]) for call in entry_calls]
    assert sorted(calls) == sorted([(shape, operator.maximum, True) for shape in blocks]
                                   + [((3, 3), operator.maximum, False)] * 2)
    assert lazy.chunks == ((3, 3),)


def _error(function, *args, **kwargs):
    with pytest.raises(Exception) as excinfo:
        function(*args, **kwargs)
    return excinfo.value


@pytest.mark.parametrize(
    ("data", "kwargs"),
    [
        (np.zeros((3, 4), dtype=bool), {}),
        (np.zeros((3, 4), dtype=np.complex64), {}),
        (np.zeros((3, 4), dtype="datetime64[s]"), {}),
        (np.zeros((3, 4)), {"axis": 2}),
        (np.zeros((3, 4)), {"axis": -3}),
        (np.zeros((3, 4)), {"axis": 1.0}),
        (np.zeros((3, 4)), {"axis": True}),
        (np.zeros(()), {}),
        (np.zeros((0, 4)), {}),
        (np.zeros((3, 0)), {"axis": 1}),
        (np.zeros((3, 4)), {"keepdims": 2}),
        (np.zeros((3, 4)), {"select_last_index": -1}),
        (np.zeros((3, 4)), {"select_last_index": "yes"}),
    ],
    ids=str,
)
def test_errors_are_eager_and_match_the_opset_api(data, kwargs, operator):
    x = da.from_array(data, chunks=2 if data.ndim else ())
    expected = _error(getattr(argmin.opset13, operator.name), data, **kwargs)
    got = _error(_ours(operator), x, **kwargs)
    assert type(got) is type(expected)
    assert str(got) == str(expected)
    assert operator.name in str(got)


def test_masked_chunks_are_refused(operator):
    data = np.ma.masked_array(np.arange(6.0), mask=[0, 1, 0, 0, 0, 0])
    with pytest.raises(TypeError, match=f"{operator.name}.*masked"):
        _ours(operator)(da.from_array(data, chunks=2))


def test_unknown_chunk_sizes_are_refused(operator):
    x = da.from_array(np.arange(10.0), chunks=3)
    x = x[x > 2]
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        _ours(operator)(x)
    data = np.arange(10.0)[np.arange(10.0) > 2]
    np.testing.assert_array_equal(
        _ours(operator)(x.compute_chunk_sizes()).compute(), operator.oracle(data)
    )


def test_numpy_input_is_accepted(operator):
    data = np.array([[2, 1, 1], [0, 5, 0]], dtype=np.uint32)
    result = _ours(operator)(data, axis=1, select_last_index=1)
    assert isinstance(result, da.Array)
    np.testing.assert_array_equal(result.compute(), operator.oracle(data, 1, 1, 1))


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_distributed_cluster(client):
    rng = np.random.default_rng(10)
    cases = []
    for dtype in (np.float32, oracle.BFLOAT16, np.int64, np.uint8):
        data = rng.choice(oracle.special_values(dtype), size=(13, 7))
        if oracle.is_float(dtype):
            data[4:7, :] = np.nan
        cases.append(data)
    for data, operator in ((data, operator) for data in cases for operator in OPERATORS):
        x = da.from_array(data, chunks=((4, 3, 0, 6), (2, 5)))
        for axis in (0, 1, -1):
            for keepdims, last in FLAGS:
                lazy = _ours(operator)(x, axis, keepdims, last, split_every=2)
                result = client.compute(lazy).result()
                expected = operator.oracle(data, axis, keepdims, last)
                assert result.dtype == np.int64 and result.shape == expected.shape
                np.testing.assert_array_equal(result, expected)
    # The work ran in the worker processes, with the variant of argmin's kernels in use here.
    loaded = client.run(lambda: sys.modules["argmin._api"].kernels.__name__
                        if "argmin._api" in sys.modules else None)
    assert list(loaded.values()) == [argmin._api.kernels.__name__] * 2
