"""Units: one application pint registry, and the quantity types of the neutral model.

The neutral model stores every physical value as a plain float magnitude in one canonical
unit per dimension (metre, metre per second, second, lux, kilogram, joule). The field
types below are ``float`` subclasses so that ladders and comparisons run on magnitudes
(no pint in inner loops); pint is used at the boundary to understand any unit a
user writes, and its answer for each distinct unit string is memoised.

The registry is built lazily, once, with pint's cache folder unless ``XSYS_PINT_CACHE=0``.
A game system's own units (the GURPS hex, each system's turn or round) are its plugin's: a
``System`` declares them as ``own_units`` and they are known (to :func:`parse` and to pint) from
the moment its class is defined (:func:`define`).
"""

from __future__ import annotations

import math
import os
import re
import sys
import threading
from functools import lru_cache
from typing import Any

from .errors import UnitError

_lock = threading.Lock()
_registry: Any = None


def cache_enabled() -> bool:
    return os.environ.get("XSYS_PINT_CACHE", "1") not in ("0", "false", "no", "off")


def ureg():
    """The application UnitRegistry, built on first use and then shared."""
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                import pint

                kwargs: dict[str, Any] = {}
                if cache_enabled():
                    # one folder per pint installation (its version and where it lives): pint's
                    # own ":auto:" folder is shared by every version and venv, and pint 0.24.4
                    # reading what another pint (or the same version in a venv elsewhere) had
                    # cached for the same definitions file resolved its @import as
                    # "default_en.txt/constants_en.txt" (.ci/run's throw-away lowest-bounds venv)
                    import hashlib

                    from .cachedir import cache_dir

                    where = hashlib.sha256(os.path.dirname(os.path.abspath(pint.__file__)).encode()).hexdigest()[:12]
                    kwargs["cache_folder"] = str(cache_dir() / "pint" / f"{pint.__version__}-{where}")
                reg = pint.UnitRegistry(**kwargs)
                for name, (qtype, factor, _) in _DEFINED.items():
                    reg.define(f"{name} = {factor!r} * {qtype.unit}")
                _registry = reg
    return _registry


def reset_registry() -> None:
    """Forget the registry (tests use it to build with the cache on and off)."""
    global _registry
    with _lock:
        _registry = None
    _pint_factor.cache_clear()
    _parse_text.cache_clear()


class _Quantity(float):
    """A magnitude in this dimension's canonical unit."""

    __slots__ = ()
    unit: str = ""
    dimension: str = ""  # pint dimensionality string
    what: str = ""  # human name of the dimension, for error messages
    # Whether a document may hold a negative value of this type. Distances, lengths,
    # speeds, times, masses, energies and illuminances are sizes, never below 0: the one
    # place that reads them from documents (codec.dec_hook) refuses a negative one, whatever
    # system's document holds it. A signed type (SignedLength) is for an offset.
    signed: bool = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}({format_magnitude(self)} {self.unit})"

    def __str__(self) -> str:
        return f"{format_magnitude(self)} {self.unit}"

    @property
    def q(self):
        """This value as a pint Quantity (boundary use only)."""
        return ureg().Quantity(float(self), self.unit)

    def to(self, unit: str) -> float:
        """Magnitude in another unit of the same dimension."""
        return float(self) / unit_factor(unit, type(self))


class Length(_Quantity):
    __slots__ = ()
    unit = "m"
    dimension = "[length]"
    what = "a length"


class SignedLength(Length):
    """A length that may be negative: an offset along an axis (the shooter's height above
    the target, negative when below), where a plain Length is a size."""

    __slots__ = ()
    signed = True


class Speed(_Quantity):
    __slots__ = ()
    unit = "m/s"
    dimension = "[length] / [time]"
    what = "a speed"


class Duration(_Quantity):
    __slots__ = ()
    unit = "s"
    dimension = "[time]"
    what = "a time"


class Illuminance(_Quantity):
    __slots__ = ()
    unit = "lx"
    dimension = "[luminosity] / [length] ** 2"
    what = "an illuminance"


class Mass(_Quantity):
    __slots__ = ()
    unit = "kg"
    dimension = "[mass]"
    what = "a mass"


