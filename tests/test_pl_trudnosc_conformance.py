"""The conformance kit (xsys.testing) against pl-trudnosc, once per dice mechanic
(pl.resolution: the mechanic is a setting, so the kit must hold for each)."""

from xsys.plugins.pl_trudnosc.system import PlSettings
from xsys.testing import conformance_suite

TestConformance = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="sum-d6"))
TestConformanceExploding2d6 = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-2d6"))
TestConformanceExplodingTrait = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-trait"))
TestConformanceExplodingD6 = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="exploding-d6"))
TestConformancePerDieD10 = conformance_suite("pl-trudnosc", settings=PlSettings(mechanic="per-die-d10"))
