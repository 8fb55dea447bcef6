"""Small helpers shared by the test modules."""

from __future__ import annotations

import pytest


def run_main(capsys, *args):
    """Run the `xsys` console entry point in-process: (exit status, stdout, stderr)."""
    from xsys.conversions.cli import main

    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return ex.value.code, out.out, out.err
