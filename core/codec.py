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
        return parse(obj, type_)
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


def validation_error(exc: msgspec.ValidationError | msgspec.DecodeError, file: str | None = None) -> InputError:
    """Turn msgspec's 'message - at `$.path`' into an InputError with the path kept."""
    text = str(exc)
    m = _AT.match(text)
    if m:
        message, path = m.group(1), m.group(2)
    else:
        message, path = text, None
    message = message.replace("Object contains unknown field", "unknown field")
    um = re.match(r"^unknown field `([^`]*)`$", message)
    if um:  # name the offending field in the path itself
        path = f"{path or '$'}.{um.group(1)}"
    fm = re.match(r"^@(\w+): (.*)$", message, re.S)
    if fm:  # raised by a Struct's __post_init__ for one of its fields (model.field_error)
        path = f"{path or '$'}.{fm.group(1)}"
        message = fm.group(2)
    expected = found = None
    em = re.match(r"^Expected `([^`]*)`, got `([^`]*)`$", message)
    if em:
        expected, found = em.group(1), em.group(2)
        message = "wrong type"
    return InputError(message, file=file, path=path, expected=expected, found=found)


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
        raise validation_error(exc, file) from None
    except RecursionError:
        raise InputError("nested too deeply", file=file, expected="a document of ordinary depth") from None


def json_encode(obj: Any) -> bytes:
    return _json_encoder.encode(obj)


_PLANS: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """What canonical() looks at in a Struct class: the fields with a default it may have
    to restore (None and booleans are singletons: always the default object already), and
    the fields whose type may hold Structs, lists or dicts to descend into."""
    plan = _PLANS.get(cls)
    if plan is None:
        fields = msgspec.structs.fields(cls)
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
