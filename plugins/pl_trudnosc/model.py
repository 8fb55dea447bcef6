"""The Polish system's documents xsys reads and writes, in the game's own words: the character sheet
(Postać) with its skills (Umiejętności), weapons (Broń) and armor (Pancerz), the carried block, and
one shot (Strzał) with what the target stands behind (Przeszkoda).
"""

from __future__ import annotations

from typing import Annotated, Literal, Mapping

import msgspec
from msgspec import Meta

from xsys.core.model import Name, Text
from xsys.core.units import Length
from xsys.core.vocab import Location, VisionAid


# ---- native Structs ----------------------------------------------------------------

class _S(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


Cecha = Annotated[int, Meta(ge=1, le=5, description="trait 1-5 (scale assumed, pl.traits)")]
Poziom = Annotated[int, Meta(ge=0, le=5, description="skill 0-5 (scale assumed, pl.traits)")]
Punkty = Annotated[int, Meta(ge=0, le=12, description="points on the assumed 0-12 scale (pl.damage/pl.armor)")]
Tempo = Literal["stoi", "marsz", "trucht", "bieg"]
Postawa = Literal["stojąca", "klęcząca", "leżąca"]
OsłonaCelu = Literal["brak", "zza osłony", "ukryty"]
Oświetlenie = Literal["dzień", "zmierzch", "księżyc", "gwiazdy", "ciemność"]
Rodzaj = Literal["krótka", "długa", "rzucana"]


class Umiejętności(_S, kw_only=True):
    """The skills the text names (used in "test X z Y")."""

    Broń_krótka: Poziom = msgspec.field(default=0, name="Broń krótka")
    Broń_długa: Poziom = msgspec.field(default=0, name="Broń długa")
    Rzucanie: Poziom = 0
    Czujność: Poziom = 0

    def as_dict(self) -> dict[str, int]:
        return {"Broń krótka": self.Broń_krótka, "Broń długa": self.Broń_długa,
                "Rzucanie": self.Rzucanie, "Czujność": self.Czujność}

    @classmethod
    def of(cls, levels: Mapping[str, int]) -> "Umiejętności":
        return cls(Broń_krótka=levels.get("Broń krótka", 0), Broń_długa=levels.get("Broń długa", 0),
                   Rzucanie=levels.get("Rzucanie", 0), Czujność=levels.get("Czujność", 0))


class Broń(_S, kw_only=True):
    """A weapon. ``katalog``: catalog id, needed only when ``nazwa`` is not the catalog's
    name; ``obrażenia``: base damage points (pl.damage, assumed scale), derived from the
    catalog weapon's muzzle energy when omitted."""

    nazwa: Name
    rodzaj: Rodzaj
    obrażenia: Punkty | None = None
    katalog: Name | None = None


class Pancerz(_S, kw_only=True):
    """Armor: ``punkty`` on the assumed points scale (pl.armor), or a catalog item."""

    nazwa: Name
    punkty: Punkty | None = None
    katalog: Name | None = None
    # Where it sits (osłania: neutral location words) and how readily it turns a blow aside
    # (odbicie: a GURPS PD), when that is not what its catalog item (or the torso alone, no
    # deflection) says: the points carry neither, the line keeps them (xsys.core.armorline).
    osłania: list[Location] | None = None
    odbicie: Annotated[int, Meta(ge=0, le=10)] | None = None


class Przeszkoda(_S, kw_only=True):
    """A solid barrier a shot at a hidden target passes through (pl.barrier, assumed)."""

    materiał: Name
    grubość: Length
    nazwa: Name = ""


class PlCarried(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a pl-trudnosc stat block puts in the neutral NPC's ``carried: {pl-trudnosc: ...}``
    (and takes back from it): what only these rules state, verbatim (xsys.core.carried)."""

    Zalety: list[Name] = msgspec.field(default_factory=list)


class Postać(_S, kw_only=True):
    """A native stat block: the four traits, the four skills, Zalety, weapons, armor."""

    imię: Name
    Motoryka: Cecha = 3
    Percepcja: Cecha = 3
    Atletyka: Cecha = 3
    Odwaga: Cecha = 3
    umiejętności: Umiejętności = msgspec.field(default_factory=Umiejętności)
    Zalety: list[Name] = msgspec.field(default_factory=list)
    broń: list[Broń] = msgspec.field(default_factory=list)
    pancerz: list[Pancerz] = msgspec.field(default_factory=list)
    opis: Text = ""


class Strzał(_S, kw_only=True):
    """One shot as the text describes it (pl.shoot with pl.difficulty.*, pl.defence.*, pl.aim).
    ``umiejętność`` is the level of the skill the weapon uses (Broń krótka, Broń długa or
    Rzucanie); ``celowanie`` the aiming turns spent before the shot; ``osłona_celu`` whether
    the target fires from behind cover (+10) or is hidden behind it."""

    nazwa: Name = ""
    strzelec: Name = ""
    cel: Name = ""
    Motoryka: Cecha = 3
    umiejętność: Poziom = 0
    broń: Broń
    dystans: Length
    ruch_strzelca: Tempo = "stoi"
    ruch_celu: Tempo = "stoi"
    postawa_celu: Postawa = "stojąca"
    osłona_celu: OsłonaCelu = "brak"
    przeszkoda: Przeszkoda | None = None
    celowanie: Annotated[int, Meta(ge=0, le=20)] = 0
    oświetlenie: Oświetlenie = "dzień"
    pomoce_wzroku: list[VisionAid] = msgspec.field(default_factory=list)
    pancerz_celu: list[Pancerz] = msgspec.field(default_factory=list)
