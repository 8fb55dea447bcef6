"""The loss audit: every item a conversion writes is read back through its target system and
compared with the neutral item it was made from, so a loss a plugin forgets to report is
reported all the same (see the comment below).

It is the core's own consistency check: it imports no plugin and no conversion module; a
conversion hands it the source document, the systems and the losses, and it calls the
plugins only through the System interface (:mod:`xsys.core.guard`)."""

from __future__ import annotations

import hashlib
import math
import os
import re
import types
import weakref
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Iterable, Literal, Mapping, Sequence, Union, get_args, get_origin

import msgspec

from . import carried, codec, units
from .errors import XsysError
from .guard import guard, native_fields
from .ladder import population_top
from .model import Combatant, SheetSkill, Shot
from .registry import PLUGIN_FAULTS
from .sheet import line_name_field
from .shotsheet import shot_rule
from .system import System, on_scale
from .trace import Loss, and_list, path_text, path_tokens, tracing
from .units import _Quantity
from .vocab import KIND_OF, SKILLS as NEUTRAL_SKILLS

NEUTRAL = "neutral"  # the neutral model's key, which no system has (core.registry.RESERVED_KEYS)


# ---- the loss audit ---------------------------------------------------------------
#
# A plugin reports what its system cannot write, but a report it forgets must not let
# a loss through --strict. So every item a conversion writes (an NPC, a shot) is read
# back into the neutral model with the target system's own npc_to_neutral /
# shot_to_neutral and compared, field by field, with the neutral item it was made from.
# A field that was stated (not a default) and did not come back is a loss, unless the
# report already holds it:
#
# - it came back empty, as its default or not at all: ``unsupported-field``, unless the
#   system does write the field for other values (tried with one far-off value, or each
#   other choice of a closed set): then ``rounded`` (numbers) or ``merged`` (choices);
# - an item of a list (armor, weapons) that did not come back: ``dropped-item``;
# - a number that came back different: ``rounded`` (info: the system's step is coarser);
# - a choice or flag that came back different: ``merged``; free text: ``unsupported-field``.
#
# Loss paths point into the source document: a neutral source has the field itself; a
# system document is searched for the same path (keys compared without case, and
# ``target_armor`` read as ``target.armor`` or the reverse), else the nearest existing
# parent, with the neutral field named in the message.

MISSING: Any = msgspec.UNSET  # a sentinel that is never a document value
_SEVERITY = {"assumed": 0, "rounded": 0, "kept-verbatim": 0, "derived": 0, "unsupported-field": 1, "merged": 1, "clamped": 1,
             "dropped-item": 1}
# a field of a weapon or armor line of an NPC ("$.npcs[0].weapons[1].muzzle_energy")
_LINE_FIELD = re.compile(r"(^|\.)(weapons|armor)\[\d+\]\.\w+$")
_EDGE = 1e-6  # the outer millionth of a population: values beyond what ordinary adults roll
_ITEM = re.compile(r"^\$(\.npcs\[\d+\]|\.scenes\[\d+\]\.(combatants|shots)\[\d+\])")
_NATURAL_LINE = re.compile(r"\.melee\[\d+\]\.natural$")


class _Field:
    __slots__ = ("default", "omitted", "type", "choices", "bounds")

    def __init__(self, default: Any, type_: Any) -> None:
        self.default = default
        self.omitted = False
        self.type = type_
        self.choices: tuple[Any, ...] = ()
        self.bounds: tuple[float | None, float | None] = (None, None)
        t = type_
        while True:  # unwrap Annotated[...] and Optional[...]
            origin = get_origin(t)
            if origin is Annotated:
                args = get_args(t)
                for meta in args[1:]:
                    if isinstance(meta, msgspec.Meta):
                        lo = meta.ge if meta.ge is not None else meta.gt
                        hi = meta.le if meta.le is not None else meta.lt
                        self.bounds = (lo, hi)
                t = args[0]
            elif origin in (Union, types.UnionType):
                rest = [a for a in get_args(t) if a is not type(None)]
                if len(rest) != 1:
                    break
                t = rest[0]
            else:
                break
        if get_origin(t) is Literal:
            self.choices = get_args(t)


_FIELDS: dict[type, dict[str, _Field]] = {}


def _struct_fields(cls: type) -> dict[str, _Field]:
    out = _FIELDS.get(cls)
    if out is None:
        out = {}
        for f in msgspec.structs.fields(cls):
            info = _Field(MISSING, f.type)
            if f.default is not msgspec.NODEFAULT:
                info.default = f.default
                info.omitted = True  # a default value is not written: it states nothing
            elif f.default_factory is not msgspec.NODEFAULT:
                info.default = f.default_factory()  # written unless empty (["torso"] is stated)
            out[f.name] = info
        _FIELDS[cls] = out
    return out


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, Fraction)) and not isinstance(x, bool)


def _same(a: Any, b: Any) -> bool:
    if _is_number(a) and _is_number(b):
        return a == b or math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _empty(x: Any) -> bool:
    return x is MISSING or x is None or (isinstance(x, (str, list, dict)) and not x)


def show(x: Any) -> str:
    """A value as a loss message names it: a quantity with its unit, a float to six digits, an
    item by its kind and name, a list joined."""
    if isinstance(x, _Quantity):
        return units.to_text(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, msgspec.Struct):
        name = getattr(x, "name", "") or getattr(x, "material", "")
        return f"{type(x).__name__.lower()} {name!r}" if name else type(x).__name__.lower()
    if isinstance(x, list):
        return ", ".join(show(v) for v in x) or "none"
    if isinstance(x, str):
        return repr(x)
    return str(x)


class _Diff:
    __slots__ = ("path", "src", "back", "field")

    def __init__(self, path: str, src: Any, back: Any, field: _Field | None) -> None:
        self.path, self.src, self.back, self.field = path, src, back, field


def _differences(src: Any, back: Any, path: str, field: _Field | None, out: list[_Diff]) -> None:
    """Every stated leaf of `src` that `back` does not hold, as a _Diff (paths from "$")."""
    if type(src) is type(back) and (src is back or src == back):
        return
    if isinstance(src, msgspec.Struct):
        if type(back) is not type(src):
            out.append(_Diff(path, src, back, field))
            return
        for name, f in _struct_fields(type(src)).items():
            value = getattr(src, name)
            if (f.omitted and _same(value, f.default)) or (name in ("native", "carried", "sheet_skills", "beyond")
                                                           and type(src) is Combatant):
                # a default states nothing; native blocks are compared by LossAudit, carried ones by
                # the conversion as it writes the carried: block; the sheet's skill names are what
                # the source states, not the target; a creature's multiple beyond the table is said by
                # the core as it writes it, bound by bound (core.sheet._beyond_written)
                continue
            _differences(value, getattr(back, name), f"{path}.{name}", f, out)
        return
    if isinstance(src, dict):
        theirs = back if isinstance(back, dict) else {}
        for k, v in src.items():
            _differences(v, theirs.get(k, MISSING), f"{path}.{k}", None, out)
        return
    if isinstance(src, list) and any(isinstance(v, (msgspec.Struct, dict, list)) for v in src):
        theirs = back if isinstance(back, list) else []
        for i, v in enumerate(src):
            _differences(v, theirs[i] if i < len(theirs) else MISSING, f"{path}[{i}]", None, out)
        return
    if isinstance(src, list) and isinstance(back, list):
        if all(any(_same(x, y) for y in back) for x in src):
            return  # every stated element is there (order and additions are no loss)
    elif _same(src, back):
        return
    out.append(_Diff(path, src, back, field))


@lru_cache(maxsize=8192)
def _norm(key: Any) -> str:
    return str(key).lower().replace("-", "_").replace(" ", "_")


def _resolve(plain: Any, path: str, keymaps: dict[int, dict[str, Any]] | None = None,
             tokens: Sequence[str | int] | None = None) -> tuple[str, bool]:
    """The path in the source document that `path` names: (path, exact). Keys match
    without case or separators; ``a_b`` may be ``a.b`` and the reverse; what does not
    exist is cut back to the nearest existing parent (exact is then False). `tokens`: the
    path's tokens where the caller has them (it built the path from them)."""
    if tokens is None:
        tokens = path_tokens(path)
    if tokens is None:
        return "$", False
    node = plain
    for t in tokens:  # most paths are the source's own
        if isinstance(t, int) and isinstance(node, list) and 0 <= t < len(node):
            node = node[t]
        elif isinstance(t, str) and isinstance(node, dict) and t in node:
            node = node[t]
        else:
            break
    else:
        return path, True
    maps = keymaps if keymaps is not None else {}

    def keys_of(d: dict[Any, Any]) -> dict[str, Any]:
        km = maps.get(id(d))
        if km is None:  # dicts with the same keys (the NPCs of a roster) share one map
            sig = tuple(d)
            km = maps.get(sig)  # type: ignore[call-overload]
            if km is None:
                km = maps[sig] = {_norm(k): k for k in sig}  # type: ignore[index]
                maps[("memo", id(km))] = {}  # type: ignore[index]  # look-ups in this map
            maps[id(d)] = km
        return km

    node, done, i = plain, [], 0
    while i < len(tokens):
        t = tokens[i]
        if isinstance(t, int):
            if isinstance(node, list) and 0 <= t < len(node):
                node, i = node[t], i + 1
                done.append(t)
                continue
            break
        if not isinstance(node, dict):
            break
        keys = keys_of(node)
        # the key itself, or this key and the next ones joined (target.armor -> target_armor)
        ahead = tokens[i:i + 3]
        memo = maps[("memo", id(keys))]  # type: ignore[index]
        hit = memo.get(ahead, False)  # type: ignore[union-attr]
        if hit is False:
            hit = None
            for n in range(len(ahead), 0, -1):
                part = ahead[:n]
                if all(isinstance(p, str) for p in part):
                    k = keys.get("_".join(_norm(p) for p in part))
                    if k is not None:
                        hit = (k, n)
                        break
            memo[ahead] = hit  # type: ignore[index]
        if hit is not None:
            node, i = node[hit[0]], i + hit[1]
            done.append(hit[0])
            continue
        # or this key split in two (target_armor -> target.armor)
        pieces = t.split("_")
        if len(pieces) > 1:
            sub, walked = node, []
            for piece in pieces:
                k = keys_of(sub).get(_norm(piece)) if isinstance(sub, dict) else None
                if k is None:
                    walked = []
                    break
                sub = sub[k]
                walked.append(k)
            if walked:
                node, i = sub, i + 1
                done.extend(walked)
                continue
        break
    return path_text(done), i == len(tokens)


