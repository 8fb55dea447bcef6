"""The conformance kit run on the test system, and shown to catch a broken system."""

from pathlib import Path

import pytest

from xsys.testing import conformance_suite

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def _toy(toy_registry):
    yield


TestToyConformance = conformance_suite("toy", fixtures=HERE / "toy" / "fixtures")


BROKEN = '''
import sys
sys.path.insert(0, {tests!r})
from fractions import Fraction
import pytest
from toy import toy_system
from xsys.core import registry
from xsys.plugins import catalog
from xsys.testing import conformance_suite


class Backwards(toy_system.Toy):
    """Distance makes shots EASIER: the kit must catch it."""
    key = "backwards"

    def check(self, shot, extra=()):
        c = super().check(shot._replace(distance=0) if hasattr(shot, "_replace") else shot, extra)
        import msgspec
        bonus = min(99, int(float(shot.distance)))
        t = c.target + bonus
        from xsys.core import dice
        return msgspec.structs.replace(c, system=self.key, target=t, chance=dice.d100(t))


class Plugin:
    from xsys.core.hookspecs import hookimpl

    @hookimpl
    def xsys_register_systems(register):
        register(Backwards)


registry.set_default_registry(registry.Registry(entry_points=[], extra_plugins=[("b", Plugin), ("catalog", catalog)]))
TestBackwards = conformance_suite("backwards", fixtures={fixtures!r})
'''


def test_kit_fails_a_system_that_breaks_ordering(pytester):
    pytester.makepyfile(test_broken=BROKEN.format(tests=str(HERE), fixtures=str(HERE / "nonexistent")))
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1
    result.stdout.fnmatch_lines(["*test_farther*"])


BY_NAME = '''
import sys
sys.path.insert(0, {tests!r})
import msgspec
from toy import toy_system
from xsys.core import registry
from xsys.plugins import catalog
from xsys.testing import conformance_suite


class ByName(toy_system.Toy):
    """A sergeant (a name of more than ten letters, say) gets a better AGI: the kit must catch it."""
    key = "byname"

    def npc_from_neutral(self, c):
        res = super().npc_from_neutral(c)
        if len(c.name) > 10:
            res.value = msgspec.structs.replace(res.value, AGI=min(12, res.value.AGI + 1))
        return res


class Plugin:
    from xsys.core.hookspecs import hookimpl

    @hookimpl
    def xsys_register_systems(register):
        register(ByName)


registry.set_default_registry(registry.Registry(entry_points=[], extra_plugins=[("b", Plugin), ("catalog", catalog)]))
TestByName = conformance_suite("byname", fixtures={fixtures!r})
'''


def test_kit_fails_a_system_that_converts_by_name(pytester, tmp_path):
    """A streamed roster converts a stat block it has seen once, whatever each NPC is called
    (conversions/stream.py): the kit fails a system whose conversion depends on the name."""
    folder = tmp_path / "fixtures"
    folder.mkdir()
    (folder / "scout.yaml").write_text("system: byname\nkind: npc\nname: Scout\nAGI: 9\nskills:\n  Gun: 55\n")
    pytester.makepyfile(test_by_name=BY_NAME.format(tests=str(HERE), fixtures=str(folder)))
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider", "-k", "whatever_its_name")
    result.stdout.fnmatch_lines(["*depends on the NPC's name*"])
    assert result.parseoutcomes().get("failed", 0) == 1
