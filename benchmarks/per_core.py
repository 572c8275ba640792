"""One core: argmin on one thread against numpy, from L1 to DRAM, with the read limit of one core.

Every case is a C-contiguous array of one working-set size, reduced along axis 1 (rows of 16,
256 or 4,096 elements), as one whole row, or along axis 0 (columns of 4,096).  argmin runs with
``num_threads=1``; numpy always runs on one thread.  Each round times, in turn, a block of calls
of ``argmin.argmin``, ``numpy.argmin``, ``argmin.argmax``, ``numpy.argmax`` and
``argmin.argmin(select_last_index=True)``, so that a change in the machine's load touches them
all alike; the table gives medians over the rounds:

- ``GB/s`` and ``limit``: argmin's throughput, and its share of the one-core read limit;
- ``x numpy``: numpy.argmin's time over argmin's (above 1: argmin is faster);
- ``max/min`` and ``last/min``: argmax's and select_last_index's time over argmin's;
- ``x numpy max``: numpy.argmax's time over argmax's;
- for the floating types, ``nan/min``: ``argmin.nanargmin``'s time over argmin's; ``x nan
  numpy`` and ``x nan bn``: numpy.nanargmin's and bottleneck.nanargmin's (when installed; not
  for bfloat16, which it does not read) time over ``argmin.nanargmin``'s.  ``--nan P`` puts
  NaN in P percent of the floating-point elements (at random places) of every case.

The read limit of each working set is the best of one, two and four streams of a vectorized
minimum over the same number of bytes (a C loop compiled for this CPU when a C compiler is
found, else ``numpy.max``): more streams keep more cache misses in flight.  The DRAM set is
4 times the last-level cache and at least 1 GiB; there, calls that take seconds (numpy along
columns) are timed once.

    python benchmarks/per_core.py [--repeat 7] [--dtypes float32,int64] [--sets 16K,256K,4M,DRAM]
                                  [--nan 1]
"""

import argparse
import ctypes
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time

# numpy's OpenBLAS, loaded with numpy, keeps a thread for each core polling
# for work beside the timed calls, none of which uses it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

import argmin  # noqa: E402

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64"]
ROWS = [16, 256, 4096]
COLUMNS = 4096
SAMPLE_SECONDS = 2e-3      # a block of calls lasts at least this long
SLOW_SECONDS = 1.0         # a call this slow is timed once

MIN_LOOPS = r"""
#include <stddef.h>
/* The minimum of n floats read as K streams side by side, `passes` times over
 * (the accumulators carry from one pass to the next, so no pass can be left
 * out), 16 lanes a stream. */
#define STREAMS(K)                                                            \
float min_##K(const float* p, size_t n, size_t passes) {                     \
    float acc[K][16];                                                         \
    size_t part = n / K / 16 * 16, i, j, s, pass;                             \
    for (s = 0; s < K; s++)                                                   \
        for (j = 0; j < 16; j++) acc[s][j] = p[0];                            \
    for (pass = 0; pass < passes; pass++)                                     \
        for (i = 0; i < part; i += 16)                                        \
            for (s = 0; s < K; s++)                                           \
                for (j = 0; j < 16; j++) {                                    \
                    float v = p[s * part + i + j];                            \
                    acc[s][j] = v < acc[s][j] ? v : acc[s][j];                \
                }                                                             \
    float best = acc[0][0];                                                   \
    for (s = 0; s < K; s++)                                                   \
        for (j = 0; j < 16; j++) best = acc[s][j] < best ? acc[s][j] : best;  \
    return best;                                                              \
}
STREAMS(1)
STREAMS(2)
STREAMS(4)
"""


