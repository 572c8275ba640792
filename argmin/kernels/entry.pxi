# The compiled entry of the common call (argmin._api, argmin.numpy): an
# ndarray itself, not a subclass, of one of the kernels' element types in
# native byte order, with at least one element; an int axis in range (or,
# for numpy's flattened argmin, None over a C-contiguous array); bool or
# 0/1 flags; None or a positive int for the threads.  Such a call is
# checked, planned and run here, without going back to Python, and gets
# what the Python layer would give.  Every other call gets None: the Python
# layer then converts its input or raises its error, and reaches the kernels
# through reduce_axis.  Nothing on the way in looks up a name, imports, or
# reads the environment, so a call costs the same whatever the library holds.

from cpython.contextvars cimport get_value
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.ref cimport Py_INCREF

cdef extern from "numpy/arrayobject.h":
    enum: NPY_HALF

# argmin._tuning's ContextVar, whose value is the Tuning in force (None: the
# defaults), and its list that stays empty until a Tuning is first set in
# this process, so that until then no call need read the variable: process
# state, set once by argmin._api (set_tuning_source).
cdef object tuning_source = None
cdef list ever_tuned = []


def set_tuning_source(source, list tuned):
    """Take each call's Tuning from ``source``, a ContextVar, once ``tuned`` is not empty
    (`argmin._tuning`'s ``tuning_var`` and ``ever_tuned``)."""
    global tuning_source, ever_tuned
    tuning_source = source
    ever_tuned = tuned


cdef inline object current_tuning():
    return get_value(tuning_source) if ever_tuned else None


def tuning_in_force():
    """The Tuning a call of the compiled entry is handed here and now (None: the defaults)."""
    return current_tuning()


cdef int flag_of(object value) except -2:
    # 1 or 0 for True and False or the ints 1 and 0; -1 for anything else.
    if value is True:
        return 1
    if value is False:
        return 0
    if type(value) is int and (value == 0 or value == 1):
        return value == 1
    return -1


cdef bint whole_int(object value, long* number) except -1:
    # Whether value is an int (not a bool) that a C long holds, then put in number.
    cdef int overflow = 0
    if type(value) is not int:
        return False
    number[0] = PyLong_AsLongAndOverflow(value, &overflow)
    return not overflow


cdef int axis_in(object axis, int ndim) except -2:
    # axis in [0, ndim), for an int in [-ndim, ndim); -1 for anything else.
    cdef long number
    if not whole_int(axis, &number) or not -ndim <= number < ndim:
        return -1
    return <int>(number + ndim if number < 0 else number)


cdef int threads_of(object num_threads) except -2:
    # 0 (as the governor decides) for None, the count for an int of 1 or
    # more (MAX_THREADS at most), -1 for anything else.
    cdef long number
    if num_threads is None:
        return 0
    if not whole_int(num_threads, &number) or number < 1:
        return -1
    return <int>min(number, MAX_THREADS)


cdef bint kernel_type(cnp.ndarray data, int opset) noexcept:
    # Whether the kernels read data's element type as it is: one of the
    # ONNX types of `opset`, in native byte order, without fields.
    cdef int number = cnp.PyArray_TYPE(data)
    cdef cnp.dtype dtype = <cnp.dtype>cnp.PyArray_DESCR(data)
    if not cnp.PyArray_ISNOTSWAPPED(data) or cnp.PyDataType_HASFIELDS(dtype):
        return False
    if number == bfloat16_num:
        return opset >= 13
    # numpy numbers its integer and float types from int8 (NPY_BYTE) up to
    # float64 (NPY_DOUBLE) one after another; float16 (NPY_HALF) comes later.
    return cnp.NPY_BYTE <= number <= cnp.NPY_DOUBLE or number == NPY_HALF


cpdef object quick_reduce(data, axis, keepdims, select_last_index, int opset, num_threads,
                          bint maximum, bint values, bint skip_nan=False):
    """`argmin._api.arg_reduce` of a common call (see entry.pxi), or None for
    any other call, which that function checks and converts first."""
    cdef cnp.ndarray array, out, found = None
    cdef int ndim, reduced, keep, last, threads
    if type(data) is not cnp.ndarray:
        return None
    array = <cnp.ndarray>data
    ndim = cnp.PyArray_NDIM(array)
    reduced = axis_in(axis, ndim)
    keep = flag_of(keepdims)
    last = flag_of(select_last_index)
    threads = threads_of(num_threads)
    if (reduced < 0 or keep < 0 or last < 0 or threads < 0 or cnp.PyArray_SIZE(array) == 0
            or not kernel_type(array, opset)):
        return None
    out = new_output(array, reduced, keep)
    if values:
        found = new_values(array, out)
    reduce_into(array, ndim, cnp.PyArray_DIMS(array), cnp.PyArray_STRIDES(array), reduced,
                last, threads, maximum | (SKIP_NAN if skip_nan else 0), current_tuning(), out,
                found)
    return (found, out) if values else out


