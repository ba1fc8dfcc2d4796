"""The confirmed level: a sound rule-based player.

Auction (RULES.md section 8): a hand is counted in tricks for each trump
(``trick_estimates``: the trump Jack a sure trick, the guarded 9, the trump Ace and 10 with
length, side Aces, a side 10 with its Ace...). The bot opens at 80 with about three tricks
in a suit holding the Jack (or the 9 and two more trumps), one step of 10 per trick above that; it raises its partner's
suit by 10 per trick it brings (a side Ace, two trumps with the 9; 20 for the Jack or the
belote; 10 for the 9 sec), reads its partner's bids the same way and never bids above the
team's estimated total. It coinches only on solid grounds (strong trumps in the
opponents' suit, the trump J with several Aces against a high contract, three Aces
against SA, two Jacks against TA), surcoinches only a clearly made contract, and bids SA,
TA or capot only on a clear hand. Every call comes with a short reason, e.g.
``80H: 3 tricks in hearts (J, 9, side AS)``.

Card play: the taker draws trumps with the master trumps, everybody cashes master cards
where nobody can ruff, defenders lead their partner's suit (bid or signalled), a follower
wins cheaply when it can and the trick is worth it, otherwise plays low; on a trick its
partner surely wins it puts points (10s, Aces about to be lost), never wastes a trump over
its partner, keeps its master cards and avoids suits an opponent ruffs. In a générale the
taker's partner tries to win no trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine.actions import (
    COINCHE,
    DECLARE_BASE,
    PASS,
    SURCOINCHE,
    Action,
    bid_rank,
    bid_trump,
    call_str,
    capot,
    card_of,
    is_capot,
    is_card,
    is_generale,
    is_numeric_bid,
    make_bid,
)
from ..engine.cards import (
    ACE,
    ALL_TRUMP,
    JACK,
    NINE,
    NO_TRUMP,
    SUIT_CHARS,
    SUIT_MASKS,
    SUITS,
    TEN,
    TRUMP_NAMES,
    Card,
    Trump,
    card,
    card_str,
)
from ..engine.deal import View
from ..engine.melds import best_melds, melds_points
from ..engine.messages import Message
from .base import Bot, Decision, play_card
from .knowledge import AuctionInfo, Knowledge, knowledge, parse_auction
from .trick_estimates import (
    Estimate,
    capot_hand,
    holds,
    opening_estimate,
    sa_estimate,
    support_estimate,
    ta_estimate,
    whole,
)

SURCOINCHE_MARGIN: Final = 30
"""The team's estimate must pass the contract by this much to surcoinche."""


