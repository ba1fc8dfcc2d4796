"""A hint as one plain sentence a beginner understands: what to do and why, in words.

The expert chooses the action and says why in the figures it decided on (its player's
reason, ``bots/expert/reasons.py``): "Annoncez 80 cœur : avec V♥ A♦, votre équipe fait
environ 93 points ; le contrat passe environ 6 fois sur 10." (``hint_with_reason``). Where
it gives none (a declaration, the only card), the sentence says the action from the
player's own view: "Jouez le valet d'atout : c'est la seule carte permise."
(``hint_sentence``). Every sentence comes from the ``hint.`` keys of the catalogues, cards
and calls in words.
"""

from __future__ import annotations

from ...bots.knowledge import parse_auction
from ...engine.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    bid_trump,
    call_str,
    card_of,
    is_announce,
    is_capot,
    is_card,
    is_declaration,
    is_generale,
)
from ...engine.cards import RANK_CHARS, card_str
from ...engine.deal import View
from ...engine.messages import Message
from ...engine.play import tables, trick_winner
from . import i18n


def hint_sentence(lang: str, view: View, action: Action) -> str:
    """The sentence of a hint to play ``action`` (one of ``view.legal_actions``)."""
    if is_declaration(action):
        return _t(lang, "hint.declare")
    if is_card(action):
        return _card_sentence(lang, view, action)
    return _call_sentence(lang, view, action)


REASONS: tuple[str, ...] = ("bot.why_call", "bot.why_play")
"""The expert's player's reasons: the move, and its why (``why``)."""


def hint_text(lang: str, view: View, action: Action, reason: Message | None) -> str:
    """The hint's sentence: the action and the expert's own reason when it gave one
    (``reason``: the decision's private reason), else ``hint_sentence``."""
    why = None if reason is None or reason.id not in REASONS else reason.args.get("why")
    if not isinstance(why, Message):
        return hint_sentence(lang, view, action)
    return hint_with_reason(lang, view, action, why)


def hint_with_reason(lang: str, view: View, action: Action, why: Message) -> str:
    """The action in the imperative, then the expert's why in ``lang``: "Jouez le valet
    d'atout : c'est l'atout maître, qui tire les atouts ; ..." """
    if is_card(action):
        doing = _t(lang, "hint.do_card", card=_card_words(lang, view, action))
    elif action == PASS:
        doing = _t(lang, "hint.do_pass")
    elif action == COINCHE:
        doing = _t(lang, "hint.do_coinche")
    elif action == SURCOINCHE:
        doing = _t(lang, "hint.do_surcoinche")
    else:
        doing = _t(lang, "hint.do_bid", call=i18n.call_name(lang, call_str(action)).lower())
    return _t(lang, "hint.with_reason", action=doing, reason=i18n.render(lang, why))


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.gettext(lang, key, **params)


def _call_sentence(lang: str, view: View, action: Action) -> str:
    a = parse_auction(view.calls, view.dealer, view.rules)
    seat = view.seat
    partner = (seat + 2) & 3
    if action == COINCHE:
        return _t(lang, "hint.coinche")
    if action == SURCOINCHE:
        return _t(lang, "hint.surcoinche")
    if action != PASS:
        call = i18n.call_name(lang, call_str(action)).lower()
        if is_capot(action) or is_generale(action):
            return _t(lang, "hint.bid_slam", call=call)
        if a.bidder == partner and a.last_bid is not None and bid_trump(a.last_bid) == bid_trump(action):
            return _t(lang, "hint.bid_raise", call=call)
        if a.bidder >= 0 and a.bidder & 1 != seat & 1:
            return _t(lang, "hint.bid_over", call=call)
        return _t(lang, "hint.bid", call=call)
    if a.coinched:
        if a.bidder >= 0 and a.bidder & 1 == seat & 1:
            return _t(lang, "hint.pass_no_surcoinche")
        return _t(lang, "hint.pass_coinched")
    if a.bidder < 0:
        return _t(lang, "hint.pass_open")
    if a.bidder == seat:
        return _t(lang, "hint.pass_mine")
    if a.bidder == partner:
        return _t(lang, "hint.pass_partner")
    return _t(lang, "hint.pass_opponents")


def _card_words(lang: str, view: View, action: Action) -> str:
    """The card in words, "le valet d'atout" for a trump of a suit contract."""
    c = card_of(action)
    code = card_str(c)
    contract = view.contract
    if contract is not None and contract.trump < 4 and c >> 3 == contract.trump:
        rank = RANK_CHARS[c & 7]
        name = _t(lang, "hint.trump_card", rank=_t(lang, f"rank.{rank}"))
        words = _t(lang, f"card.article.{rank}", card=name)
    else:
        words = i18n.card_with_article(lang, code)
    words = words.lower()
    if is_announce(action):
        return _t(lang, "hint.card_belote", card=words)
    return words


def _card_sentence(lang: str, view: View, action: Action) -> str:
    card = _card_words(lang, view, action)
    cards = [card_of(a) for a in view.legal_actions if is_card(a)]
    if len(set(cards)) == 1:
        return _t(lang, "hint.card_only", card=card)
    c = card_of(action)
    contract = view.contract
    assert contract is not None
    tt = tables(contract.trump, view.rules.ta_values == "ffb")
    trick = list(view.trick)
    if not trick:
        attacking = contract.taker & 1 == view.seat & 1
        if attacking and tt.trump_mask >> c & 1 and contract.trump < 4:
            return _t(lang, "hint.lead_trump", card=card)
        return _t(lang, "hint.lead", card=card)
    winner = trick_winner(trick, tt)
    partner_winning = (view.trick_leader + winner) & 1 == view.seat & 1
    if trick_winner([*trick, c], tt) == len(trick):
        last = len(trick) == 3
        ruff = contract.trump < 4 and tt.trump_mask >> c & 1 and trick[0] >> 3 != contract.trump
        if ruff:
            return _t(lang, "hint.ruff_last" if last else "hint.ruff", card=card)
        return _t(lang, "hint.win_last" if last else "hint.win", card=card)
    if partner_winning:
        return _t(lang, "hint.partner_feed" if tt.points[c] >= 10 else "hint.partner_low", card=card)
    if any(tt.beats(o, trick[winner]) for o in cards):
        return _t(lang, "hint.keep", card=card)
    return _t(lang, "hint.cannot_win", card=card)
