"""Odds curves: sweep one neutral axis of a shot and compute every system's exact chance
(and expected damage where a system has it) at each point.

Axes: ``distance`` (m), ``light`` (lx, log scale; 0 lx is sampled too), ``exposure``
(visible fraction), ``skill`` (competence, equated over the battery), ``armor`` (J the target's armor
stops), ``target-speed`` (m/s), ``barrier`` (thickness of the shot's barrier material,
concrete when the shot has none).

Limits: 2 to MAX_POINTS (10,000) sampled points; both ends of a sweep finite (after the
unit conversion) and not negative."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import msgspec

from xsys.core import units
from xsys.core.errors import InputError, XsysError
from xsys.core.model import Armor, Barrier, Cover, Shot
from xsys.core.vocab import ILLUMINANCE

from . import api

MAX_POINTS = 10_000

AXES: dict[str, tuple[Any, str, str]] = {
    # name: (quantity type or None, unit label, scale)
    "distance": (units.Length, "m", "linear"),
    "light": (units.Illuminance, "lx", "log"),
    "exposure": (None, "visible fraction", "linear"),
    "skill": (None, "competence", "linear"),
    "armor": (units.Energy, "J stopped", "linear"),
    "target-speed": (units.Speed, "m/s", "linear"),
    "barrier": (units.Length, "m", "linear"),
}


@dataclass
class Series:
    system: str
    label: str
    chance: list[float]
    exact: list[str]
    damage: list[float | None]


@dataclass
class Curve:
    axis: str
    unit: str
    scale: str
    title: str
    x: list[float]
    series: list[Series] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "axis": self.axis, "unit": self.unit, "scale": self.scale, "title": self.title,
            "x": self.x,
            "series": [{"system": s.system, "label": s.label, "chance": s.chance, "exact": s.exact,
                        "damage_mean": s.damage} for s in self.series],
        }


def parse_sweep(spec: str) -> tuple[str, float, float]:
    m = re.match(r"^\s*([a-z-]+)\s*=\s*(.+?)\s*\.\.\s*(.+?)\s*$", spec)
    # exactly two dots between the ends: "1m...2m" is not read as 1 m to .2 m
    if not m or spec.count("..") != 1 or "..." in spec:
        raise InputError("bad --sweep", path="--sweep", expected="AXIS=FROM..TO (two dots), e.g. distance=2m..200m",
                         found=repr(spec))
    axis, a, b = m.group(1), m.group(2), m.group(3)
    if axis not in AXES:
        raise InputError("unknown sweep axis", path="--sweep", expected="one of " + ", ".join(AXES),
                         found=repr(axis))
    qtype = AXES[axis][0]
    return axis, _value(axis, a, qtype), _value(axis, b, qtype)


def _value(axis: str, text: str, qtype: Any) -> float:
    if qtype is None:
        try:
            v = float(text)
        except ValueError:
            raise InputError("not a number", path="--sweep", expected=f"a number for {axis}",
                             found=repr(text)) from None
        if not 0.0 <= v <= 1.0:
            raise InputError("out of range", path="--sweep", expected="0 to 1", found=text)
        return v
    if qtype is units.Illuminance and text in ILLUMINANCE:
        return ILLUMINANCE[text]
    try:
        v = float(units.parse(text, qtype))
    except InputError as exc:
        exc.path = "--sweep"
        raise
    if not math.isfinite(v):  # 1e308 km is a finite number but no finite length in metres
        raise InputError("out of range", path="--sweep", expected=f"a finite {axis} in {AXES[axis][1]}",
                         found=repr(text))
    if v < 0:
        raise InputError("out of range", path="--sweep", expected="not negative", found=text)
    return v


def sample(axis: str, lo: float, hi: float, n: int) -> list[float]:
    """n points from lo to hi (in that order), geometric for light with 0 kept as an end."""
    if n < 2:
        raise InputError("too few points", path="--points", expected="at least 2", found=str(n))
    if n > MAX_POINTS:
        raise InputError("too many points", path="--points", expected=f"at most {MAX_POINTS:,}", found=f"{n:,}")
    if AXES[axis][2] == "log":
        a, b = lo, hi
        zero_end = None
        if a <= 0 or b <= 0:
            zero_end = "lo" if a <= 0 else "hi"
            other = b if zero_end == "lo" else a
            if other <= 0:
                return [0.0] * n
            floor = min(other, 1e-4) / 10.0
            a, b = (floor, other) if zero_end == "lo" else (other, floor)
            n_log = n - 1
        else:
            n_log = n
        la, lb = math.log10(a), math.log10(b)
        pts = [10 ** (la + (lb - la) * i / (n_log - 1)) for i in range(n_log)] if n_log > 1 else [a]
        if zero_end == "lo":
            pts = [0.0] + pts
        elif zero_end == "hi":
            pts = pts + [0.0]
        return pts
    return [lo + (hi - lo) * (i / (n - 1)) for i in range(n)]  # (hi - lo) * i could overflow


def apply(shot: Shot, axis: str, x: float) -> Shot:
    """The shot with one axis set to x."""
    rep = msgspec.structs.replace
    if axis == "distance":
        return rep(shot, distance=units.Length(x))
    if axis == "light":
        return rep(shot, light=rep(shot.light, illuminance=units.Illuminance(x)))
    if axis == "exposure":
        return rep(shot, target=rep(shot.target, cover=rep(shot.target.cover, exposure=x)))
    if axis == "skill":
        return rep(shot, shooter=rep(shot.shooter, skill=x))
    if axis == "target-speed":
        return rep(shot, target=rep(shot.target, speed=units.Speed(x)))
    if axis == "armor":
        armor = Armor(name=f"armor stopping {x:g} J", kind="other", covers=["torso"], stops=units.Energy(x))
        return rep(shot, target=rep(shot.target, armor=[armor]))
    if axis == "barrier":
        cov = shot.target.cover
        material = cov.barrier.material if cov.barrier else "concrete"
        exposure = cov.exposure if cov.barrier else 0.0
        return rep(shot, target=rep(shot.target, cover=Cover(exposure=exposure, barrier=Barrier(
            material=material, thickness=units.Length(x)))))
    raise InputError("unknown sweep axis", found=repr(axis))


def sweep(shot: Shot, axis: str, lo: float, hi: float, points: int = 60, systems: Iterable[str] | None = None,
          settings: Any = None, title: str | None = None) -> Curve:
    xs = sample(axis, lo, hi, points)
    qtype, unit, scale = AXES[axis]
    curve = Curve(axis, unit, scale, title or _title(shot, axis), xs)
    by_system: dict[str, Series] = {}
    for x in xs:
        for r in _odds_at(shot, axis, x, systems, settings):
            s = by_system.get(r.system)
            if s is None:
                s = by_system[r.system] = Series(r.system, r.label, [], [], [])
                curve.series.append(s)
            s.chance.append(float(r.check.chance))
            s.exact.append(f"{r.check.chance.numerator}/{r.check.chance.denominator}")
            s.damage.append(r.check.damage_mean)
    return curve


def _odds_at(shot: Shot, axis: str, x: float, systems: Iterable[str] | None, settings: Any) -> list[Any]:
    """The odds at one point; a number no system can work with (an overflow on the way)
    is an error naming the point, not a traceback."""
    try:
        return api.odds(apply(shot, axis, x), systems, settings=settings)
    except XsysError:
        raise
    except (OverflowError, ValueError, ZeroDivisionError) as exc:
        raise InputError(f"cannot compute the chance at {axis} = {_fmt(x)} {AXES[axis][1]}: "
                         f"{type(exc).__name__}: {exc}", path="--sweep",
                         expected="a sweep within what the systems can compute", found=_fmt(x)) from None


def _title(shot: Shot, axis: str) -> str:
    parts = [shot.name or "shot", shot.weapon.name]
    if axis != "distance":
        parts.append(units.brief(shot.distance))
    if axis != "light":
        parts.append(str(shot.light.illuminance))
    if axis != "skill":
        parts.append(f"skill {shot.shooter.skill:.2f}")
    if axis != "exposure" and shot.target.cover.exposure < 1:
        parts.append(f"exposure {shot.target.cover.exposure:g}")
    return f"Chance to hit vs {axis}: " + ", ".join(parts)


# ---- drawing --------------------------------------------------------------------

def plot(curve: Curve, path: str, width: float = 10.0, height: float = 6.0, dpi: int = 100) -> None:
    """Write the curve as PNG or SVG (by extension) with matplotlib (the `plot` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("drawing a chart needs matplotlib",
                         expected="pip install 'xsys[plot]' (or: pip install matplotlib)",
                         found="matplotlib not installed") from None
    import io

    from .output import write_atomic

    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext not in ("png", "svg"):
        raise InputError("unknown chart format", file=path, expected=".png or .svg", found=repr("." + ext))
    matplotlib.rcParams["svg.hashsalt"] = "xsys"  # stable ids in SVG output
    has_damage = any(v is not None for s in curve.series for v in s.damage)
    fig, axes = plt.subplots(2 if has_damage else 1, 1, figsize=(width, height * (1.5 if has_damage else 1)),
                             dpi=dpi, sharex=True, squeeze=False)
    ax = axes[0][0]
    xs = curve.x
    # a variant may share its parent's numbers: line styles keep overlapping curves visible
    styles = ["-", "--", ":", "-.", (0, (5, 1, 1, 1))]
    for i, s in enumerate(curve.series):
        line, = ax.step(xs, [c * 100 for c in s.chance], where="post", label=_plain(s.label), linewidth=2,
                        linestyle=styles[i % len(styles)])
        line.set_gid(f"curve-{s.system}")
    ax.set_ylabel("chance to hit (%)")
    ax.set_ylim(-2, 102)
    ax.grid(True, alpha=0.3)
    ax.set_title(_plain(curve.title))
    ax.legend(loc="best", fontsize="small")
    if has_damage:
        dax = axes[1][0]
        for i, s in enumerate(curve.series):
            if any(v is not None for v in s.damage):
                line, = dax.step(xs, [v if v is not None else float("nan") for v in s.damage], where="post",
                                 label=_plain(s.label), linewidth=2, linestyle=styles[i % len(styles)])
                line.set_gid(f"damage-{s.system}")
        dax.set_ylabel("expected damage per shot (native)")
        dax.grid(True, alpha=0.3)
        dax.legend(loc="best", fontsize="small")
    bottom = axes[-1][0]
    bottom.set_xlabel(f"{curve.axis} ({curve.unit})")
    if curve.scale == "log":
        bottom.set_xscale("symlog", linthresh=min([x for x in xs if x > 0] or [1e-4]))
    if xs and xs[0] > xs[-1]:
        bottom.invert_xaxis()
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, metadata={"Date": None} if ext == "svg" else {"Software": None})
    plt.close(fig)
    write_atomic(path, buf.getvalue())


