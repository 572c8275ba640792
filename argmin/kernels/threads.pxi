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
# threads again, and so does a call that would take more than twice the
# debt left (a large call does not pay for a small one's loss).  The factor
# starts at MIN_REPAY and doubles with each try that fails, up to MAX_REPAY;
# a call whose threads helped clears the debt and halves the factor.  So a
# lone slow call on an idle machine (another tenant of the host, a page
# fault storm) costs a few times its own loss, while on a machine that
# stays busy the failed tries soon cost at most 1 / MAX_REPAY of the time
# spent between them, and few default calls are such a try.  A call with
# an explicit num_threads runs on that many threads and neither consults
# nor teaches the governor.
#
# Nor does a default call start threads whose start and join would cost
# more than they save: one that would take under Tuning.parallel_seconds on
# one thread runs on one.  It is judged at the pace the last default call of
# its kind kept on one thread (pace_kind: the element size and the way the
# reduced axis is read, whose paces differ several times over), or, before
# one has, at FASTEST_PACE, so that the first calls of a kind that are not
# large run on one thread and teach it.  Of parallel calls, only a kind's
# first teaches it, where it has no pace yet: a thread of a parallel call
# reads slower than one thread alone (caches and memory shared), so its pace
# judges calls slower than they are, which would keep them on threads; but
# it is a better guess than FASTEST_PACE of what a large call would take
# alone, against the debt.

cdef enum:
    # The fewest and most seconds of one-thread default calls owed for each
    # second that threads cost.
    MIN_REPAY = 4
    MAX_REPAY = 64
    # Chunks of work items per thread in a parallel call, claimed one at a time.
    CHUNKS_PER_THREAD = 8
    # Kinds of call whose pace the governor keeps apart (pace_kind).
    PACE_KINDS = 12


# Seconds a byte takes at a pace no core reaches: a bound on the pace of a
# kind of call that has not yet run on one thread.
cdef double FASTEST_PACE = 1e-12


cdef struct Governor:
    # Seconds of one-thread default calls to run before threads are tried again.
    double debt
    # What the next failed try of the threads will owe for each second it costs.
    double factor
    # Seconds a byte of input takes on one thread, as the last default call
    # of each kind (pace_kind) on one thread found, or before any, the first
    # parallel one; 0 until then.
    double seconds_per_byte[PACE_KINDS]
    # Threads that argmin calls of this process have asked for and not yet
    # given back.  Read and written only with the GIL held.
    int threads_in_use


# One governor per compiled variant of the kernels: the variant in use
# (argmin._api.kernels) is the one that calls ask and teach.  Process state,
# not tuning: what the calls of this process have learned.
cdef Governor governor
governor.factor = MIN_REPAY


cdef inline int pace_kind(Py_ssize_t size, bint rows, bint short_rows) noexcept nogil:
    # The kind of a call of `size`-byte elements (1 to 8) whose reduced axis
    # is read as contiguous rows one by one (rows), a tile of short rows at a
    # time (short_rows), or otherwise: as columns, or strided.
    cdef int log2 = 0 if size == 1 else 1 if size == 2 else 2 if size == 4 else 3
    return 3 * log2 + (0 if rows else 1 if short_rows else 2)


cdef int plan_threads(
    int requested, int allowed, bint nested, Py_ssize_t nbytes, int kind,
    double parallel_seconds, const Governor* state,
) noexcept nogil:
    # Threads for a call of nbytes of input of that pace_kind: `requested`
    # if it is not 0 (an explicit num_threads; at least one); for the
    # default (0), `allowed` (OpenMP's limit) less those in use, at least
    # one.  One while nested; one where the call would take less than
    # parallel_seconds on one thread (at its kind's pace, or FASTEST_PACE);
    # and one while in debt, unless the debt is less than half what the call
    # would take on one thread: that call tries the threads instead.
    if requested != 0:
        return max(1, requested)
    cdef double pace = state.seconds_per_byte[kind]
    cdef double alone = nbytes * (pace if pace > 0 else FASTEST_PACE)
    if nested or alone < parallel_seconds or (state.debt > 0 and 2 * state.debt >= alone):
        return 1
    return max(1, allowed - state.threads_in_use)


