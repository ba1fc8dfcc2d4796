"""How well a seat played a finished deal: the cost of each card and call, and the
accuracy they add up to (``docs/accuracy.md`` defines it and says its limits).

A card's cost is what the double-dummy solver says it gave away: the points the best legal
card keeps for the player's side minus those the card played keeps, on the deal's real
hands. A call's cost is what the expert's appraisal (``expert.auction.appraise``, the one
the bidding puzzles use) says it gave away: the expected score margin of the best call open
to the seat minus that of the call made, from the seat's own hand and the calls before it.

The costs are computed once, in the review's analysis (``server.compute.job_kinds.analyse``
stores ``positions`` and ``calls``); ``accuracy_by_seat`` reads that analysis back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.actions import Action, call_str, is_generale
from ..engine.cards import CardSet
from ..engine.deal import Deal, Phase
from ..engine.rules import RuleSet
from .bidding_puzzles import CLOSE, valued_calls
from .expert.auction import Appraisal, appraise
from .expert.config import ExpertConfig

CALL_KEPT: Final = CLOSE
"""A call valued this much below the best or less kept the value (the bidding puzzles'
"as good an answer")."""
CARD_MISTAKE: Final = 10
"""A card that gives away this many points or more is marked in the review (``?``)..."""
CARD_BLUNDER: Final = 30
"""...and this many or more, as a blunder (``??``): a trick of honours, a contract."""
CALL_MISTAKE: Final = 20.0
"""A call valued this much below the best or more is marked (``?``)..."""
CALL_BLUNDER: Final = 60.0
"""...and this much or more, as a blunder (``??``)."""


def mark(cost: float, mistake: float, blunder: float) -> str | None:
    """A decision's mark in the review: ``??``, ``?`` or none."""
    return "??" if cost >= blunder else "?" if cost >= mistake else None


def card_cost(values: Mapping[str, int], played: str) -> int:
    """What ``played`` gave away: the best card's double-dummy value minus its own (0 when
    it keeps the value; never negative)."""
    return max(values.values()) - values[played]


def card_had_choice(values: Mapping[str, int]) -> bool:
    """The position offered cards of different values: one forced card, or cards all worth
    the same, is no decision and does not count in the accuracy."""
    return len(set(values.values())) > 1


