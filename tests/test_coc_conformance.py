"""The xsys conformance kit for `coc` (DESIGN §5)."""

import pytest

try:
    from xsys.testing import conformance_suite
except ImportError:  # the kit is being written; the file stays so it runs once it lands
    pytest.skip("xsys.testing.conformance_suite is not available yet", allow_module_level=True)

TestConformance = conformance_suite("coc")
