"""Hypothesis strategies and sample data shared by the engine's tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from coinche.engine.cards import parse_cards
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


SAMPLE_HANDS = (
    parse_cards("AH KH QH JS JD TS 7D 8C"),
    parse_cards("9S 8S 7S AS KS QS 9D 8D"),
    parse_cards("JH TH 9H 8H 7H AD KD QD"),
    parse_cards("JC TC 9C AC KC QC 7C TD"),
)
"""A deal: seat 0 holds a hearts tierce with the belote."""
