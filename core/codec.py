"""msgspec hooks for the neutral model: quantities as ``"25 m"`` strings, fractions as
``"p/q"``, and readable errors that keep msgspec's ``$.path``."""

from __future__ import annotations

import re
import types
from fractions import Fraction
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from .errors import InputError
from .units import _Quantity, _example, parse, to_text


def dec_hook(type_: type, obj: Any) -> Any:
    if isinstance(type_, type) and issubclass(type_, _Quantity):
        value = parse(obj, type_)
        if value < 0 and not type_.signed:  # a size (a range, a thickness, a distance ...)
            raise InputError("must not be negative", expected=f"{type_.what} of 0 or more", found=repr(obj))
        return value
    if type_ is Fraction:
        try:
            if isinstance(obj, (int, str)) and not isinstance(obj, bool):
                return Fraction(obj)
            if isinstance(obj, float):
                return Fraction(obj).limit_denominator(10**9)
        except (ValueError, ZeroDivisionError):
            pass
        raise InputError("not a fraction", expected="'p/q' or a number", found=repr(obj))
    raise NotImplementedError(f"no decoder for {type_!r}")


def enc_hook(obj: Any) -> Any:
    if isinstance(obj, _Quantity):
        return to_text(obj)
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


def schema_hook(type_: type) -> dict[str, Any]:
    if isinstance(type_, type) and issubclass(type_, _Quantity):
        return {
            "type": "string",
            "description": f"{type_.what} with its unit, e.g. '{_example(type_)}' (canonical unit {type_.unit})",
            "pattern": r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*\S.*$",
        }
    if type_ is Fraction:
        return {"type": "string", "pattern": r"^-?\d+(/\d+)?$", "description": "an exact fraction 'p/q'"}
    raise NotImplementedError


_AT = re.compile(r"^(.*) - at `(\$[^`]*)`$", re.S)
_AT_KEY = re.compile(r"^(.*) - at `key` in `(\$[^`]*)`$", re.S)


def _types_at(type_: Any, path: str | None) -> list[Any]:
    """The msgspec type infos of what `path` of `type_` holds (every member of a union on the way)."""
    import msgspec.inspect as mi

    if not path or not path.startswith("$"):
        return []
    tokens = re.findall(r'\.([^.\[\]]+)|\[(\d+|\.\.\.|"(?:[^"\\]|\\.)*")\]', path[1:])
    infos = [mi.type_info(type_)]
    for name, index in tokens:
        nxt: list[Any] = []
        for info in infos:
            stack = [info]
            while stack:
                t = stack.pop()
                if isinstance(t, mi.Metadata):  # an Annotated field: the type under its constraints
                    stack.append(t.type)
                elif isinstance(t, mi.UnionType):
                    stack.extend(t.types)
                elif isinstance(t, mi.StructType) and name:
                    nxt += [f.type for f in t.fields if f.encode_name == name]
                elif isinstance(t, mi.DictType):
                    nxt.append(t.value_type)
                elif isinstance(t, (mi.ListType, mi.TupleType, mi.SetType, mi.FrozenSetType)) and index:
                    nxt.append(getattr(t, "item_type", None) or getattr(t, "item_types", (None,))[0])
        infos = [t for t in nxt if t is not None]
    return infos


def _leaves_at(type_: Any, path: str | None) -> list[Any]:
    """The type infos at `path` of `type_`, unions opened and constraints (Annotated) looked
    through: what the error helpers below ask about."""
    import msgspec.inspect as mi

    out, stack = [], _types_at(type_, path)
    while stack:
        t = stack.pop()
        if isinstance(t, mi.Metadata):
            stack.append(t.type)
        elif isinstance(t, mi.UnionType):
            stack.extend(t.types)
        else:
            out.append(t)
    return out


def _choices_at(type_: Any, path: str | None) -> list[Any] | None:
    """The values a Literal field at `path` of `type_` accepts (None: not one, or not found),
    for an "Invalid enum value" error to say what was expected."""
    import msgspec.inspect as mi

    values: list[Any] = []
    for t in _leaves_at(type_, path):
        if isinstance(t, mi.LiteralType):
            values += [v for v in t.values if v not in values]
    return values or None


