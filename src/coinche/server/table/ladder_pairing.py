"""The engine ladder's arithmetic (``features/ladder``): who plays whom, what a duplicate
match's two tables say, how a match moves the ratings, and the figures the ladder page
shows. No database here: the feature reads the rows and writes what this decides.

A match is one bot against another (or against an *anchor*, a computer level whose rating
is fixed: ``data/level_ratings.json``), rated as a game of one against one by the site's
openskill model (``ratings.make_model``): the anchors tie the bots' figures to known
strengths, as the computers' fixed ratings do for people."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .ratings import DISPLAY_BASE, DISPLAY_SCALE, MODEL_PARAMS, LevelRatings, Rating, make_model

ANCHORS: Final = ("beginner", "confirmed", "expert")
"""The computer levels a bot with nobody to play is paired with."""
Z95: Final = 1.96
"""A 95% interval is the estimate plus or minus this many sigmas."""
NEW_ENGINE: Final = Rating(float(MODEL_PARAMS["mu"]), float(MODEL_PARAMS["sigma"]))


@dataclass(frozen=True)
class Candidate:
    """A bot that may be paired now: its player, its ladder rating, the opponent of its last
    match (None: none, or an anchor)."""

    player: str
    rating: Rating
    last_opponent: str | None = None


@dataclass(frozen=True)
class Pairing:
    """A match to make: ``first`` against ``second`` (a bot's player), or against the
    computer level ``anchor`` when ``second`` is None."""

    first: str
    second: str | None
    anchor: str | None = None


def pair(candidates: Sequence[Candidate], levels: LevelRatings) -> list[Pairing]:
    """Pair the ``candidates`` once each: from the strongest down, each with the nearest
    rating among those left, not the one it last played while another is left; the last
    one alone with the nearest anchor."""
    left = sorted(candidates, key=lambda c: (-c.rating.mu, c.player))
    out: list[Pairing] = []
    while left:
        first = left.pop(0)
        others = [c for c in left if c.player != first.last_opponent] or left
        if others:
            second = min(others, key=lambda c: (abs(c.rating.mu - first.rating.mu), c.player))
            left.remove(second)
            out.append(Pairing(first.player, second.player))
        else:
            anchor = min(ANCHORS, key=lambda level: abs(levels.of(level).mu - first.rating.mu))
            out.append(Pairing(first.player, None, anchor))
    return out


def match_score(first_leg: int, second_leg: int) -> float:
    """The first bot's result from its point difference at each table (its side's points
    minus the other's): 1 a win, 0.5 a draw, 0 a loss."""
    total = first_leg + second_leg
    return 1.0 if total > 0 else 0.0 if total < 0 else 0.5


def rate_match(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both new ratings after a match the first bot scored ``score`` (``match_score``) in.
    An anchor's new rating is not kept (the caller keeps it fixed)."""
    model = make_model()
    teams = [[model.rating(mu=first.mu, sigma=first.sigma)], [model.rating(mu=second.mu, sigma=second.sigma)]]
    ranks = [0.0, 0.0] if score == 0.5 else [0.0, 1.0] if score > 0.5 else [1.0, 0.0]
    (a,), (b,) = model.rate(teams, ranks=ranks)
    return Rating(a.mu, a.sigma), Rating(b.mu, b.sigma)


def figure(rating: Rating) -> int:
    """The ladder's figure of a rating: its estimate on the site's scale (``1000 + 40 mu``,
    as ``Rating.display`` but not lowered by the uncertainty: the interval says that)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (rating.mu - float(MODEL_PARAMS["mu"])))


def interval(rating: Rating) -> tuple[int, int]:
    """The 95% confidence interval of ``figure``."""
    half = Z95 * DISPLAY_SCALE * rating.sigma
    middle = DISPLAY_BASE + DISPLAY_SCALE * (rating.mu - float(MODEL_PARAMS["mu"]))
    return math.floor(middle - half), math.ceil(middle + half)


def faults_in(recent: str, window: int) -> int:
    """The faults among the last ``window`` decisions of ``recent`` (one character a
    decision, oldest first: ``1`` a fault, ``0`` a move of the bot's own)."""
    return recent[-window:].count("1") if window > 0 else 0
