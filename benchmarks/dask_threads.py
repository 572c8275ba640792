"""argmin.dask against dask.array.argmin, on Dask's threaded scheduler and a LocalCluster.

``python benchmarks/dask_threads.py`` persists one float32 array (``--mib``, in
chunks of ``--chunk-mib``) and times, alternating them, ``argmin.dask.ArgMin``
and ``dask.array.argmin`` along each axis: first on the threaded scheduler
(one Python thread per core), then on a ``dask.distributed`` LocalCluster of
one worker process with 2 threads.  On the threaded scheduler each worker
thread runs a chunk's kernel at once with the others, so the kernels must
share the cores rather than each take them all; a LocalCluster's worker
processes start with ``OMP_NUM_THREADS=1`` (distributed's default), so
each task's kernel runs on one thread.  Median and 90th percentile of
``--repeat`` computations, in milliseconds.
"""

import argparse
import statistics
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import argmin.dask


def times(fns, repeat):
    """Seconds of each computation in `fns`, alternated `repeat` times after one warm-up each."""
    for fn in fns:
        fn()
    spent = [[] for _ in fns]
    for _ in range(repeat):
        for fn, seconds in zip(fns, spent):
            start = time.perf_counter()
            fn()
            seconds.append(time.perf_counter() - start)
    return spent


def row(scheduler, x, axis, repeat):
    fns = [lambda: argmin.dask.ArgMin(x, axis=axis, keepdims=0).compute(),
           lambda: da.argmin(x, axis=axis).compute()]
    assert np.array_equal(fns[0](), fns[1]())
    cells = []
    for seconds in times(fns, repeat):
        ordered = sorted(seconds)
        cells.append(f"{statistics.median(ordered) * 1e3:>8.1f} /"
                     f"{ordered[int(0.9 * (len(ordered) - 1))] * 1e3:>7.1f}")
    print(f"{scheduler:<24} axis={axis} {cells[0]:>17} {cells[1]:>17}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=256, help="array size (default 256 MiB)")
    parser.add_argument("--chunk-mib", type=int, default=16, help="chunk size (default 16 MiB)")
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()

    side = int(np.sqrt((args.mib << 20) // 4))
    chunk = int(np.sqrt((args.chunk_mib << 20) // 4))
    x = da.random.default_rng(0).random((side, side), chunks=chunk, dtype=np.float32)
    print(f"float32 {x.shape} in chunks {x.chunksize}, persisted; ms, median / 90th percentile")
    print(f"{'scheduler':<24} {'':<6} {'argmin.dask':>17} {'dask.array':>17}")
    with dask.config.set(scheduler="threads"):
        persisted = x.persist()
        for axis in (0, 1):
            row("threaded", persisted, axis, args.repeat)
    with LocalCluster(n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        threads = client.run(lambda: argmin._api.kernels.max_threads())
        print(f"LocalCluster worker: OpenMP allows {list(threads.values())[0]} thread(s)")
        persisted = x.persist()
        for axis in (0, 1):
            row("LocalCluster 1x2 threads", persisted, axis, args.repeat)


if __name__ == "__main__":
    main()
