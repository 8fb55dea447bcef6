"""`xsys serve`: the local web page and its JSON API (issue 21, being built)."""

from __future__ import annotations

from typing import Callable

from xsys.core.errors import XsysError


def run(host: str, port: int, info: Callable[[str], None]) -> None:
    raise XsysError("xsys serve is not built yet", expected="a later xsys", found="this one")
