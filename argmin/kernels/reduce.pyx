"""ArgMin and ArgMax kernels: reduce a strided N-d array along one axis, in place.

Compiled once per CPU target (argmin/kernels/meson.build), each a module of
argmin (``_kernels``, ``_kernels_avx2``, ``_kernels_avx512``) with the same
functions.  ``reduce_axis`` is the entry (and, for the common call,
entry.pxi's ``quick_reduce``, on which the public functions are built): the
layout (layout.pxi) of the input, then the dispatch table's specialisation
(dispatch.pxi) for its element type, direction and tie rule, which plans the
work (plan.pxi) and executes it (execute.pxi) with the loops of long rows,
short rows and columns, on the threads the governor gives (threads.pxi), by
the Tuning it is handed (tuning.pxi).

The files are included in one direction, each using only those before it:
the platform, keys, find, tuning and threads; the loops, which know nothing
of layouts or plans; the ways a row is read (ways.pxi), from the loops'
limits; then the layout, the output, the plan, its execution, the dispatch
table, the slices of NaN only, and the entries.
"""

cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport (
    INT8_MIN, INT16_MIN, INT32_MIN, INT64_MAX, INT64_MIN,
    int8_t, int16_t, int32_t, int64_t, uint64_t,
)
from libc.math cimport NAN, isnan
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cnp.import_array()

include "platform.pxi"
include "keys.pxi"
include "find.pxi"
include "tuning.pxi"

# Whether a call of this module has run OpenMP threads (process state).
cdef bint threads_have_run = False

include "threads.pxi"
include "extremes.pxi"
include "long_rows.pxi"
include "paired_rows.pxi"
include "paired_vectors.pxi"
include "short_rows.pxi"
include "columns.pxi"
include "ways.pxi"
include "layout.pxi"
include "write.pxi"
include "plan.pxi"
include "execute.pxi"
include "dispatch.pxi"
include "all_nan.pxi"
include "entry.pxi"


def threads_started():
    """Whether a call has run OpenMP threads in this process."""
    return threads_have_run


def set_bfloat16(cnp.dtype dtype):
    """Register ``ml_dtypes.bfloat16``'s dtype, read as bfloat16 by the kernels."""
    global bfloat16_num
    bfloat16_num = dtype.type_num


def compiled_level():
    """The level, as ``argmin._cpu.cpu_level`` counts, that this variant is compiled for."""
    return COMPILED_LEVEL


def address_sanitized():
    """Whether this variant is compiled with AddressSanitizer (the sanitizer build)."""
    return bool(ADDRESS_SANITIZED)


def max_threads():
    """Threads an OpenMP parallel region would use now (1 without OpenMP).

    Follows OMP_NUM_THREADS and the limits threadpoolctl sets.
    """
    return argmin_max_threads()


def short_row_bounds(Py_ssize_t itemsize):
    """The fewest and most elements of a row read as a short row, whatever the tuning.

    Rows of 8- and 16-bit elements are paired with their positions in
    ``MIN_LANES`` lanes, so they need as many elements (where vectors of
    pairs run in registers, two), and hold at most 256 (a pair's position has
    8 bits), except 16-bit elements with AVX-512BW, whose rows of up to
    2 KiB are reduced by a vector minimum.  Rows of wider elements hold at
    most 16 KiB.
    """
    return short_row_min(itemsize), short_row_max(itemsize)


def row_way(Py_ssize_t n, Py_ssize_t itemsize, tuning=None):
    """How the rows of a C array of shape (rows, n) are read along axis 1.

    With ``tuning`` (an `argmin._tuning.Tuning`, or None for the defaults):
    ``"rows"`` one by one, ``"short"`` a tile of rows at a time, or
    ``"columns"`` across the rows, as strided columns.
    """
    cdef Tuning chosen
    set_tuning(&chosen, tuning)
    if long_row(n, itemsize, &chosen):
        return "rows"
    return "short" if short_row(n, itemsize, True, &chosen) else "columns"


