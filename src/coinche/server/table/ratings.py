"""Ratings: each account's skill as an openskill (Weng & Lin 2011) Plackett-Luce rating.

Why a library and this model: a coinche game is two teams of two, and the Weng-Lin models
rate teams directly (a team's skill is the sum of its players'), with an uncertainty per
player so a newcomer moves fast and a regular slowly; ``openskill`` is maintained, typed and
has no dependencies. Only the pure arithmetic lives here: no database, no pages.

* ``Rating(mu, sigma)``: the estimate (``mu``) and its uncertainty (``sigma``), kept exact;
  players are shown ``display``, a conservative figure (see ``Rating.display``).
* ``LevelRatings``: the fixed rating of each computer level, measured by
  ``scripts/measure_level_ratings.py`` from duplicate arena matches between the levels and
  stored in ``data/level_ratings.json``. A computer seat plays at its level's rating and is
  never updated.
* ``rate_game``: the new ratings of the persons of one finished game. A person who left before
  the end makes their team the loser whatever the score (``player_stats`` keeps only the
  leaver's new rating from such a call: who is rated on what is docs/ratings.md).
* ``adaptive_start``: where the adaptive computer's knob starts for a player.

The model's parameters are fixed here (``MODEL_PARAMS``, the library's defaults written out so
a new release changing a default cannot move anyone's rating): mu 25, sigma 25/3, beta 25/6
(the spread of one game's performance), tau 25/300 (added to every sigma before a game so a
regular's rating can still move), kappa 0.0001, no sigma limit, no balance weighting, no
margin of victory (a game is won or lost; its score does not count).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating

from ...bots.adaptive import KNOB_LEVELS

PlayerId = str
"""An account's id."""

MODEL_PARAMS: Final[Mapping[str, float | bool]] = {
    "mu": 25.0,
    "sigma": 25.0 / 3.0,
    "beta": 25.0 / 6.0,
    "kappa": 0.0001,
    "tau": 25.0 / 300.0,
    "limit_sigma": False,
    "balance": False,
}

DISPLAY_Z: Final = 3.0
"""``display`` subtracts this many sigmas from mu: the skill the player has at 99.7%."""
DISPLAY_SCALE: Final = 40.0
DISPLAY_BASE: Final = 1000.0
"""``display`` = ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``: a new account shows 1000,
an established player of the confirmed computer's strength (mu 25, sigma about 1.5) about
1800, figures in the familiar range of chess ratings."""

DATA_FILE: Final = "data/level_ratings.json"