def _bounds_at(type_: Any, path: str | None) -> str | None:
    """What a number field at `path` of `type_` accepts, in words ('a whole number from 1 to 99'),
    or None (no number there, or no bounds)."""
    import msgspec.inspect as mi

    for t in _leaves_at(type_, path):
        if isinstance(t, (mi.IntType, mi.FloatType)):
            what = "a whole number" if isinstance(t, mi.IntType) else "a number"
            if t.ge is not None and t.le is not None:
                return f"{what} from {t.ge} to {t.le}"
            low = f"above {t.gt}" if t.gt is not None else f"of at least {t.ge}" if t.ge is not None else ""
            high = f"below {t.lt}" if t.lt is not None else f"at most {t.le}" if t.le is not None else ""
            if low or high:
                return f"{what} " + " and ".join(x for x in (low, high) if x)
    return None


def _fields_at(type_: Any, path: str | None) -> list[str]:
    """The field names a Struct at `path` of `type_` has (every Struct of a union there), in order."""
    import msgspec.inspect as mi

    names: list[str] = []
    for t in _leaves_at(type_, path or "$"):
        if isinstance(t, mi.StructType):
            names += [f.encode_name for f in t.fields if f.encode_name not in names]
    return names


def validation_error(exc: msgspec.ValidationError | msgspec.DecodeError, file: str | None = None,
                     locate: "Locator | None" = None, type_: Any = None) -> InputError:
    """Turn msgspec's 'message - at `$.path`' into an InputError with the path kept.

    msgspec writes a mapping's entry as ``[...]`` (``$.skills[...]``) and says nothing of
    which key; given a `locate` (the data and a way to re-run the decoding), the key is
    found and named (``$.skills.Handgun``, ``$.skills["Spot Hidden"]``) and the value that
    was refused is reported as found."""
    text = str(exc)
    bad_key = False
    km = _AT_KEY.match(text)
    m = _AT.match(text)
    if km:
        message, path, bad_key = km.group(1), km.group(2), True
    elif m:
        message, path = m.group(1), m.group(2)
    else:
        message, path = text, None
    value: Any = _NOTHING
    if locate is not None and path is not None and (bad_key or "[...]" in path):
        found_at = locate.find(text, path, bad_key)
        if found_at is not None:
            path, value = found_at
    elif locate is not None and path is not None:
        value = locate.value_at(path)
    message = message.replace("Object contains unknown field", "unknown field")
    um = re.match(r"^unknown field `([^`]*)`$", message)
    unknown_fields: list[str] = []
    if um:  # name the offending field in the path itself, and the fields the place has
        if type_ is not None:
            try:
                unknown_fields = _fields_at(type_, path or "$")
            except Exception:  # a type msgspec cannot describe: the message stands as it is
                unknown_fields = []
        path = f"{path or '$'}.{um.group(1)}"
        value = _NOTHING
    fm = re.match(r"^@([\w.]+): (.*)$", message, re.S)
    if fm:  # raised by a Struct's __post_init__ for one of its fields (model.field_error)
        path = f"{path or '$'}.{fm.group(1)}"
        message = fm.group(2)
        value = _NOTHING
    expected = found = None
    em = re.match(r"^Expected `([^`]*)`, got `([^`]*)`$", message)
    if um and unknown_fields:
        import difflib

        close = difflib.get_close_matches(um.group(1), unknown_fields, n=1, cutoff=0.6)
        message = "unknown field" + (f" (did you mean {close[0]!r}?)" if close else "")
        expected = "one of " + ", ".join(unknown_fields)
        found = repr(um.group(1))
    elif em:
        expected, found = em.group(1), em.group(2)
        message = "wrong type"
    elif bad_key:
        message = f"bad key: {message}"
        found = _short(value) if value is not _NOTHING else None
    elif message.startswith("Expected ") and value is not _NOTHING and not isinstance(value, (dict, list)):
        found = _short(value)  # e.g. "Expected `int` <= 200 (found 400)"
        if re.match(r"^Expected `(int|float|number)` (>=|<=|>|<) \S+$", message) and type_ is not None:
            try:
                bounds = _bounds_at(type_, path)
            except Exception:  # a type msgspec cannot describe: the message stands as it is
                bounds = None
            if bounds:  # "STR: out of range (expected a whole number from 1 to 99, found 300)"
                message, expected = "out of range", bounds
    elif message.startswith("Invalid enum value") and type_ is not None:
        # say what the field takes: "melee_class: one of unarmed, knife, club ..."
        try:
            choices = _choices_at(type_, path)
        except Exception:  # a type msgspec cannot describe: the message stands as it is
            choices = None
        if choices:
            ev = re.match(r"^Invalid enum value (.*)$", message)
            message = "not one of the allowed values"
            expected = "one of " + ", ".join(str(c) for c in choices)
            found = ev.group(1) if ev else None
    return InputError(message, file=file, path=path, expected=expected, found=found)


