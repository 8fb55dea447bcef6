"""Per-shot arithmetic of the GURPS check that depends on a few small values only, computed
once per process (warm odds of a shot within 1 ms).

:func:`shot_damage` is the damage distribution of one shot in ``Gurps._evaluate``: a hit's
damage past DR (given as text, as ``_damage`` returns it) weighted by the chance to hit, a
miss by 1 that hits another location (gurps.hit-location) weighted by its chance, misses at
0. Parsing "p/q" texts into Fractions and multiplying them out on every call cost most of a
check. ``tests/test_fast_odds.py`` checks that it gives exactly the plain computation.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from xsys.core.trace import fraction_text

_MEMO: dict[tuple, tuple[tuple[str, str], ...]] = {}
_LIMIT = 4096  # answers kept: memory stays bounded however many shots are asked


def shot_damage(hit: Mapping[str, str], chance: Fraction, redirect: Mapping[str, str] | None = None,
                redirect_p: Fraction = Fraction(0)) -> dict[str, str]:
    """``{"points": "p/q"}`` of one shot: `hit` (a hit's damage distribution as text) with
    probability `chance`, `redirect` (the other location's) with `redirect_p` when given
    and not 0, no damage otherwise; zero probabilities left out. A new dict each call."""
    use_redirect = redirect is not None and bool(redirect_p)
    key = (tuple(hit.items()), chance, tuple(redirect.items()) if use_redirect and redirect is not None else None,
           redirect_p)
    found = _MEMO.get(key)
    if found is None:
        per_shot = {int(k): Fraction(v) * chance for k, v in hit.items()}
        if use_redirect and redirect is not None:
            for k, v in redirect.items():
                per_shot[int(k)] = per_shot.get(int(k), Fraction(0)) + Fraction(v) * redirect_p
        per_shot[0] = per_shot.get(0, Fraction(0)) + (1 - chance - redirect_p)
        found = tuple((str(k), fraction_text(p)) for k, p in sorted(per_shot.items()) if p)
        if len(_MEMO) < _LIMIT:
            _MEMO[key] = found
    return dict(found)


def clear_caches() -> None:
    """Forget the remembered answers (tests)."""
    _MEMO.clear()
