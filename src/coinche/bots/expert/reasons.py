"""The expert's reasons as a player reads them (a hint): the move and why, in the figures
its own decision used.

A call's reason comes from the ``Appraisal`` it was decided on (the team's points it
expects with a trump, how often the contract is made or fails), a card's from its
``CardSearch`` (how often the contract is made over the deals searched) and from what the
card does in the trick. Built only when asked (``ExpertBot(explain=True)``): they name the
player's own cards, so they are private reasons, for that player alone.
"""

from __future__ import annotations

from ...engine.actions import COINCHE, PASS, SURCOINCHE, Action, bid_trump, call_str, is_bid
from ...engine.auction import contract_of
from ...engine.cards import (
    ACE,
    ALL_TRUMP,
    JACK,
    NINE,
    NO_TRUMP,
    SUITS,
    TEN,
    TRUMP_NAMES,
    CardSet,
    Trump,
    card,
    card_str,
)
from ...engine.deal import View
from ...engine.messages import Message
from ...engine.play import tables, trick_winner
from ..knowledge import parse_auction, unseen_cards
from .auction import Appraisal
from .card_play import CardSearch

_TRUMP_HONOURS = (JACK, NINE, ACE, TEN)
"""The trump cards a reason names, strongest first (what the hand evaluator counts most)."""


def key_cards(hand: CardSet, trump: Trump) -> str:
    """The cards of ``hand`` that make its worth with ``trump``, in record notation: the
    trump Jack, 9, Ace and 10 and the side Aces (the Aces and 10s at no trump, the Jacks
    and 9s at all trumps)."""
    if trump == NO_TRUMP:
        wanted = [card(s, r) for s in SUITS for r in (ACE, TEN)]
    elif trump == ALL_TRUMP:
        wanted = [card(s, r) for s in SUITS for r in (JACK, NINE)]
    else:
        wanted = [card(trump, r) for r in _TRUMP_HONOURS] + [card(s, ACE) for s in SUITS if s != trump]
    return " ".join(card_str(c) for c in wanted if hand >> c & 1)


def call_reason(appraisal: Appraisal, action: Action) -> Message:
    """Why the expert makes ``action`` (what ``decide_call`` chose on ``appraisal``), with
    the figures it weighed: ``bot.why_call`` with the call and the why (``why``)."""
    return Message.of("bot.why_call", call=call_str(action), why=_call_why(appraisal, action))


def _times(rate: float) -> int:
    """A rate as times in ten (what a player reads more easily than a percentage)."""
    return round(10 * rate)


def _call_why(appraisal: Appraisal, action: Action) -> Message:
    view = appraisal.view
    hand = view.hand
    if action == SURCOINCHE and appraisal.surcoinche is not None:
        return Message.of("bot.why_surcoinche", times=_times(appraisal.surcoinche[1]))
    if action == COINCHE and appraisal.coinche is not None:
        contract = appraisal.contract
        assert contract is not None
        cards, current, times = (
            key_cards(hand, contract.trump),
            call_str(appraisal.current or 0),
            _times(appraisal.coinche[1]),
        )
        if cards:
            return Message.of("bot.why_coinche", cards=cards, current=current, times=times)
        return Message.of("bot.why_coinche_plain", current=current, times=times)
    if is_bid(action):
        return _bid_reason(appraisal, action)
    assert action == PASS
    return _pass_reason(appraisal)


def _bid_reason(appraisal: Appraisal, action: Action) -> Message:
    view = appraisal.view
    for _, a, out in appraisal.bids:
        if a == action:
            bid = contract_of(action, view.seat, False, False, view.rules)
            info = parse_auction(view.calls, view.dealer, view.rules)
            partner_bid = bool(info.bids[(view.seat + 2) & 3])
            cards, points, times = key_cards(view.hand, bid_trump(action)), round(out.mean), _times(out.made_rate(bid))
            if cards:
                return Message.of(
                    "bot.why_bid_partner" if partner_bid else "bot.why_bid", cards=cards, points=points, times=times
                )
            return Message.of(
                "bot.why_bid_partner_plain" if partner_bid else "bot.why_bid_plain", points=points, times=times
            )
    return Message.of("bot.why_unvalued")  # a bid ``decide_call`` never makes


