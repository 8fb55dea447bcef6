from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("TERMINAL_WIDTH", "200")
os.environ.setdefault("COLUMNS", "200")
# The Ctrl-C tests interrupt xsys as a user at a terminal does. A runner started in the
# background of a non-interactive shell (`cmd &`, nohup) has SIGINT ignored, and every process
# it starts inherits that, so no interruption would arrive: the tests' processes take Ctrl-C
# as Python does by default (a process they start gets the default action at exec).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def toy_registry():
    """A registry holding only the test system `toy` (and the bundled catalog), set as
    the process default for the test."""
    from toy import toy_system
    from xsys.core import registry
    from xsys.plugins import catalog

    with registry.as_default(registry.Registry(entry_points=[], extra_plugins=[("toy", toy_system),
                                                                               ("catalog", catalog)])) as reg:
        yield reg


@pytest.fixture
def root() -> Path:
    return ROOT
pytest_plugins = ["pytester"]
