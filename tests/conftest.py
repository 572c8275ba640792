import inspect
import os
from typing import Callable, NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import argmin
from argmin import _api

from . import oracle
from .layouts import reversed_order

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _variants():
    # The variant in use (ARGMIN_KERNELS, or the best this CPU runs) in the default suite, the
    # others this CPU runs with the exhaustive marker.
    others = [module for module in _api.available_kernels() if module is not _api.kernels]
    return [pytest.param(module, id=_api.variant_of(module),
                         marks=pytest.mark.exhaustive if rank else ())
            for rank, module in enumerate([_api.kernels, *others])]


@pytest.fixture(params=[pytest.param(False, id="sample"),
                        pytest.param(True, id="every", marks=pytest.mark.exhaustive)])
def every(request):
    """Whether a sweep takes every size it lists (exhaustive), or a sample of them (default)."""
    return request.param


@pytest.fixture(params=_variants())
def kernels(request):
    """Each compiled variant of the kernels that this CPU runs, in turn."""
    in_use = _api.kernels
    _api.use_kernels(request.param)
    yield request.param
    _api.use_kernels(in_use)


def pytest_collection_modifyitems(items):
    # A test that takes the `kernels` fixture runs on every variant under -m exhaustive: it is
    # marked `swept`, and .ci/run's passes on the other variants (ARGMIN_KERNELS) leave it out.
    for item in items:
        if "kernels" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.swept)


class Operator(NamedTuple):
    """One of the two operators: its ONNX name, argmin's function and the oracle's, and
    argmin's function of values and indices."""

    name: str
    function: Callable
    oracle: Callable
    maximum: bool
    with_values: Callable

    def arranged(self, x):
        """``x`` for ArgMin; for ArgMax, ``x``'s values in reverse order and laid out alike
        (`layouts.reversed_order`), so that the positions a case chose for ArgMin's minima
        hold ArgMax's maxima."""
        return reversed_order(x) if self.maximum else x


OPERATORS = (Operator("ArgMin", argmin.argmin, oracle.argmin, False, argmin.min_argmin),
             Operator("ArgMax", argmin.argmax, oracle.argmax, True, argmin.max_argmax))
BY_NAME = {operator.name: operator for operator in OPERATORS}


@pytest.fixture(params=OPERATORS, ids=lambda operator: operator.name)
def operator(request):
    """ArgMin and ArgMax in turn."""
    return request.param


@pytest.fixture
def entry_calls(monkeypatch):
    """Every call of argmin's entry point (`argmin._api.arg_reduce`) in the test, in order: a
    dict of its arguments by name, the input as its ``shape``, and ``op``, the operator."""
    seen = []
    original = _api.arg_reduce
    signature = inspect.signature(original)

    def spy(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        call = dict(bound.arguments)
        call["shape"] = np.shape(call.pop("data"))
        call["op"] = "ArgMax" if call["maximum"] else "ArgMin"
        seen.append(call)
        return original(*args, **kwargs)

    monkeypatch.setattr(_api, "arg_reduce", spy)
    return seen
