"""What ``xsys rules`` tells of a rule, asked of every installed system alike: its formulas
(``System.formulas()``), what its own data says (``System.rule_notes()``, the ladders' steps)
and, for IDs nothing else describes, the plugin README's rule tables (conversions/rules_cmd.py
prints them)."""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from xsys.core.formulas import Formula



# ---- each system's formulas -----------------------------------------------------------------

# system instance -> {rule ID: its formula}; the first a system states for a rule ID counts
_BY_SYSTEM: "weakref.WeakKeyDictionary[Any, dict[str, Formula]]" = weakref.WeakKeyDictionary()


def _formulas(system: Any) -> dict[str, Formula]:
    """{rule ID: formula} of a system instance, asked once (``System.formulas()``)."""
    try:
        return _BY_SYSTEM[system]
    except (KeyError, TypeError):
        pass
    out: dict[str, Formula] = {}
    for f in system.formulas() or ():
        out.setdefault(f.rule, f)
    try:
        _BY_SYSTEM[system] = out
    except TypeError:  # an instance that cannot be weakly referenced: asked each time
        pass
    return out


def formula_for(system_key: str, rule: str) -> Formula | None:
    return _formulas(_registry().system(system_key)).get(rule)


def formula_ids(system_key: str) -> list[str]:
    return sorted(_formulas(_registry().system(system_key)))


@dataclass(frozen=True)
class Offered:
    """One formula and the installed systems that state it (an entry of :data:`FORMULAS`)."""

    formula: Formula
    systems: tuple[str, ...]

    @property
    def rule(self) -> str:
        return self.formula.rule


def _offered() -> dict[str, list[Offered]]:
    by_formula: dict[int, tuple[Formula, list[str]]] = {}
    reg = _registry()
    for k in reg.keys():
        try:
            fs = _formulas(reg.system(k)).values()
        except Exception:  # a third-party system that cannot state its formulas: listed without
            continue
        for f in fs:
            by_formula.setdefault(id(f), (f, []))[1].append(k)
    out: dict[str, list[Offered]] = {}
    for f, keys in by_formula.values():
        out.setdefault(f.rule, []).append(Offered(f, tuple(keys)))
    return out


def __getattr__(name: str) -> Any:
    """``FORMULAS`` (rule ID -> the formulas of it, each with the systems that state it) and
    ``COVERS`` (formula ID -> the rule IDs it evaluates together), of the installed systems."""
    if name == "FORMULAS":
        return _offered()
    if name == "COVERS":
        return {rule: o.formula.covers for rule, offered in _offered().items() for o in offered if o.formula.covers}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- what the plugins say about each rule -------------------------------------------------

@dataclass
class RuleInfo:
    id: str
    title: str = ""
    text: str = ""
    sources: set[str] = field(default_factory=set)
    tables: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add_table(self, name: str) -> None:
        if name not in self.tables:
            self.tables.append(name)

    @property
    def source(self) -> str:
        if not self.sources:
            return ""
        if len(self.sources) == 1:
            return next(iter(self.sources))
        return "/".join(sorted(self.sources, key=lambda s: (s != "seed", s)))


_README_ID = re.compile(r"^`([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)`")
_README_BULLET = re.compile(r"`([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)`\s*[—–]\s*([^;`]+(?:`[^`]*`[^;`]*)*)")