class Energy(_Quantity):
    __slots__ = ()
    unit = "J"
    dimension = "[mass] * [length] ** 2 / [time] ** 2"
    what = "an energy"


class Density(_Quantity):
    __slots__ = ()
    unit = "kg/m^3"
    dimension = "[mass] / [length] ** 3"
    what = "a density"


QUANTITY_TYPES: tuple[type[_Quantity], ...] = (Length, SignedLength, Speed, Duration, Illuminance, Mass, Energy,
                                                Density)

# Factors of the units users write most, to the canonical unit of each type. They are the
# exact definitions pint uses (a test checks every entry against pint), so that the
# common case needs no registry at start-up.
_FAST: dict[type[_Quantity], dict[str, float]] = {
    Length: {
        "m": 1.0, "meter": 1.0, "meters": 1.0, "metre": 1.0, "metres": 1.0,
        "cm": 0.01, "mm": 0.001, "km": 1000.0,
        "in": 0.0254, "inch": 0.0254, "inches": 0.0254,
        "ft": 0.3048, "foot": 0.3048, "feet": 0.3048,
        "yd": 0.9144, "yard": 0.9144, "yards": 0.9144,
        "mi": 1609.344, "mile": 1609.344, "miles": 1609.344,
    },
    Speed: {
        "m/s": 1.0, "km/h": 1000.0 / 3600.0, "kph": 1000.0 / 3600.0,
        "mph": 1609.344 / 3600.0, "ft/s": 0.3048, "m/min": 1.0 / 60.0,
    },
    Duration: {
        "s": 1.0, "sec": 1.0, "second": 1.0, "seconds": 1.0,
        "min": 60.0, "minute": 60.0, "minutes": 60.0, "h": 3600.0, "hour": 3600.0,
        "ms": 0.001,
    },
    Illuminance: {"lx": 1.0, "lux": 1.0, "klx": 1000.0},
    Mass: {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "lbs": 0.45359237, "pound": 0.45359237, "t": 1000.0},
    Energy: {"J": 1.0, "joule": 1.0, "joules": 1.0, "kJ": 1000.0},
    Density: {"kg/m^3": 1.0, "kg/m**3": 1.0, "g/cm^3": 1000.0, "g/cm**3": 1000.0},
}

_FAST[SignedLength] = _FAST[Length]

# the units plugins defined: name -> (quantity type, factor to its canonical unit, who defined it)
_DEFINED: dict[str, tuple[type[_Quantity], float, str]] = {}
_UNIT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def define(name: str, qtype: type[_Quantity], factor: float, owner: str = "") -> None:
    """Make `name` a unit of `qtype`: `factor` of its canonical unit (a system's turn of 3 s:
    ``define("nwod_turn", Duration, 3.0)``), known to :func:`parse` and to pint (``m / nwod_turn``).
    A name must not be a unit already (choose one pint does not know: ``gurps_turn``, not ``turn``);
    defining the same unit again is a no-op, another factor under a taken name a ValueError."""
    if not isinstance(name, str) or not _UNIT_NAME.fullmatch(name):
        raise ValueError(f"unit name {name!r} is not a word (letters, digits, underscores)")
    if qtype not in QUANTITY_TYPES or not isinstance(factor, (int, float)) or not math.isfinite(factor) or factor <= 0:
        raise ValueError(f"unit {name!r}: {qtype!r} is not a quantity type or {factor!r} no positive factor")
    old = _DEFINED.get(name)
    if old is not None:
        if old[0] is qtype and old[1] == float(factor):
            return
        raise ValueError(f"unit {name!r} is already {old[1]:g} {old[0].unit} ({old[2] or 'defined before'})")
    if any(name in units for units in _FAST.values()):
        raise ValueError(f"unit {name!r} is one of xsys's own units")
    with _lock:
        _DEFINED[name] = (qtype, float(factor), owner)
        _FAST[qtype][name] = float(factor)
        if _registry is not None:
            _registry.define(f"{name} = {float(factor)!r} * {qtype.unit}")

_NUMBER_UNIT = re.compile(
    r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf(?:inity)?|nan)\s*(.*?)\s*$",
    re.IGNORECASE,
)