class ConfirmedBot(Bot):
    """A sound rule-based player (see the module docstring). Deterministic: the seeded
    ``rng`` is kept for the interface but no choice depends on chance.

    Public explanations give the reason without the cards behind it ("80H: 3 tricks in
    hearts"); private ones add them ("80H: 3 tricks in hearts (J, 9, side AS)")."""

    name = "confirmed"

    def choose_declaration(self, view: View) -> Decision:
        return Decision.reasoned(DECLARE_BASE, Message.of("bot.declare_all"))

    def choose_card(self, view: View) -> Decision:
        c, why = self._card(view, knowledge(view))
        return play_card(c, view.legal_actions, why, Message.of("bot.card_reason", played=card_str(c), reason=why))

    # ----- auction -----

    def choose_call(self, view: View) -> Decision:
        legal = view.legal_actions
        a = parse_auction(view.calls, view.dealer, view.rules)
        seat = view.seat
        hand = view.hand
        if a.coinched:
            if SURCOINCHE in legal and a.last_bid is not None:
                t = bid_trump(a.last_bid)
                value = a.current_value
                ceiling, _, _ = self._ceiling(view, a, t)
                if is_numeric_bid(a.last_bid) and ceiling >= value + SURCOINCHE_MARGIN:
                    return Decision.reasoned(
                        SURCOINCHE, Message.of("bot.surcoinche_ceiling", estimate=ceiling, value=value)
                    )
            return Decision.reasoned(PASS, Message.of("bot.pass"))
        if COINCHE in legal and a.last_bid is not None:
            reasons = self._coinche(view, a)
            if reasons is not None:
                return Decision.reasoned(COINCHE, *reasons)
        if a.bidder == seat:
            return Decision.reasoned(PASS, Message.of("bot.pass_hold"))
        current = a.current_value
        team_holds = a.bidder >= 0 and a.bidder & 1 == seat & 1
        trumps = view.rules.trumps
        best: tuple[int, int, Trump, Message | None, Message | None] | None = None
        for t in trumps:
            ceiling, why, detail = self._ceiling(view, a, t)
            if ceiling <= current or ceiling < 80:
                continue
            partner_suit = a.value_in((seat + 2) & 3, t) > 0
            if team_holds and a.last_bid is not None and t != bid_trump(a.last_bid) and ceiling < current + 20:
                continue  # overbidding the partner in another trump needs a clearly better hand
            entering = not team_holds and a.bidder >= 0 and not partner_suit and a.value_in(seat, t) == 0
            if entering and ceiling < current + 20 and not (t < NO_TRUMP and holds(hand, t, JACK)):
                continue  # entering over the opponents in a new trump: only when clearly stronger
            key = (ceiling, 1 if partner_suit else 0, t, why, detail)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is None:
            if team_holds:
                return Decision.reasoned(PASS, Message.of("bot.pass_nothing_to_add"))
            return Decision.reasoned(PASS, Message.of("bot.pass_not_enough"))
        ceiling, _, t, why, detail = best
        assert why is not None
        full = Message.of("bot.with_detail", reason=why, detail=detail) if detail is not None else why
        if t < NO_TRUMP and capot_hand(hand, t) and capot(t) in legal:
            name = call_str(capot(t))
            return Decision.reasoned(
                capot(t),
                Message.of("bot.capot_every_trick", call=name, reason=why),
                Message.of("bot.capot_every_trick", call=name, reason=full),
            )
        value = min(ceiling, view.rules.max_bid)
        bid = make_bid(value, t)
        if bid not in legal:
            return Decision.reasoned(PASS, Message.of("bot.pass"))
        name = call_str(bid)
        return Decision.reasoned(
            bid,
            Message.of("bot.bid_reason", call=name, reason=why),
            Message.of("bot.bid_reason", call=name, reason=full),
        )

    def _ceiling(self, view: View, a: AuctionInfo, t: Trump) -> tuple[int, Message | None, Message | None]:
        """The highest value the team may bid in ``t``, from this hand and the partner's
        bids, a short reason naming no card and the cards behind it (``(J, 9, side AS)``);
        0 when the hand has nothing to say in ``t``."""
        seat, hand = view.seat, view.hand
        partner = (seat + 2) & 3
        team_bids = [(s, b) for s, b in a.calls if s in (seat, partner) and _is_num(b, t)]
        if not team_bids:
            est = self._opening(view, t)
            if est is None:
                return 0, None, None
            tricks = whole(est.tricks)
            value = 80 + 10 * (tricks - 3)
            trump = TRUMP_NAMES[t]
            if tricks == 1:
                return value, Message.of("bot.one_trick_in", trump=trump), est.why()
            return value, Message.of("bot.tricks_in", count=tricks, trump=trump), est.why()
        i_opened = team_bids[0][0] == seat
        claimed = 0
        prev = 0
        for s, b in team_bids:
            v = _value(b)
            if s == seat:
                claimed += 3 + (v - 80) // 10 if prev == 0 else (v - prev) // 10
            prev = v
        if i_opened:
            est = self._opening(view, t) or Estimate(3 + (_value(team_bids[0][1]) - 80) / 10, ())
        else:
            est = support_estimate(hand, t)
            est = Estimate(min(est.tricks, 5.0), est.notes)
        extra = whole(est.tricks) - claimed
        if extra <= 0:
            return prev, None, None
        last_partner = max((_value(b) for s, b in team_bids if s == partner), default=0)
        trump = TRUMP_NAMES[t]
        partner_call = f"{last_partner}{trump}"
        if i_opened and extra == 1:
            why = Message.of("bot.one_more_trick", trump=trump)
        elif i_opened:
            why = Message.of("bot.more_tricks", count=extra, trump=trump)
        elif extra == 1:
            why = Message.of("bot.raise_one", call=partner_call)
        else:
            why = Message.of("bot.raise_many", call=partner_call, count=extra)
        return prev + 10 * extra, why, est.why()

    def _opening(self, view: View, t: Trump) -> Estimate | None:
        """The hand's estimate as opener in ``t``, None when it does not qualify."""
        hand = view.hand
        if t == NO_TRUMP:
            est, aces = sa_estimate(hand)
            if aces < 3 or est.tricks < 5:
                return None
            return Estimate(est.tricks - 1, est.notes)
        if t == ALL_TRUMP:
            est, jacks, nines = ta_estimate(hand)
            if jacks < 3 or nines < 1 or est.tricks < 4.5:
                return None
            return Estimate(est.tricks - 1, est.notes)
        n = (hand & SUIT_MASKS[t]).bit_count()
        if n < 3 or not (holds(hand, t, JACK) or holds(hand, t, NINE)):
            return None
        est = opening_estimate(hand, t)
        if view.rules.melds and view.rules.melds_count_for_contract:
            mp = melds_points(best_melds(hand, t))
            if mp >= 20:
                est = Estimate(est.tricks + mp // 20, (*est.notes, f"melds {mp}"))
        if est.tricks < 3:
            return None
        return est

    def _coinche(self, view: View, a: AuctionInfo) -> tuple[Message, Message] | None:
        """A reason to coinche the current bid (public, then private with the cards), or None.

        Solid grounds only. Against a suit: four trumps with the J or the 9 (the takers
        cannot draw them), the J third with the 9 or the A against 120 or more, or the
        trump J with three side Aces against 120 or more. Against SA three Aces, against
        TA two Jacks; against a capot or générale the trump J (a sure trick). Side Aces
        alone are no grounds: the takers ruff them.
        """
        bid = a.last_bid
        assert bid is not None
        t = bid_trump(bid)
        value = a.current_value
        hand = view.hand
        sweep = is_capot(bid) or is_generale(bid)
        what = call_str(bid)
        if t == NO_TRUMP:
            aces = sum(1 for s in SUITS if holds(hand, s, ACE))
            if aces >= 3 and not sweep:
                return (
                    Message.of("bot.coinche_aces", call=what),
                    Message.of("bot.coinche_aces_count", count=aces, call=what),
                )
            return None
        if t == ALL_TRUMP:
            jacks = sum(1 for s in SUITS if holds(hand, s, JACK))
            if jacks >= 2 and not sweep:
                return (
                    Message.of("bot.coinche_jacks", call=what),
                    Message.of("bot.coinche_jacks_count", count=jacks, call=what),
                )
            return None
        j, nine, ace = (holds(hand, t, r) for r in (JACK, NINE, ACE))
        n = (hand & SUIT_MASKS[t]).bit_count()
        trumps = " ".join(r + SUIT_CHARS[t] for r, held in (("J", j), ("9", nine), ("A", ace)) if held)
        if sweep:
            if not j:
                return None
            return (
                Message.of("bot.coinche_sweep", call=what),
                Message.of("bot.coinche_sweep_jack", call=what),
            )
        if view.rules.melds and view.rules.melds_count_for_contract:
            # The takers' melds (unknown yet) count for them: a jump may hide a square.
            bids = [b for _, b in a.calls if is_numeric_bid(b)]
            before = _value(bids[-2]) if len(bids) >= 2 else 70
            if value - before >= 40 or n < 4 or not j:
                return None
        side_aces = sum(1 for s in SUITS if s != t and holds(hand, s, ACE))
        if n >= 4 and (j or nine):
            return (
                Message.of("bot.coinche_trumps", call=what),
                Message.of("bot.coinche_trumps_count", count=n, cards=trumps, call=what),
            )
        if n == 3 and j and (nine or ace) and value >= 120:
            return (
                Message.of("bot.coinche_trumps", call=what),
                Message.of("bot.coinche_trumps_held", cards=trumps, call=what),
            )
        if j and side_aces >= 3 and value >= 120:
            return (
                Message.of("bot.coinche_control", call=what),
                Message.of("bot.coinche_control_count", count=side_aces, call=what),
            )
        return None

    # ----- card play -----

    def _card(self, view: View, k: Knowledge) -> tuple[Card, Message]:
        cards = sorted({card_of(a) for a in view.legal_actions if is_card(a)})
        if len(cards) == 1:
            return cards[0], Message.of("bot.only_legal_card")
        contract = k.contract
        assert contract is not None
        if contract.kind == "generale" and k.seat == (contract.taker ^ 2):
            return self._lose(k, cards), Message.of("bot.generale_let_taker")
        if not view.trick:
            return self._lead(k, cards)
        return self._follow(view, k, cards)

    def _lose(self, k: Knowledge, cards: Sequence[Card]) -> Card:
        """A card that does not win the trick (the weakest possible)."""
        power = k.tt.power
        if k.winning_card >= 0:
            losers = [c for c in cards if not k.beats(c, k.winning_card)]
            if losers:
                if k.partner_winning:
                    return max(losers, key=lambda c: (k.points[c], -power[c]))
                return min(losers, key=lambda c: (power[c], k.points[c]))
        # Leading: a small trump (the taker must go over it), else the card with the most
        # unseen cards above it.
        trumps = [c for c in cards if k.trump_mask >> c & 1]
        if trumps:
            return min(trumps, key=lambda c: power[c])
        return max(cards, key=lambda c: ((k.tt.above[c] & k.unseen).bit_count(), -k.points[c]))

    def _keep(self, k: Knowledge, c: Card) -> bool:
        """A master card worth keeping for a later trick (not about to be ruffed)."""
        if not k.sure >> c & 1:
            return False
        return bool(k.trump_mask >> c & 1) or not k.opponents_may_ruff(c >> 3)

    def _is_trump(self, k: Knowledge, c: Card) -> bool:
        return bool(k.trump_mask >> c & 1)

    # leading

    def _lead(self, k: Knowledge, cards: Sequence[Card]) -> tuple[Card, Message]:
        trump = k.trump
        pts, power = k.points, k.tt.power
        if trump < NO_TRUMP:
            my_trumps = [c for c in cards if self._is_trump(k, c)]
            opp_trumps = k.opponent_trumps()
            if k.attacking and my_trumps and opp_trumps:
                top = [c for c in my_trumps if k.masters >> c & 1]
                if top:
                    return top[0], Message.of("bot.draw_master_trump")
                is_taker = k.seat == k.taker
                first_lead = not k.led_by[k.seat]
                if is_taker and len(my_trumps) >= 2:
                    low = self._low_trump(k, my_trumps)
                    if low is not None:
                        return low, Message.of("bot.draw_trumps")
                if not is_taker and (first_lead or len(my_trumps) >= 2):
                    return min(my_trumps, key=lambda c: power[c]), Message.of("bot.return_trump")
        if not k.attacking:
            for s in self._partner_suits(k):
                mine = [c for c in cards if c >> 3 == s]
                if mine and not k.opponents_may_ruff(s):
                    sure = [c for c in mine if k.sure >> c & 1]
                    if sure:
                        return max(sure, key=lambda c: pts[c]), Message.of("bot.cash_partner_suit", suit=SUIT_CHARS[s])
                    lead = Message.of("bot.lead_partner_suit", suit=SUIT_CHARS[s])
                    return min(mine, key=lambda c: (pts[c], power[c])), lead
        # Cash master cards nobody can ruff (at TA, the Jacks and whatever became master).
        cash = [c for c in cards if k.sure >> c & 1 and not self._is_trump(k, c) and not k.opponents_may_ruff(c >> 3)]
        if cash:
            c = max(cash, key=lambda c: (pts[c], power[c]))
            return c, Message.of("bot.cash_master")
        return self._lead_low(k, cards)

    def _low_trump(self, k: Knowledge, trumps: Sequence[Card]) -> Card | None:
        """A small trump to lead, keeping the 9 while the Jack is out."""
        power = k.tt.power
        t = k.trump
        jack_out = k.unseen >> card(t, JACK) & 1
        pool = [c for c in trumps if not (jack_out and c & 7 == NINE)]
        if not pool:
            return None
        return min(pool, key=lambda c: power[c])

    def _partner_suits(self, k: Knowledge) -> list[int]:
        partner = k.partner
        out: list[int] = []
        for t in k.auction.trumps_bid(partner):
            if t < NO_TRUMP and t != k.trump:
                out.append(t)
        for s in SUITS:
            if k.signals[partner] >> s & 1 and s != k.trump and s not in out:
                out.append(s)
        return out

    def _lead_low(self, k: Knowledge, cards: Sequence[Card]) -> tuple[Card, Message]:
        pts, power = k.points, k.tt.power
        trump = k.trump
        partner = k.partner
        partner_suits = self._partner_suits(k)

        def suit_score(s: int) -> float:
            mine = [c for c in cards if c >> 3 == s]
            score = 0.0
            if trump < NO_TRUMP and s == trump:
                score += 60 if k.opponent_trumps() else 5
            if k.opponents_may_ruff(s):
                score += 100
            ten = card(s, TEN)
            if (trump >= NO_TRUMP or s != trump) and ten in mine and k.unseen >> card(s, ACE) & 1:
                score += 25
            if trump < NO_TRUMP and s != trump and k.may_ruff(partner, s) and not k.may_ruff((k.seat + 3) & 3, s):
                score -= 30
            if s in partner_suits:
                score -= 40
            score -= len(mine) * 2
            return score

        suits = sorted({c >> 3 for c in cards}, key=lambda s: (suit_score(s), s))
        s = suits[0]
        mine = [c for c in cards if c >> 3 == s]
        c = min(mine, key=lambda c: (pts[c], power[c]))
        return c, Message.of("bot.lead_low", suit=SUIT_CHARS[s])

    # following

    def _secure(self, k: Knowledge, c: Card, led: int, after: Sequence[int]) -> bool:
        """``c``, winning the trick, cannot be beaten by the opponents in ``after``."""
        tmask = k.trump_mask
        above = k.tt.above[c]
        for o in after:
            if o & 1 == k.seat & 1:
                continue
            poss = k.possible[o]
            if c >> 3 == led:
                if poss & above:
                    return False
                if tmask and not tmask >> c & 1 and k.may_ruff(o, led):
                    return False
            elif tmask >> c & 1 and poss & above and (k.is_void(o, led) or not poss & SUIT_MASKS[led]):
                return False  # a ruff: an opponent void in the suit led may overtrump
        return True

    def _follow(self, view: View, k: Knowledge, cards: Sequence[Card]) -> tuple[Card, Message]:
        trick = view.trick
        led = trick[0] >> 3
        pts, power = k.points, k.tt.power
        wcard = k.winning_card
        n_after = 3 - len(trick)
        after = [(k.seat + i) & 3 for i in range(1, n_after + 1)]
        last = n_after == 0
        beating = [c for c in cards if k.beats(c, wcard)]
        if k.partner_winning:
            if last or self._secure(k, wcard, led, after):
                return self._feed(k, cards), Message.of("bot.feed_partner")
            safe = [c for c in beating if self._secure(k, c, led, after) and not self._is_trump(k, c)]
            if safe:
                c = min(safe, key=lambda c: (power[c], pts[c]))
                return c, Message.of("bot.overtake_partner")
            return self._low(k, cards, avoid_beating=wcard), Message.of("bot.partner_may_win")
        if beating:
            if last:
                c = min(beating, key=lambda c: (self._is_trump(k, c), power[c]))
                value = k.trick_points + pts[c]
                if not self._is_trump(k, c) or value >= 10:
                    return c, Message.of("bot.win_cheaply")
                if len(beating) == len(cards):
                    return c, Message.of("bot.win_trick")
                return self._low(k, cards), Message.of("bot.not_worth_trump")
            secure = [c for c in beating if self._secure(k, c, led, after)]
            if secure:
                c = min(secure, key=lambda c: (power[c], pts[c]))
                return c, Message.of("bot.win_unbeatable")
            ruffs = [c for c in beating if self._is_trump(k, c) and led != k.trump]
            if ruffs and (k.trick_points >= 10 or len(ruffs) == len(cards)):
                return min(ruffs, key=lambda c: power[c]), Message.of("bot.ruff")
            if len(beating) == len(cards):
                return min(beating, key=lambda c: (pts[c], power[c])), Message.of("bot.must_go_over")
        return self._low(k, cards), Message.of("bot.cannot_win_low")

    def _feed(self, k: Knowledge, cards: Sequence[Card]) -> Card:
        """Points for the partner's sure trick: non-master cards first, never a trump if avoidable."""
        pts, power = k.points, k.tt.power
        plain = [c for c in cards if not self._is_trump(k, c)]
        if plain:

            def gift(c: Card) -> tuple[bool, int, int]:
                keep = self._keep(k, c)
                return (not keep, -pts[c] if keep else pts[c], -power[c])

            return max(plain, key=gift)
        return min(cards, key=lambda c: (self._keep(k, c), power[c]))

    def _low(self, k: Knowledge, cards: Sequence[Card], avoid_beating: Card = -1) -> Card:
        """The cheapest card to give away: no trump, no master, few points, keep guards."""
        pts, power = k.points, k.tt.power
        hand = k.hand

        def cost(c: Card) -> tuple[int, int, int, int, int]:
            s = c >> 3
            suit = hand & SUIT_MASKS[s]
            trumpy = self._is_trump(k, c)
            guard = 0
            ten = card(s, TEN)
            if not trumpy and c != ten and suit >> ten & 1 and not k.sure >> ten & 1 and suit.bit_count() == 2:
                guard = 1
            overtakes = 1 if avoid_beating >= 0 and k.beats(c, avoid_beating) else 0
            return (int(trumpy), int(self._keep(k, c)), overtakes, pts[c] + 5 * guard, power[c] * 10 + suit.bit_count())

        return min(cards, key=cost)


def _is_num(b: Action, t: Trump) -> bool:
    """A numeric bid in ``t`` (capot and générale excluded)."""
    return is_numeric_bid(b) and bid_trump(b) == t


def _value(b: Action) -> int:
    """The number of a numeric bid."""
    return bid_rank(b) // 10


__all__ = ["ConfirmedBot"]