@dataclass(frozen=True)
class CallCost:
    """One call of an auction and what the expert's appraisal says it cost."""

    step: int
    """The review's step of the call (the deal's first call is step 1)."""
    seat: int
    played: Action
    best: Action
    cost: float
    """The best call's expected margin minus the call made's (0 for the best; never negative)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "played": call_str(self.played),
            "best": call_str(self.best),
            "cost": round(self.cost, 1),
        }


def call_costs(
    rules: RuleSet,
    dealer: int,
    hands: Sequence[CardSet],
    calls: Sequence[Action],
    config: ExpertConfig | None = None,
) -> list[CallCost]:
    """The cost of every call of the auction ``calls`` that had a choice (more than one
    legal call), each from the caller's view alone: their hand and the calls before. The
    calls the expert weighs are valued first (the best is always among them); every bid
    only when the call made is not one of them (twice the work)."""
    config = config or ExpertConfig()
    deal = Deal(rules, dealer, tuple(hands))
    out = []
    for index, played in enumerate(calls):
        if deal.phase is not Phase.AUCTION:
            break
        view = deal.view(deal.to_move)
        if len(view.legal_actions) > 1:
            values = call_values_of(appraise(view, config))
            if played not in values:  # a bid out of the expert's reach: every bid valued
                values = call_values_of(appraise(view, config, every_bid=True))
            if played in values:
                best = max(values, key=lambda c: values[c])
                out.append(CallCost(index + 1, deal.to_move, played, best, max(0.0, values[best] - values[played])))
        deal.apply(played)
    return out


def call_values_of(appraisal: Appraisal) -> dict[Action, float]:
    """Every call of an appraisal and its expected margin, the générale included."""
    values = {v.call: v.expected for v in valued_calls(appraisal)}
    for expected, action, _outlook in appraisal.bids:
        if is_generale(action):  # the one call ``valued_calls`` leaves aside
            values[action] = expected
    return values


@dataclass(frozen=True)
class Accuracy:
    """A seat's decisions over one deal or more: the cards and calls that had a choice,
    how many of them kept the value, and the points they gave away in all."""

    cards: int = 0
    cards_kept: int = 0
    card_loss: int = 0
    calls: int = 0
    calls_kept: int = 0
    call_loss: float = 0.0

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(
            self.cards + other.cards,
            self.cards_kept + other.cards_kept,
            self.card_loss + other.card_loss,
            self.calls + other.calls,
            self.calls_kept + other.calls_kept,
            self.call_loss + other.call_loss,
        )

    @property
    def card_share(self) -> float | None:
        """The share of cards with a choice that kept the value (None: no such card)."""
        return self.cards_kept / self.cards if self.cards else None

    @property
    def card_mean(self) -> float | None:
        """The points given away per card with a choice."""
        return self.card_loss / self.cards if self.cards else None

    @property
    def call_share(self) -> float | None:
        """The share of calls within ``CALL_KEPT`` of the best."""
        return self.calls_kept / self.calls if self.calls else None

    @property
    def call_mean(self) -> float | None:
        """The expected points given away per call."""
        return self.call_loss / self.calls if self.calls else None

    def to_json(self) -> dict[str, Any]:
        """The counts and the four measures (percent and points, rounded for display)."""

        def pct(x: float | None) -> float | None:
            return None if x is None else round(100 * x, 1)

        def pts(x: float | None) -> float | None:
            return None if x is None else round(x, 1)

        return {
            "cards": self.cards,
            "cards_kept": self.cards_kept,
            "card_loss": self.card_loss,
            "calls": self.calls,
            "calls_kept": self.calls_kept,
            "call_loss": round(self.call_loss, 1),
            "card_share": pct(self.card_share),
            "card_mean": pts(self.card_mean),
            "call_share": pct(self.call_share),
            "call_mean": pts(self.call_mean),
        }


def total(tallies: Iterable[Accuracy]) -> Accuracy:
    out = Accuracy()
    for t in tallies:
        out = out + t
    return out


def accuracy_by_seat(analysis: Mapping[str, Any]) -> tuple[Accuracy, Accuracy, Accuracy, Accuracy]:
    """Each seat's accuracy over a deal, from its analysis (``positions``: each card's
    values and the card played; ``calls``: each call's cost)."""
    cards = [[0, 0, 0] for _ in range(4)]
    for p in analysis["positions"]:
        values = p["values"]
        if card_had_choice(values):
            cost = card_cost(values, p["played"])
            tally = cards[p["seat"]]
            tally[0] += 1
            tally[1] += cost == 0
            tally[2] += cost
    calls: list[list[float]] = [[0, 0, 0.0] for _ in range(4)]
    for c in analysis["calls"]:
        tally_c = calls[c["seat"]]
        tally_c[0] += 1
        tally_c[1] += c["cost"] <= CALL_KEPT
        tally_c[2] += c["cost"]
    seats = [
        Accuracy(cards[s][0], cards[s][1], cards[s][2], int(calls[s][0]), int(calls[s][1]), calls[s][2])
        for s in range(4)
    ]
    return seats[0], seats[1], seats[2], seats[3]


def costly(analysis: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The decisions of the analysis that gave away enough to be marked (``mark``), in the
    deal's order: each with its step, seat, kind (``card`` or ``call``), what was played,
    the best (cards: every card of the best value), the cost and the mark."""
    out: list[dict[str, Any]] = []
    for p in analysis["positions"]:
        values = p["values"]
        cost = card_cost(values, p["played"])
        sign = mark(cost, CARD_MISTAKE, CARD_BLUNDER)
        if sign is not None:
            top = max(values.values())
            best = sorted(c for c, v in values.items() if v == top)
            out.append(
                {
                    "step": p["step"],
                    "seat": p["seat"],
                    "kind": "card",
                    "played": p["played"],
                    "best": best,
                    "cost": cost,
                    "mark": sign,
                }
            )
    for c in analysis["calls"]:
        sign = mark(c["cost"], CALL_MISTAKE, CALL_BLUNDER)
        if sign is not None:
            out.append(
                {
                    "step": c["step"],
                    "seat": c["seat"],
                    "kind": "call",
                    "played": c["played"],
                    "best": [c["best"]],
                    "cost": c["cost"],
                    "mark": sign,
                }
            )
    out.sort(key=lambda d: d["step"])
    return out
