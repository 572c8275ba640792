import os

import pytest
from hypothesis import HealthCheck, settings

from argmin import _api

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(
    params=_api.available_kernels(), ids=lambda module: module.__name__.rsplit(".", 1)[-1]
)
def kernels(request, monkeypatch):
    """Each compiled variant of the kernels that this CPU runs, in turn."""
    monkeypatch.setattr(_api, "kernels", request.param)
    return request.param
