"""Inputs of more than 2**31 elements: indices are 64-bit (select these tests with -m slow).

Several GiB of memory: a 2 GiB 1-D uint8 input, then a 4 GiB 2-D one read
along its columns, with the minimum and its ties past index 2**31.
"""

import numpy as np
import pytest

import argmin

from . import oracle

pytestmark = pytest.mark.slow

BACKGROUND, DECOY = 9, 5


def check(data, axis, expected_by_last, threads):
    for last, expected in expected_by_last.items():
        for num_threads in threads:
            result = argmin.argmin(data, axis=axis, select_last_index=last,
                                   num_threads=num_threads)
            assert result.dtype == np.int64
            np.testing.assert_array_equal(result, expected,
                                          err_msg=f"last={last} num_threads={num_threads}")


def test_1d():
    n = 2**31 + 2**20 + 7
    first, last = 2**31 + 17, 2**31 + 2**19 + 5
    data = np.full(n, BACKGROUND, dtype=np.uint8)
    data[[0, 2**31 - 1, 2**31]] = DECOY  # smaller than the background, before and at 2**31
    for low in (3, 0):  # 0 is the smallest uint8: the kernels may stop early
        data[[first, last]] = low
        expected = {select: oracle.argmin(data, 0, True, select) for select in (False, True)}
        assert expected[False][0] > 2**31 and expected[True][0] > 2**31
        check(data, 0, expected, threads=(1, 8))
        assert data[first] == data[last] == low and data[2**31] == DECOY
    # Two rows 2**31 bytes apart: strides and offsets past 32 bits in the other layout.
    rows = np.lib.stride_tricks.as_strided(data, shape=(2, 2**20), strides=(2**31, 1),
                                           writeable=False)
    for axis in (0, 1):
        expected = {select: oracle.argmin(rows, axis, True, select) for select in (False, True)}
        check(rows, axis, expected, threads=(1, 8))
    del rows, data


def test_2d_columns():
    n = 2**31 + 2**12 + 3
    data = np.full((n, 2), BACKGROUND, dtype=np.uint8)
    data[[1, 2**31 - 1], 0] = DECOY
    # Past 2**31 when read forwards (column 0) and backwards (column 1).
    ties = {0: [2**31 + 5, 2**31 + 4000], 1: [2, 2**12]}
    for column, rows in ties.items():
        data[rows, column] = 3
    for view in (data, data[::-1]):
        expected = {
            select: np.array([[oracle.argmin(view[:, j], 0, False, select) for j in (0, 1)]])
            for select in (False, True)
        }
        assert all((answer > 2**31).any() for answer in expected.values())
        check(view, 0, expected, threads=(None,))
    del data