_NOTHING: Any = object()


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def key_path(path: str, key: Any) -> str:
    """``$.skills`` and ``"Handgun"`` -> ``$.skills.Handgun``; keys that are not plain
    words are quoted: ``$.skills["Spot Hidden"]``."""
    if isinstance(key, str):
        if _PLAIN_KEY.match(key):
            return f"{path}.{key}"
        import json

        return f"{path}[{json.dumps(key, ensure_ascii=False)}]"
    return f"{path}[{key!r}]"


_PLAIN_KEY = re.compile(r"^[^\W\d][\w-]*$")
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[(\.\.\.)\]")


class Locator:
    """Finds which mapping key msgspec's ``[...]`` stands for by decoding again with only
    that entry kept (lists on the way kept to their one element on the path): the key
    whose trial fails the same way is the one. Only runs on the error path, with a
    bounded number of trials."""

    MAX_TRIALS = 2000

    def __init__(self, data: Any, run: Any) -> None:
        self.data = data
        self.run = run  # data -> None, raising msgspec.ValidationError

    def _segments(self, path: str) -> list[tuple[str, Any]] | None:
        if not path.startswith("$"):
            return None
        rest, segs, pos = path[1:], [], 0
        while pos < len(rest):
            m = _SEGMENT.match(rest, pos)
            if m is None:
                return None
            if m.group(1) is not None:
                segs.append(("field", m.group(1)))
            elif m.group(2) is not None:
                segs.append(("index", int(m.group(2))))
            else:
                segs.append(("key", None))
            pos = m.end()
        return segs

    def value_at(self, path: str) -> Any:
        segs = self._segments(path)
        if segs is None or any(kind == "key" for kind, _ in segs):
            return _NOTHING
        node = self.data
        try:
            for kind, key in segs:
                node = node[key]
        except (KeyError, IndexError, TypeError):
            return _NOTHING
        return node

    @staticmethod
    def _render(segs: list[tuple[str, Any]], as_msgspec: bool) -> str:
        """The path as users read it, or as msgspec writes it for the pruned data (every
        list index 0, every mapping key ``[...]``)."""
        out = "$"
        for kind, key in segs:
            if kind == "field":
                out += f".{key}"
            elif kind == "index":
                out += f"[{0 if as_msgspec else key}]"
            elif as_msgspec:
                out += "[...]"
            else:
                out = key_path(out, key)
        return out

    def _pruned(self, node: Any, segs: list[tuple[str, Any]], i: int) -> Any:
        """The data with, along `segs`, each list cut to its one element on the path and
        each mapping to its one entry on the path."""
        if i == len(segs):
            return node
        kind, key = segs[i]
        if kind == "field":
            new = dict(node)
            new[key] = self._pruned(node[key], segs, i + 1)
            return new
        if kind == "index":
            return [self._pruned(node[key], segs, i + 1)]
        return {key: self._pruned(node[key], segs, i + 1)}

    def find(self, text: str, path: str, bad_key: bool) -> tuple[str, Any] | None:
        segs = self._segments(path)
        if segs is None:
            return None
        message = text.rsplit(" - at `", 1)[0]
        trials = 0
        resolved: list[tuple[str, Any]] = []
        node = self.data
        try:
            # the open entries: every `[...]`, and with a bad key the mapping itself
            todo = segs + ([("key", None)] if bad_key else [])
            for idx, (kind, key) in enumerate(todo):
                if kind != "key":
                    resolved.append((kind, key))
                    node = node[key]
                    continue
                if not isinstance(node, dict):
                    return None
                rest = todo[idx + 1:]
                if bad_key and idx == len(todo) - 1:
                    want = f"{message} - at `key` in `{self._render(resolved, True)}`"
                else:
                    want = f"{message} - at `{self._render(resolved + [('key', None)] + rest, True)}`"
                culprit = _NOTHING
                for candidate in node:
                    trials += 1
                    if trials > self.MAX_TRIALS:
                        return None
                    try:
                        self.run(self._pruned(self.data, resolved + [("key", candidate)], 0))
                    except msgspec.ValidationError as exc:
                        if str(exc) == want:
                            culprit = candidate
                            break
                    except Exception:
                        continue
                if culprit is _NOTHING:
                    return None
                resolved.append(("key", culprit))
                node = node[culprit]
        except (KeyError, IndexError, TypeError, RecursionError):
            return None
        if bad_key:
            return self._render(resolved, False), resolved[-1][1]
        return self._render(resolved, False), node


