"""The kinds of mistake a rule can tell (issue 50's progress page): which of a seat's costly
decisions in a finished deal were one of the classic faults, read from the deal and its
analysis (``server.compute.job_kinds.analyse``).

- ``trumps_not_drawn``: the taker's side leads a side suit while the best leads are trumps
  and the defence still holds some;
- ``master_discarded``: a master card (no card left of its suit beats it) thrown on a trick
  of another suit;
- ``partner_ruffed``: a trump put on a trick of a side suit the partner was winning;
- ``overbid``: the seat's contract went down, and double dummy its side's best contract was
  ``OVERBID_MARGIN`` or more below it (or no sweep it bid);
- ``coinched_a_make``: the seat coinched a contract that double dummy makes.

Cards count only when they cost at least ``CARD_MISTAKE`` (a fault that cost nothing is
not one); the auction's faults are the deal's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from ..engine.actions import COINCHE, card_of, is_bid, is_card
from ..engine.cards import TRUMP_NAMES, bit, cards_of, parse_card, suit_of
from ..engine.deal import Deal
from ..engine.play import tables, trick_winner
from .accuracy import CARD_MISTAKE, card_cost
from .analysis import step_indices

OVERBID_MARGIN: Final = 20
"""A contract this much or more above the best its side makes double dummy is an overbid
(two steps of the auction: one step is a matter of a trick's luck)."""

Kind = Literal["trumps_not_drawn", "master_discarded", "partner_ruffed", "overbid", "coinched_a_make"]
KINDS: Final[tuple[Kind, ...]] = get_args(Kind)


@dataclass(frozen=True)
class Found:
    """A fault of a kind at a step of the deal (the auction's: its last call's step)."""

    kind: Kind
    step: int


def faults(deal: Deal, analysis: Mapping[str, Any], seat: int, steps: Collection[int] | None = None) -> list[Found]:
    """The faults ``seat`` made in the finished ``deal`` (only at ``steps``: the decisions
    that were theirs; None: all)."""
    out: list[Found] = []
    costly = {
        p["step"]: p
        for p in analysis["positions"]
        if p["seat"] == seat
        and (steps is None or p["step"] in steps)
        and card_cost(p["values"], p["played"]) >= CARD_MISTAKE
    }
    if deal.contract is not None and costly:
        replay = Deal(deal.rules, deal.dealer, deal.dealt)
        at = {index: step for step, index in step_indices(deal.log).items()}
        for index, entry in enumerate(deal.log):
            step = at.get(index, 0)  # 0: a declaration, no step
            if step in costly and isinstance(entry, int) and is_card(entry):
                kind = _card_fault(replay, card_of(entry), costly[step])
                if kind is not None:
                    out.append(Found(kind, step))
            replay.replay_entry(entry)
    out += _auction_faults(deal, analysis, seat, steps)
    return out


def _card_fault(deal: Deal, played: int, position: Mapping[str, Any]) -> Kind | None:
    """The kind of a costly card, if a rule tells it (``deal`` just before it)."""
    contract = deal.contract
    assert contract is not None
    seat = deal.to_move
    trump = contract.trump
    tt = tables(trump, deal.rules.ta_values == "ffb")
    suited = trump < 4
    values = position["values"]
    best = [c for c, v in values.items() if v == max(values.values())]
    if not deal.trick:
        if not suited or contract.taker & 1 != seat & 1 or suit_of(played) == trump:
            return None
        defence = deal.hands[(seat + 1) & 3] | deal.hands[(seat + 3) & 3]
        defence_trumps = any(suit_of(c) == trump for c in cards_of(defence))
        if defence_trumps and any(suit_of(parse_card(c)) == trump for c in best):
            return "trumps_not_drawn"
        return None
    led = suit_of(deal.trick[0])
    if suit_of(played) == led:
        return None
    if suited and suit_of(played) == trump:
        leader = deal.trick_leader
        winning = (leader + trick_winner(deal.trick, tt)) & 3
        return "partner_ruffed" if winning == (seat + 2) & 3 and led != trump else None
    rest = 0
    for s in range(4):
        rest |= deal.hands[s]
    rest &= ~bit(played)
    beaten = all(trick_winner([played, c], tt) == 0 for c in cards_of(rest) if suit_of(c) == suit_of(played))
    return "master_discarded" if beaten else None


def _auction_faults(deal: Deal, analysis: Mapping[str, Any], seat: int, steps: Collection[int] | None) -> list[Found]:
    contract = deal.contract
    result = deal.result()
    if contract is None or result is None:
        return []
    calls = deal.auction.calls
    rows = {row["trump"]: row for row in analysis["trumps"]}
    row = rows.get(TRUMP_NAMES[contract.trump])
    if row is None:
        return []
    taker = contract.taker
    bid_made = row["best_bid"][taker]
    sweep = row["sweep"][taker]
    if contract.kind == "bid":
        makes = bid_made is not None and bid_made >= contract.value
        short = bid_made is None or contract.value - bid_made >= OVERBID_MARGIN
    else:
        makes = sweep is not None and (contract.kind == "capot" or sweep == "generale")
        short = not makes
    out: list[Found] = []
    # the taker's last bid made the contract: its step is that call's (the calls are steps 1..n)
    last_bid = max((i for i, a in enumerate(calls) if (deal.dealer + 1 + i) & 3 == taker and is_bid(a)), default=None)
    if seat == taker and not result.made and short and last_bid is not None:
        step = last_bid + 1
        if steps is None or step in steps:
            out.append(Found("overbid", step))
    for i, call in enumerate(calls):
        if call == COINCHE and (deal.dealer + 1 + i) & 3 == seat and makes and (steps is None or i + 1 in steps):
            out.append(Found("coinched_a_make", i + 1))
    return out
