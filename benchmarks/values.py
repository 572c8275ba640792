"""Values with indices, and numpy's signature with ``out=``, against the indices alone and numpy.

Run ``python benchmarks/values.py`` (``--help`` for the options), in one process:

- ``min_argmin`` (``max_argmax`` with ``--op ArgMax``) on compare.py's inputs
  (each element type, C and Fortran, axes 0 to 2, then the ``(n, 2)`` and
  ``(n, 16)`` C arrays along both axes).  ``vs alone``: its time over
  ``argmin.argmin``'s (``argmax``) on the same case, the median of the ratios of
  alternated calls; ``x numpy``: the time of numpy's pair ``x.min(axis)`` and
  ``x.argmin(axis)`` over ours; ``limit``: the throughput as a fraction of the
  read bandwidth measured in the same run (see compare.py); ``values ms``: what
  the values' array alone costs, numpy allocating one and filling it on one
  thread (alternated with the others).  Arrays of 32 MiB or more are fresh
  memory whose pages are zeroed when first written: where the output is as
  large as the input, that is most of what the values add.
- ``argmin.numpy.argmin(x, axis, out=buf)`` against the same call without
  ``out`` and ``numpy.argmin``, alternated, on the ``(n, 2)`` and ``(n, 16)``
  inputs.

Medians of ``--repeat`` calls per case; a summary line ends each part.
"""

import argparse
import statistics

import numpy as np

import argmin
import argmin.numpy
from compare import DTYPES, alternated_times, inputs, read_bandwidth

PAIRS = {"ArgMin": (argmin.argmin, argmin.min_argmin, np.min, np.argmin),
         "ArgMax": (argmin.argmax, argmin.max_argmax, np.max, np.argmax)}
NUMPY_API = {"ArgMin": (argmin.numpy.argmin, np.argmin), "ArgMax": (argmin.numpy.argmax, np.argmax)}


def paired_ratio(mine, theirs):
    """The median of the ratios of calls made in the same round."""
    return statistics.median(a / b for a, b in zip(mine, theirs))


def values_part(table, op, repeat, limit):
    """Print min_argmin (max_argmax) against the indices alone and numpy's pair."""
    alone, both, extreme, position = PAIRS[op]
    print(f"{'case':<34} {'alone ms':>9} {'both ms':>9} {'limit':>6} {'vs alone':>9} "
          f"{'values ms':>9} {'numpy ms':>9} {'x numpy':>8}")
    ratios, behind = [], []
    for label, make_input, cases in table:
        x = make_input()
        for axis, _ in cases:
            size = x.size // x.shape[axis]
            times = alternated_times([lambda: alone(x, axis), lambda: both(x, axis),
                                      lambda: (extreme(x, axis), position(x, axis)),
                                      lambda: np.empty(size, x.dtype).fill(0)], repeat)
            ratio = paired_ratio(times[1], times[0])
            alone_s, both_s, numpy_s, values_s = map(statistics.median, times)
            ratios.append(ratio)
            if numpy_s <= both_s:
                behind.append(f"{label} axis={axis}")
            print(f"{label + ' axis=' + str(axis):<34} {alone_s * 1e3:>9.2f} {both_s * 1e3:>9.2f} "
                  f"{x.nbytes / both_s / limit:>6.0%} {ratio:>9.2f} {values_s * 1e3:>9.2f} "
                  f"{numpy_s * 1e3:>9.2f} {numpy_s / both_s:>8.1f}", flush=True)
    print(f"{op}: values with indices over indices alone, {len(ratios)} cases: median "
          f"{statistics.median(ratios):.3f}, max {max(ratios):.3f}, "
          f"{sum(r <= 1.2 for r in ratios)} at 1.2 or less; numpy's pair as fast on: "
          f"{', '.join(behind) or 'none'}")


def out_part(table, op, repeat):
    """Print argmin.numpy's call with out= against it without, and numpy's."""
    ours, numpys = NUMPY_API[op]
    print(f"{'case':<34} {'out= ms':>9} {'new ms':>9} {'vs new':>7} {'numpy ms':>9} "
          f"{'x numpy':>8}")
    ratios = []
    for label, make_input, cases in table:
        if "(n," not in label:
            continue
        x = make_input()
        for axis, _ in cases:
            buf = np.empty(x.shape[1 - axis], dtype=np.intp)
            times = alternated_times([lambda: ours(x, axis, out=buf), lambda: ours(x, axis),
                                      lambda: numpys(x, axis)], repeat)
            ratio = paired_ratio(times[0], times[1])
            ratios.append(ratio)
            with_out, new, numpy_s = map(statistics.median, times)
            print(f"{label + ' axis=' + str(axis):<34} {with_out * 1e3:>9.2f} {new * 1e3:>9.2f} "
                  f"{ratio:>7.2f} {numpy_s * 1e3:>9.2f} {numpy_s / with_out:>8.1f}", flush=True)
    if not ratios:
        print("no (n, 2) or (n, 16) input among these element types: uint8 and float32 have them")
        return
    print(f"argmin.numpy.{op.lower()} with out= over without, {len(ratios)} cases: "
          f"median {statistics.median(ratios):.3f}, min {min(ratios):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=64, help="input size in MiB (default 64)")
    parser.add_argument("--dtype", action="append", choices=DTYPES, help="repeatable; default all")
    parser.add_argument("--op", choices=list(PAIRS), default="ArgMin")
    parser.add_argument("--repeat", type=int, default=5, help="timed calls per case (median)")
    args = parser.parse_args()
    args.axis = args.order = None
    args.last = [0]
    args.nan = 0.0
    table = inputs(args, args.mib << 20)
    threads = argmin._api.kernels.max_threads()
    limit = read_bandwidth(args.mib << 20, threads, args.repeat)
    print(f"argmin {argmin.__version__}, numpy {np.__version__}, threads default ({threads}), "
          f"input {args.mib} MiB, read limit {limit / 1e9:.1f} GB/s")
    values_part(table, args.op, args.repeat, limit)
    out_part(table, args.op, args.repeat)


if __name__ == "__main__":
    main()
