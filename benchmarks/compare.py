"""One table, one process: ArgMin and ArgMax throughput against numpy and the read limit.

Run ``python benchmarks/compare.py`` (``--help`` for the options).  For each
case and operator (``--op``; both by default) it prints the median time of
argmin.argmin or argmin.argmax, its throughput in GB/s of input read, that
throughput as a fraction of the machine's read bandwidth (measured in the same
run: the best threaded, vectorized ``numpy.max`` over an array of the same
size, one slice per thread), ``vs ArgMin``: its time over ArgMin's on the same
case (the two operators' calls alternate, and this is the median of the ratios
of the two calls of each round, so that both see the same machine),
and the ratio of numpy.argmin's or numpy.argmax's time (and torch's and
onnxruntime's, when installed) to ours.  ``output ms`` is what the output alone
costs: numpy allocating an int64 array of the output's size and filling it, on
one thread.  An output
of 32 MiB or more is fresh memory from the operating system at every call
(glibc's malloc hands back smaller ones from memory it keeps), whose pages are
zeroed when first written, so the cases whose output is large against their
input (rows of a few elements) are bound by that cost (less what threads
share of it) rather than by the read limit.

After the (64, 512, m) inputs come C arrays of shape (n, 2) and (n, 16),
uint8 and float32: narrow columns along axis 0, rows of 2 and 16 elements along axis 1;
and Fortran arrays of shape (2, 512, m) and (16, 512, m) along axis 0: rows of 2 and 16
elements whose outputs lie far apart (of the options, only --dtype and --last apply to
them).

argmin is timed in each of --passes passes over the whole table, and a case's
time is the median of its calls in all passes: a burst of load from other
tenants of a shared machine spoils a few neighbouring cases in one pass, not
in all.  The read limit is measured at the start of each pass, and the best
is kept.  The other libraries are timed once, in a last pass of their own
(numpy's slow cases take seconds, and the thread pools of torch and
onnxruntime keep spinning for a while after a call, which would take the
cores from argmin's next measurement).

``--op nanargmin`` and ``--op nanargmax`` time argmin.nanargmin and argmin.nanargmax (with
``all_nan=-1``) against numpy.nanargmin and numpy.nanargmax, and bottleneck's when installed;
``--nan P`` puts NaN in P percent of the elements of the floating-point inputs, at random places.

numpy, torch and onnxruntime have no select_last_index: for select_last_index=1
they get the same computation as the ONNX reference does (argmin or argmax of
the flipped input).  A summary after the table gives the spread of ArgMax's
time over ArgMin's, and for each of the others the cases where ArgMin is faster
than its argmin but ArgMax not faster than its argmax.
"""

import argparse
import functools
import statistics
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import ml_dtypes
import numpy as np

import argmin

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "int16", "int32",
          "int64", "uint8", "uint16", "uint32", "uint64"]
OPERATORS = {"ArgMin": argmin.argmin, "ArgMax": argmin.argmax,
             "nanargmin": functools.partial(argmin.nanargmin, all_nan=-1),
             "nanargmax": functools.partial(argmin.nanargmax, all_nan=-1)}
# The operators of the table unless --op names others.
DEFAULT_OPS = ["ArgMin", "ArgMax"]


def alternated_times(fns, repeat, warm_calls=10, warm_seconds=0.1):
    """Seconds of each of `repeat` rounds of calls for each function: one list per function.

    Each round calls every function once, in turn, so that a change in the
    machine's load touches them all alike.  Warm-up: `warm_calls` rounds, or
    fewer if they take `warm_seconds`, at least one.  Memory just written can
    be read slower for the first few passes (a fresh 64 MiB Fortran float64
    array along axis 0, 2 threads: 4.8 ms the first call, falling to 2.2 ms by
    the eighth; the same input read five times beforehand by numpy.max, 2.6 ms
    then 2.2 ms), while the read limit is measured on memory read many times.
    """
    end = time.perf_counter() + warm_seconds
    for _ in range(warm_calls):
        for fn in fns:
            fn()
        if time.perf_counter() > end:
            break
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, seconds in zip(fns, times):
            start = time.perf_counter()
            fn()
            seconds.append(time.perf_counter() - start)
    return times


def times_of(fn, repeat):
    """Seconds of each of `repeat` calls of `fn`, after warm-up calls (see alternated_times)."""
    return alternated_times([fn], repeat)[0]


def timeit(fn, repeat):
    """Median seconds of `repeat` calls, after warm-up calls (see alternated_times)."""
    return statistics.median(times_of(fn, repeat))