def _readme_rules(system: Any) -> dict[str, tuple[str, str]]:
    """{rule ID: (text, source or '')} from the system's package README.md."""
    from importlib import resources

    pkg = type(system).__module__.rpartition(".")[0]
    try:
        text = resources.files(pkg).joinpath("README.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError, TypeError, ValueError):
        return {}
    lines: list[str] = []
    for line in text.splitlines():  # a bullet's continuation lines are part of it
        if lines and line.startswith("  ") and line.strip() and lines[-1].lstrip().startswith("- "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    out: dict[str, tuple[str, str]] = {}
    mode = ""
    for line in lines:
        low = line.lower()
        if not line.startswith("|") and not line.lstrip().startswith("- "):
            # the heading or paragraph before a rule table says where its rules come from
            if any(k in low for k in ("from the digest", "from the text", "from the seed", 'source = "seed"',
                                      "(`seed`)")):
                mode = "seed"
            elif any(k in low for k in ("`assumed`", 'source = "assumed"', "assumed rules", "our own choices")):
                mode = "assumed"
            elif line.startswith("#"):
                mode = ""
            continue
        found: list[tuple[str, str]] = []
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            m = _README_ID.match(cells[0]) if cells else None
            if m and len(cells) > 1:
                desc = cells[1]
                if len(cells) > 2 and (desc.startswith("`") or desc.startswith("ladder ")) and len(desc) < 60:
                    desc = cells[2]  # a "where" column (`Gurps._evaluate`): the next one says what
                found.append((m.group(1), desc))
        else:
            for bm in _README_BULLET.finditer(line):
                found.append((bm.group(1), bm.group(2)))
        for rid, desc in found:
            desc = desc.strip().rstrip(";").strip()
            if rid not in out and desc:
                out[rid] = (desc, mode)
    return out


def _short(text: str) -> str:
    """A description's first sentence, whole: the listing wraps a long title, it never cuts one."""
    text = re.sub(r"\s+", " ", text.replace("**", "")).strip()
    return re.split(r"(?<=[a-z0-9)%][.])\s", text, maxsplit=1)[0].rstrip(".;")


def rule_infos(system: Any) -> dict[str, RuleInfo]:
    """Everything the installed plugin carries about each of its rule IDs."""
    ids = set(system.rule_ids())
    infos: dict[str, RuleInfo] = {}

    def info(rid: str) -> RuleInfo:
        if rid not in infos:
            infos[rid] = RuleInfo(rid)
        return infos[rid]

    # what the plugin's own data says (a rule register, a table of rows): System.rule_notes()
    for rid, note in (system.rule_notes() or {}).items():
        i = info(rid)
        i.title = i.title or note.title
        i.text = i.text or note.text
        if note.source:
            i.sources.add(note.source)
        for t in note.tables:
            i.add_table(t)
        i.rows.extend(dict(r) for r in note.rows)
    # ladders: every step names its rule and source
    try:
        ladders = system.ladders()
    except Exception:
        ladders = {}
    for name, lad in ladders.items():
        for st in lad.steps:
            if not st.rule:
                continue
            i = info(st.rule)
            i.sources.add(st.source)
            i.add_table(f"ladder {name}")
            row = st.as_dict()
            row["ladder"] = name
            row["axis"] = lad.axis
            row["rounding"] = lad.rounding  # which row a value between two rows takes
            i.rows.append(row)
    # README rule tables, for what nothing else describes
    for rid, (desc, mode) in _readme_rules(system).items():
        if rid not in ids and rid not in infos:
            continue
        i = info(rid)
        if not i.text:
            i.text = desc
        if mode and not i.sources:
            i.sources.add(mode)
        if not i.tables:
            i.add_table("README.md")
    for rid in ids:
        info(rid)
    for rid, f in sorted(_formulas(system).items()):
        i = info(rid)
        if not i.text:
            i.text = f.summary
        covered = [infos[c] for c in f.covers if c in infos]
        if covered and not i.sources:
            i.text += " (evaluates " + ", ".join(c.id for c in covered) + ")"
            for c in covered:
                i.sources |= c.sources
                for t in c.tables:
                    i.add_table(t)
    for i in infos.values():
        if not i.title and i.text:
            i.title = _short(i.text)
        elif not i.title and i.rows:  # a ladder nothing describes: its rows in brief
            labels = [str(r.get("label") or r.get("native")) for r in i.rows[:6]]
            i.title = _short(f"{i.tables[0]}: " + ", ".join(labels))
    return {rid: infos[rid] for rid in sorted(infos)}


def _registry():
    from xsys.core.registry import default_registry

    return default_registry()