# ---- TOML keys, checked before parsing -------------------------------------------------
#
# Python's TOML parser takes time quadratic in the number of parts of a dotted key or
# table header: a 100 KB file with one 50,000-part key takes minutes and gigabytes. No
# document needs more than a few parts, so keys are measured first, in linear time:
# strings and comments are blanked out, then runs of `part.part.part` are looked for.

MAX_TOML_KEY_PARTS = 64

_TOML_SKIP = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*+(?:"{3,5}|\Z)'  # multi-line basic string (to the end if unclosed)
    r"|'''[\s\S]*?(?:'{3,5}|\Z)"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*+(?:"|$)'  # basic string (to the end of the line if unclosed)
    r"|'[^'\n]*+(?:'|$)"  # literal string
    r"|#[^\n]*+",  # comment
    re.M,
)
# MAX_TOML_KEY_PARTS dots with only what a key part holds between them (anchored on the
# dots, so a file of numbers such as 1.5 costs one attempt per number)
_TOML_LONG_KEY = re.compile(r"\.(?:[A-Za-z0-9_ \t-]*+\.){%d}" % (MAX_TOML_KEY_PARTS - 1))
_TOML_KEY_RUN = re.compile(r"(?:\.[A-Za-z0-9_ \t-]*+)*+")


def check_toml_keys(text: str) -> None:
    """Refuse TOML whose dotted keys or table headers have more than MAX_TOML_KEY_PARTS
    parts, before the parser sees it."""
    if text.count(".") < MAX_TOML_KEY_PARTS:
        return
    blanked = _TOML_SKIP.sub(_blank, text)  # a string (a quoted key part too) becomes one bare part
    m = _TOML_LONG_KEY.search(blanked)
    if m is None:
        return
    parts = _TOML_KEY_RUN.match(blanked, m.start()).group().count(".") + 1
    line = blanked.count("\n", 0, m.start()) + 1
    raise InputError("TOML key has too many dotted parts", expected=f"at most {MAX_TOML_KEY_PARTS} parts",
                     found=f"{parts} parts at line {line}")


def _blank(m: re.Match[str]) -> str:
    # keep the newlines of multi-line strings, so that line numbers stay right
    return "q" + "\n" * m.group().count("\n")


_json_encoder = msgspec.json.Encoder(enc_hook=enc_hook, order="deterministic")


def to_builtins(obj: Any) -> Any:
    """Struct -> plain dicts/lists/strings, quantities as canonical strings."""
    # Struct fields in their defined order, dict keys in the order they were built (plugins
    # build them deterministically): what a reader expects to see, and the same every run
    return msgspec.to_builtins(obj, enc_hook=enc_hook)


def convert(data: Any, type_: Any, *, file: str | None = None, strict: bool = True) -> Any:
    """Plain data -> typed Struct, with InputError on any problem."""
    try:
        return msgspec.convert(data, type_, dec_hook=dec_hook, strict=strict)
    except msgspec.ValidationError as exc:
        def run(trial: Any) -> None:
            msgspec.convert(trial, type_, dec_hook=dec_hook, strict=strict)

        raise validation_error(exc, file, Locator(data, run), type_) from None
    except RecursionError:
        raise InputError("nested too deeply", file=file, expected="a document of ordinary depth") from None


def json_encode(obj: Any) -> bytes:
    return _json_encoder.encode(obj)


_STRUCT_FIELDS: dict[type, tuple[msgspec.structs.FieldInfo, ...]] = {}


def struct_fields(cls: type) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(cls)``, once per class: msgspec evaluates the class's annotations
    again on every call (a seventh of a warm conversion's time went there)."""
    found = _STRUCT_FIELDS.get(cls)
    if found is None:
        found = _STRUCT_FIELDS[cls] = msgspec.structs.fields(cls)
    return found


_PLANS: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """What canonical() looks at in a Struct class: the fields with a default it may have
    to restore (None and booleans are singletons: always the default object already), and
    the fields whose type may hold Structs, lists or dicts to descend into."""
    plan = _PLANS.get(cls)
    if plan is None:
        fields = struct_fields(cls)
        defaults = tuple((f.name, f.default) for f in fields
                         if f.default is not msgspec.NODEFAULT and f.default is not None
                         and not isinstance(f.default, bool))
        nested = tuple(f.name for f in fields if not _flat(f.type))
        plan = _PLANS[cls] = (defaults, nested)
    return plan


def _flat(t: Any) -> bool:
    """Whether values of type `t` can never be (or contain) a Struct, list or dict."""
    origin = get_origin(t)
    if origin is Annotated:
        return _flat(get_args(t)[0])
    if origin is Literal:
        return True
    if origin is Union or origin is types.UnionType:
        return all(_flat(a) for a in get_args(t))
    return t is type(None) or (isinstance(t, type) and issubclass(t, (str, int, float, Fraction)))


def canonical(obj: Any) -> Any:
    """The same value with every field that equals its default holding the default object
    itself. msgspec's ``omit_defaults`` tests strings by identity, so a plugin that builds
    ``"two-handed"`` at run time would otherwise write a default out; canonical documents
    encode the same whichever way they were made (deterministic output, stable digests)."""
    if isinstance(obj, msgspec.Struct):
        defaults, nested = _plan(type(obj))
        changes = {}
        for name, default in defaults:
            value = getattr(obj, name)
            if value is not default and type(value) is type(default) and value == default:
                changes[name] = default
        for name in nested:
            if name in changes:
                continue
            value = getattr(obj, name)
            if isinstance(value, _NESTED):
                new = canonical(value)
                if new is not value:
                    changes[name] = new
        return msgspec.structs.replace(obj, **changes) if changes else obj
    if isinstance(obj, list):
        if not any(isinstance(v, _NESTED) for v in obj):
            return obj
        new_list = [canonical(v) if isinstance(v, _NESTED) else v for v in obj]
        return new_list if any(a is not b for a, b in zip(new_list, obj)) else obj
    if isinstance(obj, dict):
        if not any(isinstance(v, _NESTED) for v in obj.values()):
            return obj
        new_dict = {k: canonical(v) if isinstance(v, _NESTED) else v for k, v in obj.items()}
        return new_dict if any(new_dict[k] is not v for k, v in obj.items()) else obj
    return obj


_NESTED = (msgspec.Struct, list, dict)


def int_bounds(typ: Any, name: str) -> tuple[float | None, float | None]:
    """The bounds (ge, le) a document type's Struct declares for its integer field `name`."""
    import msgspec.inspect  # a submodule msgspec does not load by itself; only this needs it

    try:
        info = msgspec.inspect.type_info(typ)
        field = next(f for f in info.fields if f.name == name)
    except Exception:  # noqa: BLE001 - not a Struct, or no such field: no bounds known
        return None, None
    t = field.type
    for each in getattr(t, "types", (t,)):  # Optional[...]: a UnionType of its types
        while isinstance(each, msgspec.inspect.Metadata):  # Annotated[..., Meta(...)]
            each = each.type
        if isinstance(each, msgspec.inspect.IntType):
            return each.ge, each.le
    return None, None
