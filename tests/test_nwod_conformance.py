"""The xsys conformance kit for the nwod system (monotone ladders, round trips, chance
monotone along every difficulty axis, modifiers with rule IDs and sources)."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("nwod")