@lru_cache(maxsize=512)
def _pint_factor(unit: str, dimension: str, canonical: str) -> float | None:
    """Factor from `unit` to `canonical` through pint, None if the dimension differs."""
    reg = ureg()
    try:
        parsed = reg.Quantity(1.0, unit)
    except Exception as exc:  # pint raises several types for unknown/garbled units
        raise UnitError(f"unknown unit {unit!r}", found=repr(unit)) from exc
    if str(parsed.dimensionality) != dimension:
        return None
    return float(parsed.to(canonical).magnitude)


def unit_factor(unit: str, qtype: type[_Quantity]) -> float:
    fast = _FAST[qtype].get(unit)
    if fast is not None:
        return fast
    factor = _pint_factor(unit, qtype.dimension, qtype.unit)
    if factor is None:
        raise UnitError(
            f"wrong unit for {qtype.what}",
            expected=f"{qtype.what} (e.g. '{_example(qtype)}')",
            found=repr(unit),
        )
    return factor


def _example(qtype: type[_Quantity]) -> str:
    return {Length: "25 m", SignedLength: "-2 m", Speed: "1.4 m/s", Duration: "3 s", Illuminance: "0.2 lx",
            Mass: "1.5 kg", Energy: "540 J", Density: "2400 kg/m^3"}[qtype]


def parse(text: Any, qtype: type[_Quantity]) -> _Quantity:
    """Read ``"25 m"``/``"82 ft"``/``"0.2 lx"`` as a ``qtype``; UnitError if it is not one."""
    if isinstance(text, qtype):
        return text
    if isinstance(text, bool) or not isinstance(text, str):
        raise UnitError(
            f"{qtype.what} must be written with its unit",
            expected=f"a string such as '{_example(qtype)}'",
            found=repr(text),
        )
    return _parse_text(text, qtype)


@lru_cache(maxsize=4096)
def _parse_text(text: str, qtype: type[_Quantity]) -> _Quantity:
    """parse() of a string, memoised: documents repeat the same few quantities."""
    m = _NUMBER_UNIT.match(text)
    if m is None or not m.group(2):
        raise UnitError(
            f"not {qtype.what}",
            expected=f"a number and a unit such as '{_example(qtype)}'",
            found=repr(text),
        )
    number, unit = m.group(1), m.group(2)
    value = float(number)
    if not math.isfinite(value):
        raise UnitError(f"{qtype.what} must be finite", expected="a finite number", found=repr(text))
    try:
        factor = unit_factor(unit, qtype)
    except UnitError as exc:
        exc.found = repr(text)
        raise
    value *= factor
    if not math.isfinite(value):  # finite as written, but not once in the canonical unit ('1e308 km')
        raise UnitError(f"{qtype.what} too large", expected=f"a size of at most {sys.float_info.max:.4g} {qtype.unit}",
                        found=repr(text))
    return qtype(value)


def format_magnitude(x: float) -> str:
    """Text of a magnitude to 12 significant digits (a physical value measured finer than
    that does not exist), without a trailing '.0': 1.5 inches is ``0.0381 m``, not the
    float noise of the conversion, ``0.038099999999999995 m``."""
    x = float(x)
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.12g}"
    y = float(text)
    if y.is_integer() and abs(y) < 1e15:
        return str(int(y))
    return text


def brief(value: float, unit: str = "") -> str:
    """A magnitude as an explanation prints it for a reader: three significant digits, as a
    table would (``9.33 m``, ``4.17 m/s``); documents keep :func:`to_text`'s full value."""
    x = float(value)
    r = float(f"{x:.3g}")
    text = str(int(r)) if r.is_integer() else f"{r:g}"
    unit = unit or getattr(value, "unit", "")
    return f"{text} {unit}" if unit else text


@lru_cache(maxsize=4096, typed=True)  # typed: Length(1) and Mass(1) are equal floats
def to_text(value: _Quantity) -> str:
    """The canonical string written to documents: magnitude and canonical unit."""
    return f"{format_magnitude(value)} {value.unit}"


def quantity(text: str, qtype: type[_Quantity]) -> _Quantity:
    """Convenience for code and tests: ``quantity("25 m", Length)``."""
    return parse(text, qtype)


def m(x: float) -> Length:
    return Length(x)


def lx(x: float) -> Illuminance:
    return Illuminance(x)


def mps(x: float) -> Speed:
    return Speed(x)
