"""Property-based differential tests: ArgMin and ArgMax against the numpy oracle.

Every element type, ranks 0 to 6 with zero lengths, values that favour ties,
NaN, +-0, +-inf, subnormals and integer extremes, in arbitrary views (slices
with any step, transposes, Fortran order, byte order, unaligned, zero
strides, read-only), with a random axis, keepdims, select_last_index and
opset.  The number of examples comes from the hypothesis profile ("ci" by
default, "long" with HYPOTHESIS_PROFILE=long).
"""

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import argmin
from argmin import opset1, opset11, opset12, opset13

from . import oracle
from .conftest import BY_NAME

pytestmark = [
    # Reaches the kernels: .ci/run runs these on every compiled variant.
    pytest.mark.kernels,
    # The oracle's float64 cast of a signalling bfloat16 NaN (still a NaN).
    pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning"),
]

#: The entry points of each operator: the four opsets, and the Python-style function (opset 13
#: with num_threads).
APIS = (1, 11, 12, 13, "function")
MODULES = {1: opset1, 11: opset11, 12: opset12, 13: opset13}
FUNCTIONS = {"ArgMin": argmin.argmin, "ArgMax": argmin.argmax}


def unsigned(dtype):
    """The unsigned integer type of ``dtype``'s width, to build any bit pattern."""
    return np.dtype(f"u{np.dtype(dtype).itemsize}")


def special_bits(dtype):
    """Bit patterns of the values that test the order, NaN payloads and signs included."""
    dtype = np.dtype(dtype)
    bits = set(oracle.special_values(dtype).view(unsigned(dtype)).tolist())
    if oracle.is_float(dtype):
        sign = 1 << (8 * dtype.itemsize - 1)
        inf = int(np.array(np.inf, dtype=dtype).view(unsigned(dtype)))
        bits |= {inf + 1, sign | (inf + 1), sign - 1, sign | 1, sign}
    return sorted(bits)


def small_bits(dtype):
    """Bit patterns of a few small values near zero."""
    dtype = np.dtype(dtype)
    values = np.arange(5) if dtype.kind == "u" else np.arange(-2, 3)
    return sorted(set(values.astype(dtype).view(unsigned(dtype)).tolist()))


@st.composite
def pools(draw, dtype):
    """A few distinct bit patterns: the elements of one array, so ties are common."""
    width = 8 * np.dtype(dtype).itemsize
    value = st.one_of(
        st.sampled_from(special_bits(dtype)),
        st.sampled_from(small_bits(dtype)),
        st.integers(0, 2**width - 1),
    )
    return draw(st.lists(value, min_size=1, max_size=5, unique=True))


LAYOUTS = ("C", "F", "byteswap", "unaligned")


def store(base, layout):
    """``base`` copied into storage of the given layout; returns (storage, array)."""
    if layout == "F":
        data = np.asfortranarray(base)
        return data, data
    if layout == "byteswap":
        data = base.astype(base.dtype.newbyteorder())
        return data, data
    if layout == "unaligned":
        buffer = np.zeros(base.nbytes + 1, dtype=np.uint8)
        data = buffer[1:].view(base.dtype).reshape(base.shape)
        data[...] = base
        return buffer, data
    data = np.ascontiguousarray(base)
    return data, data


@st.composite
def views(draw, data):
    """A view of ``data``: sliced with any step, transposed, with a zero stride, read-only."""
    if data.ndim:
        data = data[tuple(draw(st.slices(n)) for n in data.shape)]
    if data.ndim > 1 and draw(st.booleans()):
        data = data.transpose(draw(st.permutations(range(data.ndim))))
    if data.ndim < 6 and draw(st.booleans()):
        position = draw(st.integers(0, data.ndim))
        shape = list(data.shape)
        shape.insert(position, draw(st.integers(0, 3)))
        data = np.broadcast_to(np.expand_dims(data, position), shape)
    elif draw(st.booleans()):
        data = data.view()
        data.flags.writeable = False
    return data


def flags():
    """0/1 attribute values as Python and numpy integers and booleans."""
    return st.sampled_from([0, 1, False, True, np.int64(0), np.int8(1), np.uint64(1)])


def axes(ndim):
    """An axis in [-ndim, ndim - 1] as a Python or numpy integer; any small one for rank 0."""
    axis = st.integers(-1, 0) if ndim == 0 else st.integers(-ndim, ndim - 1)
    return st.tuples(axis, st.sampled_from([int, np.int64, np.intp, np.int16])).map(
        lambda pair: pair[1](pair[0])
    )


