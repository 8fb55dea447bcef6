"""`xsys curve`: sampled points equal `xsys odds`, curves are monotone, charts are real."""

import json
import re

import pytest

from helpers import run_main
from xsys.conversions import api, curve
from xsys.conversions.inline import inline_shot

pytest.importorskip("matplotlib")


@pytest.fixture(autouse=True)
def _toy(toy_registry):
    yield


SWEEPS = {
    "distance": ("distance=2m..200m", +1),
    "light": ("light=100000lx..0lx", +1),
    "exposure": ("exposure=1..0", +1),
    "skill": ("skill=0.05..0.95", -1),
    "armor": ("armor=0J..4000J", +1),
    "target-speed": ("target-speed=0m/s..8m/s", +1),
    "barrier": ("barrier=0cm..40cm", +1),
}


@pytest.mark.parametrize("axis", sorted(SWEEPS))
def test_points_equal_odds_and_are_monotone(capsys, axis):
    spec, harder = SWEEPS[axis]
    code, out, err = run_main(capsys, "curve", "--sweep", spec, "--points", 12, "--json", "--skill", 0.7)
    assert code == 0, err
    data = json.loads(out)
    shot = inline_shot(distance="25m", skill=0.7)
    name, lo, hi = curve.parse_sweep(spec)
    for i, x in enumerate(data["x"]):
        expected = api.odds(curve.apply(shot, name, x))
        for s, r in zip(data["series"], expected):
            assert s["system"] == r.system and s["exact"][i] == f"{r.check.chance.numerator}/{r.check.chance.denominator}"
    for s in data["series"]:
        ch = s["chance"]
        pairs = list(zip(ch, ch[1:]))
        if harder > 0:
            assert all(b <= a for a, b in pairs), (axis, ch)
        else:
            assert all(b >= a for a, b in pairs), (axis, ch)


def test_light_sweep_is_logarithmic_and_reaches_zero():
    xs = curve.sample("light", 100000.0, 0.0, 10)
    assert xs[0] == 100000.0 and xs[-1] == 0.0
    ratios = [a / b for a, b in zip(xs, xs[1:-1])]
    assert max(ratios) == pytest.approx(min(ratios))


def test_png_chart(tmp_path, capsys):
    out = tmp_path / "chart.png"
    code, _, err = run_main(capsys, "curve", "--sweep", "distance=2m..200m", "-o", out)
    assert code == 0, err
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import struct
    w, h = struct.unpack(">II", data[16:24])
    assert (w, h) == (1000, 600)
    from matplotlib import image
    img = image.imread(str(out))
    colours = {tuple(px) for px in img.reshape(-1, img.shape[-1])[::97]}
    assert len(colours) > 2


def test_svg_has_one_path_per_system(tmp_path, capsys, toy_registry):
    out = tmp_path / "chart.svg"
    code, _, err = run_main(capsys, "curve", "--sweep", "light=100000lx..0lx", "-o", out)
    assert code == 0, err
    svg = out.read_text()
    for key in toy_registry.keys():
        group = re.search(rf'<g id="curve-{key}">(.*?)</g>', svg, re.S)
        assert group and group.group(1).count("<path") == 1
    assert "light (lx)" in svg.replace("&#160;", " ") or "light (lx)" in svg


def test_terminal_chart_and_table(capsys):
    code, out, err = run_main(capsys, "curve", "--sweep", "exposure=1..0", "--points", 20)
    assert code == 0, err
    assert "Chance to hit vs exposure" in out and "A = Toy (test edition)" in out
    assert "exposure (visible fraction)" in out


@pytest.mark.parametrize("spec,fragment", [
    ("height=1..2", "unknown sweep axis"), ("distance=2kg..3m", "wrong unit for a length"),
    ("distance", "bad --sweep"), ("exposure=0..3", "out of range"),
])
def test_bad_sweeps(capsys, spec, fragment):
    code, _, err = run_main(capsys, "curve", "--sweep", spec)
    assert code == 2 and fragment in err


def test_missing_matplotlib_message(monkeypatch, tmp_path, capsys):
    import builtins
    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    code, _, err = run_main(capsys, "curve", "-o", tmp_path / "c.png")
    assert code == 2 and "pip install 'xsys[plot]'" in err
    assert not (tmp_path / "c.png").exists()