def _pass_reason(appraisal: Appraisal) -> Message:
    view = appraisal.view
    contract = appraisal.contract
    if contract is not None and contract.multiplier > 1:
        if appraisal.surcoinche is not None:
            return Message.of("bot.why_pass_no_surcoinche", times=_times(appraisal.surcoinche[1]))
        return Message.of("bot.why_pass_coinched", current=call_str(appraisal.current or 0))
    if appraisal.coinche is not None and appraisal.pass_fails is not None:
        return Message.of(
            "bot.why_pass_defence",
            current=call_str(appraisal.current or 0),
            times=_times(appraisal.pass_fails),
        )
    if appraisal.bids:
        _, action, out = max(appraisal.bids, key=lambda option: option[0])
        bid = contract_of(action, view.seat, False, False, view.rules)
        if contract is not None and contract.team == view.seat & 1 and appraisal.pass_fails is not None:
            return Message.of(
                "bot.why_pass_ours",
                current=call_str(appraisal.current or 0),
                held=_times(1 - appraisal.pass_fails),
                call=call_str(action),
                times=_times(out.made_rate(bid)),
            )
        cards, call, points = key_cards(view.hand, bid_trump(action)), call_str(action), round(out.mean)
        times = _times(out.made_rate(bid))
        if cards:
            return Message.of("bot.why_pass_bid", cards=cards, call=call, points=points, times=times)
        return Message.of("bot.why_pass_bid_plain", call=call, points=points, times=times)
    lowest = next((a for a in view.legal_actions if is_bid(a)), None)
    if lowest is None or not appraisal.estimates:
        return Message.of("bot.why_pass_no_bid")
    trump, est = max(appraisal.estimates.items(), key=lambda item: item[1].mean_162)
    cards, name, points = key_cards(view.hand, trump), TRUMP_NAMES[trump], round(est.mean_162)
    value = contract_of(lowest, view.seat, False, False, view.rules).value
    if cards:
        return Message.of("bot.why_pass_weak", cards=cards, trump=name, points=points, value=value)
    return Message.of("bot.why_pass_weak_plain", trump=name, points=points, value=value)


def card_reason(view: View, result: CardSearch) -> Message:
    """Why the expert plays ``result.best``: what the card does in the trick, and how often
    the contract is made (or set) over the deals the search weighed: ``bot.why_play`` with
    the card and the why (``why``)."""
    contract = view.contract
    assert contract is not None
    ours = contract.team == view.seat & 1
    rate = result.made_rate if ours else 1 - result.made_rate
    chance = Message.of(
        "bot.why_chance_made" if ours else "bot.why_chance_set",
        count=round(rate * result.deals),
        samples=result.deals,
    )
    why = Message.of("bot.why_card", what=_card_fact(view, result.best), chance=chance)
    return Message.of("bot.why_play", played=card_str(result.best), why=why)


def _card_fact(view: View, c: int) -> Message:
    """What card ``c`` does: leads a master card or a trump, wins the trick,
    ruffs, leaves it to the partner, or gives up a trick it cannot win."""
    contract = view.contract
    assert contract is not None
    tt = tables(contract.trump, view.rules.ta_values == "ffb")
    unseen = unseen_cards(view)
    master = not tt.above[c] & unseen
    is_trump = bool(tt.trump_mask >> c & 1) and contract.trump < NO_TRUMP
    trick = list(view.trick)
    if not trick:
        if is_trump:
            return Message.of("bot.fact_lead_master_trump" if master else "bot.fact_lead_trump")
        if master:
            return Message.of("bot.fact_lead_master")
        return Message.of("bot.fact_lead" if tt.points[c] >= 10 else "bot.fact_lead_low")
    winner = trick_winner(trick, tt)
    partner_winning = (view.trick_leader + winner) & 1 == view.seat & 1
    wins = trick_winner([*trick, c], tt) == len(trick)
    if wins and not partner_winning:
        if is_trump and trick[0] >> 3 != contract.trump:
            return Message.of("bot.fact_ruff")
        if len(trick) == 3:
            return Message.of("bot.fact_win_last")
        return Message.of("bot.fact_win_master" if master else "bot.fact_win")
    if partner_winning:
        if wins:
            return Message.of("bot.fact_overtake")
        return Message.of("bot.fact_partner_points" if tt.points[c] >= 10 else "bot.fact_partner")
    return Message.of("bot.fact_cannot_win")