def _plain(text: str) -> str:
    """Text matplotlib shows as written: a ``$`` would start mathtext (a shot named
    ``$\\foo$`` must not fail the chart)."""
    return text.replace("$", r"\$")


def terminal_chart(curve: Curve, width: int = 60, height: int = 12) -> str:
    """A compact character chart: one letter per system, 0-100% tall."""
    marks = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    n = len(curve.x)
    cols = min(width, n)
    grid = [[" "] * cols for _ in range(height)]
    for si, s in enumerate(curve.series):
        for c in range(cols):
            i = round(c * (n - 1) / max(1, cols - 1))
            row = height - 1 - min(height - 1, int(s.chance[i] * (height - 1) + 0.5))
            cell = grid[row][c]
            grid[row][c] = marks[si % 26] if cell == " " else "*"
    lines = [f"{curve.title}"]
    for r, row in enumerate(grid):
        pct = 100 * (height - 1 - r) / (height - 1)
        lines.append(f"{pct:5.0f}% |" + "".join(row))
    lines.append("       +" + "-" * cols)
    lines.append(f"        {_fmt(curve.x[0])} {curve.unit} ... {_fmt(curve.x[-1])} {curve.unit}"
                 + (" (log)" if curve.scale == "log" else ""))
    for si, s in enumerate(curve.series):
        lines.append(f"  {marks[si % 26]} = {s.label}")
    lines.append("  * = several systems")
    return "\n".join(lines)


def table(curve: Curve, rows: int = 15) -> str:
    n = len(curve.x)
    idx = sorted({round(i * (n - 1) / max(1, rows - 1)) for i in range(min(rows, n))})
    head = f"{curve.axis + ' (' + curve.unit + ')':>24} " + " ".join(f"{s.system:>12}" for s in curve.series)
    out = [head]
    for i in idx:
        out.append(f"{_fmt(curve.x[i]):>24} " + " ".join(f"{s.chance[i] * 100:11.2f}%" for s in curve.series))
    return "\n".join(out)


def _fmt(x: float) -> str:
    return f"{x:.4g}"
