"""The calling thread's floating-point environment: a library may set x86's DAZ (denormals
are zero) for the whole process, and then the CPU compares subnormals as zeros. The kernels'
vector minimum of float32 and float64 compares numbers, so it must leave such runs to the
exact keys, and still take every other run."""

import ctypes
import ctypes.util
import platform
import sys
from contextlib import contextmanager

import numpy as np
import pytest

import argmin

from . import oracle
from .conftest import OPERATORS

pytestmark = [
    pytest.mark.kernels,
    pytest.mark.skipif(sys.platform != "linux" or platform.machine() != "x86_64",
                       reason="sets MXCSR through glibc's fenv_t on x86-64"),
]

DAZ = 0x40
# glibc's fenv_t on x86-64: 28 bytes of the x87 environment, then MXCSR.
FENV_WORDS = 8
MXCSR_WORD = 7


@contextmanager
def denormals_are_zero():
    """DAZ set in this thread's MXCSR, as a library that sets it for speed leaves it."""
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    saved = (ctypes.c_uint32 * FENV_WORDS)()
    assert libm.fegetenv(saved) == 0
    changed = (ctypes.c_uint32 * FENV_WORDS)(*saved)
    changed[MXCSR_WORD] |= DAZ
    assert libm.fesetenv(changed) == 0
    try:
        yield
    finally:
        libm.fesetenv(saved)


def runs(dtype, n, rng):
    """Rows of n elements of subnormals and signed zeros, whose best is a subnormal, a zero,
    or a normal number among them, at a row's ends and at random places."""
    tiny = np.finfo(dtype).smallest_subnormal
    pool = (np.array([1, 2, 3, 1000, -1, -2, -1000]) * tiny).astype(dtype)
    pool = np.concatenate([pool, np.array([0.0, -0.0], dtype)])
    data = rng.choice(pool, size=(12, n))
    data[0] = np.abs(data[0])                    # the best is +0.0 or -0.0: zeros only below
    data[1] = np.abs(data[1]) + tiny             # positive subnormals: the best is the smallest
    data[2, [0, n - 1]] = -1000 * tiny           # ties at both ends
    data[3, rng.integers(0, n, 3)] = -1.0        # a normal number below them all
    data[4, rng.integers(0, n, 3)] = 1.0         # and above them all
    return data


@pytest.mark.parametrize("dtype", [np.dtype("float32"), np.dtype("float64")], ids=str)
@pytest.mark.parametrize("n", [40, 300, 4097, 20_000])
def test_subnormals_ordered_exactly_under_daz(dtype, n, kernels):
    rng = np.random.default_rng(n)
    data = runs(dtype, n, rng)
    expected = {(op.name, last): op.oracle(op.arranged(data), 1, False, last)
                for op in OPERATORS for last in (False, True)}
    tiny = np.finfo(dtype).smallest_subnormal
    with denormals_are_zero():
        assert not tiny > dtype.type(0), "DAZ did not take effect"
        got = {(op.name, last): op.function(op.arranged(data), 1, False, last, num_threads=1)
               for op in OPERATORS for last in (False, True)}
    assert tiny > dtype.type(0)
    for key, indices in expected.items():
        np.testing.assert_array_equal(got[key], indices, err_msg=str(key))


@pytest.mark.parametrize("dtype", [np.dtype("float32"), np.dtype("float64")], ids=str)
@pytest.mark.parametrize("n", [40, 300, 4097, 20_000])
def test_nan_skipped_among_subnormals_under_daz(dtype, n, kernels):
    # nanargmin and nanargmax skip NaN in the same vector minimum: the rows
    # above with NaN among them, one of NaN but for a subnormal, one of NaN
    # only.
    rng = np.random.default_rng(n + 1)
    data = runs(dtype, n, rng)
    data[5:, rng.integers(0, n, 4)] = np.nan
    data[6] = np.nan
    data[6, n // 2] = np.finfo(dtype).smallest_subnormal
    data[7] = np.nan
    functions = {"nanargmin": (argmin.nanargmin, oracle.nanargmin),
                 "nanargmax": (argmin.nanargmax, oracle.nanargmax)}
    expected = {(name, last): reference(data, 1, False, last)
                for name, (_, reference) in functions.items() for last in (False, True)}
    with denormals_are_zero():
        got = {(name, last): function(data, 1, False, last, all_nan=-1, num_threads=1)
               for name, (function, _) in functions.items() for last in (False, True)}
    for key, indices in expected.items():
        np.testing.assert_array_equal(got[key], indices, err_msg=str(key))
