"""Memory: no reference, allocation or RSS leak over many calls, and no copy of the input.

numpy reports its data allocations to tracemalloc, so a copy of the input
shows in the traced peak of a call; the OpenMP scratch memory of the kernels
goes through malloc, which the process RSS shows if it leaks.
"""

import gc
import json
import os
import sys
import textwrap
import tracemalloc
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from numpy.exceptions import AxisError

import argmin
from argmin import opset1, opset13

from . import oracle
from .fresh import run_code

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

MiB = 2**20


def workloads():
    """(name, call, data, expected): valid calls along every code path, with their answers."""
    rng = np.random.default_rng(0)
    columns = rng.integers(-3, 3, size=(128, 1024)).astype(np.float32)  # 512 KiB
    columns[7, ::3] = np.nan
    long_row = rng.integers(0, 4, size=2**18 + 7).astype(np.int8)
    swapped = rng.standard_normal(8192).astype(">f8").reshape(64, 128)
    bf16 = rng.integers(-2, 2, size=(300, 301)).astype(ml_dtypes.bfloat16)
    return [
        ("columns, parallel", lambda x: argmin.argmin(x, axis=0, num_threads=2), columns,
         oracle.argmin(columns, 0)),
        ("long row, split between threads",
         lambda x: argmin.argmin(x, select_last_index=True, num_threads=3), long_row,
         oracle.argmin(long_row, 0, True, True)),
        ("Fortran, last axis", lambda x: argmin.argmin(x, axis=-1, keepdims=0, num_threads=1),
         np.asfortranarray(columns), oracle.argmin(columns, -1, False)),
        ("negative strides",
         lambda x: argmin.argmin(x, axis=1, select_last_index=1, num_threads=1),
         columns[::-1, ::-2], oracle.argmin(columns[::-1, ::-2], 1, True, True)),
        ("byte-swapped", lambda x: opset1.ArgMin(x, axis=1), swapped, oracle.argmin(swapped, 1)),
        ("bfloat16", lambda x: argmin.argmin(x, axis=1, num_threads=1), bf16,
         oracle.argmin(bf16, 1)),
        ("1-D to 0-d", lambda x: opset13.ArgMin(x, keepdims=0), long_row[:100],
         oracle.argmin(long_row[:100], 0, False)),
    ]


def failures():
    """(name, call, data, exception): refused calls."""
    data = np.arange(12.0).reshape(3, 4)
    return [
        ("element type", lambda x: argmin.argmin(x), data.astype(np.complex128), TypeError),
        ("bfloat16 at opset 1", lambda x: opset1.ArgMin(x), data.astype(ml_dtypes.bfloat16),
         TypeError),
        ("axis out of range", lambda x: argmin.argmin(x, axis=5), data, AxisError),
        ("axis not an integer", lambda x: argmin.argmin(x, axis=1.0), data, TypeError),
        ("rank 0", lambda x: argmin.argmin(x), np.array(1.5), AxisError),
        ("empty axis", lambda x: argmin.argmin(x, axis=1), np.zeros((3, 0)), ValueError),
        ("flag", lambda x: argmin.argmin(x, keepdims=2), data, ValueError),
        ("num_threads", lambda x: argmin.argmin(x, num_threads=0), data, ValueError),
        ("masked", lambda x: argmin.argmin(x), np.ma.array(data, mask=data > 5), TypeError),
        ("byte-swapped, bad axis", lambda x: argmin.argmin(x, axis=-3),
         data.astype(">i4"), AxisError),
        ("ragged list", lambda x: argmin.argmin(x), [[1, 2], [3]], ValueError),
        ("list of str", lambda x: argmin.argmin(x), ["a", "b"], TypeError),
    ]


WORKLOADS = {name: rest for name, *rest in workloads()}
FAILURES = {name: rest for name, *rest in failures()}


@pytest.mark.parametrize("name", WORKLOADS)
def test_refcounts(name):
    call, data, expected = WORKLOADS[name]
    result = call(data)
    np.testing.assert_array_equal(result, expected)
    fresh = np.zeros(3)
    assert sys.getrefcount(result) == sys.getrefcount(fresh)  # nothing else keeps the result
    before = sys.getrefcount(data), sys.getrefcount(data.dtype)
    for _ in range(300):
        call(data)
    assert (sys.getrefcount(data), sys.getrefcount(data.dtype)) == before


