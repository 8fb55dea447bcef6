"""Shared vocabulary: the presets and names every plugin maps its categories onto
(DESIGN §2, "Shared vocabulary"), so that plugins written months apart agree on what
"moonlight" or "jogging" is. Values are physical facts; see docs/neutral-model.md."""

from __future__ import annotations

from typing import Literal

# Illuminance on the target, lux.
ILLUMINANCE: dict[str, float] = {
    "direct-sun": 100_000.0,
    "daylight": 10_000.0,
    "overcast-day": 1_000.0,
    "indoor": 300.0,
    "street-light": 10.0,
    "twilight": 3.0,
    "full-moon": 0.25,
    "quarter-moon": 0.01,
    "starlight": 0.001,
    "overcast-night": 0.0001,
    "darkness": 0.0,
}

# Gaits, metres per second.
GAIT: dict[str, float] = {"still": 0.0, "walk": 1.4, "jog": 2.7, "run": 5.0, "sprint": 7.0}

# Visible fraction of the target.
EXPOSURE: dict[str, float] = {
    "full": 1.0,
    "half": 0.5,
    "head-and-shoulders": 0.2,
    "head-only": 0.1,
    "barely": 0.05,
    "none": 0.0,
}

Posture = Literal["standing", "crouching", "kneeling", "sitting", "crawling", "prone"]
# Silhouette height of an adult in each posture, metres (ordered: lower is harder to hit).
POSTURE_HEIGHT: dict[str, float] = {
    "standing": 1.75,
    "crouching": 1.2,
    "kneeling": 1.15,
    "sitting": 1.0,
    "crawling": 0.6,
    "prone": 0.35,
}
POSTURES: tuple[str, ...] = tuple(POSTURE_HEIGHT)

WeaponClass = Literal["handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg", "thrown"]
WEAPON_CLASSES: tuple[str, ...] = ("handgun", "revolver", "smg", "carbine", "rifle", "shotgun", "mg", "thrown")
# Short arms take the standard shot at 10 m, long arms at 25 m (DESIGN §2).
SHORT_ARMS = frozenset({"handgun", "revolver", "thrown"})

Sight = Literal["iron", "tritium", "laser", "red-dot", "reflex", "scope", "nv-sight", "thermal"]
VisionAid = Literal["weapon-light", "hand-light", "nv-goggles", "thermal-goggles"]
FireMode = Literal["single", "semi", "burst", "auto"]
Location = Literal[
    "head", "skull", "eye", "face", "jaw", "nose", "neck", "throat", "torso", "vitals", "groin",
    "arm", "arms", "hand", "hands", "weapon", "leg", "legs", "foot", "feet",
]
ArmorKind = Literal["soft-vest", "plate", "plate-carrier", "helmet", "garment", "natural", "other"]

# Neutral characteristics: each is a percentile among ordinary adults (0-1).
CHARACTERISTICS: dict[str, str] = {
    "strength": "muscle power",
    "constitution": "health, stamina, toughness",
    "size": "body mass and height",
    "dexterity": "agility, coordination, motor skill",
    "appearance": "looks and presence",
    "intelligence": "reasoning and memory",
    "perception": "wits, alertness and the senses",
    "will": "willpower, courage, composure",
    "education": "schooling and knowledge",
    "charisma": "persuasion and manipulation",
}

# Neutral skills: each is an equated competence (core.equating): for a firearm skill its true
# score over the weapon class's battery of reference shots, for the others the unmodified roll.
# A skill with a weapon class takes the standard shot with that class (DESIGN §2); the
# others take the unmodified roll.
SKILLS: dict[str, str | None] = {
    "handgun": "handgun",
    "rifle": "rifle",
    "shotgun": "shotgun",
    "smg": "smg",
    "machine_gun": "mg",
    "throw": "thrown",
    "dodge": None,
    "spot": None,
    "listen": None,
    "stealth": None,
    "conceal": None,
    "locksmith": None,
    "brawl": None,
    "melee": None,
    "athletics": None,
    "first_aid": None,
    "drive": None,
    "climb": None,
    "swim": None,
    "jump": None,
    "track": None,
}


def firearm_skill_for(weapon_class: str) -> str:
    """The neutral skill that fires a weapon class."""
    return {
        "handgun": "handgun", "revolver": "handgun", "smg": "smg", "carbine": "rifle",
        "rifle": "rifle", "shotgun": "shotgun", "mg": "machine_gun", "thrown": "throw",
    }[weapon_class]
