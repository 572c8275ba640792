"""ArgMin and ArgMax of one opset: the checks of `argmin._rules`, then the kernel."""

import importlib
import importlib.util
import os
import sys

import numpy as np

from . import _cpu, _docs, _nanarg, _rules, _tuning

#: The compiled variants of the kernels, best first: the name that ``ARGMIN_KERNELS`` and
#: `argmin.kernel_variant` use, the module, and the CPU level it needs
#: (`argmin._cpu.cpu_level`).  A build has those its kernel-variants option names
#: (meson.options): by default all that its compiler targets.
VARIANTS = (("avx512", "_kernels_avx512", 3), ("avx2", "_kernels_avx2", 2),
            ("baseline", "_kernels", 0))


def _module_of(name):
    """The kernel module of that name, told bfloat16's type, where the tuning is found, the
    threads a call may use and where its public functions hand the calls they decline; None
    where this build lacks it."""
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError:
        return None
    if _bfloat16 is not None:
        module.set_bfloat16(_bfloat16)
    module.set_tuning_source(_tuning.tuning_var, _tuning.ever_tuned)
    module.cap_threads(_thread_cap)
    module.set_fallback(arg_reduce, nan_reduce)
    return module


def _runnable(level):
    """The kernel modules this build has and a CPU of ``level`` runs, best first, each
    imported only when the iteration reaches it."""
    modules = (_module_of(module) for _, module, needs in VARIANTS if needs <= level)
    return (module for module in modules if module is not None)


def available_kernels(level=None):
    """The kernel modules this build has and a CPU of ``level`` (None: this CPU) runs, best
    first; in a build of every variant, the baseline is always among them."""
    return list(_runnable(_cpu.cpu_level() if level is None else level))


def variant_of(module):
    """The name in `VARIANTS` of a kernel module."""
    file = module.__name__.rsplit(".", 1)[-1]
    return next(name for name, found, _ in VARIANTS if found == file)


def chosen_kernels(choice, level=None):
    """The kernel module that ``choice`` (``ARGMIN_KERNELS``'s value, case-insensitive)
    names, or where it is blank the best that this build has and a CPU of ``level`` (None:
    this CPU) runs.  Only the module returned is imported.

    Raises
    ------
    ValueError
        Where ``choice`` names no variant.
    RuntimeError
        Where that CPU, or this build, has not the variant named; where ``choice`` is blank
        and this build has no variant that CPU runs.
    """
    if level is None:
        level = _cpu.cpu_level()
    name = choice.strip().lower()
    if not name:
        best = next(_runnable(level), None)
        if best is None:
            raise _none_runs_here()
        return best
    table = {known: (module, needs) for known, module, needs in VARIANTS}
    if name not in table:
        raise ValueError(
            f"ARGMIN_KERNELS={choice!r} is not a kernel variant; it takes one of "
            f"{', '.join(table)} (case-insensitive), or nothing for the best this CPU runs")
    module, needs = table[name]
    found = _module_of(module) if needs <= level else None
    if found is None:
        lacks = "this CPU does not run the" if needs > level else "this build has no"
        runs = ", ".join(variant_of(other) for other in _runnable(level))
        if not runs:
            raise _none_runs_here()
        raise RuntimeError(f"ARGMIN_KERNELS={choice!r}: {lacks} {name} kernels; here, "
                           f"choose one of {runs}, or leave it unset for the best")
    return found


def _none_runs_here():
    """The error where this build has no variant this CPU runs."""
    built = ", ".join(known for known, module, _ in VARIANTS  # found, not imported
                      if importlib.util.find_spec(f"{__package__}.{module}"))
    return RuntimeError(f"this build of argmin has kernels for {built or 'no variant'} only, "
                        "and this CPU runs none of them: rebuild it with the default "
                        "kernel-variants option")


#: bfloat16's dtype once an input of that type has been seen (see _accept_bfloat16).
_bfloat16 = None

#: Most threads a call uses, which each kernel module is told (``cap_threads``).  A process
#: forked from one whose OpenMP threads have run cannot start OpenMP threads of its own (GNU
#: OpenMP would hang), so its calls run on one thread.
_thread_cap = 1 << 10


def _running_the_command():
    """Whether this process is the ``argmin`` command: the console script, or
    ``python -m argmin``, whose ``sys.argv[0]`` is ``-m`` while the package is imported."""
    if os.path.basename(sys.argv[0]) == "argmin":
        return True
    if sys.argv[0] != "-m":
        return False
    # The interpreter's own options come before the program's arguments.
    module = len(sys.orig_argv) - len(sys.argv)
    return (sys.orig_argv[module - 1:module + 1] == ["-m", __package__]
            or sys.orig_argv[module] == f"-m{__package__}")


