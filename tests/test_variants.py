"""ARGMIN_KERNELS: it puts the named compiled variant in use, and refuses, at import and with
what it allows, a name that is no variant and a variant this CPU or build cannot run."""

import importlib.util
import json
import os
import re
from pathlib import Path

import pytest

import argmin
from argmin import _api

from .fresh import run_code

NAMES = [name for name, _, _ in _api.VARIANTS]
LEVELS = {name: needs for name, _, needs in _api.VARIANTS}

#: The variants whose modules this build has: those its kernel-variants option (meson.options)
#: names, by default every one the compiler targets.
BUILT = [name for name, module, _ in _api.VARIANTS
         if importlib.util.find_spec(f"argmin.{module}") is not None]

#: For tests that count on the baseline, which every CPU runs: a build made with
#: kernel-variants=native may lack it.
with_baseline = pytest.mark.skipif(
    "baseline" not in BUILT, reason="this build lacks the baseline kernels (kernel-variants)")

# What the chosen variant reports of itself, once a call of it has matched numpy's.
PROGRAM = """
import json
import numpy as np
import argmin
from argmin import _api

x = (np.arange(200_003) * 7919 % 1009).astype(np.float32).reshape(-1, 1) * np.float32([1, -1])
assert x.dtype == np.float32
assert (argmin.argmin(x, axis=0, keepdims=False) == np.argmin(x, axis=0)).all()
print(json.dumps({"variant": argmin.kernel_variant(), "module": _api.kernels.__name__,
                  "compiled_for": _api.kernels.compiled_level()}))
"""


def run_with(choice, program=PROGRAM):
    """``program`` run by a fresh Python, away from the source tree, with that ARGMIN_KERNELS
    (None: unset)."""
    if choice is None:
        return run_code(program, unset=["ARGMIN_KERNELS"])
    return run_code(program, env=dict(os.environ, ARGMIN_KERNELS=choice))


@pytest.mark.parametrize("name", argmin.kernel_variants())
def test_the_named_variant_is_in_use(name):
    result = run_with(name)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    module = dict((n, m) for n, m, _ in _api.VARIANTS)[name]
    assert report["variant"] == name
    assert report["module"] == f"argmin.{module}"
    assert report["compiled_for"] == LEVELS[name]


def test_unset_or_empty_is_the_best_this_cpu_runs():
    for choice in (None, "", " "):
        result = run_with(choice, "import argmin; print(argmin.kernel_variant())")
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == argmin.kernel_variants()[0]


def test_the_names_are_read_case_blind():
    name = argmin.kernel_variants()[-1]
    result = run_with(f" {name.upper()} ", "import argmin; print(argmin.kernel_variant())")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == name


def test_a_name_that_is_no_variant_is_refused_at_import():
    result = run_with("sse9", "import argmin")
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: ARGMIN_KERNELS='sse9' is not a kernel variant")
    for name in NAMES:
        assert name in last


@with_baseline
@pytest.mark.parametrize("level", [0, 2])
def test_a_variant_beyond_the_cpu_is_refused(level):
    # The choice is checked against the CPU level given, as if this CPU had only that level.
    for name in BUILT:
        if LEVELS[name] <= level:
            assert _api.chosen_kernels(name, level).compiled_level() <= level
            continue
        with pytest.raises(RuntimeError, match=(
                rf"^ARGMIN_KERNELS='{name}': this CPU does not run the {name} kernels; here, "
                rf"choose one of .*baseline, or leave it unset for the best$")):
            _api.chosen_kernels(name, level)


@with_baseline
def test_a_variant_this_build_lacks_is_refused(monkeypatch):
    # A variant that no CPU lacks, with no module in this build.
    monkeypatch.setattr(_api, "VARIANTS", (("future", "_kernels_future", 0), *_api.VARIANTS))
    with pytest.raises(RuntimeError, match=(
            r"^ARGMIN_KERNELS='future': this build has no future kernels; here, choose one of "
            r".*baseline, or leave it unset for the best$")):
        _api.chosen_kernels("future", 0)


@with_baseline
def test_kernel_variants_are_best_first_and_in_use_is_one_of_them():
    names = argmin.kernel_variants()
    assert names == tuple(n for n in NAMES if n in names)
    assert names[-1] == "baseline"
    assert argmin.kernel_variant() in names
    chosen = os.environ.get("ARGMIN_KERNELS", "").strip().lower()
    assert argmin.kernel_variant() == (chosen or names[0])


def test_every_compiled_module_is_built_for_its_level():
    for module in _api.available_kernels():
        name = _api.variant_of(module)
        assert module.compiled_level() == LEVELS[name]


def test_a_build_with_no_variant_this_cpu_runs_says_so(monkeypatch):
    # A build whose only variant needs more than any CPU has.
    module = _api.kernels.__name__.rsplit(".", 1)[1]
    monkeypatch.setattr(_api, "VARIANTS", (("future", module, 99),))
    with pytest.raises(RuntimeError, match=(
            r"^this build of argmin has kernels for future only, and this CPU runs none of "
            r"them: rebuild it with the default kernel-variants option$")):
        _api.chosen_kernels("", 3)


def test_every_variant_has_the_same_functions():
    public = [sorted(name for name in dir(module) if not name.startswith("_"))
              for module in _api.available_kernels()]
    assert all(names == public[0] for names in public)


def test_the_build_option_names_the_variants():
    # meson.options' kernel-variants takes the names of VARIANTS (and native), baseline first.
    options = Path(__file__).resolve().parents[1] / "meson.options"
    if not options.exists():
        pytest.skip("the tests are not in a source checkout")
    choices = re.search(r"choices: \[([^\]]*)\]", options.read_text()).group(1)
    assert [name.strip(" '") for name in choices.split(",")] == [*reversed(NAMES), "native"]