def _as_tokens(tokens: Sequence[str | int]) -> tuple[str | int, ...] | None:
    """`tokens` as :func:`path_tokens` reads their path (path_text) back, without writing and
    reading it: None (read it) where a name holds what a path reads apart ("Sp. Ops", "[1]")."""
    for t in tokens:
        if isinstance(t, str) and (not t or "." in t or "[" in t or "]" in t):
            return None
    return tuple(tokens)


def _within(path: str, prefix: str) -> str:
    """`path` inside the item at `prefix`, as a path of its own (``$.npcs[2].skills.spot`` in
    ``$.npcs[2]``: ``$.skills.spot``)."""
    if prefix != "$" and (path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")):
        return "$" + path[len(prefix):]
    return path


def _get(obj: Any, tokens: list[str | int]) -> Any:
    for t in tokens:
        if isinstance(t, int):
            obj = obj[t] if isinstance(obj, list) and t < len(obj) else MISSING
        elif isinstance(obj, msgspec.Struct):
            obj = getattr(obj, t, MISSING)
        elif isinstance(obj, dict):
            obj = obj.get(t, MISSING)
        else:
            return MISSING
        if obj is MISSING:
            return obj
    return obj


def _put(obj: Any, tokens: list[str | int], value: Any) -> Any:
    if not tokens:
        return value
    t, rest = tokens[0], tokens[1:]
    if isinstance(obj, msgspec.Struct) and isinstance(t, str):
        return msgspec.structs.replace(obj, **{t: _put(getattr(obj, t), rest, value)})
    if isinstance(obj, list) and isinstance(t, int):
        new = list(obj)
        new[t] = _put(obj[t], rest, value)
        return new
    if isinstance(obj, dict):
        new_d = dict(obj)
        new_d[t] = _put(obj[t], rest, value)
        return new_d
    raise KeyError(t)


def _far_values(d: _Diff) -> list[Any]:
    """Values to try when a field came back as its default: does the system write the
    field at all? (a number far from the default, or each other choice)."""
    f = d.field
    if f is None:
        tokens = path_tokens(d.path) or ()
        if len(tokens) >= 2 and tokens[-2] in ("skills", "characteristics") and _is_number(d.src):
            return [0.95, 0.05]  # a competence or percentile: does the system write this one at all?
        return []
    if f.choices:
        return [c for c in f.choices if c != f.default and c != d.src]
    if _is_number(d.src) and _is_number(f.default):
        lo, hi = f.bounds
        if lo is not None and hi is not None:
            far = lo if float(f.default) >= (lo + hi) / 2 else hi
        else:
            far = float(d.src) * 4 + (1 if float(d.src) >= 0 else -1)
            if hi is not None:
                far = min(far, hi)
        values = [far]
        floor = lo if lo is not None else 0.0
        if hi is None and 0 <= floor < float(d.src) < float(f.default):
            # (and the floor, for a value below a default at the top of an open scale: 2 lx under a
            # daylight default, where four times it, 9 lx, is the same band of a light ladder)
            values.append(floor)
        out = [type(d.src)(v) if isinstance(d.src, (_Quantity, int)) else v for v in values]
        return [v for v in out if not _same(v, f.default)]
    return []


# Whether a system writes a field at all (LossAudit._written_at_all) takes up to two trips
# through it per field that an item reads back without, and a roster asks it for the same
# fields of every NPC. A system's answer is remembered for the process (unless it sets
# System.remember = False), keyed by
# all it can depend on: the system object (its settings), what is written, the field's path,
# the values tried and the field's default (each with its type), and the item's shape: its
# fractional numbers (a field, or a mapping of them: characteristics, skills) by their type
# alone, its own name and notes left out, of its native blocks (and what is carried) those
# the system reads -- its own and its parent's (coc-zh reads coc's) -- and everything else
# (weapons, armor, text, whole numbers, flags) exactly. The assumption: a system
# writes a field or not whatever the fractional values of the item's characteristics,
# skills and other number fields, its name and other systems' blocks. (The shape is kept as
# a 16-byte digest, and so is each key.)
# tests/test_written_memo.py converts every fixture and generated rosters to every system,
# whole and streamed, with the memo on and off and compares the bytes; the conformance kit
# does the same for any plugin's fixtures (xsys.testing).

WRITTEN_MEMO = True  # off: asked every time (tests compare the two)
_WRITTEN_LIMIT = 20_000  # entries per system (at most about 6 MB): memory stays flat however long the run
_written_memo: "weakref.WeakKeyDictionary[System, dict[bytes, bool]]" = weakref.WeakKeyDictionary()
_FREE_TEXT = frozenset(("name", "note", "notes"))
# the source fields that state each neutral path of an item (LossAudit._probe_map), per system
# and item (the item exactly)
_PROBED_LIMIT = 1024
_probed_memo: "weakref.WeakKeyDictionary[System, dict[bytes, tuple[dict[str, str], dict[str, list[str]]]]]" = \
    weakref.WeakKeyDictionary()


def _key_hook(x: Any) -> Any:
    # in a key: a quantity or Fraction as its type and exact value, apart from any plain value
    # (plain numbers keep their type: 1, 1.0 and True are apart, and -0.0 is not 0.0)
    if isinstance(x, float):
        return msgspec.msgpack.Ext(1, f"{type(x).__qualname__}:{float.hex(x)}".encode())
    if isinstance(x, Fraction):
        return msgspec.msgpack.Ext(2, f"{x.numerator}/{x.denominator}".encode())
    if x is MISSING:
        return msgspec.msgpack.Ext(3, b"")
    raise TypeError(f"not a key: {type(x).__name__}")


_KEY_ENCODER = msgspec.msgpack.Encoder(enc_hook=_key_hook)


def declared_characteristics(system: System) -> frozenset[str]:
    """The neutral characteristics a system's stat block has a field for: its characteristics'
    and its derived ones (GURPS Will, Per). Any other is written nowhere, whatever the NPC: the
    audit says so without converting the NPC again to find out."""
    found = _declared.get(system)
    if found is None:
        found = _declared[system] = frozenset(
            [spec.neutral for spec in system.characteristics().values()] + list(system.derived_characteristics()))
    return found


_declared: "weakref.WeakKeyDictionary[System, frozenset[str]]" = weakref.WeakKeyDictionary()


def _shape(item: msgspec.Struct, blocks: tuple[str, ...]) -> bytes:
    """The item as the memo sees it: its fractional numbers (a field, or the values of a
    mapping of them: characteristics, skills) by their type alone, its name and notes left
    out, of its native blocks (and what systems carry) those of the systems in `blocks`,
    everything else exactly; as a digest of all that (16 bytes a key, however big the item)."""
    out: list[Any] = [type(item).__module__, type(item).__qualname__]
    encode = _KEY_ENCODER.encode
    for name in item.__struct_fields__:
        if name in _FREE_TEXT:
            continue
        value = getattr(item, name)
        if name in ("native", "carried") and isinstance(value, dict):
            out.append(["N", name, encode([[k, value[k]] for k in blocks if k in value])])
        elif isinstance(value, float):
            out.append(["F", name, type(value).__qualname__])
        elif isinstance(value, dict) and all(type(v) is float for v in value.values()):
            out.append(["K", name, list(value)])
        else:
            out.append(["V", name, encode(value)])
    return hashlib.blake2b(encode(out), digest_size=16).digest()


def _said_as_competence(loss: Loss, d: "_Diff", tokens: tuple[Any, ...]) -> Loss:
    """A skill's read-back that no stated skill of the source names (a brawl a CoC sheet gave
    from its Kick): said as the neutral skill's competence, not as a dotted path and six digits."""
    if loss.kind != "rounded" or len(tokens) != 2 or tokens[0] != "skills" or not isinstance(tokens[1], str) \
            or not (_is_number(d.src) and _is_number(d.back)) or " from " not in loss.message \
            or not loss.message.startswith(f"skills.{tokens[1]} "):
        return loss
    return Loss.of(loss.kind, loss.path, f"the neutral {tokens[1]} (competence {float(d.src):.3f}) reads back as "
                   f"{float(d.back):.3f} from {loss.message.rsplit(' from ', 1)[-1]}", loss.rule, system=loss.system)


_NAMES: "weakref.WeakKeyDictionary[System, tuple[dict[str, dict[str, list[str]]], dict[str, list[str]]]]" = \
    weakref.WeakKeyDictionary()


def _names_of(system: System | None) -> tuple[dict[str, dict[str, list[str]]], dict[str, list[str]]]:
    """The source system's own names for neutral characteristics and skills, so that a path
    like ``$.characteristics.size`` is found as ``$.SIZ`` in a coc document, and the fields
    outside its skills that state a neutral skill (GURPS Dodge): once per system instance
    that remembers its answers (a streamed roster audits every NPC as a document of its own)."""
    known = _NAMES.get(system) if system is not None else None
    if known is not None:
        return known
    aliases: dict[str, dict[str, list[str]]] = {"characteristics": {}, "skills": {}}
    fields: dict[str, list[str]] = {}
    if system is not None:
        try:
            for native, spec in system.characteristics().items():
                aliases["characteristics"].setdefault(spec.neutral, []).append(native)
            for native, keys in system.skills().items():
                for k in keys:
                    aliases["skills"].setdefault(k, []).append(native)
            for neutral, field in system.derived_characteristics().items():
                aliases["characteristics"].setdefault(neutral, []).append(field)
            for neutral, field in system.derived_skills().items():
                fields.setdefault(neutral, []).append(field)
        except PLUGIN_FAULTS:
            return aliases, fields  # as far as it answered, asked again next time
        if getattr(system, "remember", True):
            _NAMES[system] = (aliases, fields)
    return aliases, fields


class LossAudit:
    """Checks a conversion's loss report against what each written item reads back as
    (see the comment above). A conversion (xsys.conversions.api.convert, the streamed one)
    makes one per document."""

    def __init__(self, source: Any, source_system: str, key: str, system: System | None = None) -> None:
        self.plain = codec.to_builtins(source)
        if source_system != NEUTRAL:  # a stat block's default values are values it has (nWoD Intelligence 2)
            _fill_defaults(source, self.plain)
        self.source_system = source_system
        self.key = key
        self.source = source
        self._system = system
        self.last_read: tuple[Any, Any] | None = None  # (the last audited item, what it read back as)
        self._items: dict[str, str] = {}  # item path -> "npc" / "shot" (the items audited so far)
        self._neutral_items: dict[str, Any] = {}  # item path -> the neutral item audited there
        self._probed: dict[str, dict[str, str]] = {}  # item path -> neutral path -> its native field
        self._ties: dict[str, dict[str, list[str]]] = {}  # item path -> neutral path -> fields stating it alike
        self._exists: dict[str, tuple[str, bool]] = {}
        self._keymaps: dict[int, dict[str, Any]] = {}
        self._mine: dict[str, list[int]] = {}  # item path -> indices of its losses from reading the source
        # the source system's own names for neutral characteristics and skills, so that a
        # path like $.characteristics.size is found as $.SIZ in a coc document
        self._aliases, self._fields = _names_of(system)  # read only
        self._shaped: tuple[Any, System, bytes] | None = None  # the item last shaped for the memo, for whom, its shape
        self._target: System | None = None  # the system of the item being audited (check)

    @property
    def source_sys(self) -> System | None:
        """The source document's system (None: a neutral source)."""
        return self._system

    def source_losses(self, prefix: str) -> list[int]:
        """Indices (in the conversion's loss list) of the losses of reading the source item at
        `prefix` (noted by :meth:`begin`)."""
        return self._mine.get(prefix, [])

    def in_source(self, path: str) -> bool:
        """Whether the source document as written has `path`: its structure alone (keys
        compared without case or separators), not the audit's search for a field under
        another name."""
        return _resolve(self.plain, path, self._keymaps)[1]

    def begin(self, losses: list[Loss]) -> None:
        """Note the losses of reading the source (before any item is written)."""
        for i, loss in enumerate(losses):
            m = _ITEM.match(loss.path)
            self._mine.setdefault(m.group(0) if m else "$", []).append(i)

    def resolve(self, path: str) -> tuple[str, bool]:
        hit = self._exists.get(path)
        if hit is None:
            hit = _resolve(self.plain, path, self._keymaps)
            if not hit[1]:
                hit = self._by_native_name(path) or self._by_probe(path) or hit
            self._exists[path] = hit
        return hit

    def _by_probe(self, path: str) -> tuple[str, bool] | None:
        """A neutral path inside an audited item (``$.scenes[0].shots[2].shooter.aim_time``) as
        the source's own field that states it (``$.scenes[0].shots[2].aim_turns``), found by
        asking the source's plugin which neutral values change when that field is left out."""
        # the nearest enclosing audited item: its path is one of this path's ancestors (a walk
        # up the path, not a scan of every item audited so far: a roster's items are many)
        best = None
        end = len(path)
        while best is None:
            end = max(path.rfind(".", 0, end), path.rfind("[", 0, end))
            if end <= 0:
                return None
            what = self._items.get(path[:end])
            if what is not None:
                best = (path[:end], what)
        prefix, what = best
        rel = "$" + path[len(prefix):]
        if rel.startswith(("$.skills", "$.characteristics")):
            return None  # found by their names (_by_native_name, _locate): a trait moves every skill
        head = path_tokens(rel)
        if not head or head[0] not in (Combatant if what == "npc" else Shot).__struct_fields__:
            return None  # the target's own field (GURPS advantages): no source field states it
        for neutral_path, native in self._probe_map(prefix, what).items():
            if inside(rel, neutral_path) or inside(neutral_path, rel):
                found, exact = _resolve(self.plain, f"{prefix}.{native}", self._keymaps)
                if exact:
                    return self._same_line(found, rel, prefix), True
        return None

    def _same_line(self, found: str, rel: str, prefix: str) -> str:
        """The source's line of a neutral list item (``weapons[1]``, ``target.armor[0]``) where the source states the
        list in a field of its own name (Polish ``broń``): that field's line at the same index,
        where that line is the item (its name is one of the line's values); else the field. A
        loss about one weapon is placed at its line, not at the whole list."""
        tokens = path_tokens(rel) or []
        k = next((i for i, t in enumerate(tokens) if isinstance(t, int)), 0)  # the list's index (target.armor[0])
        if not k:
            return found
        j = tokens[k]
        lines = _get(self.plain, list(path_tokens(found) or ()))
        neutral = self._neutral_items.get(prefix)
        named = _get(neutral, tokens[:k + 1]) if neutral is not None else MISSING
        if isinstance(lines, list) and j < len(lines) and isinstance(lines[j], dict) \
                and isinstance(getattr(named, "name", None), str) and named.name in lines[j].values():
            return f"{found}[{j}]"
        return found

    def _probe_map(self, prefix: str, what: str) -> dict[str, str]:
        """Neutral path -> the native field of the source item at `prefix` that states it: each
        field holding more than its default is left out in turn and the item read again; of the
        fields that move a neutral value, the one that moves the fewest (the first of those)."""
        out = self._probed.get(prefix)
        if out is not None:
            return out
        out = self._probed[prefix] = {}
        system = self._system
        typ = None if system is None else system.npc_type if what == "npc" else system.shot_type
        item = _get(self.source, list(path_tokens(prefix) or ()))
        if typ is None or item is MISSING:
            return out
        # the map is the item's and its system's alone (not the target's, not where the item
        # sits): remembered for the process, exactly by the item (a stat block converted to
        # every system in turn is probed once)
        key = None
        if WRITTEN_MEMO and getattr(system, "remember", True):
            try:
                key = hashlib.blake2b(_KEY_ENCODER.encode([what, item]), digest_size=16).digest()
            except (TypeError, msgspec.EncodeError):
                key = None
            known = _probed_memo.get(system, {}).get(key) if key is not None else None
            if known is not None:
                out.update(known[0])
                if known[1]:
                    self._ties[prefix] = {k: list(v) for k, v in known[1].items()}
                return out
        method = system.npc_to_neutral if what == "npc" else system.shot_to_neutral  # type: ignore[union-attr]
        best: dict[str, tuple[int, str]] = {}  # neutral path -> (how many values its field moves, the field)
        ties = self._ties
        try:
            item = native_fields(item, typ)
            with tracing(False):
                base = method(item).value
            for name, f in _struct_fields(typ).items():
                value = getattr(item, name)
                if f.default is not MISSING:
                    if _same(value, f.default):
                        continue
                    others = [f.default]
                elif _is_number(value) and not isinstance(value, Fraction):
                    # a required number: one more, or, where that is no value of the field or moves
                    # nothing (a skill at the top of its scale), one less
                    others = [type(value)(value + 1), type(value)(value - 1)] if isinstance(value, int) \
                        else [type(value)(value * 1.5)]
                else:
                    continue
                found: list[_Diff] = []
                for other in others:
                    try:
                        with tracing(False):
                            trial = method(msgspec.structs.replace(item, **{name: other})).value
                    except (XsysError, *PLUGIN_FAULTS):
                        continue
                    _differences(base, trial, "$", None, found)
                    if found:
                        break
                # the field that moves the fewest neutral values states it most nearly: GURPS's
                # HT moves constitution and toughness (HP / HT), its HP toughness alone
                for d in found:
                    if d.path not in best or len(found) < best[d.path][0]:
                        best[d.path] = (len(found), name)
                        ties.setdefault(prefix, {})[d.path] = [name]
                    elif len(found) == best[d.path][0]:
                        # another field that states it as nearly (a CoC shot's fire and rounds
                        # both state its burst): a loss there is a loss at each of them
                        ties.setdefault(prefix, {}).setdefault(d.path, [best[d.path][1]]).append(name)
        except (XsysError, *PLUGIN_FAULTS):
            key = None  # a fault: asked again next time
        out.update({path: name for path, (_, name) in best.items()})
        if key is not None:
            memo = _probed_memo.setdefault(system, {})  # type: ignore[arg-type]
            if len(memo) >= _PROBED_LIMIT:
                memo.clear()
            memo[key] = (dict(out), {k: list(v) for k, v in ties.get(prefix, {}).items()})
        return out

    def _by_native_name(self, path: str) -> tuple[str, bool] | None:
        """``...characteristics.X`` / ``...skills.X`` where the source calls X by its own
        name: the characteristic at its item (or an enclosing part), the skill in its
        ``skills``."""
        tokens = path_tokens(path)
        if not tokens or len(tokens) < 2 or tokens[-2] not in self._aliases or not isinstance(tokens[-1], str):
            return None
        where, natives = list(tokens[:-2]), self._aliases[str(tokens[-2])].get(tokens[-1], [])
        if tokens[-2] == "skills":
            for field in self._fields.get(tokens[-1], ()):
                c = where + [field]
                found, exact = _resolve(self.plain, path_text(c), self._keymaps, _as_tokens(c))
                if exact:
                    return found, True
        for native in natives:
            if tokens[-2] == "skills":
                candidates = [where + ["skills", native]]
            else:
                candidates = [where[:n] + [native] for n in range(len(where), -1, -1)]
            for c in candidates:
                found, exact = _resolve(self.plain, path_text(c), self._keymaps, _as_tokens(c))
                if exact:
                    return found, True
        return None

    def check(self, system: System, what: str, neutral: Any, native: Any, prefix: str, losses: list[Loss],
              first: int) -> None:
        """Audit one item: `neutral` was written as `native`, whose plugin losses are
        ``losses[first:]``; fix their paths and add what they left out."""
        self._items[prefix] = what
        self._neutral_items[prefix] = neutral
        self._target = system
        back = self._read_back(system, what, native)
        self.last_read = (native, back)  # the item as its plugin reads it back (read_back_of)
        found: list[_Diff] = []
        _differences(neutral, back, "$", None, found)
        new: list[Loss] = []
        for d in found:
            loss = self._classify(system, what, neutral, d)
            if loss is not None and loss.kind in ("rounded", "clamped", "unsupported-field"):
                loss = self._in_native_terms(loss, d, prefix, neutral, back, system)
            if loss is not None and not loss.rule and what == "shot" and loss.kind in ("rounded", "clamped", "merged") \
                    and (rule := shot_rule(system, d.path[2:], d.src, neutral)):
                loss = msgspec.structs.replace(loss, rule=rule)  # the rule the target writes that value by
            if loss is not None:
                new.append(_with_prefix(loss, prefix))
        if what == "npc":
            new += self._native_blocks(neutral, back, prefix, losses)
        mine = losses[first:]
        del losses[first:]
        losses.extend(self._settle(mine, new, losses, prefix))

    # ---- reading back -----------------------------------------------------------------
    def read_back_of(self, native: Any) -> Any:
        """The neutral value the last audited item read back as, if it was `native` (else
        None): what a caller needs of it, without reading the item a second time."""
        last = self.last_read
        return last[1] if last is not None and last[0] is native else None

    def _read_back(self, system: System, what: str, native: Any) -> Any:
        method = system.npc_to_neutral if what == "npc" else system.shot_to_neutral
        with tracing(False):
            res = guard(system, f"{what}_to_neutral (reading back its own {what})", method, native,
                         want=Combatant if what == "npc" else Shot)
        return res.value

    def _written_at_all(self, system: System, what: str, neutral: Any, d: _Diff) -> bool:
        tokens = path_tokens(d.path)
        if not tokens:
            return False
        far = _far_values(d)
        if not far:
            return False
        if what == "npc" and len(tokens) == 2 and tokens[0] == "characteristics" \
                and tokens[1] not in declared_characteristics(system):
            return False  # the system states no field for it (conformance kit: probed, it agrees)
        if not (WRITTEN_MEMO and getattr(system, "remember", True)):
            return self._try_written(system, what, neutral, tokens, far, d)
        try:
            if self._shaped is None or self._shaped[0] is not neutral or self._shaped[1] is not system:
                blocks = tuple(dict.fromkeys((system.key, system.parent_key or system.key)))
                self._shaped = (neutral, system, _shape(neutral, blocks))
            key = hashlib.blake2b(_KEY_ENCODER.encode([what, tokens, far, d.field is None,
                                                       None if d.field is None else d.field.default,
                                                       self._shaped[2]]), digest_size=16).digest()
            memo = _written_memo.get(system)
            if memo is None:
                memo = _written_memo.setdefault(system, {})
            found = memo.get(key)
        except (TypeError, msgspec.EncodeError):  # a value that cannot be a key: asked as usual
            return self._try_written(system, what, neutral, tokens, far, d)
        if found is None:
            found = self._try_written(system, what, neutral, tokens, far, d)
            if len(memo) >= _WRITTEN_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def _try_written(self, system: System, what: str, neutral: Any, tokens: list[str | int], far: list[Any],
                     d: _Diff) -> bool:
        for value in far:
            try:
                trial = _put(neutral, tokens, value)
                with tracing(False):
                    method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
                    back = self._read_back(system, what, method(trial).value)
            except PLUGIN_FAULTS:
                continue
            got = _get(back, tokens)
            if not _empty(got) and not (d.field is not None and _same(got, d.field.default)):
                return True
        return False

    def _probe(self, system: System, what: str, neutral: Any, tokens: tuple[str | int, ...], value: Any) -> Any:
        """What `value` at `tokens` reads back as after a trip through `system` (MISSING on a fault)."""
        try:
            trial = _put(neutral, list(tokens), value)
            with tracing(False):
                method = system.npc_from_neutral if what == "npc" else system.shot_from_neutral
                return _get(self._read_back(system, what, method(trial).value), list(tokens))
        except PLUGIN_FAULTS:
            return MISSING

    def _clamped(self, system: System, what: str, neutral: Any, d: _Diff) -> bool:
        """Whether a competence that reads back as another number was pushed to the end of
        the target's scale: nothing further out reads back differently, and the mirror of the
        source about the value read back does (the source lies beyond the end by more than
        half the step to the next level, so no rounding explains it). A characteristic was,
        where it lies in the population's outer millionth (beyond what ordinary adults roll)
        and comes back inside it."""
        tokens = path_tokens(d.path)
        if not tokens or (tokens[-1] != "skill" and tokens[0] != "characteristics") \
                or not (_is_number(d.src) and _is_number(d.back)):  # a competence, or a characteristic
            return False
        src, back = float(d.src), float(d.back)
        if tokens[0] == "characteristics":
            # a characteristic in the population's outer millionth (a creature's STR 30, beyond what
            # ordinary adults roll: core.system.TAIL_SHARE) that comes back inside it met the
            # end of a target table that holds ordinary adults only; anything else is a rounding
            # between two populations' steps
            return not (_EDGE < src < 1 - _EDGE) and _EDGE < back < 1 - _EDGE
        gap = src - back
        lo, hi = (d.field.bounds if d.field is not None else (None, None))
        lo, hi = (0.0 if lo is None else lo), (1.0 if hi is None else hi)
        outward = min(max(src + gap, lo), hi)
        if outward != src and not _same(self._probe(system, what, neutral, tokens, outward), back):
            return False
        mirror = min(max(back - gap, lo), hi)
        got = self._probe(system, what, neutral, tokens, mirror)
        return got is not MISSING and not _same(got, back)

    def _in_native_terms(self, loss: Loss, d: _Diff, prefix: str, neutral: Any = None,
                         back_item: Any = None, target: System | None = None) -> Loss | None:
        """A characteristic or skill whose neutral number reads back as another, said in the
        source's own numbers ("Shotgun 40 reads back as Shotgun 43"), with the neutral numbers
        after it; None when the source's number comes back as it was: the two neutral numbers
        are one native value, so nothing the source states is lost. Left as it is where the
        source's ladder does not give the stated value from the source's neutral number (a
        scale of its own, a derived field): no native words rather than wrong ones."""
        system = self._system
        tokens = path_tokens(d.path)
        left_out = d.back is MISSING and "leaves out" in loss.message
        # a shot's dropped value (an NPC's dropped characteristic is carried: conversions.carrying)
        dropped = loss.kind == "unsupported-field"
        # a characteristic the source derives from another and did not state (GURPS Will and Per,
        # from IQ): said under its own name, at the level its rule gives
        derived_field = system.derived_characteristics().get(tokens[1]) if system is not None and tokens \
            and len(tokens) == 2 and tokens[0] == "characteristics" and isinstance(neutral, Combatant) else None
        if tokens and len(tokens) == 3 and tokens[0] == "melee" and tokens[2] == "competence" \
                and isinstance(neutral, Combatant) and isinstance(tokens[1], int) and system is not None:
            return self._line_skill_in_native_terms(loss, d, prefix, neutral, tokens[1], system, dropped)
        if dropped and not ((isinstance(neutral, Shot) or derived_field) and loss.message.endswith("; dropped")):
            return loss
        shooter = isinstance(neutral, Shot) and bool(tokens) and tokens[0] == "shooter"
        if shooter:  # a shot's shooter: his characteristics, and his skill with the shot's weapon
            tokens = tokens[1:] if tokens[1:2] != ("skill",) else ("skills", system.skill_for_weapon(
                neutral.weapon.weapon_class) if system is not None else "")
        if tokens == ("toughness",) and loss.kind == "rounded" and _is_number(d.src) and _is_number(d.back) \
                and float(d.src) > 0:
            return self._health_in_native_terms(loss, d, prefix, target)
        if isinstance(neutral, Combatant) and system is not None and tokens and len(tokens) == 2 \
                and tokens[0] == "characteristics" and tokens[1] in neutral.beyond and loss.kind in ("rounded", "clamped") \
                and not any(s.neutral == tokens[1] for s in system.characteristics().values()):
            # a creature's, beyond every ordinary adult, from a field of the source's that is no characteristic (a
            # GURPS SM: a size): its multiple crosses (core.beyond), its percentile is each table's end, no loss
            return None
        if system is None or not tokens or len(tokens) != 2 or tokens[0] not in ("characteristics", "skills") \
                or not (_is_number(d.src) and (_is_number(d.back) or left_out or dropped)):
            return loss
        found, exact = self.resolve(f"{prefix}{d.path[1:]}")
        at = path_tokens(found)
        if not exact and tokens[0] == "skills" and isinstance(neutral, Combatant) and any(
                tokens[1] in s.covers and s.covers[0] != tokens[1] and s.covers[0] in neutral.skills
                for s in neutral.sheet_skills.values()):
            # a second neutral skill one stated skill gives (a 7e knife fought with Fighting
            # (Brawl): brawl and melee): that skill's number is said once, under its first
            return None
        derived_from = ""
        if derived_field and (not exact or not at or at[-1] != derived_field):
            base = system.derived_fields().get(derived_field, ((), ""))[0]
            item = _get(self.plain, list(path_tokens(prefix) or ()))
            if len(base) == 1 and isinstance(item, dict) and item.get(derived_field) is None:
                at, exact, derived_from = (*(path_tokens(prefix) or ()), derived_field), True, base[0]
        said: SheetSkill | None = None
        if not exact and tokens[0] == "skills" and isinstance(neutral, Combatant) and not shooter:
            # a skill of the source's that covers several neutral skills (Polish Broń długa:
            # rifle, shotgun ...): its path holds no one of them, its sheet line names it
            said_name = next((n for n, s in neutral.sheet_skills.items() if s.system == system.key
                              and tokens[1] in s.covers and _is_number(s.level)), None)
            if said_name is not None:
                said = neutral.sheet_skills[said_name]
                at = ("skills", said_name)
        if said is None and (not exact or not at or not isinstance(at[-1], str)):
            return _said_as_competence(loss, d, tokens)
        stated = said.level if said is not None else _get(self.plain, list(at))
        if derived_from:  # not stated: the level the rule gives it, as the source read it
            spec = system.characteristics().get(derived_from)
            stated = spec.ladder.step_for(float(d.src)).native if spec is not None else None
        if not _is_number(stated):
            return loss
        name, src, back = at[-1], float(d.src), (0.0 if left_out or dropped else float(d.back))
        native_skill = name
        if shooter and tokens[0] == "skills":  # the shot's field (skill_value, level) holds that skill's level
            native_skill, tokens = tokens[1], ("skills", _neutral_skill(system, tokens[1], neutral))
            if tokens[1] is None:
                return loss
        try:
            if tokens[0] == "characteristics":
                chars = system.characteristics()
                spec, ladder = chars.get(name), None
                if spec is not None and spec.neutral == tokens[1]:
                    ladder = spec.ladder
                elif system.derived_characteristics().get(tokens[1]) == name:
                    # a field on the scale of the one it starts from (GURPS Will and Per, from IQ)
                    base = system.derived_fields().get(name, ((), ""))[0]
                    ladder = chars[base[0]].ladder if len(base) == 1 and base[0] in chars else None
                if ladder is None:
                    return loss
                was, now, scale = ladder.step_for(src).native, ladder.step_for(back).native, "percentile"
                rule = ladder.step_for(src).rule
                passed = _on_scale(system, back_item, tokens[1])
                if passed is not None:  # one characteristic scale: the number goes back by the factor
                    now = passed
            else:
                if tokens[1] not in (system.skills().get(native_skill) or ()) \
                        and system.derived_skills().get(tokens[1]) != native_skill:
                    return loss
                item = _get(self.plain, list(path_tokens(prefix) or ()))
                ctx: dict[str, Any] = {k: v for k, v in item.items() if isinstance(v, (int, float, str))
                                       and k not in _FREE_TEXT} \
                    if isinstance(item, dict) else {}
                ctx["@key"] = tokens[1]
                was = system.level_for(native_skill, src, ctx)
                now, scale = system.level_for(native_skill, back, ctx), "competence"
                floor = system.skill_floor(native_skill, ctx) if not shooter else None  # a sheet's, not a shot's
                if floor is not None and now < floor[0] <= was:
                    now = floor[0]  # the source's sheet writes nothing under what the NPC has untrained
                rule = system.competence_rule(native_skill)
        except PLUGIN_FAULTS:
            return loss
        if tokens[0] == "characteristics" and not (left_out or dropped) and _is_number(stated) \
                and isinstance(top := population_top(ladder), (int, float)) and float(stated) > top:  # type: ignore[arg-type]
            # a creature's, beyond every ordinary adult: its multiple of the table's top crosses, said as each
            # target writes it or cannot (core.beyond); its percentile is each table's end, no loss of its own
            return None
        if not _same(was, stated):
            return loss
        if not (left_out or dropped) and _same(now, was) and loss.kind in ("rounded", "clamped"):
            return None  # (a value in the outer millionth the other table also holds: EDU 35 is coc 7)
        numbers = f"{tokens[1]} {scale} {src:.3f} → {back:.3f}"
        if derived_from:
            numbers += f"; {name} not stated: the rule's, from {derived_from}"
        if dropped:
            msg = (f"{name} {stated} ({tokens[1]} {scale} {src:.3f}"
                   + (f"; not stated: the rule's, from {derived_from}" if derived_from else "")
                   + f"): {loss.message.split(': ', 1)[-1]}")
        elif left_out:
            msg = (f"{name} {stated} is written as the level {loss.message.split(' the level ', 1)[-1]} "
                   f"({tokens[1]} {scale} {src:.3f})")
        elif loss.kind == "clamped":
            where = loss.message.split("anything ", 1)[-1].split(" can express", 1)[0]
            msg = (f"{name} {stated} lies {'above' if src > back else 'below'} anything {where} can express: clamped "
                   f"to its {'highest' if src > back else 'lowest'} level, which reads back as {name} {now} ({numbers})")
        else:
            msg = f"{name} {stated} reads back as {name} {now} from {loss.message.rsplit(' from ', 1)[-1]} ({numbers})"
        path = loss.path
        if said is not None:  # at the stated skill's own line
            field = system.sheet.skills if system.sheet is not None else "skills"
            path = f"{prefix}.{field}.{name}"
        return Loss.of(loss.kind, path, msg, loss.rule or rule, system=loss.system)

    def _line_skill_in_native_terms(self, loss: Loss, d: _Diff, prefix: str, neutral: Combatant, index: int,
                                    system: System, dropped: bool) -> Loss | None:
        """A close-combat weapon's own skill (``MeleeWeapon.competence``: a Spear 45 beside the NPC's
        Sword 85) that reads back as another number, said as the source's skill of that line ("Knife
        12, the skill of the Gutting knife line, reads back as Knife 11"); None where it comes back as
        the same level; where the target has no place for it, said so under the skill."""
        if not 0 <= index < len(neutral.melee) or not _is_number(d.src):
            return loss
        m = neutral.melee[index]
        item = _get(self.plain, list(path_tokens(prefix) or ()))
        if not isinstance(item, dict):
            return loss
        field = system.sheet.skills if system.sheet is not None else "skills"
        lines = [x for k in ("melee", "weapons") for x in (item.get(k) or []) if isinstance(x, dict)]
        skill = next((x.get("skill") for x in lines if x.get("name") == m.name), None)
        stated = (item.get(field) or {}).get(skill) if isinstance(skill, str) else None
        if not _is_number(stated):
            return loss
        path = f"{prefix}.{field}.{skill}"
        if dropped or not _is_number(d.back):
            return None  # a target with one skill for every such weapon: the source's merged loss says so
        named = [str(x.get("name")) for x in lines if x.get("skill") == skill]
        names = f"{and_list(named)} line" + ("s" if len(named) > 1 else "")
        ctx: dict[str, Any] = {k: v for k, v in item.items() if isinstance(v, (int, float, str)) and k not in _FREE_TEXT}
        ctx["@key"] = m.skill
        try:
            was, now = system.level_for(skill, float(d.src), ctx), system.level_for(skill, float(d.back), ctx)
        except PLUGIN_FAULTS:
            return loss
        if _same(now, was):
            return None
        return Loss.of(loss.kind, path, f"{skill} {stated}, the skill of the {names}, reads back as {skill} {now} "
                       f"from a {self.key} stat block ({m.skill} competence {float(d.src):.3f} → {float(d.back):.3f})",
                       loss.rule or system.competence_rule(skill), system=loss.system)

    def _health_in_native_terms(self, loss: Loss, d: _Diff, prefix: str, target: System | None) -> Loss | None:
        """A toughness that reads back as another, said in the source's hit points: the stated
        value scales with the toughness (System.health_of), so HP 20 at toughness 1.176 comes
        back as HP 21 at 1.222; None when it comes back as the same number."""
        found, exact = self.resolve(f"{prefix}{d.path[1:]}")
        at = path_tokens(found)
        stated = _get(self.plain, list(at)) if exact and at and isinstance(at[-1], str) else None
        if not _is_number(stated) or isinstance(stated, bool):
            return loss
        now = int(math.floor(float(stated) * float(d.back) / float(d.src) + 0.5))
        if now == stated:
            return None
        return Loss.of(loss.kind, loss.path, f"{at[-1]} {stated} reads back as {at[-1]} {now} from "
                       f"{loss.message.rsplit(' from ', 1)[-1]} (toughness {float(d.src):.3f} → {float(d.back):.3f})",
                       loss.rule or (target.health_rule if target is not None else None),
                       system=loss.system)

    # ---- classifying --------------------------------------------------------------------
    def _classify(self, system: System, what: str, neutral: Any, d: _Diff) -> Loss | None:
        field = d.path[2:]
        src, back = d.src, d.back
        default = d.field.default if d.field is not None else MISSING
        where = f"a {self.key} {'stat block' if what == 'npc' else what}"
        if back is MISSING and isinstance(src, (msgspec.Struct, dict)) and d.path.endswith("]"):
            return Loss.of("dropped-item", d.path, f"{field} ({show(src)}): no place for it in {where}; dropped",
                           system=self.key)
        if d.path.endswith("weapon_class") and isinstance(back, str) and KIND_OF.get(back) == src:
            # a handgun of no stated kind written as a revolver by its cartridge (nWoD's .38 Special
            # is the chart's revolver line) reads back as the kind it is (vocab.KIND_OF): more said,
            # nothing lost; the target reports its own assumption (nwod.weapon.clip)
            return None
        if d.path.endswith("melee_kind"):
            # the weapon a melee skill is for (Combatant.melee_kind): its level crosses; a system with
            # one melee skill for every weapon (nWoD Weaponry) cannot say which, and one with no
            # melee skill has said so at the skill already
            if not any("melee" in keys for keys in system.skills().values()):
                return None
            return Loss.of("assumed", d.path, f"{field} {show(src)}: {where} has one melee skill for every weapon; "
                           "the level crosses, the weapon it is for does not (read back, a target writes its first "
                           "melee skill)", "core.melee", system=self.key)
        if src is True and not back and _NATURAL_LINE.search(d.path):
            # a creature's bite written as the target's line for one (its damage), on a sheet that does not
            # mark a line natural: read back, an attack with bare hands, as a fist is
            return Loss.of("merged", d.path, f"{field} {show(src)}: written as a natural attack, but {where} does "
                           "not mark a line as one: read back, it is an unarmed attack like a fist", system=self.key)
        if isinstance(src, list):
            missing = [x for x in src if not (isinstance(back, list) and any(_same(x, y) for y in back))]
            return Loss.of("unsupported-field", d.path, f"{field} {show(missing)}: no place for it in {where}; "
                           "dropped", system=self.key)
        if _empty(back) or (default is not MISSING and _same(back, default)):
            if self._written_at_all(system, what, neutral, d):
                kind = "rounded" if _is_number(src) else "merged"
                if back is MISSING:  # e.g. a skill at the level a stat block leaves out (Polish level 0)
                    return Loss.of(kind, d.path, f"{field} {show(src)} is written as the level {where} leaves "
                                   "out (its lowest); it reads back as no value", system=self.key)
                return Loss.of(kind, d.path, f"{field} {show(src)} reads back as {show(back)} from {where}",
                               system=self.key)
            return Loss.of("unsupported-field", d.path, f"{field} {show(src)}: no place for it in {where}; dropped",
                           system=self.key)
        if _is_number(src) and _is_number(back):
            if self._clamped(system, what, neutral, d):
                return Loss.of("clamped", d.path, f"{field} {show(src)} lies {'above' if src > back else 'below'} "
                               f"anything {where} can express: clamped to its {'highest' if src > back else 'lowest'} "
                               f"level, which reads back as {show(back)}", system=self.key)
            return Loss.of("rounded", d.path, f"{field} {show(src)} reads back as {show(back)} from {where}",
                           system=self.key)
        if isinstance(src, bool) or (d.field is not None and d.field.choices):
            return Loss.of("merged", d.path, f"{field} {show(src)} reads back as {show(back)} from {where}, "
                           "which does not tell them apart", system=self.key)
        return Loss.of("unsupported-field", d.path, f"{field} {show(src)}: no place for it in {where}, which "
                       f"writes {show(back)}", system=self.key)

    def _native_blocks(self, neutral: Combatant, back: Combatant, prefix: str, losses: list[Loss]) -> list[Loss]:
        """Native details kept for a round trip (Combatant.native) that the target drops."""
        out: list[Loss] = []
        for k, block in neutral.native.items():
            theirs = back.native.get(k)
            lost = list(block) if not isinstance(theirs, dict) else [x for x in block if x not in theirs]
            if not lost or not block:
                continue
            if k == self.source_system:
                # the source's own details: its plugin reported each one it kept ("kept-verbatim");
                # they are now lost for real, unless they are system-only data the written stat
                # block carries (xsys.core.carried, reported by the conversion as it writes that block)
                whole = not isinstance(theirs, dict)
                kept = {"$." + key for block in neutral.carried.values() for key, _ in carried.leaves(block)}
                kept |= {"$." + str(top) for block in neutral.carried.values() for top in block}
                for i in self._mine.get(prefix, ()):
                    loss = losses[i]
                    if (loss.kind == "kept-verbatim" and loss.system == k and "$" + loss.path[len(prefix):] not in kept
                            and not carried.named(loss.message, neutral.carried)
                            and (whole or _first_key(loss.path, prefix) in {_norm(x) for x in lost})
                            and not _kept_elsewhere(block, back.native, k, "$" + loss.path[len(prefix):])):
                        losses[i] = Loss.of("unsupported-field", loss.path,
                                            f"{loss.message.rstrip('.')}; but a {self.key} stat block has no "
                                            "place for it: dropped",
                                            loss.rule, system=self.key)
                continue
            if self.source_system != NEUTRAL:
                # another system's block the source's own plugin wrote (coc-zh's copy for coc): made
                # from the source document, whose own losses are reported field by field
                continue
            paths = [f"$.native.{k}"] if not isinstance(theirs, dict) else [f"$.native.{k}.{x}" for x in lost]
            for p in paths:
                out.append(_with_prefix(Loss.of("unsupported-field", p, f"{p[2:]} (details kept for {k}): no place "
                                                f"for them in a {self.key} stat block; dropped", system=self.key),
                                        prefix))
        return out

    # ---- settling paths -----------------------------------------------------------------
    def _settle(self, plugin: list[Loss], found: list[Loss], before: list[Loss], prefix: str) -> list[Loss]:
        """The plugin's losses and the audit's, with paths into the source and no repeats."""
        earlier = [before[i] for i in self._mine.get(prefix, ())]
        known = earlier + plugin
        said: dict[str, int] = {}  # path (as written, and in the source) -> most severe loss there
        noted: set[str] = set()  # paths where some loss is more than a note of what was assumed
        words: dict[str, list[str]] = {}  # path -> what the losses there say
        parts: set[str] = set()  # parts of the item lost as a whole (strict)
        moved: set[str] = set()  # the source's skills the target's losses about its own skills are placed at
        lined: set[int] = set()  # the target's losses about a line of its own list, placed at the source's line
        for j, x in enumerate(known):
            sev = _SEVERITY[x.kind]
            where, exact = self.resolve(x.path) if j < len(earlier) else self._locate(x, prefix, moved, lined)
            for p in (x.path, where) if exact and id(x) not in lined else (x.path,):
                if said.get(p, -1) < sev:
                    said[p] = sev
                if x.kind != "assumed":
                    noted.add(p)
                words.setdefault(p, []).append(x.message)
            if sev and x.path != prefix and inside(x.path, prefix):
                parts.add(x.path)
        kept: list[Loss] = []
        for g in found:
            sev = _SEVERITY[g.kind]
            where, exact = self.resolve(g.path)
            # a value that comes back as another ("HP 20 reads back as HP 21", "stops 725 J reads
            # back as 772 J") stands beside a note of what the target assumed there (the GURPS
            # trait its HP names, the GURPS line of a weapon): the note does not say the number moves;
            # a field of a weapon or armor line also beside a loss about its line that does not say
            # the value it reads back as (a grenade's blast that did not cross is not its energy)
            # (a skill's too, beside the target's loss about its own skill for it: GURPS's note of the
            # level points can buy does not say what the source's Handgun 20 comes back as)
            here = (g.path, where) if exact else (g.path,)
            beside = g.kind == "rounded" and " reads back as " in g.message and (
                g.path not in noted and not (exact and where in noted)
                or (_LINE_FIELD.search(g.path) is not None
                    or any(q in moved for q in here) and max(said.get(q, -1) for q in here) <= 0)
                and not any(_read_back_value(g.message) in m for q in here for m in words.get(q, ())))
            if not beside and (said.get(g.path, -1) >= sev or (exact and said.get(where, -1) >= sev)):
                continue
            if parts and any(inside(g.path, p) for p in parts):
                continue
            kept.append(g)
        out: list[Loss] = []
        taken: set[int] = set()
        about: dict[int, str] = {}  # a placed finding of the audit's -> the neutral path it is about, in its item
        for loss in plugin:
            where, exact = self._locate(loss, prefix)
            if exact:
                out.append(msgspec.structs.replace(loss, path=where) if where != loss.path else loss)
                continue
            # a path the source does not have (the target's own field name, e.g. "$.speed"):
            # the audit's findings with the same last key take over its message and rule;
            # else those under the nearest existing parent that the message names
            # ("$.skills.Gun: Gun covers handgun, rifle" -> $.skills.handgun)
            tokens = path_tokens(loss.path)
            last = _norm(tokens[-1]) if tokens else None
            heirs = [i for i, g in enumerate(kept) if i not in taken and last is not None
                     and _last_key(g.path) == last]
            if not heirs and where != prefix and where != "$":
                words = set(_norm(w) for w in re.findall(r"[\w-]+", loss.message))
                heirs = [i for i, g in enumerate(kept) if i not in taken and inside(g.path, where)
                         and _last_key(g.path) in words]
            if not heirs:
                out.append(msgspec.structs.replace(loss, path=where))
                continue
            for i in heirs:
                g = kept[i]
                kind = loss.kind if _SEVERITY[loss.kind] >= _SEVERITY[g.kind] else g.kind
                placed = self._placed(Loss.of(kind, g.path, loss.message, loss.rule or g.rule, system=loss.system))
                about[id(placed)] = _within(g.path, prefix)
                out.append(placed)
                taken.add(i)
        for i, g in enumerate(kept):
            if i not in taken:
                placed = self._placed(g)
                about[id(placed)] = _within(g.path, prefix)
                out.append(placed)
        # two losses placed on one source path can become the same line (a native skill that
        # covers two neutral skills, both from one source skill): said once; and lines that say
        # one thing of several parts of one source line (nWoD Athletics: no skill for athletics,
        # climb, swim, jump) become one line
        return merge_alike(list(dict.fromkeys(self._at_each_field(out, prefix, about))))

    def _at_each_field(self, losses: list[Loss], prefix: str, about: Mapping[int, str] | None = None) -> list[Loss]:
        """A loss placed at one of several source fields that state one neutral value alike (a
        CoC shot's fire and rounds both give its burst) is a loss at each of them; the printed
        report says it once, naming every path (trace.report_lines). A finding of the audit's
        about another neutral value (`about`: id of a placed finding -> the neutral path it is
        about) stays where it is: the Polish Percepcja and umiejętności both state the neutral
        spot, but a perception that does not cross is no loss at umiejętności."""
        ties = {n: names for n, names in self._ties.get(prefix, {}).items() if len(set(names)) > 1}
        if not ties:
            return losses
        about = about or {}
        out = list(losses)
        at = {x.path for x in losses}
        for neutral_path, names in ties.items():
            paths = []
            for name in dict.fromkeys(names):
                found, exact = _resolve(self.plain, f"{prefix}.{name}", self._keymaps)
                if exact:
                    paths.append(found)
            for x in losses:
                said = about.get(id(x))
                if x.path in paths and (said is None or said == neutral_path):
                    for p in paths:
                        if p not in at:
                            out.append(msgspec.structs.replace(x, path=p))
                            at.add(p)
        return out

    def _locate(self, loss: Loss, prefix: str, moved: set[str] | None = None,
                lined: set[int] | None = None) -> tuple[str, bool]:
        """Where a plugin's loss is in the source: its path; for a skill the target calls by its
        own name, the source's skill it stands for (added to `moved`); for a line of the target's
        own list, the source's line of that item (the loss's id added to `lined`); or the source's skill that
        the message names by its neutral key ("the source's handgun competence ...")."""
        where, exact = self.resolve(loss.path)
        if not exact:
            own = self._target_skill_line(loss, prefix)
            if own is not None:
                if moved is not None:
                    moved.add(own)
                return own, True
            own = self._target_list_line(loss, prefix)
            if own is not None:  # (at the line, not at a field of it: it covers no other finding there)
                if lined is not None:
                    lined.add(id(loss))
                return own, True
        # (a skill under the source's skills: its own line; a clamp to the target's untrained
        # level names the neutral skill, which may be a field of its own in the source: GURPS's
        # Dodge, nWoD's Defense)
        if exact or ("skills" in (path_tokens(where) or ()) and loss.kind != "clamped"):
            return where, exact
        item = _get(self.plain, list(path_tokens(prefix) or ()))
        # the neutral skills a loss about skill levels names: "<skill> competence ..." (clamped,
        # rounded) or "<native> covers <skill>, <skill> at levels ..." (merged)
        named = re.findall(r"\b([a-z_]+) competence\b", loss.message)
        for listed in re.findall(r"the source's ([a-z_, ]+) competence\b", loss.message):  # clamped, several
            named += re.findall(r"[a-z_]+", listed.replace(" and ", ", "))
        if " covers " in loss.message:
            named += re.findall(r"[a-z_]+", loss.message.split(" covers ", 1)[1].split(" at levels", 1)[0])
        for word in named:
            if word not in NEUTRAL_SKILLS:
                continue
            line = self._neutral_skill_line(prefix, word, item)
            if line is not None:
                return line, True
        return where, exact

    def _neutral_skill_line(self, prefix: str, key: str, item: Any = MISSING) -> str | None:
        """The source's line of the skill it states for neutral skill `key` in the item at `prefix`:
        under its ``skills`` (by name or alias), else in the block that holds it (pl-trudnosc:
        umiejętności); None where it states none."""
        hit = self.resolve(f"{prefix}.skills.{key}")
        if hit[1]:
            return hit[0]
        if item is MISSING:
            item = _get(self.plain, list(path_tokens(prefix) or ()))
        # a source whose skills are not under "skills" (pl-trudnosc: umiejętności)
        for native in self._aliases["skills"].get(key, ()):
            for field, val in (item.items() if isinstance(item, dict) else ()):
                if isinstance(val, dict) and native in val:
                    return path_text([*(path_tokens(prefix) or ()), field, native])
        return None

    def _target_skill_line(self, loss: Loss, prefix: str) -> str | None:
        """A target's loss about one of its own skills, that it names first ("Guns (Pistol)-8 is on
        no 3e sheet ..." at ``$.skills.Guns (Pistol)``: GURPS's skill-cost note), as the source's line
        of the one skill it stands for: the skill the source calls the neutral skill it covers (coc
        ``Handgun``); None where the target's skill covers neutral skills that the source states
        under more than one name, or none, and for a loss about something else there (the 7th
        edition's Brawl that a club is fought with: the loss is the club skill's)."""
        target = self._target
        rel = path_tokens(_within(loss.path, prefix))
        field = target.sheet.skills if target is not None and target.sheet is not None else "skills"
        if target is None or loss.system != target.key or not rel or len(rel) != 2 or rel[0] != field \
                or not isinstance(rel[1], str) or not loss.message.startswith(rel[1]) \
                or loss.message[len(rel[1]):len(rel[1]) + 1].isalnum():
            return None
        try:
            keys = target.skills().get(rel[1]) or ()
        except PLUGIN_FAULTS:
            return None
        lines = {line for k in keys if (line := self._neutral_skill_line(prefix, k)) is not None}
        return lines.pop() if len(lines) == 1 else None

    def _target_list_line(self, loss: Loss, prefix: str) -> str | None:
        """A target's loss about a weapon or armor line of its own list (Polish ``$.pancerz[0].punkty``)
        as the source's line of the same neutral item (``$.armor[0]``), where the target's line is
        that item (it bears its name); else None."""
        target, last = self._target, self.last_read
        sheet = target.sheet if target is not None else None
        rel = path_tokens(_within(loss.path, prefix))
        if sheet is None or last is None or loss.system != target.key or not rel or len(rel) < 2 \
                or not isinstance(rel[1], int) or rel[0] not in (sheet.weapons, sheet.armor):
            return None
        field = "weapons" if rel[0] == sheet.weapons else "armor"
        lines = getattr(last[0], str(rel[0]), None)
        items = getattr(self._neutral_items.get(prefix), field, None)
        if not isinstance(lines, list) or not isinstance(items, list) or rel[1] >= min(len(lines), len(items)):
            return None
        if getattr(lines[rel[1]], line_name_field(type(last[0])), None) != items[rel[1]].name:
            return None
        found, exact = self.resolve(f"{prefix}.{field}[{rel[1]}]")
        return found if exact else None

    def sheet_skill(self, prefix: str, native: str) -> str:
        """The source's line of the skill it calls `native` in the item at `prefix`: under its
        ``skills``, or wherever its system keeps them (pl-trudnosc: ``umiejętności``), so a
        report line about Broń długa names ``$.umiejętności.Broń długa``, not the whole NPC."""
        where, exact = self.resolve(f"{prefix}.skills.{native}")
        if exact:
            return where
        item = _get(self.plain, list(path_tokens(prefix) or ()))
        for key, val in (item.items() if isinstance(item, dict) else ()):
            if isinstance(val, dict) and native in val:
                return path_text([*(path_tokens(prefix) or ()), key, native])
        return where

    def _placed(self, loss: Loss) -> Loss:
        where, _ = self.resolve(loss.path)
        return loss if where == loss.path else msgspec.structs.replace(loss, path=where)


_BOUNDARY = " .,:;"
_UNITS = {"J", "m", "mm", "cm", "km", "kg", "g", "s", "m/s", "yd", "ft", "lx", "lux", "%", "HP"}


def _slots(messages: Sequence[str]) -> str | None:
    """Messages of as many words that differ in one or two places (``no size in the source;
    SIZ set ...`` / ``no education in the source; EDU set ...``): one message with every
    message's word in each place (``no size and education in the source; SIZ and EDU set``)."""
    words = [m.split(" ") for m in messages]
    if len({len(w) for w in words}) != 1:
        return None
    places = [i for i in range(len(words[0])) if len({w[i] for w in words}) > 1]
    if not 1 <= len(places) <= 2:
        return None
    out = list(words[0])
    for i in places:
        ends = ",;:)"
        # each word as (what opens it, its letters, what closes it): "(rifle" and "(shotgun" are
        # "(rifle and shotgun", "(Sword)" and "(Spear)" "(Sword and Spear)"
        cut = []
        for w in words:
            core = w[i].rstrip(ends)
            bare = core.lstrip("(")
            cut.append((core[:len(core) - len(bare)], bare, w[i][len(core):]))
        if len({(c[0], c[2]) for c in cut}) != 1 or any(not _balanced(c[1]) for c in cut):
            return None  # the words differ in their punctuation: no list reads right
        out[i] = cut[0][0] + and_list(list(dict.fromkeys(c[1] for c in cut))) + cut[0][2]
    return " ".join(out)


def _unquoted(text: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|\([^()]*\)", "", text)


def _frame(messages: Sequence[str]) -> tuple[str, str] | None:
    """The words every message starts and ends with, each cut at a word's edge, when together
    they are most of the shortest message and what each message has between them is one
    part (no clause of its own: a '; ' outside quotes)."""
    head = os.path.commonprefix(list(messages))
    while head and head[-1] not in _BOUNDARY:
        head = head[:-1]
    tails = [m[len(head):] for m in messages]
    tail = os.path.commonprefix([t[::-1] for t in tails])[::-1]
    # cut at a word's edge, never between a number and its unit ("880 J" / "405 J")
    while tail and (tail[0] not in " :;)" or tail[0] == " " and tail[1:].split(" ", 1)[0] in _UNITS
                    and any(m[len(m) - len(tail) - 1].isdigit() for m in messages)):
        tail = tail[1:]
    if any(len(t) <= len(tail) for t in tails):
        return None
    if len(head) + len(tail) < 0.4 * min(len(m) for m in messages):
        return None
    if any("; " in _unquoted(t[:len(t) - len(tail)]) or not _balanced(t[:len(t) - len(tail)]) for t in tails):
        return None  # (a part that opens a bracket it does not close would list the brackets nested)
    return head, tail


def _balanced(text: str) -> bool:
    """Whether every bracket `text` opens it closes, in order."""
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def merge_alike(losses: Sequence[Loss]) -> list[Loss]:
    """Losses of one kind, rule and severity at one source path whose messages say the same
    thing of different parts (``has no skill for climb`` / ``for swim``; ``armor[0].kind ...:
    no place for it`` / ``armor[0].mass ...``): one line naming every part, in order. Lines
    that share no frame stay apart."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, x in enumerate(losses):
        groups.setdefault((x.path, x.kind, x.level, x.rule, x.system), []).append(i)
    merged: dict[int, Loss] = {}  # the first line of a group -> the group's one line
    gone: set[int] = set()
    for idx in groups.values():
        if len(idx) < 2:
            continue
        messages = [losses[i].message for i in idx]
        message = None
        if (frame := _frame(messages)) is not None:
            head, tail = frame
            parts = [m[len(head):len(m) - len(tail)] for m in messages]
            message = head + and_list(parts) + tail.replace(" for it ", " for them ")
        else:
            message = _slots(messages)
        if message is not None:
            merged[idx[0]] = msgspec.structs.replace(losses[idx[0]], message=message)
            gone.update(idx[1:])
    return [merged.get(i, x) for i, x in enumerate(losses) if i not in gone]


def _on_scale(system: System, back: Any, neutral_key: str) -> int | None:
    """What `system` writes for the neutral characteristic `neutral_key` of `back`, an item read
    back from a system on `system`'s ``characteristic_scale``: its number on that scale times
    `system`'s factor (System.characteristics_on_scale: coc7 EDU 35 goes back to coc as EDU 7,
    whatever the two editions' populations say); None where the two share no scale."""
    if not system.characteristic_scale or not isinstance(back, Combatant):
        return None
    for block in back.native.values():
        chars = on_scale(block, system.characteristic_scale)
        if chars is not None:
            value = (chars.get("values") or {}).get(neutral_key)
            if _is_number(value):
                return int(math.floor(float(value) * system.characteristic_factor + 0.5))
    return None


_NESTED = (msgspec.Struct, list, tuple, dict)  # what may hold a field left out (a number or a name holds none)


def _fill_defaults(obj: Any, plain: Any) -> None:
    """Put back into `plain` (to_builtins of `obj`) the fields it left out for holding their
    default, so that a loss about them has a path in the source."""
    if isinstance(obj, msgspec.Struct) and isinstance(plain, dict):
        for name in obj.__struct_fields__:
            value = getattr(obj, name)
            if name not in plain:
                if value is None or value is msgspec.UNSET:
                    continue
                plain[name] = codec.to_builtins(value)
            if isinstance(value, _NESTED):
                _fill_defaults(value, plain[name])
    elif isinstance(obj, (list, tuple)) and isinstance(plain, list) and len(obj) == len(plain):
        for o, p in zip(obj, plain):
            if isinstance(o, _NESTED):
                _fill_defaults(o, p)
    elif isinstance(obj, dict) and isinstance(plain, dict):
        for k, v in obj.items():
            if k in plain and isinstance(v, _NESTED):
                _fill_defaults(v, plain[k])


def _kept_elsewhere(block: dict[str, Any], natives: Mapping[str, Any], key: str, path: str) -> bool:
    """Whether the value a source's native block keeps at `path` (``$.skills.Sneak``) is
    kept, the same, in another system's block of the read-back (a variant and its parent
    keep the skills they share: coc-zh's Sneak is coc's Sneak)."""
    tokens = list(path_tokens(path) or ())
    mine = _get(block, tokens) if tokens else MISSING
    if mine is MISSING:
        return False
    return any(isinstance(other, dict) and _get(other, tokens) == mine for k, other in natives.items() if k != key)


def _last_key(path: str) -> str | None:
    tokens = path_tokens(path)
    return _norm(tokens[-1]) if tokens and isinstance(tokens[-1], str) else None


def _neutral_skill(system: System, native: str, shot: Shot) -> str | None:
    """The neutral skill a shot's native skill field stands for: the one of the native skill's
    that the shot's weapon fires (nWoD Firearms with a rifle: rifle)."""
    keys = system.skills().get(native) or ()
    want = shot.weapon.weapon_class
    for k in keys:
        if k == want or KIND_OF.get(want) == k or (want == "revolver" and k == "handgun"):
            return k
    return keys[0] if len(keys) == 1 else None


def _read_back_value(message: str) -> str | None:
    """What a rounding says a value reads back as ("... 1300 J reads back as 1000 J from a nwod stat
    block" -> "1000 J"), else None."""
    if " reads back as " not in message:
        return None
    return message.split(" reads back as ", 1)[1].split(" from ", 1)[0].strip() or None


def _with_prefix(loss: Loss, prefix: str) -> Loss:
    return loss if prefix == "$" else msgspec.structs.replace(loss, path=prefix + loss.path[1:])


def follow_derived(audit: LossAudit, prefix: str, losses: list[Loss], first: int) -> None:
    """A field the source computes from others by its rule (``System.derived_fields``: CoC's
    HP from CON and SIZ) follows them: where one of its inputs did not cross exactly, the loss
    report says so at the derived field too, since converting back recomputes it from what
    did cross (a GURPS stat block has no SIZ, so CoC's HP comes back from the median SIZ)."""
    derived = getattr(audit, "_derived_fields", None)
    if derived is None:  # once per conversion (a roster's NPCs share it)
        derived = {}
        if audit._system is not None:
            try:
                derived = dict(audit._system.derived_fields())
            except PLUGIN_FAULTS:
                pass
        audit._derived_fields = derived  # type: ignore[attr-defined]
    if not derived:
        return
    tokens = list(path_tokens(prefix) or ())
    item = _get(audit.plain, tokens)
    if not isinstance(item, dict):
        return
    for i in range(first, len(losses)):
        loss = losses[i]
        field = loss.path[len(prefix) + 1:] if loss.path.startswith(prefix + ".") else None
        if loss.kind == "unsupported-field" and field in derived and _at_rule(audit, tokens, field):
            # a derived field at the value its rule gives (GURPS's Per 10 at IQ 10) states
            # nothing of its own: the way back computes it again from its inputs
            inputs, rule = derived[field]
            losses[i] = Loss.of("derived", loss.path, f"{field} {show(item.get(field))} is what {rule} computes from "
                                f"{_and(inputs)}; {audit.key} has no place for it, and converting back computes it "
                                "again", rule, system=audit.source_system)
    mine = [*(losses[i] for i in audit._mine.get(prefix, ())), *losses[first:]]
    said = {x.path for x in mine}
    # the item's own paths that lost something ("$.SIZ", "$.merits.Fleet of Foot"), relative to it
    hurt = ["$" + x.path[len(prefix):] for x in mine
            if x.kind not in ("assumed", "derived", "kept-verbatim") and inside(x.path, prefix)]
    if not hurt:
        return
    for field, (inputs, rule) in derived.items():
        value = item.get(field)
        path = path_text([*tokens, field])
        if value is None or path in said:
            continue
        lost = [inp for inp in inputs if any(inside(h, f"$.{inp}") for h in hurt)]
        if lost:
            losses.append(Loss.of("derived", path, f"{field} {show(value)} is computed from {_and(inputs)}; "
                                  f"{_and(lost)} did not cross to {audit.key} exactly (see there), so converting "
                                  f"back gives the {field} of what did", rule, system=audit.source_system))


def _at_rule(audit: LossAudit, tokens: list[Any], field: str) -> bool:
    """Whether the source item at `tokens` reads as the same neutral NPC with `field` left to
    its default (its system then derives it): its value is the one its rule gives."""
    system = audit._system
    src = _get(audit.source, tokens)
    if system is None or src is MISSING:
        return False
    try:
        typ = system.npc_type
        spec = _struct_fields(typ).get(field)
        if spec is None or spec.default is MISSING:
            return False
        item = native_fields(src, typ)
        with tracing(False):
            base = system.npc_to_neutral(item).value
            bare = system.npc_to_neutral(msgspec.structs.replace(item, **{field: spec.default})).value
    except (XsysError, *PLUGIN_FAULTS):
        return False
    found: list[_Diff] = []
    _differences(base, bare, "$", None, found)
    return not found


_and = and_list


def inside(path: str, prefix: str) -> bool:
    """Whether `path` is `prefix` or a path under it (``$.a.b`` is inside ``$.a``, ``$.ab`` is not)."""
    return path == prefix or (path.startswith(prefix) and path[len(prefix):len(prefix) + 1] in (".", "["))


def _first_key(path: str, prefix: str) -> str | None:
    tokens = path_tokens("$" + path[len(prefix):])
    return _norm(tokens[0]) if tokens and isinstance(tokens[0], str) else None
