"""What a call costs: every public entry point on small inputs, against numpy and bottleneck.

Run ``python benchmarks/call_cost.py`` (``--help`` for the options).  For float32, float64 and
int64 inputs of 1, 10, 100 and 4,096 elements and of shape (3, 4), with ``axis=None`` and with
each int axis, it times in one process, in turn within each round:

- ``numpy.argmin`` and ``numpy.argmax``, and their drop-ins ``argmin.numpy.argmin`` and
  ``argmax``;
- ``argmin.argmin``, ``argmax``, ``min_argmin`` and ``max_argmax``, and ``ArgMin`` and
  ``ArgMax`` of each opset (int axes only: ONNX has no ``axis=None``), on the default threads;
- ``bottleneck.nanargmin`` and ``nanargmax`` where bottleneck is installed (the input holds no
  NaN, so they give numpy's answer).

Each figure is the median over ``--rounds`` rounds of the nanoseconds a call takes in a block
of calls lasting about ``--block-ms``; it includes the loop that makes the calls, whose cost
alone (a call of a function that does nothing) the header gives.  The summary gives the
drop-ins' cost over numpy's, and ``argmin.argmin``'s and ``ArgMin``'s (opset 13) over
``bottleneck.nanargmin``'s on 10 float32 elements, as timed and with the loop's cost taken off
both.
"""

import argparse
import statistics
import timeit

import numpy as np

import argmin
import argmin.numpy

try:
    import bottleneck
except ImportError:  # an extra, compared with where installed
    bottleneck = None

SHAPES = ((1,), (10,), (100,), (4096,), (3, 4))
DTYPES = ("float32", "float64", "int64")
OPSETS = (1, 11, 12, 13)


def along(function, axis):
    """``function`` of the input alone, along ``axis``."""
    return lambda x: function(x, axis)


def entries(axis):
    """The functions timed for ``axis``, by column name: each takes the input."""
    table = {"np.argmin": np.argmin, "np.argmax": np.argmax, "an.argmin": argmin.numpy.argmin,
             "an.argmax": argmin.numpy.argmax}
    if axis is not None:
        table |= {name: getattr(argmin, name)
                  for name in ("argmin", "argmax", "min_argmin", "max_argmax")}
        for opset in OPSETS:
            module = getattr(argmin, f"opset{opset}")
            table |= {f"{op}{opset}": getattr(module, op) for op in ("ArgMin", "ArgMax")}
    if bottleneck is not None:
        table |= {"bn.nanargmin": bottleneck.nanargmin, "bn.nanargmax": bottleneck.nanargmax}
    return {name: along(function, axis) for name, function in table.items()}


def call_costs(functions, x, rounds, block_seconds):
    """Nanoseconds a call of each function on ``x``: medians of ``rounds`` alternated blocks."""
    timers = [timeit.Timer(lambda f=f: f(x)) for f in functions]
    numbers = [max(1, int(block_seconds / (timer.timeit(20) / 20))) for timer in timers]
    times = [[] for _ in functions]
    for _ in range(rounds):
        for timer, number, seconds in zip(timers, numbers, times):
            seconds.append(timer.timeit(number) / number)
    return [statistics.median(seconds) * 1e9 for seconds in times]


def loop_cost(rounds, block_seconds):
    """Nanoseconds the timing loop and a call of a function that does nothing take."""
    return call_costs([lambda x: None], None, rounds, block_seconds)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternated rounds (median)")
    parser.add_argument("--block-ms", type=float, default=2.0, help="length of a block of calls")
    args = parser.parse_args()
    block = args.block_ms / 1e3
    rng = np.random.default_rng(0)
    names = list(entries(0))
    loop = loop_cost(args.rounds, block)
    print(f"argmin {argmin.__version__}, kernels {argmin.kernel_variant()}, numpy "
          f"{np.__version__}, bottleneck {bottleneck.__version__ if bottleneck else 'absent'}; "
          f"ns a call, median of {args.rounds} rounds; the loop alone: {loop:.0f} ns")
    print(f"{'case':<22}" + "".join(f"{name:>13}" for name in names))
    ratios = {None: [], "int": []}
    against_bn = {}
    for dtype in DTYPES:
        for shape in SHAPES:
            x = (rng.standard_normal(shape) * 1000).astype(dtype)
            for axis in (None, *range(len(shape))):
                table = entries(axis)
                costs = dict(zip(table, call_costs(list(table.values()), x, args.rounds, block)))
                for op in ("argmin", "argmax"):
                    ratios[None if axis is None else "int"].append(
                        costs[f"an.{op}"] / costs[f"np.{op}"])
                if bottleneck is not None and dtype == "float32" and shape == (10,) and axis == 0:
                    against_bn = {name: (costs[name] / costs["bn.nanargmin"],
                                         (costs[name] - loop) / (costs["bn.nanargmin"] - loop))
                                  for name in ("argmin", "ArgMin13")}
                label = f"{dtype} {shape} axis={axis}"
                print(f"{label:<22}" + "".join(f"{costs[name]:>13.0f}" if name in costs
                                               else f"{'-':>13}" for name in names), flush=True)
    for axis, found in ratios.items():
        print(f"argmin.numpy over numpy, axis={'None' if axis is None else 'int'}: "
              f"median {statistics.median(found):.2f}, max {max(found):.2f} ({len(found)} calls)")
    if against_bn:
        print("over bottleneck.nanargmin on 10 float32 elements (the loop's cost taken off "
              "both): " + ", ".join(f"{name} {ratio:.2f} ({bare:.2f})"
                                    for name, (ratio, bare) in against_bn.items()))


if __name__ == "__main__":
    main()
