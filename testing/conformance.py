"""The conformance checks behind :func:`conformance_suite`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from hypothesis import assume, given
from hypothesis import strategies as st

from xsys.core import equating
from xsys.core.ladder import SOURCES, Ladder
from xsys.core.model import Barrier, Cover, Light, Shooter, Shot, Target, generic_weapon
from xsys.core.registry import Registry, default_registry
from xsys.core.system import System
from xsys.core.units import Illuminance, Length, Speed
from xsys.core.vocab import POSTURES, SKILLS

_NONE = object()
TIER_CLASSES = ("handgun", "rifle")


def _fires(s: System, weapon_class: str) -> bool:
    try:
        s.skill_for_weapon(weapon_class)
    except NotImplementedError:
        return False
    return True


def tier_diagnosis(s: System, key: str, cells: list, problems: list, unordered: list) -> str:
    """What failed, and which of the plugin's free constants moves it: where a system's skills
    equate is decided by its check at each level over the battery (its range, light and cover
    tables) and by ``standard_health``, the health of a standard adult in its points (the damage
    a hit does counts against it: a larger value makes each level read as weaker)."""
    lines = [f"{key}: published tiers do not hold against the other installed systems:"]
    for c in problems[:12]:
        lines.append(f"  {c.weapon_class}: {c.source} {c.source_level} (tier {c.rank}) -> {c.target} {c.level} "
                     f"(tier {c.target_rank}), {c.off_by} tiers apart")
    for k in unordered[:6]:
        lines.append(f"  {k[0]}: {k[1]} -> {k[2]}: a higher tier lands lower")
    # signed: how much stronger this system's levels read than their published tier
    lean = sum((c.target_rank - c.rank) if c.source == key else (c.rank - c.target_rank) for c in cells)
    if lean > 0:
        lines.append(f"  {key}'s levels read as stronger than its tiers say (lean {lean:+d} tiers over "
                     f"{len(cells)} conversions): raise standard_health (now {s.standard_health:g}) or make "
                     "its checks harder; or move its tiers up")
    elif lean < 0:
        lines.append(f"  {key}'s levels read as weaker than its tiers say (lean {lean:+d} tiers over "
                     f"{len(cells)} conversions): lower standard_health (now {s.standard_health:g}) or make "
                     "its checks easier; or move its tiers down")
    return "\n".join(lines)
FIREARM_CLASSES = ("handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg")
BARRIER_MATERIALS = ("soft-wood", "hard-wood", "brick", "concrete", "mild-steel", "sand")


def check_ladder(name: str, lad: Ladder) -> None:
    """A ladder carries rule IDs and sources, is ordered, and round-trips every step."""
    assert len(lad) > 0, f"{name}: empty ladder"
    ats = [s.at for s in lad.steps]
    assert all(b > a for a, b in zip(ats, ats[1:])), f"{name}: axis values not increasing"
    for s in lad.steps:
        assert s.rule and isinstance(s.rule, str), f"{name}: step {s.native!r} has no rule ID"
        assert s.source in SOURCES, f"{name}: step {s.native!r} has source {s.source!r}"
    if lad.native_order != "none":
        nat = lad.natives
        pairs = list(zip(nat, nat[1:]))
        if lad.native_order == "increasing":
            assert all(b > a for a, b in pairs), f"{name}: natives not increasing"
        else:
            assert all(b < a for a, b in pairs), f"{name}: natives not decreasing"
    for s in lad.steps:
        rep = lad.neutral(s.native)
        assert lad.native(rep) == s.native, f"{name}: native {s.native!r} -> {rep} -> {lad.native(rep)!r}"


def _materials(reg: Registry) -> list[str]:
    cat = reg.catalog()
    mats = [m for m in BARRIER_MATERIALS if m in cat.materials]
    return mats or sorted(cat.materials)[:4]


def shot_strategy(materials: list[str] | None = None) -> st.SearchStrategy[Shot]:
    """Random but physically sensible neutral shots."""
    mats = materials or []

    @st.composite
    def shots(draw) -> Shot:
        wclass = draw(st.sampled_from(FIREARM_CLASSES))
        barrier = None
        exposure = draw(st.sampled_from([1.0, 0.5, 0.2, 0.1, 0.05]) | st.floats(0.05, 1.0))
        if mats and draw(st.booleans()):
            barrier = Barrier(material=draw(st.sampled_from(mats)), thickness=Length(draw(st.floats(0.0, 0.5))))
        lux = draw(st.sampled_from([100000.0, 10000.0, 1000.0, 300.0, 10.0, 3.0, 0.25, 0.01, 0.001, 0.0001, 0.0])
                   | st.floats(0.0, 100000.0))
        return Shot(
            shooter=Shooter(
                skill=draw(st.floats(0.02, 0.98)),
                characteristics={"dexterity": draw(st.floats(0.05, 0.95))},
                posture=draw(st.sampled_from(["standing", "kneeling", "prone"])),
                speed=Speed(draw(st.sampled_from([0.0, 1.4, 2.7, 5.0]))),
            ),
            weapon=generic_weapon(wclass),
            target=Target(
                posture=draw(st.sampled_from(POSTURES)),
                speed=Speed(draw(st.floats(0.0, 8.0))),
                cover=Cover(exposure=exposure, barrier=barrier),
            ),
            distance=Length(draw(st.floats(1.0, 400.0))),
            light=Light(illuminance=Illuminance(lux)),
        )

    return shots()


def _with(shot: Shot, **changes: Any) -> Shot:
    import msgspec

    return msgspec.structs.replace(shot, **changes)


def _chance(system: System, shot: Shot) -> float:
    c = system.check(shot)
    return c.chance


def conformance_suite(key: str, settings: Any = None, registry: Registry | None = None,
                      fixtures: str | Path | None = None) -> type:
    """A pytest test class checking system `key` (with `settings`) for conformance.

    ``fixtures``: a folder of the system's NPC documents that must round-trip
    native -> neutral -> native (default: ``fixtures/<key>`` under the working directory,
    when it exists)."""

    def reg() -> Registry:
        return registry or default_registry()

    def system() -> System:
        return reg().system(key, settings)

    mats_cache: list[list[str]] = []

    def mats() -> list[str]:
        if not mats_cache:
            mats_cache.append(_materials(reg()))
        return mats_cache[0]

    shots = st.deferred(lambda: shot_strategy(mats()))

    def axis_test(make_harder: Callable[[Shot, Any], Shot | None], extra: st.SearchStrategy) -> Callable:
        def run(self, shot: Shot, delta: Any) -> None:
            harder = make_harder(shot, delta)
            assume(harder is not None)
            sysm = system()
            easy, hard = _chance(sysm, shot), _chance(sysm, harder)
            assert hard <= easy, f"{key}: harder shot has higher chance {float(hard):.4f} > {float(easy):.4f}"

        return given(shot=shots, delta=extra)(run)

    def farther(shot: Shot, d: float) -> Shot:
        return _with(shot, distance=Length(float(shot.distance) + d))

    def faster_target(shot: Shot, d: float) -> Shot:
        return _with(shot, target=_with(shot.target, speed=Speed(float(shot.target.speed) + d)))

    def faster_shooter(shot: Shot, d: float) -> Shot:
        return _with(shot, shooter=_with(shot.shooter, speed=Speed(float(shot.shooter.speed) + d)))

    def darker(shot: Shot, f: float) -> Shot:
        return _with(shot, light=Light(illuminance=Illuminance(float(shot.light.illuminance) * f)))

    def less_exposed(shot: Shot, f: float) -> Shot:
        cov = shot.target.cover
        return _with(shot, target=_with(shot.target, cover=_with(cov, exposure=cov.exposure * f)))

    def thicker(shot: Shot, d: float) -> Shot | None:
        cov = shot.target.cover
        if cov.barrier is None:
            return None
        b = _with(cov.barrier, thickness=Length(float(cov.barrier.thickness) + d))
        return _with(shot, target=_with(shot.target, cover=_with(cov, barrier=b)))

    def lower_posture(shot: Shot, steps: int) -> Shot | None:
        i = POSTURES.index(shot.target.posture)
        j = min(len(POSTURES) - 1, i + steps)
        return _with(shot, target=_with(shot.target, posture=POSTURES[j]))

    def worse_skill(shot: Shot, f: float) -> Shot:
        return _with(shot, shooter=_with(shot.shooter, skill=shot.shooter.skill * f))

    class Conformance:
        system_key = key

        def test_registered(self) -> None:
            s = system()
            assert s.key == key and s.name and s.edition and s.dice
            assert key in reg().keys()

        def test_ladders(self) -> None:
            lads = system().ladders()
            assert lads, f"{key} declares no ladders"
            for name, lad in lads.items():
                check_ladder(f"{key}.{name}", lad)

        def test_characteristics_round_trip(self) -> None:
            specs = system().characteristics()
            assert specs, f"{key} declares no characteristics"
            for name, spec in specs.items():
                check_ladder(f"{key}.characteristic.{name}", spec.ladder)
                assert spec.ladder.axis == "percentile"
                assert all(0.0 <= s.rep <= 1.0 for s in spec.ladder.steps)

        def test_skill_ladders_round_trip(self) -> None:
            """Every skill, for every neutral skill it covers: a monotone competence ladder
            whose steps read back to themselves, each step's competence the battery's true
            score of that level recomputed now (core.equating; no stale cache)."""
            s = system()
            skills = s.skills()
            assert skills, f"{key} declares no skills"
            for name, keys in skills.items():
                for k in keys:
                    ctx = {"@key": k}
                    lad = s.skill_ladder(name, ctx)
                    check_ladder(f"{key}.skill.{name}.{k}", lad)
                    levels = list(s.skill_levels(name))
                    ref = s.scale_system()  # equated on another system's checks (skill_scale_checks)
                    theirs = [n for n, ks in ref.skills().items() if k in ks] if ref is not None else []
                    if theirs:
                        native = min(theirs, key=lambda n: len(ref.skills()[n]))
                        own = list(ref.skill_levels(native))
                        scores = dict(zip(own, equating.level_scores(ref, native, equating.battery_class(k),
                                                                     ref.skill_context(native, None), k)))
                        # a level the other system lacks reads as its nearest lower one
                        fresh = [scores[max((x for x in own if x <= lv), default=own[0])] for lv in levels]
                    else:
                        fresh = equating.level_scores(s, name, equating.battery_class(k), s.skill_context(name, None), k)
                    by_level = dict(zip(levels, fresh))
                    for step in lad.steps:
                        assert math.isclose(by_level[step.native], step.at, rel_tol=1e-9, abs_tol=1e-9), (
                            f"{key}.{name} ({k}) {step.native}: ladder says {step.at}, the battery says "
                            f"{by_level[step.native]}")
                        assert s.level_for(name, s.competence(name, step.native, ctx), ctx) == step.native

        @given(a=st.floats(0.0, 1.0), b=st.floats(0.0, 1.0))
        def test_skill_conversion_monotone(self, a: float, b: float) -> None:
            """A higher competence never gives a lower native level, and a higher level never a
            lower competence (ordering preserved both ways)."""
            s = system()
            lo, hi = sorted((a, b))
            for name, keys in s.skills().items():
                for k in keys:
                    ctx = {"@key": k}
                    assert s.level_for(name, lo, ctx) <= s.level_for(name, hi, ctx)
                    levels = list(s.skill_levels(name))
                    comps = [s.competence(name, lv, ctx) for lv in levels]
                    assert comps == sorted(comps), f"{key}.{name} ({k}): competence falls somewhere along the levels"

        test_farther = axis_test(farther, st.floats(0.0, 300.0))
        test_faster_target = axis_test(faster_target, st.floats(0.0, 10.0))
        test_faster_shooter = axis_test(faster_shooter, st.floats(0.0, 7.0))
        test_darker = axis_test(darker, st.floats(0.0, 1.0))
        test_less_exposed = axis_test(less_exposed, st.floats(0.0, 1.0))
        test_thicker_barrier = axis_test(thicker, st.floats(0.0, 0.5))
        test_lower_target_posture = axis_test(lower_posture, st.integers(1, 5))
        test_less_skill = axis_test(worse_skill, st.floats(0.0, 1.0))

        @given(shot=shots)
        def test_check_provenance(self, shot: Shot) -> None:
            c = system().check(shot)
            assert 0 <= c.chance <= 1
            assert c.system == key
            for m in c.modifiers:
                assert m.rule, f"modifier without rule ID: {m}"
                assert m.source in SOURCES, f"modifier with source {m.source!r}"
                assert m.kind in ("add", "multiply", "set", "dice", "difficulty")

        def test_rule_ids(self) -> None:
            ids = system().rule_ids()
            assert ids, f"{key} cites no rule IDs"
            assert all(isinstance(i, str) and i and " " not in i for i in ids)

        def test_undeclared_characteristics_are_written_nowhere(self) -> None:
            """A neutral characteristic that neither ``characteristics()`` nor
            ``derived_characteristics()`` names has no field in the stat block: written at either
            end of its range, it reads back as nothing. (The loss audit relies on this and does not
            convert every NPC again to find out: core.audit.declared_characteristics.)"""
            from xsys.core.audit import declared_characteristics
            from xsys.core.model import Combatant
            from xsys.core.vocab import CHARACTERISTICS

            s = system()
            for k in sorted(set(CHARACTERISTICS) - declared_characteristics(s)):
                for value in (0.02, 0.5, 0.98):
                    native = s.npc_from_neutral(Combatant(name="probe", characteristics={k: value})).value
                    back = s.npc_to_neutral(native).value
                    assert k not in back.characteristics, (
                        f"{key} writes the neutral {k} ({value} reads back as {back.characteristics[k]}) but "
                        "declares no characteristic for it: name it in characteristics() or derived_characteristics()")

        def test_npc_fixtures_round_trip(self) -> None:
            from xsys.conversions import documents

            folder = Path(fixtures) if fixtures is not None else Path("fixtures") / key
            files = sorted(folder.rglob("*.yaml")) if folder.is_dir() else []
            s = system()
            checked = 0
            for f in files:
                plain = documents.read_plain(f)
                if not isinstance(plain, dict) or plain.get("kind") != "npc" or plain.get("system") != key:
                    continue
                doc = documents.load(f)
                fields = {n: getattr(doc, n) for n in s.npc_type.__struct_fields__}
                npc = s.npc_type(**fields)
                back = s.npc_from_neutral(s.npc_to_neutral(npc).value).value
                assert back == npc, f"{f}: native -> neutral -> native changed the stat block"
                checked += 1
            if folder.is_dir():
                assert checked, f"no {key} NPC fixtures found in {folder}"

        def test_published_tiers_hold_against_every_installed_system(self) -> None:
            """The published competence tiers make a conversion believable: each tier shooter of
            this system (pistol and rifle) lands in every other installed system's same tier or
            the next, in order, and theirs land in this system's the same way."""
            s = system()
            if not any(s.tiers(s.skill_for_weapon(c)) for c in TIER_CLASSES if _fires(s, c)):
                return  # this system publishes no tiers: nothing to hold it to

            def skill_for(sys_: System, weapon_class: str) -> str | None:
                return sys_.skill_for_weapon(weapon_class) if _fires(sys_, weapon_class) else None

            systems = {k: s if k == key else reg().system(k) for k in reg().keys()}
            cells = [c for c in equating.tier_cells(systems, TIER_CLASSES, skill_for)
                     if key in (c.source, c.target)]
            problems = [c for c in cells if c.off_by > 1]
            by: dict[tuple[str, str, str], list[tuple[int, Any]]] = {}
            for c in cells:
                by.setdefault((c.weapon_class, c.source, c.target), []).append((c.rank, c.level))
            unordered = [k for k, rows in by.items()
                         if any(a > b for a, b in zip([lv for _, lv in sorted(rows)], [lv for _, lv in sorted(rows)][1:]))]
            assert not problems and not unordered, tier_diagnosis(s, key, cells, problems, unordered)

        def test_remembering_changes_nothing(self) -> None:
            """The core remembers a system's answers (System.remember, core.memo) and which fields
            it writes (the loss audit): each fixture converts to every installed system to the same
            bytes with the memos and without them. A plugin that fails this sets remember = False."""
            from xsys.conversions import api, documents
            from xsys.core import audit as loss_audit

            if not system().remember:
                return
            folder = Path(fixtures) if fixtures is not None else Path("fixtures") / key
            files = sorted(folder.rglob("*.yaml"))[:6] if folder.is_dir() else []
            targets = [k for k in reg().keys() if k != key][:6]
            cls = type(system())
            for f in files:
                plain = documents.read_plain(f)
                if not isinstance(plain, dict) or plain.get("system") != key:
                    continue
                for to in targets:
                    with_memo = documents.dumps(api.convert(plain, to, registry=reg()).document, "yaml")
                    saved, loss_audit.WRITTEN_MEMO = loss_audit.WRITTEN_MEMO, False
                    own = cls.__dict__.get("remember", _NONE)
                    cls.remember = False
                    try:
                        without = documents.dumps(api.convert(plain, to, registry=reg()).document, "yaml")
                    finally:
                        loss_audit.WRITTEN_MEMO = saved
                        if own is _NONE:
                            del cls.remember
                        else:
                            cls.remember = own
                    assert with_memo == without, f"{f} -> {to}: remembered answers change the output"

        def test_an_npc_converts_whatever_its_name(self) -> None:
            """A stat block converts by what it states, not by what the NPC is called: each NPC
            fixture converts to every installed system the same under another name (but for the
            name). A streamed roster converts a stat block it has seen before, under another name,
            from the earlier NPC's conversion (conversions/stream.py). A plugin whose conversion
            depends on the name sets remember = False."""
            from xsys.conversions import api, documents
            from xsys.core import codec
            from xsys.core.sheet import name_field

            if not system().remember:
                return
            folder = Path(fixtures) if fixtures is not None else Path("fixtures") / key
            files = sorted(folder.rglob("*.yaml")) if folder.is_dir() else []
            targets = [k for k in reg().keys() if k != key][:6] + ["neutral"]
            other = "Quillon Varrow-Teshmark"
            for f in files:
                plain = documents.read_plain(f)
                field = name_field(system())
                if not isinstance(plain, dict) or plain.get("kind") != "npc" or plain.get("system") != key \
                        or not isinstance(plain.get(field), str):
                    continue
                # from this system to the others, and into it from the neutral model
                neutral = codec.to_builtins(api.convert(plain, "neutral", registry=reg(), trace=False).document)
                for src, at, to in [(plain, field, to) for to in targets] + [(neutral, "name", key)]:
                    if src[at] in str({**src, at: None}):
                        continue  # the name is stated again (a native block): as a streamed roster, not compared
                    a = api.convert(src, to, registry=reg(), trace=False)
                    b = api.convert({**src, at: other}, to, registry=reg(), trace=False)
                    said = [codec.to_builtins(x) for x in a.losses]
                    if src[at] and src[at] in str(said):
                        continue  # the name is in a loss: a streamed roster converts such an NPC every time
                    out = name_field(None if to == "neutral" else reg().system(to))
                    da, db = codec.to_builtins(a.document), codec.to_builtins(b.document)
                    assert db.get(out) == other, f"{f} -> {to}: the NPC's name is not written as it is"
                    if src[at] in str({**da, out: None}):
                        continue  # the name is written again (a native block kept for the way back): as above
                    assert {**da, out: None} == {**db, out: None} and said == [
                        codec.to_builtins(x) for x in b.losses], (
                        f"{f} -> {to}: the conversion depends on the NPC's name (set remember = False)")

    Conformance.__name__ = f"TestConformance_{key.replace('-', '_')}"
    Conformance.__qualname__ = Conformance.__name__
    return Conformance