def _kernels_in_use():
    """`chosen_kernels` of ``ARGMIN_KERNELS``.  Its error is raised, but for the ``argmin``
    command, which exits with status 2 and the error's message on one line."""
    try:
        return chosen_kernels(os.environ.get("ARGMIN_KERNELS", ""))
    except (ValueError, RuntimeError) as error:
        if not _running_the_command():
            raise
        print(f"argmin: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def kernel_variants():
    """The compiled variants of the kernels that this build has and this CPU runs.

    ``ARGMIN_KERNELS``, read when argmin is imported, chooses which of them is used:
    ``avx512``, ``avx2`` or ``baseline`` (case-insensitive), or blank or unset for the best.
    Every variant gives the same results; only their speed differs.

    Returns
    -------
    tuple of str
        Their names, best first; ``"baseline"`` (no vector extension beyond the
        architecture's baseline), which every CPU runs, is the last in a build of every
        variant (the default; meson.options).  The CPU probe that tells which variants this
        CPU runs is `argmin._cpu.cpu_level`.

    See Also
    --------
    kernel_variant : the one in use.

    Examples
    --------
    >>> import argmin
    >>> set(argmin.kernel_variants()) <= {"avx512", "avx2", "baseline"}
    True
    >>> argmin.kernel_variant() in argmin.kernel_variants()
    True
    """
    return tuple(variant_of(module) for module in available_kernels())


def kernel_variant():
    """The compiled variant of the kernels in use: a name of `argmin.kernel_variants`.

    It is the one ``ARGMIN_KERNELS`` names, or the best this CPU runs where that is blank or
    unset.  ``import argmin`` raises ValueError where ``ARGMIN_KERNELS`` names no variant,
    and RuntimeError where this CPU does not run it (or this build lacks it).

    Returns
    -------
    str
        ``"avx512"``, ``"avx2"`` or ``"baseline"``.

    Examples
    --------
    >>> import argmin
    >>> argmin.kernel_variant() in ("avx512", "avx2", "baseline")
    True
    """
    return variant_of(kernels)


#: The Tuning in force for this thread or task (None: the kernels' defaults), which need only
#: be asked for once a `_tuning.tuned` block has been entered.
_current_tuning = _tuning.current
_ever_tuned = _tuning.ever_tuned


def _loaded_variants():
    """The kernel modules imported so far."""
    modules = (sys.modules.get(f"{__package__}.{name}") for _, name, _ in VARIANTS)
    return [module for module in modules if module is not None]


def _single_thread():
    global _thread_cap
    loaded = _loaded_variants()
    if any(module.threads_started() for module in loaded):
        _thread_cap = 1
    for module in loaded:  # the parent's calls in flight are not the child's
        module.reset_governor()
        module.cap_threads(_thread_cap)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_single_thread)

# Native dtypes each opset accepts, for a quick membership test (bfloat16
# added when first seen).
_ACCEPTED = {opset: frozenset(_rules.NUMERIC_TYPES) for opset in _rules.OPSETS}


def _accept_bfloat16(dtype):
    """Tell every loaded kernel variant bfloat16's type number, and accept it from now on.

    Deferred to the first bfloat16 input: its dtype comes from ml_dtypes, slow to import.
    """
    global _bfloat16
    _bfloat16 = dtype
    for module in _loaded_variants():
        module.set_bfloat16(dtype)
    for opset in _rules.OPSETS:
        if opset >= 13:
            _ACCEPTED[opset] = _ACCEPTED[opset] | {dtype}


def as_tensor(data, op="ArgMin"):
    """``numpy.asarray(data)``, refusing masked arrays (``op`` names the operator).

    Raises
    ------
    TypeError
        For a ``numpy.ma.MaskedArray``: ONNX has no masks.
    """
    if isinstance(data, np.ma.MaskedArray):
        raise TypeError(
            f"{op} does not take masked arrays (ONNX tensors have no mask); "
            "pass data.filled(fill_value) or data.data explicitly"
        )
    return np.asarray(data)


def native_type(dtype, opset, op="ArgMin"):
    """The native-byte-order element type the kernels read for ``dtype``.

    Raises
    ------
    TypeError
        For an element type that ``op`` of ``opset`` does not take.
    """
    native = _rules.check_element_type(dtype, opset, op)
    # (A dtype compares equal to None where it is float64: test for None first.)
    bfloat16 = _rules.loaded_bfloat16()
    if _bfloat16 is None and bfloat16 is not None and native == bfloat16:
        _accept_bfloat16(native)
    return native


