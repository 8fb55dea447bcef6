"""pytest plugin (entry point ``pytest11: xsys``): hypothesis profiles for xsys suites.

``XSYS_HYPOTHESIS_PROFILE=deep`` runs the large profile; the default keeps CI fast."""

from __future__ import annotations

import os


def _register_profiles() -> None:
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # hypothesis is a test extra
        return
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                        HealthCheck.filter_too_much])
    settings.register_profile("default", max_examples=40, derandomize=True, **common)
    settings.register_profile("ci", max_examples=40, derandomize=True, **common)
    settings.register_profile("deep", max_examples=100_000, derandomize=False, **common)
    name = os.environ.get("XSYS_HYPOTHESIS_PROFILE", "default")
    if name not in PROFILES:
        import pytest

        raise pytest.UsageError(f"XSYS_HYPOTHESIS_PROFILE={name!r}: expected one of {', '.join(PROFILES)}")
    settings.load_profile(name)


PROFILES = ("default", "ci", "deep")


def pytest_configure(config) -> None:  # noqa: D401 - pytest hook
    _register_profiles()
