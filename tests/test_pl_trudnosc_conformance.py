"""The conformance kit (xsys.testing) against pl-trudnosc, once per dice mechanic
(pl.resolution: the mechanic is a setting, so the kit must hold for each).

The assumed 0-5 tiers are set for the default mechanic, exploding-2d6; under the alternatives
the tier shooters land two or more tiers off (plugins/pl_trudnosc/README.md measures each: 98
of 200 in the target's own tier for exploding-d6). The kit's tier check says so for them: a
known failure, kept strict so that a change that makes one of them hold is noticed."""

import pytest

from xsys.plugins.pl_trudnosc.system import PlSettings
from xsys.testing import conformance_suite

TIERS = "test_published_tiers_hold_against_every_installed_system"


def _tiers_do_not_hold(cls: type, mechanic: str) -> type:
    setattr(cls, TIERS, pytest.mark.xfail(strict=True, reason=f"the assumed tiers are set for exploding-2d6, "
                                                              f"not {mechanic} (README)")(getattr(cls, TIERS)))
    return cls


TestConformance = _tiers_do_not_hold(conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="sum-d6")), "sum-d6")
TestConformanceExploding2d6 = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-2d6"))
TestConformanceExplodingTrait = _tiers_do_not_hold(
    conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-trait")), "exploding-trait")
TestConformanceExplodingD6 = _tiers_do_not_hold(
    conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-d6")), "exploding-d6")
TestConformancePerDieD10 = _tiers_do_not_hold(
    conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="per-die-d10")), "per-die-d10")