def arg_reduce(data, axis, keepdims, select_last_index, opset, num_threads=None, maximum=False,
               values=False, skip_nan=False):
    """ArgMin-``opset`` (ArgMax-``opset`` with ``maximum``) of ``data``; see `argmin.argmin`
    for the arguments.  With ``values``, ``(values, indices)``: see `argmin.min_argmin`.
    With ``skip_nan``, every number beats NaN (see ``reduce_axis`` in the kernels).

    The kernels' compiled entry answers the common call; this checks and converts the others.
    """
    found = kernels.quick_reduce(data, axis, keepdims, select_last_index, opset, num_threads,
                                 maximum, values, skip_nan)
    if found is not None:
        return found
    op = _nanarg.NAMES[maximum] if skip_nan else _rules.OPERATORS[maximum]
    if type(data) is not np.ndarray:
        data = as_tensor(data, op)
    dtype = data.dtype
    if dtype not in _ACCEPTED[opset] or dtype.names is not None:
        data = data.astype(native_type(dtype, opset, op), copy=False)
    keepdims = _rules.check_flag(keepdims, "keepdims", op)
    select_last_index = _rules.check_flag(select_last_index, "select_last_index", op)
    axis = _rules.normalize_axis(axis, data.ndim, op)
    if not data.size:  # only then can the reduced axis be empty
        _rules.check_axis_length(data.shape, axis, op)
    if num_threads is not None and (
        isinstance(num_threads, (bool, np.bool_))
        or not isinstance(num_threads, (int, np.integer))
        or num_threads < 1
    ):
        raise ValueError(
            f"{op}: num_threads must be a positive integer or None, got {num_threads!r}")
    return reduce_checked(data, axis, keepdims, select_last_index, maximum, num_threads,
                          values=values, skip_nan=skip_nan)


def nan_reduce(data, axis, keepdims, select_last_index, num_threads, maximum, all_nan):
    """``argmin.nanargmin`` (``argmin.nanargmax`` with ``maximum``) of ``data``: the calls
    that the kernels' compiled nanargmin and nanargmax hand on, and their errors."""
    op = _nanarg.NAMES[maximum]
    placeholder = _nanarg.placeholder_of(all_nan, op)
    values, indices = arg_reduce(data, axis, keepdims, select_last_index, 13, num_threads,
                                 maximum, values=True, skip_nan=True)
    return settle_all_nan(values, indices, placeholder, op, axis, keepdims)


def settle_all_nan(values, indices, placeholder, op, axis, keepdims, located=True):
    """``indices`` (C-contiguous int64), found with ``values`` (C-contiguous, as many) where NaN
    is skipped (by ``op``, along ``axis``), with each slice whose value is NaN (it holds only
    NaN) given ``placeholder``, in place; where that is None, `_nanarg.all_nan_error` instead.
    """
    first = kernels.settle_all_nan(values, indices, placeholder)
    if first >= 0 and placeholder is None:
        raise _nanarg.all_nan_error(first, indices.shape, op, axis, keepdims, located)
    return indices


def reduce_checked(data, axis, keepdims, last, maximum, num_threads=None, out=None,
                   values=False, skip_nan=False):
    """`kernels.reduce_axis` on arguments that meet its contract, with at most
    ``num_threads`` threads (None: as the governor decides) and the tuning in force."""
    return kernels.reduce_axis(data, axis, keepdims, last, 0 if num_threads is None
                               else min(num_threads, _thread_cap), maximum,
                               _current_tuning() if _ever_tuned else None, out, values,
                               skip_nan)


def tuning_defaults():
    """The values that a `_tuning.Tuning` field of None stands for, in the kernels in use on
    this CPU, as a dict."""
    return kernels.default_tuning_of_cpu()


def row_way(n, itemsize):
    """How rows of ``n`` elements of ``itemsize`` bytes that follow each other are read,
    with the tuning in force: ``"rows"``, ``"short"`` or ``"columns"``."""
    return kernels.row_way(n, itemsize, _current_tuning())


def plan(data, axis, num_threads=1, values=False):
    """The plan of a call on ``data`` along ``axis`` with the tuning in force, as a dict
    (see ``plan_of`` in the kernels); with ``values``, of a call that gives the values too."""
    return kernels.plan_of(data, axis, num_threads, _current_tuning(), values)


def opset_operator(opset, op="ArgMin"):
    """``argmin.opset{opset}.{op}`` (ArgMin or ArgMax): `arg_reduce` with that opset's
    attributes and docstring; for opset 13, the compiled function of the kernels in use."""
    maximum = op == "ArgMax"
    if opset >= 13:
        operator = getattr(kernels, op)
    elif opset >= 12:
        def operator(data, axis=0, keepdims=1, select_last_index=0):
            return arg_reduce(data, axis, keepdims, select_last_index, opset, maximum=maximum)
    else:
        def operator(data, axis=0, keepdims=1):
            return arg_reduce(data, axis, keepdims, 0, opset, maximum=maximum)
    return public(operator, f"{__package__}.opset{opset}", op, _docs.opset_docstring(opset, op))


def public(function, module, name, doc):
    """``function`` as ``module.name``, with ``doc``."""
    function.__module__ = module
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def use_kernels(module):
    """Run every later call on ``module``, one of `available_kernels`: the public functions
    of another variant hand their calls to `arg_reduce`, which runs ``module``."""
    global kernels
    kernels = module
    for loaded in _loaded_variants():
        loaded.set_in_use(loaded is module)


#: The kernel module in use: the variant ``ARGMIN_KERNELS`` names, or the best this CPU runs.
kernels = _kernels_in_use()
use_kernels(kernels)