def read_bandwidth(nbytes, threads, repeat):
    """Bytes per second of a vectorized read split over `threads` threads.

    The best of ``numpy.max`` over the same buffer read as float32, uint8 and
    uint64 (numpy's fastest reduction is the nearest to what memory allows),
    each the median of four times as many calls as a case gets: one slow
    call among a few would set the limit for the whole table.
    """
    buffer = np.ones(nbytes, np.uint8)
    best = 0.0
    with ThreadPoolExecutor(threads) as pool:
        for dtype in (np.float32, np.uint8, np.uint64):
            slices = np.array_split(buffer.view(dtype), threads)
            seconds = timeit(lambda: list(pool.map(np.max, slices)), 4 * repeat)
            best = max(best, nbytes / seconds)
    return best


def make(dtype, nbytes, order, seed, first=64, nan_percent=0.0):
    """A 3-D input of about `nbytes`: (first, 512, m), values 1 to 100 (many ties), and for
    floating types NaN in `nan_percent` percent of the elements."""
    dtype = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    m = max(1, nbytes // (first * 512 * dtype.itemsize))
    rng = np.random.default_rng(seed)
    values = rng.integers(1, 101, size=(first, 512, m), dtype=np.int8).astype(dtype)
    if nan_percent and dtype.kind not in "iu":
        values[rng.random(values.shape, dtype=np.float32) < nan_percent / 100] = np.nan
    return np.asarray(values, order=order)


def inputs(args, nbytes):
    """The table's inputs, in order: (label, function that makes it, its (axis, last) cases).

    Each input is made again in every pass (the same: its seed is its label's),
    rather than all kept in memory.
    """
    lasts = args.last or [0, 1]
    found = []
    for dtype in args.dtype or DTYPES:
        for order in args.order or ["C", "F"]:
            label = f"{dtype} {order}"
            found.append((label,
                          lambda dtype=dtype, order=order, seed=zlib.crc32(label.encode()):
                              make(dtype, nbytes, order, seed, nan_percent=args.nan),
                          [(axis, last) for axis in args.axis or [0, 1, 2] for last in lasts]))
    # Narrow columns (axis 0) and rows of a few elements (axis 1) of a C array.
    for dtype in [name for name in ("uint8", "float32") if name in (args.dtype or DTYPES)]:
        for width in (2, 16):
            label = f"{dtype} (n, {width})"
            found.append((label,
                          lambda dtype=dtype, width=width, seed=zlib.crc32(label.encode()):
                              make(dtype, nbytes, "C", seed,
                                   nan_percent=args.nan).reshape(-1, width),
                          [(axis, last) for axis in (0, 1) for last in lasts]))
    # Rows of a few elements along the first axis of a Fortran array.
    for dtype in [name for name in ("uint8", "float32") if name in (args.dtype or DTYPES)]:
        for width in (2, 16):
            label = f"{dtype} F({width},512,m)"
            found.append((label,
                          lambda dtype=dtype, width=width, seed=zlib.crc32(label.encode()):
                              make(dtype, nbytes, "F", seed, width, args.nan),
                          [(0, last) for last in lasts]))
    return found


def competitors(threads):
    """Other argmins and argmaxes a user could call, on `threads` threads:
    name -> function(x, axis, last, op), op one of OPERATORS; a function raises for an op
    that it has not."""

    def numpy_arg(x, axis, last, op):
        reduce = {"ArgMin": np.argmin, "ArgMax": np.argmax,
                  "nanargmin": np.nanargmin, "nanargmax": np.nanargmax}[op]
        return reduce(np.flip(x, axis) if last else x, axis)

    found = {"numpy": numpy_arg}
    try:
        import bottleneck

        def bottleneck_arg(x, axis, last, op):
            reduce = {"nanargmin": bottleneck.nanargmin, "nanargmax": bottleneck.nanargmax}[op]
            if x.dtype == np.dtype(ml_dtypes.bfloat16):
                raise TypeError("bottleneck does not read bfloat16")
            return reduce(np.flip(x, axis) if last else x, axis)

        found["bottleneck"] = bottleneck_arg
    except ImportError:
        pass
    try:
        import torch

        torch.set_num_threads(threads)

        def torch_arg(x, axis, last, op):
            reduce = {"ArgMin": torch.argmin, "ArgMax": torch.argmax}[op]
            if x.dtype == np.dtype(ml_dtypes.bfloat16):
                t = torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
            else:
                t = torch.from_numpy(x)
            return reduce(torch.flip(t, [axis]) if last else t, dim=axis)

        found["torch"] = torch_arg
    except ImportError:
        pass
    try:
        import onnxruntime
        from onnx import TensorProto, helper

        sessions = {}

        def ort_arg(x, axis, last, op):
            if op not in ("ArgMin", "ArgMax"):
                raise ValueError(f"onnxruntime has no {op}")
            key = (x.dtype.str, x.ndim, axis, last, op)
            if key not in sessions:
                node = helper.make_node(op, ["x"], ["y"], axis=axis,
                                        select_last_index=int(last))
                graph = helper.make_graph(
                    [node], op.lower(),
                    [helper.make_tensor_value_info(
                        "x", helper.np_dtype_to_tensor_dtype(x.dtype), [None] * x.ndim)],
                    [helper.make_tensor_value_info("y", TensorProto.INT64, None)])
                model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = threads
                sessions[key] = onnxruntime.InferenceSession(
                    model.SerializeToString(), options, providers=["CPUExecutionProvider"])
            return sessions[key].run(None, {"x": x})

        found["onnxruntime"] = ort_arg
    except ImportError:
        pass
    return found


def measure_ours(x, cases, ours, alone, args):
    """Add the times of each operator on x for each (axis, last) case to ours[op, axis, last],
    the operators' calls alternated, and of making a fresh output of the same size alone to
    alone[axis]."""
    for axis, last in cases:
        calls = [lambda f=OPERATORS[op]: f(x, axis, select_last_index=last,
                                           num_threads=args.threads) for op in args.op]
        for op, times in zip(args.op, alternated_times(calls, args.repeat)):
            ours.setdefault((op, axis, last), []).extend(times)
    for axis in dict.fromkeys(axis for axis, _ in cases):
        size = x.size // x.shape[axis]
        alone.setdefault(axis, []).extend(times_of(
            lambda: np.empty(size, np.int64).fill(0), args.repeat))


def measure_theirs(x, cases, others, theirs, args):
    """Set theirs[op, axis, last][name] to the median time of each of the others on x
    (None: no kernel)."""
    for axis, last in cases:
        for op in args.op:
            for name, fn in others.items():
                try:
                    seconds = timeit(lambda: fn(x, axis, last, op), max(1, args.repeat // 2))
                except Exception:  # no kernel for this element type
                    seconds = None
                theirs.setdefault((op, axis, last), {})[name] = seconds


def report(label, nbytes, cases, ops, ours, alone, theirs, limit):
    """Print a row for each (axis, last) case and operator of one input."""
    for axis, last in cases:
        for op in ops:
            seconds = statistics.median(ours[op, axis, last])
            versus = versus_argmin(ours, op, axis, last) if "ArgMin" in ops else None
            cells = f" {'-' if versus is None else f'{versus:.2f}':>9}"
            cells += f" {statistics.median(alone[axis]) * 1e3:>9.2f}"
            for other in theirs.get((op, axis, last), {}).values():
                cells += f" {'-':>12}" if other is None else f" {other / seconds:>12.1f}"
            speed = nbytes / seconds
            case = f"{label} axis={axis} last={last}"
            print(f"{case:<34} {op:<{op_width(ops)}} {seconds * 1e3:>8.2f} {speed / 1e9:>6.1f} "
                  f"{speed / limit:>6.0%}{cells}", flush=True)


def op_width(ops):
    """The width of the table's op column: six, or the longest name of ops."""
    return max(6, *map(len, ops))


def versus_argmin(ours, op, axis, last):
    """The median, over the rounds of alternated calls, of op's time over ArgMin's in the
    same round: a change of the machine's load between rounds cancels out."""
    return statistics.median(mine / theirs for mine, theirs
                             in zip(ours[op, axis, last], ours["ArgMin", axis, last]))


def faster(ours, theirs, name, op, axis, last):
    """Whether argmin's op was faster than library `name`'s on the (axis, last) case."""
    other = theirs[op, axis, last][name]
    return other is not None and statistics.median(ours[op, axis, last]) < other


def summary(table, ops, ours, theirs):
    """Print ArgMax's time over ArgMin's across the cases, and the cases where ArgMin is
    faster than another library's argmin but ArgMax is not faster than its argmax."""
    if ops != ["ArgMin", "ArgMax"]:
        return
    ratios = {}
    for label, _, cases in table:
        for axis, last in cases:
            key = f"{label} axis={axis} last={last}"
            ratios[key] = versus_argmin(ours[label], "ArgMax", axis, last)
    values = sorted(ratios.values())
    print(f"ArgMax / ArgMin time over {len(values)} cases: median "
          f"{statistics.median(values):.3f}, min {values[0]:.3f}, max {values[-1]:.3f}; "
          f"over 1.10: {', '.join(k for k, r in ratios.items() if r > 1.10) or 'none'}")
    names = next((list(t[key]) for t in theirs.values() for key in t), [])
    for name in names:
        behind, ahead = [], 0
        for label, _, cases in table:
            for axis, last in cases:
                if faster(ours[label], theirs[label], name, "ArgMin", axis, last):
                    ahead += 1
                    if not faster(ours[label], theirs[label], name, "ArgMax", axis, last):
                        behind.append(f"{label} axis={axis} last={last}")
        print(f"{name}: ArgMin faster than its argmin on {ahead} cases; ArgMax not faster "
              f"than its argmax on {len(behind)} of them{': ' if behind else ''}"
              f"{', '.join(behind)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=64, help="input size in MiB (default 64)")
    parser.add_argument("--dtype", action="append", choices=DTYPES, help="repeatable; default all")
    parser.add_argument("--axis", action="append", type=int, choices=[0, 1, 2])
    parser.add_argument("--order", action="append", choices=["C", "F"])
    parser.add_argument("--last", action="append", type=int, choices=[0, 1])
    parser.add_argument("--op", action="append", choices=list(OPERATORS),
                        help="repeatable; default ArgMin and ArgMax")
    parser.add_argument("--nan", type=float, default=0.0,
                        help="percent of NaN in the floating-point inputs (default 0)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed calls per case and pass (median)")
    parser.add_argument("--passes", type=int, default=2,
                        help="passes of argmin over the table (default 2)")
    parser.add_argument("--threads", type=int, default=None,
                        help="num_threads for argmin (default: argmin's default call), and "
                             "threads for the read limit and the others (default: all)")
    parser.add_argument("--no-competitors", action="store_true",
                        help="time argmin only (numpy's slow cases take seconds)")
    args = parser.parse_args()
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    args.op = [op for op in OPERATORS if op in (args.op or DEFAULT_OPS)]

    nbytes = args.mib << 20
    if args.threads is not None and args.threads < 1:
        parser.error("--threads must be at least 1")
    threads = args.threads or argmin._api.kernels.max_threads()
    others = {} if args.no_competitors else competitors(threads)
    table = inputs(args, nbytes)
    ours = {label: {} for label, _, _ in table}
    alone = {label: {} for label, _, _ in table}
    theirs = {label: {} for label, _, _ in table}
    sizes = {}
    limit = 0.0
    for done in range(args.passes):
        print(f"argmin: pass {done + 1} of {args.passes}", file=sys.stderr, flush=True)
        limit = max(limit, read_bandwidth(nbytes, threads, args.repeat))
        for label, make_input, cases in table:
            x = make_input()
            sizes[label] = x.nbytes
            measure_ours(x, cases, ours[label], alone[label], args)
            del x
    if others:
        print("the others", file=sys.stderr, flush=True)
        for label, make_input, cases in table:
            measure_theirs(make_input(), cases, others, theirs[label], args)
    used = args.threads or f"default ({threads})"
    print(f"argmin {argmin.__version__}, numpy {np.__version__}, threads {used}, "
          f"input {args.mib} MiB, {args.passes} passes, read limit {limit / 1e9:.1f} GB/s "
          f"(best numpy.max over {args.mib} MiB on {threads} threads)")
    width = op_width(args.op)
    header = (f"{'case':<34} {'op':<{width}} {'ms':>8} {'GB/s':>6} {'limit':>6} "
              f"{'vs ArgMin':>9} {'output ms':>9}"
              + "".join(f" {'x ' + name:>12}" for name in others))
    print(header)
    print("-" * len(header))
    for label, _, cases in table:
        report(label, sizes[label], cases, args.op, ours[label], alone[label], theirs[label],
               limit)
    summary(table, args.op, ours, theirs)
    x10 = np.arange(10, dtype=np.float32)[::-1].copy()
    x34 = np.arange(12, dtype=np.float32).reshape(3, 4)
    for name, x, axis in [("10 float32", x10, 0), ("(3, 4) float32", x34, 1)]:
        for op in args.op:
            numpy_op = getattr(np, op.lower())  # argmin, argmax, nanargmin, nanargmax
            mine = timeit(lambda: OPERATORS[op](x, axis), 20000)
            numpys = timeit(lambda: numpy_op(x, axis), 20000)
            print(f"{name + ' axis=' + str(axis):<34} {op:<{width}} {mine * 1e6:>7.2f}us "
                  f"numpy {numpys * 1e6:.2f}us (x {numpys / mine:.2f})")


if __name__ == "__main__":
    main()
