"""Threads: OpenMP thread counts, threadpoolctl limits, and many Python threads at once.

The inputs are larger than 256 KiB so that the kernels really go parallel, and
hold ties and NaNs on both sides of the places where the work is cut between
threads (the reduced axis cut in 2, 3, 4 or 8 chunks, of rows of a few
elements or of whole rows of about 1.5 KiB).
"""

import contextlib
import os
import signal
import subprocess
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import argmin
from argmin import _tuning, opset13

from . import oracle
from .fresh import run_code
from .conftest import OPERATORS

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

THREADS = (1, 2, 3, 8)
TYPES = [np.dtype("float32"), np.dtype("float64"), np.dtype("float16"), oracle.BFLOAT16,
         np.dtype("int8"), np.dtype("int64"), np.dtype("uint16"), np.dtype("uint64")]


def cuts(n):
    """Both sides of every place where n elements are cut into 2, 3, 4 or 8 chunks."""
    places = set()
    for parts in (2, 3, 4, 8):
        for k in range(1, parts):
            for edge in (k * n // parts, -(-k * n // parts)):
                places.update((edge - 1, edge, edge + 1))
    return sorted(p for p in places if 0 < p < n - 1)


def low_and_high(dtype):
    """(the smallest value, a tie-breaking NaN or None, a background value)."""
    if oracle.is_float(dtype):
        return np.array(-np.inf).astype(dtype), np.array(np.nan).astype(dtype), \
            np.array(7).astype(dtype)
    info = np.iinfo(dtype)
    return np.array(info.min).astype(dtype), None, np.array(info.max).astype(dtype)


def lines(dtype, n, rng):
    """Columns of length n: ties and NaNs across the cuts, all equal, random small values."""
    low, nan, high = low_and_high(dtype)
    places = np.array(cuts(n))
    out = []
    x = np.full(n, high, dtype=dtype)
    x[places] = low  # ties on both sides of every cut
    out.append(x)
    x = np.full(n, high, dtype=dtype)
    x[places[len(places) // 2:]] = low  # ties in later chunks only
    out.append(x)
    out.append(np.full(n, high, dtype=dtype))  # all equal: first and last index
    x = rng.integers(0, 5, n).astype(dtype)  # many ties of small values
    out.append(x)
    if nan is not None:
        x = np.full(n, low, dtype=dtype)  # NaN beats -inf, ties of NaN across cuts
        x[places[1::2]] = nan
        out.append(x)
        x = np.full(n, high, dtype=dtype)
        x[[0, n - 1]] = low
        x[places[-2:]] = np.array(-np.nan).astype(dtype)  # negative NaN, late only
        out.append(x)
    return out


def layouts(dtype, rng):
    """(name, array, axis): 1-D, rows, columns, Fortran, transposed and negative strides."""
    n = max(2**18 // dtype.itemsize + 4099, 200003)
    columns = lines(dtype, n, rng)
    c = np.stack(columns, axis=1)  # (n, k): a few long columns
    yield "1-D", columns[0], 0
    yield "1-D reversed", columns[-1][::-1], 0
    yield "columns", c, 0
    yield "columns, Fortran", np.asfortranarray(c), 0
    yield "rows", np.ascontiguousarray(c.T), 1
    yield "rows, negative strides", c.T[::-1, ::-1], -1
    yield "3-D middle axis", np.stack([c, c[::-1]], axis=0), 1
    yield "every other element", c[::2], 0
    # Rows of about 1.5 KiB: the threads take chunks of the reduced axis, each
    # of whole rows, rather than part of every row.
    m = 2053
    wide = np.stack(lines(dtype, m, rng), axis=1)
    w = 1500 // dtype.itemsize + 1
    yield "wide columns", np.tile(wide, (1, -(-w // wide.shape[1])))[:, :w], 0


CASES = [(dtype, name) for dtype in TYPES
         for name, _, _ in layouts(dtype, np.random.default_rng(0))]


def case(dtype, name):
    for other, data, axis in layouts(dtype, np.random.default_rng(0)):
        if other == name:
            return data, axis
    raise KeyError(name)


@pytest.mark.parametrize("dtype,name", CASES, ids=[f"{d}-{n}" for d, n in CASES])
def test_thread_counts_agree(dtype, name, operator):
    data, axis = case(dtype, name)
    data = operator.arranged(data)
    assert data.nbytes > 2**18
    before = data.tobytes(order="A")
    for last in (False, True):
        expected = operator.oracle(data, axis, True, last)
        for num_threads in THREADS:
            result = operator.function(data, axis=axis, select_last_index=last,
                                       num_threads=num_threads)
            np.testing.assert_array_equal(result, expected, err_msg=f"num_threads={num_threads}")
        with threadpool_limits(1):
            result = getattr(opset13, operator.name)(data, axis=axis, select_last_index=int(last))
        np.testing.assert_array_equal(result, expected, err_msg="threadpool_limits(1)")
    assert data.tobytes(order="A") == before


def test_more_threads_than_the_cap():
    # num_threads past 1024 counts as 1024: the same result, no error.
    data, axis = case(np.dtype("float32"), "columns")
    expected = oracle.argmin(data, axis, True, False)
    for num_threads in (1025, 1 << 40, np.uint64(1 << 63)):
        np.testing.assert_array_equal(argmin.argmin(data, axis=axis, num_threads=num_threads),
                                      expected)


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_threadpool_limits(limit, operator):
    data, axis = case(np.dtype("float32"), "columns")
    data = operator.arranged(data)
    expected = operator.oracle(data, axis, True, True)
    with threadpool_limits(limit):
        for num_threads in (None, 8):
            result = operator.function(data, axis=axis, select_last_index=True,
                                       num_threads=num_threads)
            np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(operator.function(data, axis=axis, select_last_index=True),
                                  expected)


def test_python_threads_at_once():
    """Eight Python threads on shared and distinct arrays, ArgMin and ArgMax mixed, give the
    single-thread answers."""
    rng = np.random.default_rng(1)
    shared = [(operator, operator.arranged(data), axis)
              for dtype in (np.dtype("float32"), oracle.BFLOAT16, np.dtype("int8"))
              for _, data, axis in layouts(dtype, rng) for operator in OPERATORS]
    for _, data, _ in shared:
        data.flags.writeable = False
    tasks = []
    for i in range(96):
        operator, data, axis = shared[i % len(shared)]
        if i % 3 == 0:
            data = data.copy()  # a distinct array of its own
        tasks.append((operator, data, axis, bool(i % 2), (None, 1, 2, 3, 8)[i % 5]))
    expected = [operator.oracle(data, axis, False, last) for operator, data, axis, last, _ in tasks]
    before = [task[1].tobytes(order="A") for task in tasks]
    start = threading.Barrier(8)

    def call(task):
        operator, data, axis, last, num_threads = task
        if num_threads is None:
            return getattr(opset13, operator.name)(data, axis=axis, keepdims=0,
                                                   select_last_index=int(last))
        return operator.function(data, axis=axis, keepdims=False, select_last_index=last,
                                 num_threads=num_threads)

    def first(task):
        start.wait()
        return call(task)

    for _ in range(4):
        with ThreadPoolExecutor(max_workers=8) as pool:
            head = list(pool.map(first, tasks[:8]))
            results = head + list(pool.map(call, tasks[8:]))
        for task, result, answer in zip(tasks, results, expected):
            assert result.dtype == np.int64 and result.flags.c_contiguous
            np.testing.assert_array_equal(result, answer)
    for task, saved in zip(tasks, before):
        assert task[1].tobytes(order="A") == saved


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_after_fork(tmp_path):
    """A process forked after threaded calls (multiprocessing's "fork") gets answers, not a hang."""
    data, axis = case(np.dtype("float32"), "rows")
    expected = oracle.argmin(data, axis, True, False)
    np.testing.assert_array_equal(argmin.argmin(data, axis=axis, num_threads=2), expected)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 1
        try:
            signal.alarm(10)
            np.save(tmp_path / "child.npy", argmin.argmin(data, axis=axis, num_threads=2))
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    assert not os.WIFSIGNALED(status), \
        f"the forked child was killed by signal {os.WTERMSIG(status)} (SIGALRM: it hung)"
    assert os.WEXITSTATUS(status) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "child.npy"), expected)


def test_fork_before_any_thread_keeps_threads(tmp_path):
    """Only a process forked after OpenMP threads ran is held to one thread."""
    code = textwrap.dedent(f"""
        import os, numpy as np, argmin
        from argmin import _api
        def child_cap():
            pid = os.fork()
            if pid == 0:
                with open(r"{tmp_path}/cap", "w") as f:
                    f.write(str(_api._thread_cap))
                os._exit(0)
            os.waitpid(pid, 0)
            return int(open(r"{tmp_path}/cap").read())
        before = child_cap()
        argmin.argmin(np.zeros((64, 1 << 14), np.float32), axis=1, num_threads=2)
        after = child_cap()
        print(before, after)
    """)
    done = run_code(code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    before, after = map(int, done.stdout.split())
    assert before > 1
    assert after == 1


def test_thread_plan():
    """Explicit counts stand; the default takes what OpenMP allows less what argmin runs now,
    one thread where the call would take less than parallel_seconds on one thread, and one
    while in debt unless the call would take more than twice the debt."""
    def plan(requested, allowed=4, nested=False, nbytes=1000, debt=0.0, per_byte=1e-9, in_use=0,
             parallel_seconds=0.0):
        return argmin._api.kernels.plan_threads_for(requested, allowed, nested, nbytes, debt,
                                                     per_byte, in_use, parallel_seconds)

    assert plan(3, allowed=2) == 3
    assert plan(3, nested=True, debt=5.0, in_use=7) == 3  # neither nesting nor debt applies
    assert plan(0) == 4
    assert plan(0, in_use=1) == 3
    assert plan(0, in_use=4) == 1
    assert plan(0, in_use=9) == 1
    assert plan(0, nested=True) == 1  # inside another OpenMP parallel region
    assert plan(0, debt=1e-6) == 1  # 1 us of a call of 1000 bytes at 1 ns a byte
    assert plan(0, debt=1e-6, per_byte=0.0) == 1  # no pace measured yet
    assert plan(0, debt=1e-6, nbytes=3000) == 4  # a call of 3 us tries the threads
    assert plan(0, debt=-1.0) == 4
    # Calls expected to take less than parallel_seconds on one thread run on one: at the pace
    # of the kind, once known, and at 1 TB/s before.
    assert plan(0, nbytes=4000, parallel_seconds=5e-6) == 1  # 4 us at 1 ns a byte
    assert plan(0, nbytes=6000, parallel_seconds=5e-6) == 4
    assert plan(3, nbytes=4000, parallel_seconds=5e-6) == 3  # explicit counts stand
    assert plan(0, nbytes=4_000_000, per_byte=0.0, parallel_seconds=5e-6) == 1
    assert plan(0, nbytes=6_000_000, per_byte=0.0, parallel_seconds=5e-6) == 4


def test_pace_kinds():
    """Default calls are timed apart by element size and by the way their plan reads the
    reduced axis: rows one by one, short rows, or otherwise (columns, strided rows, and
    contiguous rows too short to be read as short rows)."""
    def kind(x, axis):
        return argmin._api.kernels.plan_of(x, axis, 1)["pace_kind"]

    for dtype in (np.int8, np.float16, np.float32, np.int64):
        size = np.dtype(dtype).itemsize
        base = 3 * int(np.log2(size))
        long_rows = np.zeros((4, 2 * 16384 // size), dtype)
        rows = np.zeros((64, 64), dtype)
        assert argmin._api.plan(rows, 1)["way"] == "short"
        assert kind(long_rows, 1) == kind(long_rows[:, ::-1], 1) == base
        assert kind(long_rows[0], 0) == base
        assert kind(rows, 1) == base + 1
        assert kind(rows, 0) == kind(long_rows[:, ::2], 1) == kind(long_rows[0, ::2], 0) == base + 2
        for n in (2, 4, 8):  # read as short rows, or as strided columns where too short
            narrow = np.zeros((4096, n), dtype)
            short = argmin._api.plan(narrow, 1)["way"] == "short"
            assert kind(narrow, 1) == base + (1 if short else 2)


def test_thread_debt_rule():
    """Threads that cost time owe factor times it on one thread, the factor doubling (4 to 64)
    with each failure; threads that helped clear the debt and halve the factor; one-thread
    calls pay their time off and give the seconds a byte takes, which a parallel call's
    one-thread time gives only where nothing has."""
    settle = argmin._api.kernels.settle_after
    assert settle(0.0, 4, 0.010, 0.002, 1000) == pytest.approx((0.008, 8, 8e-6))
    assert settle(0.001, 8, 0.010, 0.002, 1000) == pytest.approx((0.017, 16, 8e-6))
    assert settle(-0.5, 64, 0.010, 0.002, 1000) == pytest.approx((0.128, 64, 8e-6))
    assert settle(0.5, 32, 0.010, -0.001, 1000) == pytest.approx((0.0, 16, 11e-6))
    assert settle(0.5, 32, 0.010, 0.0, 1000) == pytest.approx((0.0, 16, 10e-6))
    assert settle(0.5, 4, 0.010, -0.001, 1000) == pytest.approx((0.0, 4, 11e-6))
    assert settle(0.0, 4, 0.010, 0.002, 1000, 5e-6) == pytest.approx((0.008, 8, 5e-6))
    assert settle(0.5, 4, 0.010, -0.001, 1000, 5e-6) == pytest.approx((0.0, 4, 5e-6))
    assert settle(0.5, 4, 0.010, None, 1000, 5e-6) == pytest.approx((0.49, 4, 10e-6))
    assert settle(0.032, 16, 0.01, None, 1000) == pytest.approx((0.022, 16, 1e-5))
    debt, factor, _ = settle(0.001, 16, 0.01, None, 1000)
    assert debt < 0 and factor == 16  # paid off: the next default call tries threads


def test_thread_excess():
    """Wall time less what the fastest thread, at its own pace, would take alone for all."""
    excess = argmin._api.kernels.excess_of
    # Two threads, 10 elements each at 1 ms an element: 10 ms against 20 ms alone.
    assert excess(0.010, [0.010, 0.010], [10, 10]) == pytest.approx(-0.010)
    # The second thread started so late that it found nothing: the caller waited 5 ms for it.
    assert excess(0.025, [0.020, 0.0], [20, 0]) == pytest.approx(0.005)
    # The fastest pace counts: 1 ms an element on the second thread, so 8 ms alone.
    assert excess(0.009, [0.012, 0.002], [6, 2]) == pytest.approx(0.001)
    # Items of unequal size (a wide tile and a narrow one) at the same pace: threads helped.
    assert excess(0.004096, [0.004096, 0.000904], [4096, 904]) == pytest.approx(-0.000904)
    with pytest.raises(ValueError, match="one entry per thread"):
        excess(0.1, [0.1], [1, 2])


def test_debt_is_paid_by_default_calls_only():
    kernels = argmin._api.kernels
    data, axis = case(np.dtype("float32"), "rows")
    expected = oracle.argmin(data, axis, True, False)
    previous = kernels.thread_debt(10.0)
    try:
        np.testing.assert_array_equal(argmin.argmin(data, axis=axis, num_threads=2), expected)
        assert kernels.thread_debt() == 10.0
        np.testing.assert_array_equal(argmin.argmin(data, axis=axis), expected)
        assert kernels.thread_debt() < 10.0  # timed on one thread, paid off
        small = np.arange(10, dtype=np.float32)
        debt = kernels.thread_debt()
        argmin.argmin(small)  # under the parallel threshold: the governor is not asked
        assert kernels.thread_debt() == debt
        # Past the thresholds but one work item: planned for threads, run on one, it pays
        # too (rather than counting as threads that helped, which would clear the debt).
        single = np.arange(100_000, dtype=np.float32)[::-1]
        kernels.thread_debt(-1.0)
        with _tuning.tuned(parallel_seconds=0.0):
            assert argmin.argmin(single, keepdims=False) == 99_999
        assert -2.0 < kernels.thread_debt() < -1.0
    finally:
        kernels.thread_debt(previous)
    assert kernels.threads_in_use() == 0


@pytest.mark.skipif(argmin._api.kernels.max_threads() < 2, reason="OpenMP allows one thread")
@pytest.mark.parametrize("dtype", [np.dtype("float32"), np.dtype("int8")], ids=str)
@pytest.mark.parametrize("way", ["rows", "columns"])
def test_calls_expected_short_run_on_one_thread(dtype, way):
    """A default call expected to take less than parallel_seconds on one thread runs on one,
    and pays off the debt; with parallel_seconds 0 the same call tries the threads, which
    clear a debt or add to it."""
    kernels = argmin._api.kernels
    data, axis = case(dtype, way)
    assert data.nbytes >= argmin._api.tuning_defaults()["parallel_bytes"]
    expected = oracle.argmin(data, axis, True, False)
    previous = kernels.thread_debt(-1.0)
    try:
        # Threads started: the default call that starts them does not settle.
        np.testing.assert_array_equal(argmin.argmin(data, axis=axis, num_threads=2), expected)
        for seconds in (1.0, 0.0, 1.0):
            kernels.thread_debt(-1.0)
            with _tuning.tuned(parallel_seconds=seconds):
                np.testing.assert_array_equal(argmin.argmin(data, axis=axis), expected)
            if seconds:
                assert -2.0 < kernels.thread_debt() < -1.0, "one thread pays off"
            else:
                assert kernels.thread_debt() >= 0.0, "threads clear a debt or add to it"
    finally:
        kernels.thread_debt(previous)


@contextlib.contextmanager
def busy_cores(count):
    """`count` shell loops that keep a core busy each, for the duration of the block."""
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def test_busy_machine_and_python_threads_agree_with_one_thread():
    """Default calls under busy cores, alone and from 4 Python threads at once, on every case.

    Whatever threads the governor gives each call, ArgMin's or ArgMax's, the answer is the
    oracle's and the one-thread answer.
    """
    rng = np.random.default_rng(3)
    tasks = [(operator, operator.arranged(data), axis, last)
             for dtype in (np.dtype("float32"), np.dtype("float16"), np.dtype("int8"),
                           np.dtype("uint64"))
             for _, data, axis in layouts(dtype, rng)
             for operator in OPERATORS for last in (False, True)]
    expected = [operator.oracle(data, axis, True, last) for operator, data, axis, last in tasks]
    one = [operator.function(data, axis=axis, select_last_index=last, num_threads=1)
           for operator, data, axis, last in tasks]
    for answer, single in zip(expected, one):
        np.testing.assert_array_equal(single, answer)

    def call(task):
        operator, data, axis, last = task
        return operator.function(data, axis=axis, select_last_index=last)

    with busy_cores(2):
        for _ in range(3):
            for task, answer in zip(tasks, expected):
                np.testing.assert_array_equal(call(task), answer)
        with ThreadPoolExecutor(max_workers=4) as pool:
            for _ in range(3):
                for result, answer in zip(pool.map(call, tasks), expected):
                    np.testing.assert_array_equal(result, answer)
    assert argmin._api.kernels.threads_in_use() == 0
