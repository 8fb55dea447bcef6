"""The xsys conformance kit for `coc`."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("coc")
