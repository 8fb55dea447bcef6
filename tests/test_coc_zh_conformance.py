"""The xsys conformance kit for `coc-zh`."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("coc-zh")
