"""The expert's cards: perfect-information Monte Carlo, contract first, on a work budget.

Deal the unseen cards many times (``deals``) and ask the solver, in every deal, whether
each candidate card still lets the takers make the contract (one null-window search per
card), then how many points the best cards bring (exact values on a few deals); turn both
into the deal's score margin (``outcome.Scorer``) and play the best expected margin.

Three things keep it fast without losing the accuracy of ``config.samples`` deals:

* successive rejection: after a first batch of deals, a card whose margin is clearly worse
  than the leader's (a paired bound from the batch's spread) gets no more deals; when one
  card is left it is played;
* when few cards are unseen, every consistent layout is searched instead of a sample;
* a budget of solver nodes (``config.work_at``), not of wall-clock time, bounds the work, so
  that a decision depends only on the view and the seed, never on the machine's load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...engine.actions import Action
from ...engine.cards import card_str
from ...engine.deal import View
from ...engine.messages import Message
from ...engine.play import tables, trick_winner
from ...engine.scoring import Contract
from ..base import Decision, with_belote
from ..knowledge import unseen_cards
from ..sampling import all_deals, constraints_from_view
from ..solver import Position, can_reach, can_sweep, last_nodes, solve
from .config import ExpertConfig
from .deals import Hands, play_deals, play_weights
from .outcome import Scorer


@dataclass(frozen=True, slots=True)
class CardSearch:
    """What the search found for one decision (the chosen card and how it was judged)."""

    best: int
    expected: dict[int, float]
    """Expected score margin of every card still in the race at the end."""
    made_rate: float
    """Weighted share of the deals searched in which the takers make it after ``best``."""
    deals: int
    """Deals searched for ``best``."""
    exact: bool
    """True when every consistent layout was searched (no sampling)."""
    rejected: tuple[int, ...]
    """Cards dropped as clearly worse, in the order they were dropped."""
    nodes: int
    """Solver nodes spent (trick starts visited)."""


def choose_card(
    view: View,
    cards: list[int],
    acts: Sequence[Action],
    config: ExpertConfig,
    rng: random.Random,
    explain: Callable[[View, CardSearch], Message] | None = None,
) -> Decision:
    """The card with the best expected score margin (``search``), and why; ``explain``,
    when given, makes the private reason from the search (the player's reason of a hint)."""
    result = search(view, cards, config, rng)
    if result is None:
        return Decision.reasoned(with_belote(cards[0], acts), Message.of("bot.no_consistent_deal"))
    contract = view.contract
    assert contract is not None
    ours = contract.team == view.seat & 1
    chance = Message.of(
        "bot.chance_made" if ours else "bot.chance_set",
        percent=round(100 * (result.made_rate if ours else 1 - result.made_rate)),
        samples=result.deals,
        expected=f"{result.expected[result.best]:+.0f}",
    )
    reason = Message.of("bot.card_reason", played=card_str(result.best), reason=chance)
    if explain is None:
        return Decision.reasoned(with_belote(result.best, acts), reason)
    return Decision.reasoned(with_belote(result.best, acts), reason, explain(view, result))


def candidate_deals(view: View, config: ExpertConfig, rng: random.Random) -> tuple[list[Hands], list[float], bool]:
    """The deals to search and their weights: every consistent layout when there are at
    most ``config.exact_layouts`` of them (True), else ``config.samples`` sampled ones."""
    c = constraints_from_view(view)
    if c.unseen.bit_count() <= config.exact_unseen:
        layouts = all_deals(c, config.exact_layouts)
        if layouts:
            return layouts, play_weights(view, layouts, config), True
    samples, weights = play_deals(view, config.samples, config, rng)
    return samples, weights, False


def search(view: View, cards: Sequence[int], config: ExpertConfig, rng: random.Random) -> CardSearch | None:
    """PIMC with successive rejection (see the module docstring); None when no deal is
    consistent with the view.

    Stage 1, contract: deal after deal, for every card still in the race, do the takers
    make it after that card; after ``config.first_batch`` deals and every
    ``config.batch`` deals after, cards clearly worse than the leader on the deals so far
    are dropped. Stage 2, points: the exact points of the remaining cards on the first
    ``config.exact_samples`` deals (on every layout when the layouts are enumerated), so
    that equal chances of making the contract are told apart by points."""
    contract = view.contract
    assert contract is not None
    team = view.seat & 1
    deals, weights, exact = candidate_deals(view, config, rng)
    if not deals:
        return None
    scorer = Scorer(view)
    need = scorer.taker_threshold()
    alive = representatives(view, cards)
    positions: list[Position] = []  # of the deals searched, built as they are reached
    work = Work()
    # Stage 1: made or not, card by card, deal by deal; made[c][i] for the deals searched.
    made: dict[int, list[bool]] = {c: [] for c in alive}
    rejected: list[int] = []
    mid = scorer.remaining / 2
    swing = abs(scorer.margin_if(mid, True) - scorer.margin_if(mid, False))
    allowance = abs(scorer.margin(round(mid) + config.points_allowance) - scorer.margin(round(mid)))
    budget = config.work_at(len(view.tricks) + 1)
    stage1_budget = budget * 3 // 4
    n = 0
    for i, hands in enumerate(deals):
        if i >= config.min_deals and (len(alive) == 1 or work.nodes >= stage1_budget):
            break
        pos = Position.from_view(view, hands)
        positions.append(pos)
        for c in alive:
            made[c].append(taker_makes_after(pos, c, contract, need, work))
        n = i + 1
        if not exact and n >= config.first_batch and (n - config.first_batch) % config.batch == 0:
            for c in _clearly_worse(alive, made, weights[:n], contract.team == team, swing, allowance, config.z):
                alive.remove(c)
                rejected.append(c)
    # Stage 2: exact points of the cards left, on the first deals (every layout when exact).
    k = n if exact else min(n, config.exact_samples)
    points = dict.fromkeys(alive, 0.0)
    exact_margin = dict.fromkeys(alive, 0.0)  # the margin of each deal's exact points
    exact_made = dict.fromkeys(alive, 0.0)
    exact_w = 0.0
    for i in range(k):
        if i and work.nodes >= budget:
            break
        for c in alive:
            value = points_after(positions[i], c, team, work)
            points[c] += weights[i] * value
            exact_margin[c] += weights[i] * scorer.margin(value)
            exact_made[c] += weights[i] * made[c][i]
        exact_w += weights[i]
    wsum = sum(weights[:n])
    expected: dict[int, float] = {}
    rate: dict[int, float] = {}
    for c in alive:
        p_made = sum(w for w, m in zip(weights, made[c], strict=False) if m) / wsum
        est = points[c] / exact_w if exact_w else mid
        rate[c] = p_made
        made_margin, failed_margin = scorer.margin_if(est, True), scorer.margin_if(est, False)
        if config.margin_per_deal and exact_w:
            # The mean of the exact deals' margins (a sweep's bonus, a contract made by
            # one point: what the mean of their points blurs), moved by the made rate of
            # all the deals searched where it differs from the exact deals' one.
            expected[c] = exact_margin[c] / exact_w + (p_made - exact_made[c] / exact_w) * (made_margin - failed_margin)
        else:
            expected[c] = p_made * made_margin + (1 - p_made) * failed_margin
    best = max(alive, key=lambda c: (round(expected[c], 6), points[c]))
    return CardSearch(best, expected, rate[best], n, exact, tuple(rejected), work.nodes)


def _clearly_worse(
    alive: Sequence[int],
    made: dict[int, list[bool]],
    weights: Sequence[float],
    taker_is_us: bool,
    swing: float,
    allowance: float,
    z: float,
) -> list[int]:
    """Cards whose margin, paired deal by deal with the leader's, is below it by more than
    ``allowance`` (what points could still make up) at ``z`` standard errors. The spread
    counts one imaginary deal going the other way by a whole ``swing`` (made against
    failed), so that a few identical deals never prove a gap."""
    sign = 1.0 if taker_is_us else -1.0
    wsum = sum(weights)
    score = {c: sign * sum(w for w, m in zip(weights, made[c], strict=True) if m) / wsum for c in alive}
    leader = max(alive, key=lambda c: score[c])
    w_mean = wsum / len(weights)
    out = []
    for c in alive:
        if c == leader:
            continue
        diffs = [sign * swing * (int(a) - int(b)) for a, b in zip(made[leader], made[c], strict=True)]
        ws = [*weights, w_mean]
        ds = [*diffs, -swing]
        total = sum(ws)
        mean = sum(w * d for w, d in zip(ws, ds, strict=True)) / total
        var = sum(w * (d - mean) ** 2 for w, d in zip(ws, ds, strict=True)) / total
        n_eff = total * total / sum(w * w for w in ws)
        if mean - z * math.sqrt(var / n_eff) > allowance:
            out.append(c)
    return out


def representatives(view: View, cards: Sequence[int]) -> list[int]:
    """One card of each group of equivalent cards: same suit, same points, and no card
    held by another seat ranking between them; the solver gives them the same value."""
    contract = view.contract
    assert contract is not None
    tt = tables(contract.trump, view.rules.ta_values == "ffb")
    others = unseen_cards(view)
    out: list[int] = []
    for c in sorted(cards, key=lambda x: (x >> 3, tt.power[x])):
        if out:
            prev = out[-1]
            if prev >> 3 == c >> 3 and tt.points[prev] == tt.points[c]:
                between = tt.above[prev] & ~tt.above[c] & ~(1 << c)
                if not between & others:
                    continue
        out.append(c)
    return out


class Work:
    """Solver nodes spent so far by one decision (the budget's meter)."""

    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0

    def add(self) -> None:
        self.nodes += last_nodes()


class CardPlayed(NamedTuple):
    """A position after one card: ``after`` the position to search (None when the card
    ended the deal); ``winner`` the seat that won the trick the card closed (None when the
    trick goes on) and ``won`` the points that trick brought its team, the last-trick
    bonus and a completed sweep's bonus included."""

    after: Position | None
    winner: int | None
    won: int


def play_card(pos: Position, c: int) -> CardPlayed:
    """``c`` played in ``pos``: the trick closed and scored if it was its fourth card."""
    hands = list(pos.hands)
    hands[pos.to_move] &= ~(1 << c)
    trick = (*pos.trick, c)
    leader, sweep_team, sweep_bonus = pos.leader, pos.sweep_team, pos.sweep_bonus
    winner: int | None = None
    won = 0
    last = False
    if len(trick) == 4:
        tt = tables(pos.trump, pos.ffb_ta)
        winner = (pos.leader + trick_winner(trick, tt)) & 3
        last = not any(hands)
        won = sum(tt.points[x] for x in trick) + (pos.last_trick_bonus if last else 0)
        if sweep_bonus and sweep_team not in (None, winner & 1):
            sweep_bonus, sweep_team = 0, None
        elif sweep_bonus:
            sweep_team = winner & 1
            if last:
                won += sweep_bonus
        leader, trick = winner, ()
    if last:
        return CardPlayed(None, winner, won)
    after = Position(
        (hands[0], hands[1], hands[2], hands[3]),
        pos.trump,
        leader,
        trick,
        pos.undertrump_forced,
        pos.ffb_ta,
        pos.last_trick_bonus,
        sweep_bonus,
        sweep_team if sweep_bonus else None,
    )
    return CardPlayed(after, winner, won)


def points_after(pos: Position, c: int, team: int, work: Work | None = None) -> int:
    """Points ``team`` takes from now on (the trick in progress included) with best play
    after ``c`` is played: ``move_values(pos, team)[c]``, for one card only."""
    played = play_card(pos, c)
    gained = played.won if played.winner is not None and played.winner & 1 == team else 0
    if played.after is None:
        return gained
    value = solve(played.after, team)
    if work is not None:
        work.add()
    return gained + value


def taker_makes_after(pos: Position, c: int, contract: Contract, need: int | None, work: Work | None = None) -> bool:
    """Whether the takers still make the contract with best play after ``c`` is played
    (``need``: the points they must still win, None for a capot or a générale)."""
    played = play_card(pos, c)
    taker_team = contract.team
    target = need
    if played.winner is not None:
        taker_won = played.winner & 1 == taker_team
        if target is not None and taker_won:
            target -= played.won
        if need is None and (not taker_won or (contract.kind == "generale" and played.winner != contract.taker)):
            return False
    after = played.after
    if after is None:
        return target is None or target <= 0
    if target is not None and target <= 0:
        return True
    if target is None:
        ok = can_sweep(after, taker_team, contract.taker if contract.kind == "generale" else None)
    else:
        ok = can_reach(after, taker_team, target)
    if work is not None:
        work.add()
    return ok