cdef cnp.ndarray new_output(cnp.ndarray data, int axis, bint keepdims):
    # A C-contiguous int64 array of data's shape without `axis` (or with it as 1).
    cdef cnp.npy_intp out_shape[MAX_DIMS]
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(data)
    cdef int d, out_ndim = 0
    for d in range(cnp.PyArray_NDIM(data)):
        if d != axis:
            out_shape[out_ndim] = shape[d]
            out_ndim += 1
        elif keepdims:
            out_shape[out_ndim] = 1
            out_ndim += 1
    return cnp.PyArray_EMPTY(out_ndim, out_shape, cnp.NPY_INT64, 0)


cdef cnp.ndarray new_values(cnp.ndarray data, cnp.ndarray out):
    # A C-contiguous array of data's type and out's shape whose element k
    # starts a cache line where out's element k does, so that a block that
    # starts a line of indices starts one of values (see block_len): a view
    # of a byte buffer, at the offset that places it so.
    cdef Py_ssize_t itemsize = cnp.PyArray_ITEMSIZE(data)
    cdef cnp.npy_intp length = cnp.PyArray_SIZE(out) * itemsize + CACHE_LINE
    cdef cnp.ndarray buffer = cnp.PyArray_EMPTY(1, &length, cnp.NPY_UINT8, 0)
    cdef size_t place = <size_t>cnp.PyArray_DATA(out) % CACHE_LINE // sizeof(int64_t) * itemsize
    cdef size_t offset = (place - <size_t>cnp.PyArray_DATA(buffer)) % CACHE_LINE
    cdef cnp.ndarray values = cnp.PyArray_SimpleNewFromData(
        cnp.PyArray_NDIM(out), cnp.PyArray_DIMS(out), cnp.PyArray_TYPE(data),
        <char*>cnp.PyArray_DATA(buffer) + offset)
    cnp.set_array_base(values, buffer)
    return values


def reduce_axis(cnp.ndarray data not None, int axis, bint keepdims, bint last, int num_threads,
                bint maximum, tuning, cnp.ndarray out=None, bint values=False,
                bint skip_nan=False):
    """ArgMin (or ArgMax, with ``maximum``) of ``data`` along ``axis``, as a new
    C-contiguous int64 array, or written into ``out`` and returned.

    With ``skip_nan``, nanargmin (nanargmax): every number beats NaN, so a
    slice's index is its best number's, and NaN's only where the slice holds
    nothing but NaN (its value is then NaN).

    With ``values``, returns ``(values, indices)``: ``values`` a new
    C-contiguous array of data's type and the indices' shape, holding the
    elements of ``data`` at those indices, bit for bit.

    The caller has checked the arguments: ``data`` has native byte order, a
    supported element type and at least one dimension, ``0 <= axis < ndim``,
    and ``data.shape[axis] > 0``; ``out``, if given, is a writeable, aligned,
    C-contiguous int64 array of the result's shape that shares no memory
    with ``data``.  ``num_threads`` is an upper bound, or 0 for the default,
    which the thread governor sets (see ``thread_debt``); inputs under
    ``tuning.parallel_bytes`` use one thread.  ``tuning`` is an
    `argmin._tuning.Tuning`, or None for the defaults.
    """
    cdef int ndim = cnp.PyArray_NDIM(data)
    if not 0 <= axis < ndim:
        raise ValueError(f"axis {axis} is not in [0, {ndim})")
    cdef cnp.ndarray found = None
    if out is None:
        out = new_output(data, axis, keepdims)
    if values:
        found = new_values(data, out)
    reduce_into(data, ndim, cnp.PyArray_DIMS(data), cnp.PyArray_STRIDES(data), axis, last,
                num_threads, maximum | (SKIP_NAN if skip_nan else 0), tuning, out, found)
    return (found, out) if values else out


