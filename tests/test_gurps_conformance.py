"""The conformance kit for the gurps system (xsys.testing)."""

from xsys.testing import conformance_suite

TestConformance = conformance_suite("gurps")