cdef void settle(
    Governor* state, double seconds, double excess, Py_ssize_t nbytes, int kind,
) noexcept nogil:
    # After a default call of that pace_kind that took `seconds` for nbytes
    # of input.  On one thread (excess NaN): it pays its seconds off the
    # debt, and gives the seconds a byte of its kind takes.  In parallel: if
    # its threads cost time (a positive excess), the debt grows by `factor`
    # times that and the factor doubles; if they helped, the debt is cleared
    # and the factor halved; and its one-thread time (seconds less excess)
    # gives the seconds a byte takes if nothing has yet.
    if isnan(excess):
        state.debt -= seconds
        state.seconds_per_byte[kind] = seconds / nbytes
        return
    if excess > 0:
        state.debt = max(state.debt, 0.0) + state.factor * excess
        state.factor = min(2 * state.factor, <double>MAX_REPAY)
    else:
        state.debt = 0
        state.factor = max(state.factor / 2, <double>MIN_REPAY)
    if state.seconds_per_byte[kind] == 0:
        state.seconds_per_byte[kind] = (seconds - excess) / nbytes


cdef struct Pace:
    # What one thread of a parallel call did: seconds spent on its chunks,
    # and the elements they read.
    double busy
    Py_ssize_t elements


cdef double threads_excess(double wall, const Pace* pace, int num_threads) noexcept nogil:
    # How much longer the call took on num_threads threads (`wall` seconds)
    # than the fastest of them, at its pace, would have taken alone for all
    # their elements.  Negative when the threads helped.
    cdef double alone = -1
    cdef Py_ssize_t total = 0
    cdef int t
    for t in range(num_threads):
        total += pace[t].elements
    for t in range(num_threads):
        if pace[t].elements > 0 and (
                alone < 0 or pace[t].busy * total < alone * pace[t].elements):
            alone = pace[t].busy * total / pace[t].elements
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
    """Threads that argmin calls of this process, of these kernels, have asked for now."""
    return governor.threads_in_use


def reset_governor():
    """Forget what the governor learned and the calls in flight (in a forked child)."""
    cdef int kind
    governor.debt = 0
    governor.factor = MIN_REPAY
    for kind in range(PACE_KINDS):
        governor.seconds_per_byte[kind] = 0
    governor.threads_in_use = 0


# Most threads a call runs on: MAX_THREADS, or 1 in a process forked from
# one whose OpenMP threads had run, which cannot start OpenMP threads of its
# own (GNU OpenMP would hang).  Process state, set by argmin._api at a fork.
cdef int thread_cap = MAX_THREADS


def cap_threads(int most):
    """Hold every later call to at most ``most`` threads (1 to MAX_THREADS)."""
    global thread_cap
    thread_cap = max(1, min(most, MAX_THREADS))


cdef inline int capped_threads(int num_threads) noexcept nogil:
    # num_threads (0: as the governor decides) within thread_cap.
    if num_threads > thread_cap or (num_threads == 0 and thread_cap == 1):
        return thread_cap
    return num_threads


def plan_threads_for(int requested, int allowed, bint nested, Py_ssize_t nbytes,
                     double debt, double seconds_per_byte, int threads_in_use,
                     double parallel_seconds):
    """The threads a call would get (`plan_threads`) at that pace, for tests of the rule."""
    cdef Governor state
    state.debt = debt
    state.seconds_per_byte[0] = seconds_per_byte
    state.threads_in_use = threads_in_use
    return plan_threads(requested, allowed, nested, nbytes, 0, parallel_seconds, &state)


def settle_after(double debt, double factor, double seconds, excess, Py_ssize_t nbytes,
                 double seconds_per_byte=0):
    """``(debt, factor, seconds_per_byte)`` after a default call (`settle`; excess
    None: on one thread) of a kind whose pace was seconds_per_byte, for tests of the rule."""
    cdef Governor state
    state.debt = debt
    state.factor = factor
    state.seconds_per_byte[0] = seconds_per_byte
    state.threads_in_use = 0
    settle(&state, seconds, NAN if excess is None else excess, nbytes, 0)
    return state.debt, state.factor, state.seconds_per_byte[0]


def excess_of(double wall, busy, elements):
    """`threads_excess` of per-thread busy seconds and elements read, for tests of the rule."""
    cdef Pace pace[MAX_THREADS]
    cdef int t, n = len(busy)
    if not 0 < n <= MAX_THREADS or len(elements) != n:
        raise ValueError(f"busy and elements need one entry per thread, 1 to {MAX_THREADS}")
    for t in range(n):
        pace[t].busy = busy[t]
        pace[t].elements = elements[t]
    return threads_excess(wall, pace, n)
