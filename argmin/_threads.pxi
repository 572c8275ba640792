# How many threads a call runs on: the thread governor.
#
# A call with num_threads=None (the default, 0 here) takes as many threads as
# OpenMP allows (OMP_NUM_THREADS, threadpoolctl), less those that argmin
# calls of the same process run at this moment (Python threads, Dask or
# joblib workers calling at once), and one thread inside another OpenMP
# parallel region.  A parallel call's threads claim its work in chunks, so a
# thread that starts late finds little or nothing left; but the caller still
# waits for every thread to arrive at the end of the region, and on a
# machine whose cores are busy that wait can be a time slice of the
# operating system, far more than the call's own work.
#
# So each default parallel call measures what its threads cost: its wall
# time less the time the fastest of them, at the pace it kept, would have
# taken alone (threads_excess).  When that *excess* is positive the threads
# hurt, and the following default calls run on one thread until they have
# spent `factor` times the excess (the debt); then one call tries the
# threads again.  The factor starts at MIN_REPAY and doubles with each try
# that fails, up to MAX_REPAY; a call whose threads helped clears the debt
# and halves the factor.  So a lone slow call on an idle machine (another
# tenant of the host, a page fault storm) costs a few times its own loss,
# while on a machine that stays busy the failed tries soon cost at most
# 1 / MAX_REPAY of the time spent between them, and few default calls are
# such a try.  A call with an explicit num_threads runs on that many
# threads and neither consults nor teaches the governor.

cdef extern from *:
    """
    #ifdef _OPENMP
    #define argmin_seconds() omp_get_wtime()
    #define argmin_in_parallel() omp_in_parallel()
    #else
    #define argmin_seconds() 0.0
    #define argmin_in_parallel() 0
    #endif
    """
    # A monotonic clock in seconds (0 without OpenMP, where no call is parallel).
    double argmin_seconds() nogil
    # Whether the calling thread runs inside an OpenMP parallel region.
    int argmin_in_parallel() nogil


cdef enum:
    # The fewest and most seconds of one-thread default calls owed for each
    # second that threads cost.
    MIN_REPAY = 4
    MAX_REPAY = 64
    # Chunks of work items per thread in a parallel call, claimed one at a time.
    CHUNKS_PER_THREAD = 8


cdef struct Governor:
    # Seconds of one-thread default calls to run before threads are tried again.
    double debt
    # What the next failed try of the threads will owe for each second it costs.
    double factor
    # Threads that argmin calls of this process run now.  Read and written only
    # with the GIL held.
    int threads_in_use


cdef Governor governor
governor.factor = MIN_REPAY


cdef int plan_threads(int requested, int allowed, bint nested, const Governor* state) noexcept nogil:
    # Threads for a call: `requested` if it is positive (an explicit
    # num_threads); for the default (0), `allowed` (OpenMP's limit) less those
    # in use, at least one, and one while in debt or nested.
    if requested > 0:
        return requested
    if nested or state.debt > 0:
        return 1
    return max(1, allowed - state.threads_in_use)


cdef void settle(Governor* state, bint threaded, double seconds) noexcept nogil:
    # After a default call: one on a single thread in debt pays its `seconds`
    # off; a parallel one whose threads cost `seconds` (its excess) more than
    # one thread owes `factor` times that, and doubles the factor; one whose
    # threads helped clears the debt and halves the factor.
    if not threaded:
        state.debt -= seconds
    elif seconds > 0:
        state.debt = state.factor * seconds
        state.factor = min(2 * state.factor, <double>MAX_REPAY)
    else:
        state.debt = 0
        state.factor = max(state.factor / 2, <double>MIN_REPAY)


cdef struct Pace:
    # What one thread of a parallel call did: seconds spent on its chunks,
    # and the work items in them.
    double busy
    Py_ssize_t items


cdef double threads_excess(
    double wall, const Pace* pace, int num_threads, Py_ssize_t work,
) noexcept nogil:
    # How much longer `work` items took on num_threads threads (`wall`
    # seconds) than the fastest of them, at its pace, would have alone.
    # Negative when the threads helped.
    cdef double alone = -1
    cdef int t
    for t in range(num_threads):
        if pace[t].items > 0 and (alone < 0 or pace[t].busy * work < alone * pace[t].items):
            alone = pace[t].busy * work / pace[t].items
    return wall - alone if alone >= 0 else 0


def thread_debt(debt=None):
    """Seconds of one-thread default calls before threads are tried again.

    A default call (``num_threads=None``) whose threads cost more time than
    one thread would have sets it; default calls that run on one thread
    meanwhile pay it off.  With ``debt``, set it and clear the factor (for
    tests and benchmarks), and return the previous value.
    """
    previous = governor.debt
    if debt is not None:
        governor.debt = debt
        governor.factor = MIN_REPAY
    return previous


def threads_in_use():
    """Threads that argmin calls of this process, of these kernels, run now."""
    return governor.threads_in_use


def plan_threads_for(int requested, int allowed, bint nested, double debt, int threads_in_use):
    """The threads a call would get (`plan_threads`), for tests of the rule."""
    cdef Governor state
    state.debt = debt
    state.threads_in_use = threads_in_use
    return plan_threads(requested, allowed, nested, &state)


def settle_after(double debt, double factor, bint threaded, double seconds):
    """``(debt, factor)`` after a default call (`settle`), for tests of the rule."""
    cdef Governor state
    state.debt = debt
    state.factor = factor
    state.threads_in_use = 0
    settle(&state, threaded, seconds)
    return state.debt, state.factor


def excess_of(double wall, busy, items, Py_ssize_t work):
    """`threads_excess` of per-thread busy seconds and item counts, for tests of the rule."""
    cdef Pace pace[MAX_THREADS]
    cdef int t, n = len(busy)
    if not 0 < n <= MAX_THREADS or len(items) != n:
        raise ValueError(f"busy and items need one entry per thread, 1 to {MAX_THREADS}")
    for t in range(n):
        pace[t].busy = busy[t]
        pace[t].items = items[t]
    return threads_excess(wall, pace, n, work)
