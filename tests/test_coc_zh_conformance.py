"""The xsys conformance kit for `coc-zh` (DESIGN §5)."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("coc-zh")
