"""The xsys conformance kit: every system, ours or a third party's, must pass it.

In a plugin's test file, one line runs it::

    from xsys.testing import conformance_suite
    TestConformance = conformance_suite("my-system")

It checks that the system's ladders are monotone and carry rule IDs and sources, that
native -> neutral -> native is the identity for every ladder, characteristic and skill,
that the chance of a shot never rises as any neutral difficulty axis worsens (distance,
target and shooter speed, darkness, exposure, barrier thickness, target posture) and
never falls as skill rises, that skill conversion is monotone, that every modifier of a
check carries a rule ID and a source, and that the system's NPC fixtures round-trip.

The hypothesis depth follows ``XSYS_HYPOTHESIS_PROFILE`` (``default``, ``ci``, ``deep``),
registered by the ``xsys`` pytest plugin (``xsys.testing.plugin``).
"""

from .conformance import check_ladder, conformance_suite, shot_strategy

__all__ = ["conformance_suite", "check_ladder", "shot_strategy"]