@st.composite
def calls(draw):
    """(function, storage, data, kwargs, opset, operator name) for one call."""
    dtype = draw(st.sampled_from(oracle.ELEMENT_TYPES))
    pool = draw(pools(dtype))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=6, min_side=0, max_side=5))
    base = draw(hnp.arrays(unsigned(dtype), shape, elements=st.sampled_from(pool))).view(dtype)
    storage, data = store(base, draw(st.sampled_from(LAYOUTS)))
    data = draw(views(data))
    api = draw(st.sampled_from(APIS))
    op = draw(st.sampled_from(list(FUNCTIONS)))
    kwargs = {"axis": draw(axes(data.ndim)), "keepdims": draw(flags())}
    if api in (12, 13, "function"):
        kwargs["select_last_index"] = draw(flags())
    if api == "function":
        kwargs["num_threads"] = draw(st.sampled_from([None, 1, 2, 3]))
        function, opset = FUNCTIONS[op], 13
    else:
        function, opset = getattr(MODULES[api], op), api
    return function, storage, data, kwargs, opset, op


def check_result(result, data, kwargs, op):
    """``result`` is the oracle's answer for ``op``, as a fresh C-contiguous int64 ndarray."""
    expected = BY_NAME[op].oracle(
        data, int(kwargs["axis"]), bool(kwargs["keepdims"]),
        bool(kwargs.get("select_last_index", 0)),
    )
    assert type(result) is np.ndarray
    assert result.dtype == np.int64
    assert result.shape == expected.shape
    assert result.flags.c_contiguous and result.flags.owndata and result.flags.writeable
    assert not np.shares_memory(result, data)
    np.testing.assert_array_equal(result, expected)


@given(calls())
def test_matches_oracle(call):
    function, storage, data, kwargs, opset, op = call
    before = storage.tobytes(order="A")
    axis = int(kwargs["axis"])
    if data.dtype.newbyteorder("=") == oracle.BFLOAT16 and opset < 13:
        with pytest.raises(TypeError, match="bfloat16 needs opset 13"):
            function(data, **kwargs)
    elif data.ndim == 0:
        with pytest.raises(AxisError, match="out of bounds for array of dimension 0"):
            function(data, **kwargs)
    elif data.shape[axis] == 0:
        with pytest.raises(ValueError, match=f"cannot take {op} of an empty axis"):
            function(data, **kwargs)
        with pytest.raises(ValueError):
            BY_NAME[op].oracle(data, axis)
    else:
        check_result(function(data, **kwargs), data, kwargs, op)
    assert storage.tobytes(order="A") == before


# Lengths on either side of the kernels' lane, block and tile sizes, and long
# enough for the reduced axis to be split between threads.
LENGTHS = sorted(
    {1, 2, 3, 10000, 2**16 + 1, 2**17, 2**18 + 3, 2**19}
    | {k + d for k in (16, 32, 64, 128, 512, 1024, 2048, 4096, 8192) for d in (-1, 0, 1)}
)
MAX_SIZE = 2**19


@st.composite
def large_calls(draw):
    """Arrays of up to 2**19 elements, long enough to fill blocks and tiles, from a seed."""
    dtype = draw(st.sampled_from(oracle.ELEMENT_TYPES))
    pool = np.array(draw(pools(dtype)), dtype=unsigned(dtype))
    ndim = draw(st.integers(1, 3))
    shape = []
    for _ in range(ndim):
        room = MAX_SIZE // max(1, int(np.prod(shape)))
        shape.append(draw(st.sampled_from([n for n in LENGTHS if n <= room])))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    weights = rng.dirichlet(np.full(len(pool), 0.3))
    base = rng.choice(pool, size=shape, p=weights).view(dtype)
    storage, data = store(base, draw(st.sampled_from(LAYOUTS)))
    steps = [draw(st.sampled_from([1, 1, -1, 2, -3])) for _ in range(ndim)]
    data = data[tuple(slice(None, None, step) for step in steps)]
    if draw(st.booleans()):
        data = data.transpose(draw(st.permutations(range(ndim))))
    kwargs = {
        "axis": draw(st.integers(-ndim, ndim - 1)),
        "keepdims": draw(st.booleans()),
        "select_last_index": draw(st.booleans()),
        "num_threads": draw(st.sampled_from([None, 1, 2, 3])),
    }
    return storage, data, kwargs, draw(st.sampled_from(list(FUNCTIONS)))


@given(large_calls())
def test_large_matches_oracle(call):
    storage, data, kwargs, op = call
    event(f"{op} {'parallel' if data.nbytes >= 2**18 else 'serial'} rank {data.ndim}")
    before = storage.tobytes(order="A")
    check_result(FUNCTIONS[op](data, **kwargs), data, kwargs, op)
    assert storage.tobytes(order="A") == before
