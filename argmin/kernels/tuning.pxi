# Tuning: the thresholds by which a call chooses its loops.  Each call is
# handed one (argmin._tuning.Tuning, or None for the defaults); none is kept
# between calls.  Any value gives the same result: only the loops differ.

cdef struct Tuning:
    # Fewest input bytes for which a call runs on more than one thread, and
    # fewest seconds a default call must be expected to take on one thread
    # (see plan_threads).
    Py_ssize_t parallel_bytes
    double parallel_seconds
    # Contiguous rows of more than short_row_len elements (-1: short_row_max)
    # are read one by one (long_rows.pxi), shorter ones a tile of rows at a
    # time (short_rows.pxi), except those of fewer than min_row_len elements
    # (-1: default_min_row_len, or 2 for rows read together), or outside
    # short_row_min and short_row_max, which are read across the rows as
    # strided columns (see long_row and short_row in ways.pxi).
    Py_ssize_t short_row_len
    Py_ssize_t min_row_len
    # Whether rows read one at a time, which the hardware prefetchers follow,
    # are asked for ahead in software too: long rows, short rows kept for a
    # search, and paired short rows read as a single stream.  By default on
    # Intel CPUs only; the rows of an input of stream_bytes or more are asked
    # for ahead on every CPU (see choose_ways).
    bint ask_rows
    # Inputs of at least stream_bytes come from memory rather than a cache,
    # and their output blocks are written past the caches (see plan_blocks).
    Py_ssize_t stream_bytes
    # Positions the first of those blocks leaves out, or -1: line_shift's.
    Py_ssize_t block_shift


cdef Tuning default_tuning() noexcept:
    cdef Tuning tuning
    tuning.parallel_bytes = 1 << 17
    tuning.parallel_seconds = 5e-6
    tuning.short_row_len = -1
    tuning.min_row_len = -1
    tuning.ask_rows = argmin_cpu_is_intel()
    tuning.stream_bytes = 32 << 20
    tuning.block_shift = -1
    return tuning


# The defaults of this CPU, set once at import.
cdef Tuning DEFAULT_TUNING = default_tuning()


cdef int set_tuning(Tuning* tuning, object given) except -1:
    # The Tuning a call is handed: the defaults, and each field of `given`
    # that is not None (argmin._tuning checks their ranges).
    tuning[0] = DEFAULT_TUNING
    if given is None:
        return 0
    if given.parallel_bytes is not None:
        tuning.parallel_bytes = given.parallel_bytes
    if given.parallel_seconds is not None:
        tuning.parallel_seconds = given.parallel_seconds
    if given.short_row_len is not None:
        tuning.short_row_len = given.short_row_len
    if given.min_row_len is not None:
        tuning.min_row_len = given.min_row_len
    if given.prefetch_rows is not None:
        tuning.ask_rows = given.prefetch_rows
    if given.stream_bytes is not None:
        tuning.stream_bytes = given.stream_bytes
    if given.block_shift is not None:
        tuning.block_shift = given.block_shift
    return 0


def default_tuning_of_cpu():
    """The defaults of `argmin._tuning.Tuning` that these kernels use on this CPU."""
    cdef Tuning tuning = DEFAULT_TUNING
    return dict(parallel_bytes=tuning.parallel_bytes, parallel_seconds=tuning.parallel_seconds,
                short_row_len=tuning.short_row_len, min_row_len=tuning.min_row_len,
                prefetch_rows=bool(tuning.ask_rows),
                stream_bytes=tuning.stream_bytes, block_shift=tuning.block_shift)
