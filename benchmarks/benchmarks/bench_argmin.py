"""asv benchmarks: argmin over element type x axis x order x select_last_index, narrow
columns, rows of a few elements, short and long rows, Fortran arrays of rank 3 to 5 and with
a short first axis, and tiny calls.

Run from ``benchmarks/``: ``asv run`` (history over commits) or
``asv run --python=same --quick`` (the installed argmin, once).
"""

import ml_dtypes
import numpy as np

import argmin

DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64"]
NBYTES = 64 << 20


def _dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


class Large:
    """64 MiB, shape (64, 512, m): the first, the middle and the last axis."""

    params = (DTYPES, [0, 1, 2], ["C", "F"], [False, True])
    param_names = ["dtype", "axis", "order", "select_last_index"]
    timeout = 120

    def setup_cache(self):
        rng = np.random.default_rng(0)
        return {
            name: rng.integers(1, 101, size=(64, 512, NBYTES // (64 * 512 * _dtype(name).itemsize)),
                               dtype=np.int8).astype(_dtype(name))
            for name in DTYPES
        }

    def setup(self, data, dtype, axis, order, select_last_index):
        self.x = np.asarray(data[dtype], order=order)

    def time_argmin(self, data, dtype, axis, order, select_last_index):
        argmin.argmin(self.x, axis, select_last_index=select_last_index)

    def track_gbps(self, data, dtype, axis, order, select_last_index):
        import timeit

        seconds = min(timeit.repeat(
            lambda: argmin.argmin(self.x, axis, select_last_index=select_last_index),
            number=1, repeat=5))
        return self.x.nbytes / seconds / 1e9

    track_gbps.unit = "GB/s"


class Narrow:
    """16 MiB C arrays (n, width): narrow columns (axis 0), rows of a few elements (axis 1)."""

    params = (["uint8", "float32"], [2, 16], [0, 1])
    param_names = ["dtype", "width", "axis"]

    def setup(self, dtype, width, axis):
        rng = np.random.default_rng(0)
        self.x = rng.integers(1, 101, size=(16 << 20) // np.dtype(dtype).itemsize,
                              dtype=np.int8).astype(dtype).reshape(-1, width)

    def time_argmin(self, dtype, width, axis):
        argmin.argmin(self.x, axis)


class ShortRows:
    """16 MiB C arrays of rows of 8 to 2048 elements along axis 1, read a tile of rows at a time
    (those that ``row_way`` says; the others as strided columns or row by row)."""

    params = (["uint8", "int16", "float32", "float64"],
              [8, 16, 32, 64, 100, 256, 512, 1024, 2048])
    param_names = ["dtype", "length"]

    def setup(self, dtype, length):
        rng = np.random.default_rng(0)
        rows = (16 << 20) // (np.dtype(dtype).itemsize * length)
        self.x = rng.integers(1, 101, size=(rows, length), dtype=np.int8).astype(dtype)

    def time_argmin(self, dtype, length):
        argmin.argmin(self.x, 1)


class LongRows:
    """64 MiB C arrays of rows of 4 KiB to 1 MiB along axis 1, read row by row, block by block."""

    params = (["uint8", "int16", "float16", "float32", "float64"], [4096, 65536, 1 << 20])
    param_names = ["dtype", "row_bytes"]

    def setup(self, dtype, row_bytes):
        rng = np.random.default_rng(0)
        itemsize = np.dtype(dtype).itemsize
        self.x = rng.integers(1, 101, size=(64 << 20) // itemsize, dtype=np.int8).astype(
            dtype).reshape(-1, row_bytes // itemsize)

    def time_argmin(self, dtype, row_bytes):
        argmin.argmin(self.x, 1)


class FortranRanks:
    """64 MiB Fortran arrays of rank 3 to 5 along axis 0: rows of 64 elements, each output line
    written by one block of rows, whichever axis the output is contiguous along."""

    params = (["uint8", "int16", "float32"], [3, 4, 5])
    param_names = ["dtype", "rank"]

    def setup(self, dtype, rank):
        m = NBYTES // (64 * 512 * np.dtype(dtype).itemsize)
        shape = {3: (64, 512, m), 4: (64, 64, 8, m), 5: (64, 8, 8, 8, m)}[rank]
        rng = np.random.default_rng(0)
        self.x = np.asfortranarray(rng.integers(1, 101, size=shape, dtype=np.int8).astype(dtype))

    def time_argmin(self, dtype, rank):
        argmin.argmin(self.x, 0)


class FortranShortAxis:
    """64 MiB Fortran arrays (n, 512, m) along axis 0, n of 2 to 16: outputs far apart,
    written a block of outer positions at a time (as columns, or as short rows)."""

    params = (["uint8", "float32", "float64"], [2, 4, 8, 16])
    param_names = ["dtype", "length"]

    def setup(self, dtype, length):
        m = NBYTES // (length * 512 * np.dtype(dtype).itemsize)
        rng = np.random.default_rng(0)
        self.x = np.asfortranarray(
            rng.integers(1, 101, size=(length, 512, m), dtype=np.int8).astype(dtype))

    def time_argmin(self, dtype, length):
        argmin.argmin(self.x, 0)


class Tiny:
    """The cost of a call: 10 elements, and a (3, 4) matrix."""

    params = ["10", "(3, 4)"]
    param_names = ["shape"]

    def setup(self, shape):
        self.x = (np.arange(10, dtype=np.float32)[::-1].copy() if shape == "10"
                  else np.arange(12, dtype=np.float32).reshape(3, 4))
        self.axis = 0 if shape == "10" else 1

    def time_argmin(self, shape):
        argmin.argmin(self.x, self.axis)

    def time_opset13(self, shape):
        argmin.ArgMin(self.x, axis=self.axis)

    def time_numpy_argmin(self, shape):
        np.argmin(self.x, self.axis)
