"""The coach's tip for one turn, in words: what the calls in front of the person mean, what
the expert would do and its own reason (the hint's sentence, ``table/hints.py``), and what
happened at the last trick.

Every part is said from the person's own view: the calls are public, the last trick's
cards were played, the expert's choice and reason come from the seat's ``View`` (its
reason names the person's own cards only). The winner of the last
trick is the engine's (``Trick.winner``); why it won is read from the engine's tables of
the contract (``TrumpTables``), never decided again here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....bots.base import Decision
from ....bots.call_reading import read_call
from ....bots.knowledge import parse_auction
from ....engine.actions import call_str
from ....engine.cards import card_str
from ....engine.deal import Phase, View
from ....engine.play import tables
from ...table import i18n
from ...table.hints import hint_text
from ...table.seating import seat_positions

AUCTION = "auction"
PLAY = "play"


@dataclass(frozen=True)
class Tip:
    """One turn's tip: ``topic`` (``auction``, ``play``), ``text`` (the situation and the
    expert's advice, with its reason) and ``trick`` (what happened at the last trick, None
    before the first is over)."""

    topic: str
    text: str
    trick: str | None


def tip(lang: str, view: View, decision: Decision, reads_partner: bool) -> Tip:
    """The tip for ``view``'s turn, the expert having chosen ``decision``;
    ``reads_partner``: the partner's calls may be read now (a computer's, never a
    person's during the deal)."""
    advice = hint_text(lang, view, decision.action, decision.private_reason)
    if view.phase is Phase.AUCTION:
        return Tip(AUCTION, f"{auction_situation(lang, view, reads_partner)} {advice}", None)
    return Tip(PLAY, advice, last_trick(lang, view))


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.gettext(lang, key, **params)


def auction_situation(lang: str, view: View, reads_partner: bool) -> str:
    """What the calls in front of the seat mean and what its own calls would say: nobody
    has bid, the partner's bid, an opponent's, its own, a coinche."""
    a = parse_auction(view.calls, view.dealer, view.rules)
    seat, partner = view.seat, (view.seat + 2) & 3
    if a.bidder < 0:
        return _t(lang, "coach.auction.open")
    call = i18n.call_name(lang, call_str(a.last_bid)) if a.last_bid is not None else ""
    if a.coinched:
        ours = a.bidder & 1 == seat & 1
        return _t(lang, "coach.auction.coinched_ours" if ours else "coach.auction.coinched_theirs", call=call)
    if a.bidder == seat:
        return _t(lang, "coach.auction.mine", call=call)
    meaning = _meaning(lang, view, a.bidder) if a.bidder != partner or reads_partner else None
    who = seat_positions(view.rules.direction, seat)[a.bidder]
    if a.bidder == partner:
        said = _t(lang, "coach.auction.partner", call=call)
        rest = _t(lang, "coach.auction.partner_options")
    else:
        said = _t(lang, "coach.auction.opponent", who=_t(lang, f"seat.short.{who}"), call=call)
        rest = _t(lang, "coach.auction.opponent_options")
    if meaning:
        said = f"{said} {meaning[0].upper()}{meaning[1:]}."
    return f"{said} {rest}"


def _meaning(lang: str, view: View, bidder: int) -> str | None:
    """What ``bidder``'s last bid says in the rules' words (``bots.call_reading``), read
    from the public calls alone."""
    calls = list(view.calls)
    index = max(i for i in range(len(calls)) if (view.dealer + 1 + i) & 3 == bidder)
    text = i18n.render(lang, read_call(view.rules, view.dealer, calls, index).said)
    return text.rstrip(".") or None


def last_trick(lang: str, view: View) -> str | None:
    """Who won the last trick and why (the master trump, a cut, the highest card of the
    suit led); None before a trick is over."""
    if not view.tricks or view.contract is None:
        return None
    trick = view.tricks[-1]
    tt = tables(view.contract.trump, view.rules.ta_values == "ffb")
    won = trick.cards[(trick.winner - trick.leader) & 3]
    led = trick.cards[0]
    if tt.trump_mask >> won & 1:
        why = "coach.why.master_trump" if tt.trump_mask >> led & 1 else "coach.why.cut"
    else:
        why = "coach.why.highest"
    card = i18n.card_with_article(lang, card_str(won))
    if trick.winner == view.seat:
        said = _t(lang, "coach.trick.you", card=card)
    else:
        relation = "partner" if trick.winner == (view.seat + 2) & 3 else "opponent"
        position = seat_positions(view.rules.direction, view.seat)[trick.winner]
        said = _t(lang, f"coach.trick.{relation}", who=_t(lang, f"seat.short.{position}"), card=card)
    return f"{said} {_t(lang, why)}"
