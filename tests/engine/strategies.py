"""Hypothesis strategies shared by the engine's property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from coinche.engine.rules import PROFILES, RuleSet

PROFILE_NAMES = sorted(PROFILES)


@st.composite
def rulesets(draw: st.DrawFn) -> RuleSet:
    """A profile with a few table options changed at random."""
    name = draw(st.sampled_from(PROFILE_NAMES))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["sa_ta"] = draw(st.booleans())
    if draw(st.booleans()):
        options["undertrump"] = draw(st.sampled_from(["forced", "optional"]))
    if draw(st.booleans()):
        options["melds"] = draw(st.booleans())
    if draw(st.booleans()):
        options["belote_must_announce"] = draw(st.booleans())
    if draw(st.booleans()):
        options["ta_values"] = draw(st.sampled_from(["classic", "ffb"]))
    return RuleSet.profile(name, **options)
