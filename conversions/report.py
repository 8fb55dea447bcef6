"""Plain-text reports for the terminal (stable, no colour codes, so they read the same
in a pipe, a file or CI)."""

from __future__ import annotations

from typing import Any


def odds_text(all_results: list[tuple[str, Any, list[Any]]]) -> str:
    out: list[str] = []
    for name, shot, results in all_results:
        out.append(f"== {name}: {shot.weapon.name}, {shot.distance}, {shot.light.illuminance}, "
                   f"exposure {shot.target.cover.exposure:g}, skill {shot.shooter.skill:.2f}")
        width = max((len(r.system) for r in results), default=10)
        for r in results:
            c = r.check
            dmg = f"  mean damage {c.damage_mean:.2f}" if c.damage_mean is not None else ""
            out.append(f"  {r.system:<{width}}  {float(c.chance) * 100:6.2f}%  ({c.chance.numerator}/"
                       f"{c.chance.denominator})  {c.native or c.needs}{dmg}")
            for m in c.modifiers:
                out.append(f"  {'':<{width}}    {m.render()}")
        out.append("")
    return "\n".join(out)
