"""Views of the same logical tensor in every memory layout the kernels must read."""

import ctypes

import numpy as np


def _transposed(x, rng):
    perm = rng.permutation(x.ndim)
    return np.ascontiguousarray(x.transpose(perm)).transpose(np.argsort(perm))


def _negative(x, rng):
    flip = tuple(slice(None, None, -1) for _ in range(x.ndim))
    return np.ascontiguousarray(x[flip])[flip]


def _sliced(x, rng):
    # A view with steps of 2, 3 and -2 into a larger array.
    steps = [(2, 3, -2)[d % 3] for d in range(x.ndim)]
    big = np.zeros(tuple(abs(s) * n + 1 for s, n in zip(steps, x.shape)), x.dtype)
    view = big[tuple(slice(None, None, s) for s in steps)]
    view = view[tuple(slice(0, n) for n in x.shape)]
    view[...] = x
    return view


def _byteswapped(x, rng):
    return x.astype(x.dtype.newbyteorder())


def _readonly(x, rng):
    y = x.copy()
    y.setflags(write=False)
    return y


def _unaligned(x, rng):
    buffer = np.zeros(x.nbytes + 1, np.uint8)
    y = buffer[1:].view(x.dtype).reshape(x.shape) if x.size else x.copy()
    y[...] = x
    return y


def _broadcast(x, rng):
    # Zero strides: the first axis (or the last) repeats one slice.
    if x.ndim == 0:
        return x
    axis = int(rng.integers(x.ndim))
    one = np.take(x, [0], axis=axis)
    return np.broadcast_to(one, x.shape)


LAYOUTS = {
    "C": lambda x, rng: np.ascontiguousarray(x),
    "F": lambda x, rng: np.asfortranarray(x),
    "transposed": _transposed,
    "negative": _negative,
    "sliced": _sliced,
    "byteswapped": _byteswapped,
    "readonly": _readonly,
    "unaligned": _unaligned,
    "broadcast": _broadcast,
}


def reversed_order(x):
    """An array laid out exactly as ``x`` (shape, strides, byte order, and its address modulo a
    page), holding ``x``'s values in the reverse order: ``-x`` for floats (NaN stays NaN, and
    -0.0 and +0.0 stay equal), ``~x`` for integers.  ArgMax of it is ArgMin of ``x``, so a
    sweep that places minima at the ends of lanes and chunks tests ArgMax's there too."""
    if x.size == 0:
        return x.copy()
    corners = np.array(x.strides) * (np.array(x.shape) - 1)
    start = int(x.__array_interface__["data"][0] + corners[corners < 0].sum())
    extent = int(corners[corners > 0].sum() - corners[corners < 0].sum()) + x.itemsize
    memory = np.empty(extent + 2 * _PAGE, np.uint8)
    begin = int(start - memory.ctypes.data) % _PAGE  # the same place within a page as x's memory
    ctypes.memmove(memory.ctypes.data + begin, start, extent)  # the bytes between elements too
    mirror = np.ndarray(x.shape, x.dtype, buffer=memory,
                        offset=begin + x.__array_interface__["data"][0] - start, strides=x.strides)
    mirror[...] = np.invert(x) if x.dtype.kind in "iu" else np.negative(x)
    mirror.flags.writeable = x.flags.writeable
    return mirror


_PAGE = 4096
