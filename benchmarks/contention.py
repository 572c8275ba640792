"""Threads on a busy machine: argmin's default call against one thread and numpy.

``python benchmarks/contention.py`` starts its own busy processes (each
``while True: pass``), 0, 1 and 2 of them in turn, and ends them by their
process id.  With each load it times float32 inputs of 0.4 MB to 64 MiB,
calling in turn argmin's default (threads as the library chooses), argmin on
one thread (``num_threads=1``) and numpy.argmin, so that all three see the
same load.  It prints, per case, the median and the 90th percentile of each,
and ``default / 1 thread`` at both.

Then a pool of 4 Python threads, each reducing an array of its own (16 MiB)
``--pool-calls`` times: the wall time of the whole pool with the default
against ``num_threads=1``.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import argmin

CASES = [((1000, 100), 1), ((256, 1024), 0), ((1024, 1024), 1),
         ((4096, 4096), 1), ((4096, 4096), 0)]


def start_busy(count):
    """Start `count` processes that keep a core busy."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def end_busy(processes):
    """End the busy processes by their process id, and reap them."""
    for process in processes:
        os.kill(process.pid, signal.SIGTERM)
    for process in processes:
        process.wait()


def seconds_per_call(calls, budget):
    """Per-call seconds of each function in `calls`, called in turn for `budget` seconds.

    At least 11 rounds and at most 200; one warm-up call each first.
    """
    for fn in calls:
        fn()
    times = [[] for _ in calls]
    end = time.perf_counter() + budget
    while len(times[0]) < 200 and (len(times[0]) < 11 or time.perf_counter() < end):
        for fn, spent in zip(calls, times):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    return times


def median_p90(times):
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def pool_seconds(arrays, num_threads, calls):
    """Wall seconds for a pool of len(arrays) Python threads, each reducing its own array."""
    def work(x):
        for _ in range(calls):
            argmin.argmin(x, axis=1, num_threads=num_threads)

    with ThreadPoolExecutor(max_workers=len(arrays)) as pool:
        start = time.perf_counter()
        list(pool.map(work, arrays))
        return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 1, 2],
                        help="numbers of busy processes to measure under (default: 0 1 2)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time spent on each case and load (default: 2)")
    parser.add_argument("--pool-calls", type=int, default=20,
                        help="calls each thread of the pool makes (default: 20)")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    inputs = {shape: rng.random(shape, dtype=np.float32) for shape, _ in CASES}
    pool_arrays = [rng.random((1024, 4096), dtype=np.float32) for _ in range(4)]
    print(f"{os.cpu_count()} CPUs, default threads {argmin._api.kernels.max_threads()}; "
          "float32; microseconds; median / 90th percentile")
    header = (f"{'busy':>4} {'case':<26} {'MB':>6} {'default':>17} {'1 thread':>17} "
              f"{'numpy':>17} {'default/1 thread':>17}")
    print(header)
    pools = []
    for busy in args.busy:
        processes = start_busy(busy)
        try:
            time.sleep(0.2)  # the busy processes are running
            for shape, axis in CASES:
                x = inputs[shape]
                calls = [lambda: argmin.argmin(x, axis=axis),
                         lambda: argmin.argmin(x, axis=axis, num_threads=1),
                         lambda: np.argmin(x, axis=axis)]
                stats = [median_p90(t) for t in seconds_per_call(calls, args.seconds)]
                cells = " ".join(f"{m * 1e6:>8.0f} /{p * 1e6:>7.0f}" for m, p in stats)
                ratio = f"{stats[0][0] / stats[1][0]:>7.2f} /{stats[0][1] / stats[1][1]:>7.2f}"
                case = f"{shape} axis={axis}"
                print(f"{busy:>4} {case:<26} {x.nbytes / 1e6:>6.1f} {cells} {ratio:>17}",
                      flush=True)
            pool_seconds(pool_arrays, None, 1)
            default = statistics.median(
                pool_seconds(pool_arrays, None, args.pool_calls) for _ in range(3))
            one = statistics.median(
                pool_seconds(pool_arrays, 1, args.pool_calls) for _ in range(3))
            pools.append((busy, default, one))
        finally:
            end_busy(processes)
    print()
    print(f"pool of 4 Python threads, each {args.pool_calls} calls on its own (1024, 4096) "
          "float32 array, axis=1; wall ms, median of 3")
    print(f"{'busy':>4} {'default':>9} {'1 thread':>9} {'default/1 thread':>17}")
    for busy, default, one in pools:
        print(f"{busy:>4} {default * 1e3:>9.1f} {one * 1e3:>9.1f} {default / one:>17.2f}")


if __name__ == "__main__":
    main()