def quick_numpy(a, axis, keepdims, bint maximum):
    """`numpy.argmin` of a common call (`numpy.argmax` with ``maximum``; see
    entry.pxi), with ``out=None``, or None for any other call, which
    `argmin.numpy` answers."""
    cdef cnp.ndarray array, out
    cdef int ndim, reduced, keep, d
    cdef cnp.npy_intp length, stride
    cdef cnp.npy_intp ones[MAX_DIMS]
    if type(a) is not cnp.ndarray:
        return None
    array = <cnp.ndarray>a
    ndim = cnp.PyArray_NDIM(array)
    keep = flag_of(keepdims)
    if keep < 0 or ndim == 0 or cnp.PyArray_SIZE(array) == 0 or not kernel_type(array, 13):
        return None
    if axis is not None:
        reduced = axis_in(axis, ndim)
        if reduced < 0:
            return None
        out = new_output(array, reduced, keep)
        reduce_into(array, ndim, cnp.PyArray_DIMS(array), cnp.PyArray_STRIDES(array), reduced,
                    False, 0, maximum, current_tuning(), out, None)
    elif cnp.PyArray_IS_C_CONTIGUOUS(array):
        # The flattening in C order is the memory's order: one row.
        for d in range(ndim):
            ones[d] = 1
        out = cnp.PyArray_EMPTY(ndim if keep else 0, ones, cnp.NPY_INT64, 0)
        length = cnp.PyArray_SIZE(array)
        stride = cnp.PyArray_ITEMSIZE(array)
        reduce_into(array, 1, &length, &stride, 0, False, 0, maximum, current_tuning(), out,
                    None)
    else:
        return None
    if cnp.PyArray_NDIM(out) > 0:
        return out
    Py_INCREF(out)  # PyArray_Return takes a reference to its argument
    return cnp.PyArray_Return(out)


# The public functions of the common call: argmin.argmin, argmax, min_argmin,
# max_argmax, nanargmin, nanargmax and argmin.opset13's ArgMin and ArgMax are
# these of the module in use when argmin is imported.  Each answers through
# quick_reduce (and settle_all_nan) where this module is the one in use
# (argmin._api.use_kernels); every other call goes to `fallback`,
# argmin._api.arg_reduce (argmin._api.nan_reduce for nanargmin and
# nanargmax: `nan_fallback`), which converts or refuses it and runs the
# kernels in use (trying their quick_reduce first, again where this module
# declined: a rare call's cost).
cdef bint in_use = False
cdef object fallback = None
cdef object nan_fallback = None


def set_in_use(bint chosen):
    """Whether these are the kernels in use, whose public functions answer their calls."""
    global in_use
    in_use = chosen


def set_fallback(arg_reduce, nan_reduce):
    """Hand the calls that the public functions do not answer to ``arg_reduce``
    (argmin._api's), and those of nanargmin and nanargmax to ``nan_reduce``
    (argmin._api's too)."""
    global fallback, nan_fallback
    fallback = arg_reduce
    nan_fallback = nan_reduce


cdef object answer(data, axis, keepdims, last, int opset, num_threads, bint maximum,
                   bint values):
    cdef object found = None
    if in_use:
        found = quick_reduce(data, axis, keepdims, last, opset, num_threads, maximum, values)
    if found is None:
        return fallback(data, axis, keepdims, last, opset, num_threads, maximum, values)
    return found


cdef object nan_answer(data, axis, keepdims, last, num_threads, bint maximum, all_nan):
    # An all_nan of "raise" or an int of int64 is answered here, but for a
    # slice of NaN only, whose error the fallback raises (reducing again).
    cdef object found = None, placeholder = None
    cdef long number
    if in_use and (whole_int(all_nan, &number)
                   or (type(all_nan) is str and all_nan == "raise")):
        if type(all_nan) is int:
            placeholder = number
        found = quick_reduce(data, axis, keepdims, last, 13, num_threads, maximum, True, True)
    if found is not None and (settle_all_nan(found[0], found[1], placeholder) < 0
                              or placeholder is not None):
        return found[1]
    return nan_fallback(data, axis, keepdims, last, num_threads, maximum, all_nan)


def argmin(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return answer(data, axis, keepdims, select_last_index, 13, num_threads, False, False)


def argmax(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return answer(data, axis, keepdims, select_last_index, 13, num_threads, True, False)


def min_argmin(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return answer(data, axis, keepdims, select_last_index, 13, num_threads, False, True)


def max_argmax(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return answer(data, axis, keepdims, select_last_index, 13, num_threads, True, True)


def ArgMin(data, axis=0, keepdims=1, select_last_index=0):
    return answer(data, axis, keepdims, select_last_index, 13, None, False, False)


def ArgMax(data, axis=0, keepdims=1, select_last_index=0):
    return answer(data, axis, keepdims, select_last_index, 13, None, True, False)


def nanargmin(data, axis=0, keepdims=True, select_last_index=False, *, all_nan="raise",
              num_threads=None):
    return nan_answer(data, axis, keepdims, select_last_index, num_threads, False, all_nan)


def nanargmax(data, axis=0, keepdims=True, select_last_index=False, *, all_nan="raise",
              num_threads=None):
    return nan_answer(data, axis, keepdims, select_last_index, num_threads, True, all_nan)