cdef int reduce_into(
    cnp.ndarray data, int ndim, const cnp.npy_intp* shape, const cnp.npy_intp* strides,
    int axis, bint last, int num_threads, int goal, object tuning, cnp.ndarray out,
    cnp.ndarray found,
) except -1:
    # Fill out (and found, unless None: see new_values) with the reduction of
    # data along `axis` for `goal` (see dispatch.pxi), data seen with these
    # ndim, shape and strides (its own, or those of a view of it);
    # reduce_axis's contract, with num_threads within thread_cap here.
    cdef int row
    cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(data)
    cdef Tuning chosen
    cdef Layout layout
    cdef Py_ssize_t nbytes = cnp.PyArray_NBYTES(data)
    cdef double excess
    if cnp.PyArray_SIZE(out) == 0:
        return 0
    row = element_row(<cnp.dtype>cnp.PyArray_DESCR(data))
    set_tuning(&chosen, tuning)
    set_layout(&layout, <const char*>cnp.PyArray_DATA(data), ndim, shape, strides, size, axis,
               last, <int64_t*>cnp.PyArray_DATA(out), INF_BITS[row], &chosen)
    if found is not None:
        layout.values = <char*>cnp.PyArray_DATA(found)
    if nbytes < chosen.parallel_bytes:
        run(&layout, &chosen, row, goal, 1, &excess, nbytes >= HELD_GIL_BYTES)
    else:
        governed(&layout, &chosen, row, goal, capped_threads(num_threads), nbytes,
                 call_pace_kind(&layout, size, &chosen))
    return 0


cdef int governed(
    const Layout* layout, const Tuning* tuning, int row, int goal, int num_threads,
    Py_ssize_t nbytes, int kind,
) except -1:
    # run() on the threads plan_threads gives; a default call (num_threads 0)
    # then settles with the governor (see threads.pxi) as a call of that
    # pace_kind, but for the one whose threads this process started (its
    # time includes starting them).
    cdef double excess = NAN, start = argmin_seconds()
    cdef bint started = threads_have_run
    cdef int threads = plan_threads(num_threads, argmin_max_threads(), argmin_in_parallel(),
                                    nbytes, kind, tuning.parallel_seconds, &governor)
    governor.threads_in_use += threads
    try:
        run(layout, tuning, row, goal, threads, &excess, True)
    finally:
        governor.threads_in_use -= threads
    if num_threads == 0 and (started or isnan(excess)):
        settle(&governor, argmin_seconds() - start, excess, nbytes, kind)
    return 0


def plan_of(cnp.ndarray data not None, int axis, int num_threads, tuning=None,
            bint values=False):
    """The plan of a call on ``num_threads`` threads (plan.pxi), as a dict, for tests;
    with ``values``, of a call that writes the values too.

    ``way``: ``"rows"``, ``"short"`` or ``"columns"``; ``block``: positions of
    an outer axis a work item takes; ``stream_out``, ``block_shift``; ``tiles``,
    ``tile_len``, ``splits``, ``work`` and ``threads``; ``pace_kind``: the kind
    of call whose pace a default call is judged by (threads.pxi).  (The output
    here is a new array, so ``block_shift`` may differ from a call's, whose
    output lies elsewhere.)
    """
    cdef int ndim = cnp.PyArray_NDIM(data)
    if not 0 <= axis < ndim or data.shape[axis] == 0:
        raise ValueError(f"axis {axis} is not in [0, {ndim}) or has no elements")
    cdef Tuning chosen
    cdef int row = element_row(<cnp.dtype>data.dtype)
    cdef cnp.ndarray out = new_output(data, axis, False)
    cdef Layout layout, blocked
    cdef Tiling tiling
    if cnp.PyArray_SIZE(out) == 0:
        raise ValueError("an empty output has no plan: no call reduces anything")
    set_tuning(&chosen, tuning)
    set_layout(&layout, <const char*>cnp.PyArray_DATA(data), ndim, cnp.PyArray_DIMS(data),
               cnp.PyArray_STRIDES(data), cnp.PyArray_ITEMSIZE(data), axis, False,
               <int64_t*>cnp.PyArray_DATA(out), INF_BITS[row], &chosen)
    if values:
        layout.values = <char*>cnp.PyArray_DATA(out)   # only planned with: nothing is written
    plan(&layout, cnp.PyArray_ITEMSIZE(data), &chosen, max(1, num_threads), &tiling, &blocked)
    way = ("rows" if layout.column_ndim == 0 else "short" if tiling.short_rows else "columns")
    return dict(way=way, block=tiling.block, stream_out=bool(tiling.stream_out),
                block_shift=tiling.block_shift, tiles=tiling.tiles, tile_len=tiling.tile_len,
                splits=tiling.splits, work=tiling.work, threads=tiling.threads,
                pace_kind=call_pace_kind(&layout, cnp.PyArray_ITEMSIZE(data), &chosen))
