"""Where more threads start to pay: median time of argmin on 1 and on all threads, by input size.

``python benchmarks/threshold.py`` prints, for float32 and int8 inputs reduced along the last and
the first axis, the time with ``num_threads=1`` and with all threads, with the threshold under
which calls use one thread (``argmin._tuning.Tuning.parallel_bytes``) set to 0 so that every size
really runs on all threads.  Where the speed-up passes 1 is where the
threshold belongs: at a one-thread time (``Tuning.parallel_seconds``, for default calls) more
than at a size, since the one-thread pace differs several times over between ways of reading.
"""

import numpy as np
from compare import timeit

import argmin
from argmin import _api, _tuning


def main():
    threads = _api.kernels.max_threads()
    rng = np.random.default_rng(0)
    print(f"threads: 1 and {threads}; microseconds, median of 51 calls")
    print(f"{'case':<28} {'KiB':>7} {'1 thread':>9} {str(threads) + ' threads':>10} {'speed-up':>8}")
    for dtype in (np.float32, np.int8):
        for kib in (16, 64, 128, 256, 512, 1024, 4096):
            n = (kib << 10) // np.dtype(dtype).itemsize
            side = int(np.sqrt(n))
            x = rng.integers(1, 100, size=(side, n // side)).astype(dtype)
            for axis in (-1, 0):
                one = timeit(lambda: argmin.argmin(x, axis, num_threads=1), 51)
                with _tuning.tuned(parallel_bytes=0):
                    many = timeit(lambda: argmin.argmin(x, axis, num_threads=threads), 51)
                case = f"{np.dtype(dtype).name} {x.shape} axis={axis}"
                print(f"{case:<28} {kib:>7} {one * 1e6:>9.1f} {many * 1e6:>10.1f} {one / many:>8.2f}")
    defaults = _api.tuning_defaults()
    print(f"thresholds in use: {defaults['parallel_bytes'] >> 10} KiB, and for a default call "
          f"{defaults['parallel_seconds'] * 1e6:g} us expected on one thread")


if __name__ == "__main__":
    main()
