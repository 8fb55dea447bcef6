"""The xsys conformance kit for `coc` (DESIGN §5)."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("coc")
