"""The auction (RULES.md section 1): calls, their order, coinche and surcoinche.

Calls are ``int`` actions, like every action of a deal (see ``actions``): ``PASS``,
``COINCHE``, ``SURCOINCHE``, ``bid(value, trump)``, ``capot(trump)``, ``generale(trump)``.
``Auction`` is the mutable state of one auction; the deal owns it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import (
    CAPOT_BASE,
    CAPOT_RANK,
    COINCHE,
    GENERALE_BASE,
    GENERALE_RANK,
    PASS,
    SURCOINCHE,
    action_str,
    bid_rank,
    bid_trump,
    call_str,
    capot,
    generale,
    is_bid,
    is_capot,
    is_generale,
    make_bid,
)
from .cards import NO_TRUMP
from .errors import IllegalAction, NotACall, short_repr
from .rules import RuleSet
from .scoring import CAPOT_VALUE, Contract, ContractKind


@dataclass
class Auction:
    """Calls made so far and what they imply; ``apply`` checks every call."""

    rules: RuleSet
    first: int
    """Seat that speaks first (dealer + 1)."""
    calls: list[int] = field(default_factory=list)
    bid: int | None = None
    """The current highest bid (an action), None before the first bid."""
    bidder: int = -1
    coincher: int = -1
    surcoinched: bool = False
    passes: int = 0
    """Consecutive passes since the last bid or coinche (or since the start)."""
    done: bool = False

    @property
    def to_move(self) -> int:
        return (self.first + len(self.calls)) & 3

    @property
    def void(self) -> bool:
        """True when four passes ended the auction with no bid: the deal is void."""
        return self.done and self.bid is None

    def legal_calls(self) -> list[int]:
        if self.done:
            return []
        seat = self.to_move
        out = [PASS]
        if self.coincher >= 0:
            if not self.surcoinched and (seat & 1) == (self.bidder & 1):
                out.append(SURCOINCHE)
            return out
        rank = -1 if self.bid is None else bid_rank(self.bid)
        trumps = self.rules.trumps
        for value in self.rules.bid_values:
            if value * 10 > rank:
                out.extend(make_bid(value, t) for t in trumps)
        if rank < CAPOT_RANK:
            out.extend(capot(t) for t in trumps)
        if self.rules.generale and rank < GENERALE_RANK:
            out.extend(generale(t) for t in trumps)
        if self.bid is not None and (seat & 1) != (self.bidder & 1):
            out.append(COINCHE)
        return out

    def check(self, call: int) -> None:
        """Raise ``IllegalAction`` naming the rule a call breaks; do nothing if it is legal."""
        if self.done:
            raise IllegalAction("auction_over", action=_call_text(call))
        seat = self.to_move
        if call == PASS:
            return
        if call == COINCHE:
            if self.bid is None:
                raise IllegalAction("coinche_no_bid")
            if self.coincher >= 0:
                raise IllegalAction("coinche_twice")
            if (seat & 1) == (self.bidder & 1):
                raise IllegalAction("coinche_own_team", bidder=self.bidder)
            return
        if call == SURCOINCHE:
            if self.coincher < 0:
                raise IllegalAction("surcoinche_no_coinche")
            if self.surcoinched:
                raise IllegalAction("surcoinche_twice")
            if (seat & 1) != (self.bidder & 1):
                raise IllegalAction("surcoinche_defense")
            return
        if not is_bid(call):
            raise IllegalAction("not_a_call", action=_call_text(call))
        name = call_str(call)
        trump = bid_trump(call)
        if self.coincher >= 0:
            raise IllegalAction("bid_after_coinche", call=name)
        if trump >= NO_TRUMP and not self.rules.sa_ta:
            raise IllegalAction("no_sa_ta", call=name)
        if GENERALE_BASE <= call < GENERALE_BASE + 6 and not self.rules.generale:
            raise IllegalAction("no_generale", call=name)
        if CAPOT_BASE <= call < CAPOT_BASE + 6 or GENERALE_BASE <= call < GENERALE_BASE + 6:
            pass
        else:
            value = bid_rank(call) // 10
            if value % 10 or not self.rules.bid_values.start <= value <= self.rules.max_bid:
                raise IllegalAction("bid_value", call=name, max_bid=self.rules.max_bid)
        if self.bid is not None and bid_rank(call) <= bid_rank(self.bid):
            raise IllegalAction("bid_too_low", call=name, current=call_str(self.bid))

    def apply(self, call: int) -> None:
        """Make a call; the state is unchanged when it raises ``IllegalAction``."""
        self.check(call)
        seat = self.to_move
        self.calls.append(call)
        if call == PASS:
            self.passes += 1
            if (self.bid is None and self.passes == 4) or (self.bid is not None and self.passes == 3):
                self.done = True
        elif call == COINCHE:
            self.coincher = seat
            self.passes = 0
        elif call == SURCOINCHE:
            self.surcoinched = True
            self.done = True
        else:
            self.bid = call
            self.bidder = seat
            self.passes = 0

    def contract(self) -> Contract | None:
        """The contract once the auction is over (None while it runs or for a void deal)."""
        if not self.done or self.bid is None:
            return None
        return contract_of(self.bid, self.bidder, self.coincher >= 0, self.surcoinched, self.rules)


def contract_of(bid: int, bidder: int, coinched: bool, surcoinched: bool, rules: RuleSet) -> Contract:
    """The contract a bid makes once the auction stops on it: its kind and value (RULES.md
    section 5: the number, ``CAPOT_VALUE``, ``rules.generale_value``) and its multiplier
    (coinche 2, surcoinche ``rules.surcoinche_multiplier``). ``Auction.contract`` and the
    bots' reading of an auction in progress both use it."""
    kind: ContractKind
    if is_generale(bid):
        kind, value = "generale", rules.generale_value
    elif is_capot(bid):
        kind, value = "capot", CAPOT_VALUE
    else:
        kind, value = "bid", bid_rank(bid) // 10
    mult = rules.surcoinche_multiplier if surcoinched else 2 if coinched else 1
    return Contract(kind, value, bid_trump(bid), bidder, mult)


def _call_text(call: object) -> str:
    """A call for a message: record notation when it is one; another action as the record
    names it (a card sent in the auction is ``JH is not a call``, not its number); else a
    short repr."""
    try:
        return call_str(call) if isinstance(call, int) else short_repr(call)
    except NotACall:
        pass
    if isinstance(call, int) and 0 <= call < 64:  # a card, or a card with the belote
        return action_str(call)
    return short_repr(call)
