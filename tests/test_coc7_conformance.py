"""The xsys conformance kit for the built-in coc7 system (Call of Cthulhu 7th edition): monotone
ladders, round trips, chance monotone along every difficulty axis, modifiers with rule IDs and
sources, and its published tiers against every installed system."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("coc7")