@pytest.mark.parametrize("name", FAILURES)
def test_refcounts_when_refused(name):
    call, data, exception = FAILURES[name]
    before = sys.getrefcount(data)
    for _ in range(300):
        with pytest.raises(exception):
            call(data)
    assert sys.getrefcount(data) == before


def rss():
    """Resident memory of this process, in bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc (Linux)")
def test_no_leak_over_many_calls():
    """2000 calls of each kind: RSS and traced memory stay flat."""
    calls = [(call, data, expected) for call, data, expected in WORKLOADS.values()]
    refused = list(FAILURES.values())
    for call, data, expected in calls:
        np.testing.assert_array_equal(call(data), expected)

    def run(times):
        for _ in range(times):
            for call, data, _ in calls:
                call(data)
            for call, data, exception in refused:
                try:
                    call(data)
                except exception:
                    pass

    run(100)
    gc.collect()
    rss_before = rss()
    tracemalloc.start()
    try:
        run(100)
        gc.collect()
        traced_before = tracemalloc.get_traced_memory()[0]
        run(1000)
        gc.collect()
        traced_growth = tracemalloc.get_traced_memory()[0] - traced_before
    finally:
        tracemalloc.stop()
    run(900)
    gc.collect()
    rss_growth = rss() - rss_before
    # A leak of one output, one converted input or one scratch buffer per call
    # would be 8 KiB to 1 MiB a call: 16 MiB and more over 2000 calls.
    assert rss_growth < 8 * MiB, f"RSS grew by {rss_growth / MiB:.1f} MiB over 2000 calls"
    assert traced_growth < 64 * 1024, f"traced memory grew by {traced_growth} bytes"


PEAK = textwrap.dedent("""
    import json, sys, tracemalloc
    import ml_dtypes
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    import oracle
    import argmin

    def tensors():
        rng = np.random.default_rng(0)
        # 64 MiB each: float32 (4096, 4096), bfloat16 (4096, 8192), uint8 (256, 512, 512).
        f32 = rng.integers(-50, 50, size=(4096, 4096), dtype=np.int8).astype(np.float32)
        f32[::97, 5] = np.nan
        yield "float32", f32, (False, True)
        # The two halves of each float32: its value, rounded down, and +0.0.
        yield "bfloat16", f32.view(ml_dtypes.bfloat16).copy(), (False,)
        yield "uint8", rng.integers(0, 255, size=(256, 512, 512), dtype=np.uint8), (False,)

    def layouts(x):
        yield "C", x
        yield "F", np.asfortranarray(x)
        perm = tuple(range(x.ndim))[::-1]
        yield "transposed", np.ascontiguousarray(x.transpose(perm)).transpose(perm)
        flip = (slice(None, None, -1),) * x.ndim
        yield "negative strides", np.ascontiguousarray(x[flip])[flip]

    for name, x, lasts in tensors():
        expected = {(axis, last): oracle.argmin(x, axis, True, last)
                    for axis in range(x.ndim) for last in lasts}
        for layout, data in layouts(x):
            assert data.nbytes == 64 * 2**20
            for (axis, last), answer in expected.items():
                tracemalloc.start()
                before = tracemalloc.get_traced_memory()[0]
                result = argmin.argmin(data, axis=axis, select_last_index=last)
                peak = tracemalloc.get_traced_memory()[1] - before
                tracemalloc.stop()
                print(json.dumps({
                    "case": f"{name} {data.shape} {layout} axis={axis} last={last}",
                    "peak": peak, "output": result.nbytes,
                    "equal": bool(np.array_equal(result, answer)),
                }), flush=True)
            del data
""")


def test_no_copy_of_the_input(tmp_path):
    """The traced peak of a call on 64 MiB stays within its output plus 64 KiB."""
    child = run_code(PEAK, Path(__file__).resolve().parent, cwd=tmp_path, timeout=300)
    assert child.returncode == 0, child.stderr[-3000:]
    lines = [json.loads(line) for line in child.stdout.splitlines()]
    assert len(lines) == 4 * (2 * 2 + 2 + 3)
    for line in lines:
        assert line["equal"], line["case"]
        assert line["peak"] <= line["output"] + 64 * 1024, line