def min_loops():
    """The compiled minimum over 1, 2 and 4 streams, as {streams: C function of the address
    and length of a float32 array and the passes over it}, or None where no C compiler is
    found."""
    compiler = shlex.split(os.environ.get("CC", "")) or [shutil.which("cc") or "gcc"]
    with tempfile.TemporaryDirectory() as folder:
        source, library = os.path.join(folder, "min.c"), os.path.join(folder, "min.so")
        with open(source, "w") as file:
            file.write(MIN_LOOPS)
        try:
            subprocess.run([*compiler, "-O3", "-march=native", "-shared", "-fPIC", source,
                            "-o", library], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        loaded = ctypes.CDLL(library)  # stays loaded once its file is gone
    loops = {}
    for streams in (1, 2, 4):
        function = getattr(loaded, f"min_{streams}")
        function.restype = ctypes.c_float
        function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
        loops[streams] = function
    return loops


def block_times(functions, rounds):
    """Seconds a call of each function: the median of `rounds` rounds, each a block of calls
    of every function in turn.  A block lasts at least SAMPLE_SECONDS; a function whose first
    call took SLOW_SECONDS or more keeps that time and is not called again."""
    first = []
    for function in functions:
        start = time.perf_counter()
        function()
        first.append(time.perf_counter() - start)
    calls = [max(1, int(SAMPLE_SECONDS / max(seconds, 1e-9))) for seconds in first]
    times = [[] for _ in functions]
    for _ in range(rounds):
        for function, n, slow, seconds in zip(functions, calls, first, times):
            if slow >= SLOW_SECONDS:
                continue
            start = time.perf_counter()
            for _ in range(n):
                function()
            seconds.append((time.perf_counter() - start) / n)
    return [statistics.median(seconds) if seconds else slow
            for seconds, slow in zip(times, first)]


def read_limit(nbytes, loops, rounds):
    """Bytes a second of the best of 1, 2 and 4 streams of a vector minimum over `nbytes`.

    The compiled loops make enough passes a call that the call's own cost does not count."""
    data = np.random.default_rng(0).random(nbytes // 4, dtype=np.float32)
    if loops is None:
        return nbytes / min(block_times([lambda: data.max()], rounds))
    passes = max(1, int(SAMPLE_SECONDS * 10e9 / nbytes))  # at 10 GB/s, a block's time
    functions = [lambda loop=loop: loop(data.ctypes.data, data.size, passes)
                 for loop in loops.values()]
    return nbytes * passes / min(block_times(functions, rounds))


def last_level_cache():
    """Bytes of the largest cache of CPU 0 (0 where the system does not say)."""
    largest = 0
    folder = "/sys/devices/system/cpu/cpu0/cache"
    for index in os.listdir(folder) if os.path.isdir(folder) else []:
        try:
            with open(os.path.join(folder, index, "size")) as file:
                text = file.read().strip()
        except OSError:
            continue
        scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
        largest = max(largest, int(text.rstrip("KM")) * scale)
    return largest


def sets(names):
    """{name: bytes} of the working sets asked for."""
    dram = max(1 << 30, 4 * last_level_cache())
    known = {"16K": 16 << 10, "256K": 256 << 10, "4M": 4 << 20, "DRAM": dram}
    return {name: known[name] for name in names}


def cases(n):
    """(label, shape, axis) of each case of at most `n` elements."""
    found = [(f"rows of {row}", (n // row, row), 1) for row in ROWS if n // row >= 1]
    found.append(("one row", (n,), 0))
    if n // COLUMNS >= 2:
        found.append((f"columns of {COLUMNS}", (n // COLUMNS, COLUMNS), 0))
    return found


def element_type(name):
    """The numpy dtype of an element type's name (bfloat16: ml_dtypes')."""
    return np.dtype(ml_dtypes.bfloat16 if name == "bfloat16" else name)


def make(name, size, nan_percent):
    """`size` random values of the element type `name`: normal floats, with NaN in
    `nan_percent` percent of them, or integers over the whole range but its two ends (the
    smallest key ends a row's search at once: a row that holds it would measure that
    shortcut, not the reading)."""
    rng = np.random.default_rng(1)
    dtype = element_type(name)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min + 1, info.max - 1, size, dtype=dtype, endpoint=True)
    values = rng.standard_normal(size, dtype=np.float32)
    if nan_percent:
        values[rng.random(size, dtype=np.float32) < nan_percent / 100] = np.nan
    return values.astype(dtype)


def bottleneck_nanargmin():
    """bottleneck.nanargmin, or None where bottleneck is not installed."""
    try:
        import bottleneck
    except ImportError:
        return None
    return bottleneck.nanargmin


def measure(x, axis, rounds, skipping):
    """Seconds of a call of argmin, numpy.argmin, argmax, numpy.argmax and last index; with
    `skipping` (for floats) also of argmin.nanargmin, numpy.nanargmin and each of
    `skipping`'s other functions (None: left out)."""
    def ours(function, last=False, **options):
        return lambda: function(x, axis=axis, keepdims=False, select_last_index=last,
                                num_threads=1, **options)

    functions = [ours(argmin.argmin), lambda: np.argmin(x, axis=axis),
                 ours(argmin.argmax), lambda: np.argmax(x, axis=axis),
                 ours(argmin.argmin, last=True)]
    if skipping is not None:
        functions += [ours(argmin.nanargmin, all_nan=-1), lambda: np.nanargmin(x, axis=axis)]
        functions += [lambda f=f: f(x, axis=axis) for f in skipping if f is not None]
    # A first call of SLOW_SECONDS is the time block_times keeps, and argmin's first call on
    # a large output can take many times its later ones (int8 rows of 16 from DRAM, whose
    # output is 512 MiB): argmin, whose calls are short, is called once before.
    ours(argmin.argmin)()
    times = block_times(functions, rounds)
    if skipping is not None and None in skipping:
        times.append(None)
    return times


def nan_cells(ours, nan):
    """The columns of argmin.nanargmin from its time and numpy's and bottleneck's (None: not
    timed), or dashes where it was not timed."""
    if not nan:
        return f"{'-':>8} {'-':>11} {'-':>8}"
    skipping, numpy_nan, other = nan
    cells = f"{skipping / ours:>8.2f} {numpy_nan / skipping:>11.2f}"
    return cells + (f" {'-':>8}" if other is None else f" {other / skipping:>8.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="rounds of each case (default 7)")
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--sets", default="16K,256K,4M,DRAM")
    parser.add_argument("--nan", type=float, default=0.0,
                        help="percent of NaN among the floating-point elements (default 0)")
    args = parser.parse_args()
    bottleneck = bottleneck_nanargmin()

    loops = min_loops()
    working = sets(args.sets.split(","))
    limits = {name: read_limit(nbytes, loops, args.repeat) for name, nbytes in working.items()}
    print(f"argmin {argmin.__version__}, kernels {argmin.kernel_variant()}, numpy "
          f"{np.__version__}, {platform.processor() or platform.machine()}, one thread")
    print("read limit of one core (best of 1, 2, 4 streams of a "
          f"{'compiled' if loops else 'numpy'} vector min): "
          + ", ".join(f"{name} {limit / 1e9:.1f} GB/s" for name, limit in limits.items()))
    header = (f"{'dtype':<9} {'set':<5} {'case':<16} {'us':>10} {'GB/s':>7} {'limit':>6} "
              f"{'x numpy':>8} {'max/min':>8} {'last/min':>8} {'x numpy max':>11} "
              f"{'nan/min':>8} {'x nan numpy':>11} {'x nan bn':>8}")
    print(header)
    if args.nan:
        print(f"NaN in {args.nan:g}% of the floating-point elements")
    ratios = []
    for dtype in args.dtypes.split(","):
        floating = element_type(dtype).kind not in "iu"
        skipping = ((bottleneck if dtype != "bfloat16" else None,) if floating else None)
        for name, nbytes in working.items():
            data = make(dtype, nbytes // element_type(dtype).itemsize, args.nan)
            for label, shape, axis in cases(data.size):
                x = data[:np.prod(shape)].reshape(shape)
                ours, numpy_min, ours_max, numpy_max, last, *nan = measure(
                    x, axis, args.repeat, skipping)
                speed = x.nbytes / ours
                ratios.append(numpy_min / ours)
                print(f"{dtype:<9} {name:<5} {label:<16} {ours * 1e6:>10.1f} {speed / 1e9:>7.2f} "
                      f"{speed / limits[name]:>6.0%} {numpy_min / ours:>8.2f} "
                      f"{ours_max / ours:>8.2f} {last / ours:>8.2f} "
                      f"{numpy_max / ours_max:>11.2f} {nan_cells(ours, nan)}", flush=True)
            del data, x
    slower = sum(ratio < 1 for ratio in ratios)
    print(f"{len(ratios)} cases; argmin slower than numpy.argmin on {slower}; "
          f"x numpy median {statistics.median(ratios):.2f}, min {min(ratios):.2f}")


if __name__ == "__main__":
    main()
