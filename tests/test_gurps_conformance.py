"""The conformance kit for the gurps system (xsys.testing)."""

import pytest

testing = pytest.importorskip("xsys.testing")
if not hasattr(testing, "conformance_suite"):
    pytest.skip("xsys.testing.conformance_suite is not available yet", allow_module_level=True)

TestConformance = testing.conformance_suite("gurps")