def make_model() -> PlackettLuce:
    """The Plackett-Luce model with the fixed parameters of ``MODEL_PARAMS``."""
    p = MODEL_PARAMS
    return PlackettLuce(
        mu=float(p["mu"]),
        sigma=float(p["sigma"]),
        beta=float(p["beta"]),
        kappa=float(p["kappa"]),
        tau=float(p["tau"]),
        limit_sigma=bool(p["limit_sigma"]),
        balance=bool(p["balance"]),
    )


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate ``mu`` and its uncertainty ``sigma`` (model units)."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self.mu}, {self.sigma}")

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: what ``display`` grows with (the leaderboard's order)."""
        return self.mu - DISPLAY_Z * self.sigma

    @property
    def display(self) -> int:
        """The figure shown to players: the library's ordinal ``mu - 3 sigma`` (the skill the player
        has at 99.7%), scaled as ``1000 + 40 * ordinal`` and rounded, never below 0. It is
        conservative: it starts at 1000 and climbs as games shrink sigma, so a lucky first
        win does not top a ranking."""
        value = PlackettLuceRating(self.mu, self.sigma).ordinal(z=DISPLAY_Z, alpha=DISPLAY_SCALE, target=DISPLAY_BASE)
        return max(0, round(value))

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        return cls(float(data["mu"]), float(data["sigma"]))


NEW_PLAYER: Final = Rating(float(MODEL_PARAMS["mu"]), float(MODEL_PARAMS["sigma"]))
"""The rating of an account that has not finished a game."""


@dataclass(frozen=True)
class LevelRatings:
    """The fixed ratings of the computer levels, weakest first (``KNOB_LEVELS``' order)."""

    beginner: Rating
    confirmed: Rating
    expert: Rating

    def __post_init__(self) -> None:
        if not self.beginner.mu < self.confirmed.mu < self.expert.mu:
            raise ValueError("the levels' ratings must grow from beginner to confirmed to expert")

    def of(self, level: str) -> Rating:
        """The rating of the level named ``level`` (one of ``KNOB_LEVELS``)."""
        if level not in KNOB_LEVELS:
            raise ValueError(f"unknown computer level {level!r}")
        rating: Rating = getattr(self, level)
        return rating

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LevelRatings:
        levels = data["levels"]
        return cls(*(Rating.from_json(levels[name]) for name in KNOB_LEVELS))

    @classmethod
    def load(cls) -> LevelRatings:
        """The measured figures shipped with the package (``data/level_ratings.json``)."""
        text = resources.files("coinche.server.table").joinpath(DATA_FILE).read_text(encoding="utf-8")
        return cls.from_json(json.loads(text))


@dataclass(frozen=True)
class Person:
    """A seat held by an account, at its current rating."""

    player_id: PlayerId
    rating: Rating


@dataclass(frozen=True)
class Computer:
    """A seat held by a computer of one of ``KNOB_LEVELS``: rated at that level's fixed rating."""

    level: str


Seat = Person | Computer


def rate_game(
    teams: tuple[tuple[Seat, Seat], tuple[Seat, Seat]],
    winner: int,
    left: Collection[PlayerId] = frozenset(),
    levels: LevelRatings | None = None,
) -> dict[PlayerId, Rating]:
    """The new ratings of the persons of a finished game between ``teams[0]`` and ``teams[1]``.

    ``winner`` (0 or 1) is the team that won on the score. A person in ``left`` left before the
    end: their team loses whatever the score (their partner too, who could not finish it).
    When both teams have a leaver, nobody wins an abandoned game: each leaver is rated as
    losing to the other team, and the persons who stayed keep their ratings unchanged.
    Computers play at ``levels`` (default: the measured ``LevelRatings.load()``) and are never
    updated; the result holds every person of the game, computers left out.
    """
    if winner not in (0, 1):
        raise ValueError(f"the winner is team 0 or team 1, not {winner}")
    ids = [s.player_id for team in teams for s in team if isinstance(s, Person)]
    if len(set(ids)) != len(ids):
        raise ValueError("a person sits twice at the game")
    if any(isinstance(s, Computer) for team in teams for s in team) and levels is None:
        levels = LevelRatings.load()
    leavers = [any(isinstance(s, Person) and s.player_id in left for s in team) for team in teams]
    if leavers[0] and leavers[1]:
        result = {s.player_id: s.rating for team in teams for s in team if isinstance(s, Person)}
        for loser in (0, 1):
            new = _rate(teams, 1 - loser, levels)
            result.update({pid: r for pid, r in new.items() if pid in left and _team_of(teams, pid) == loser})
        return result
    if leavers[0] or leavers[1]:
        winner = 1 if leavers[0] else 0
    return _rate(teams, winner, levels)


def _team_of(teams: tuple[tuple[Seat, Seat], tuple[Seat, Seat]], pid: PlayerId) -> int:
    return 0 if any(isinstance(s, Person) and s.player_id == pid for s in teams[0]) else 1


def _rate(
    teams: tuple[tuple[Seat, Seat], tuple[Seat, Seat]], winner: int, levels: LevelRatings | None
) -> dict[PlayerId, Rating]:
    """One openskill update, team ``winner`` ranked first; the persons' new ratings."""
    model = make_model()

    def start(seat: Seat) -> Rating:
        if isinstance(seat, Person):
            return seat.rating
        assert levels is not None
        return levels.of(seat.level)

    lib = [[model.rating(mu=start(s).mu, sigma=start(s).sigma) for s in team] for team in teams]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    rated = model.rate(lib, ranks=ranks)
    return {
        seat.player_id: Rating(new.mu, new.sigma)
        for team, new_team in zip(teams, rated, strict=True)
        for seat, new in zip(team, new_team, strict=True)
        if isinstance(seat, Person)
    }


def adaptive_start(rating: Rating, levels: LevelRatings | None = None) -> float:
    """The adaptive computer's starting knob (0.0 beginner, 0.5 confirmed, 1.0 expert, as in
    ``coinche.bots.adaptive``) for a player of ``rating``: the player's ``mu`` placed on the
    levels' measured mus, linearly between two neighbouring levels, clamped to 0.0..1.0. A new
    account (mu 25, the confirmed level's anchor) starts at the confirmed level. ``mu``, not
    ``display``: the knob should match the player's likeliest skill, not a cautious floor."""
    lv = levels if levels is not None else LevelRatings.load()
    b, c, e = lv.beginner.mu, lv.confirmed.mu, lv.expert.mu
    mu = rating.mu
    if mu <= b:
        return 0.0
    if mu >= e:
        return 1.0
    if mu <= c:
        return 0.5 * (mu - b) / (c - b)
    return 0.5 + 0.5 * (mu - c) / (e - c)


def rate_puzzle(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """A player's first try at a puzzle as a game of one against one (the puzzle wins when
    the player misses it): both new ratings, by the same model as the games'. A puzzle
    starts at ``puzzle_start``, and settles as players try it (Lichess rates its puzzles
    the same way, with Glicko-2)."""
    model = make_model()
    lib = [[model.rating(mu=player.mu, sigma=player.sigma)], [model.rating(mu=puzzle.mu, sigma=puzzle.sigma)]]
    (new_player,), (new_puzzle,) = model.rate(lib, ranks=[0.0, 1.0] if solved else [1.0, 0.0])
    return Rating(new_player.mu, new_player.sigma), Rating(new_puzzle.mu, new_puzzle.sigma)


def puzzle_start(choices: int, cards_left: int) -> Rating:
    """A new puzzle's rating, before anyone tried it: harder with more cards to choose
    from and more tricks to see through (a guess to start from; the tries correct it)."""
    mu = float(MODEL_PARAMS["mu"]) + 1.5 * (choices - 2) + 1.0 * (cards_left - 3)
    return Rating(mu, float(MODEL_PARAMS["sigma"]))
