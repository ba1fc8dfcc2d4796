"""Expert: search. Perfect-information Monte Carlo over sampled deals, scored by the
double-dummy solver, with the contract in view.

* Card play: deal the unseen cards many times, consistent with everything seen (voids,
  failures to overtrump, belote, shown melds) and weighted by how well each deal explains
  the auction; ask the solver the value of every legal card in every deal; turn points
  into the deal's score (made or failed, coinche, belote, melds: RULES.md section 5) so
  that a card that makes the contract counts for more than a card that wins ten points.
* Bidding: for each trump, solve a few sampled deals to see how many points the team
  takes with that trump; bid the contract with the best expected score (pass included).
* Coinche and surcoinche: by expected score of the contract on sampled deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ....engine.actions import (
    COINCHE,
    DECLARE_BASE,
    PASS,
    SURCOINCHE,
    Action,
    bid_rank,
    bid_trump,
    call_str,
    is_announce,
    is_bid,
    is_capot,
    is_generale,
    is_numeric_bid,
)
from ....engine.auction import contract_of
from ....engine.belote import belote_suits
from ....engine.cards import (
    ACE,
    ALL_TRUMP,
    FULL_DECK,
    JACK,
    NINE,
    NO_TRUMP,
    SUIT_MASKS,
    TEN,
    TRUMP_NAMES,
    CardSet,
    Trump,
    card,
    card_str,
)
from ....engine.deal import View
from ....engine.melds import Meld, compare_teams, melds_points
from ....engine.messages import Message
from ....engine.play import tables, trick_winner
from ....engine.scoring import Contract, DealFacts, DealScore, Sweep, score_deal
from ...base import Bot, Decision, with_belote
from ...solver import Position, can_reach, can_sweep, move_values
from .knowledge import AuctionInfo, dealt_belotes, parse_auction
from .sampling import Constraints, constraints_from_view, relaxed, sample_deals


@dataclass(frozen=True)
class ExpertConfig:
    samples: int = 100
    """Sampled deals per card decision."""
    exact_samples: int = 8
    """Of those, deals on which every card's exact double-dummy points are computed."""
    bid_samples: int = 12
    """Sampled deals per trump when bidding."""
    inference: bool = True
    """Weight sampled deals by how well they explain the other seats' calls."""
    dd_optimism: int = 8
    """Card points taken off the takers' double-dummy points when bidding (real play is
    not double dummy)."""


class ExpertBot(Bot):
    name = "expert-v1"

    def __init__(
        self, seed: int | None = None, samples: int = 100, inference: bool = True, bid_samples: int = 12
    ) -> None:
        super().__init__(seed)
        self.config = ExpertConfig(samples=samples, inference=inference, bid_samples=bid_samples)

    # ----- entry points -----
    # No explanation of the expert names a hidden card (only the card it plays): public
    # and private reasons are the same.

    def choose(self, view: View) -> Decision:
        acts = view.legal_actions
        if len(acts) == 1:
            return Decision.reasoned(acts[0], Message.of("bot.only_legal_action"))
        return super().choose(view)

    def choose_call(self, view: View) -> Decision:
        return self._call(view)

    def choose_declaration(self, view: View) -> Decision:
        return Decision.reasoned(DECLARE_BASE, Message.of("bot.declare_all"))

    def choose_card(self, view: View) -> Decision:
        acts = view.legal_actions
        cards = [a for a in acts if not is_announce(a)]
        if len(cards) == 1:
            return Decision.reasoned(with_belote(cards[0], acts), Message.of("bot.only_legal_card"))
        return self._play(view, cards, acts)

    # ----- card play -----

    def _play(self, view: View, cards: list[int], acts: Sequence[Action]) -> Decision:
        """PIMC, contract first: in every sampled deal, does each card still let the takers
        make the contract (one null-window search per card), and, on a few of the deals,
        how many points does it bring (exact values). The card with the best expected
        score margin wins."""
        contract = view.contract
        assert contract is not None
        team = view.seat & 1
        samples, weights = self._samples(view, self.config.samples)
        if not samples:
            return Decision.reasoned(with_belote(cards[0], acts), Message.of("bot.no_consistent_deal"))
        scorer = _Scorer(view)
        reps = _representatives(view, cards)
        need = scorer.taker_threshold()
        made = dict.fromkeys(reps, 0.0)
        points = dict.fromkeys(reps, 0.0)
        exact_w = 0.0
        for i, (hands, w) in enumerate(zip(samples, weights, strict=True)):
            pos = Position.from_view(view, hands)
            if i < self.config.exact_samples:
                for c, v in move_values(pos, team).items():
                    if c in points:
                        points[c] += w * v
                exact_w += w
            for c in reps:
                if _taker_makes_after(pos, c, contract, need, scorer):
                    made[c] += w
        wsum = sum(weights)
        expected = {}
        for c in reps:
            p_made = made[c] / wsum
            est = points[c] / exact_w if exact_w else scorer.remaining / 2
            expected[c] = p_made * scorer.margin_if(est, True) + (1 - p_made) * scorer.margin_if(est, False)
        best = max(reps, key=lambda c: (round(expected[c], 6), points[c]))
        rate = made[best] / wsum if contract.team == team else 1 - made[best] / wsum
        reason = Message.of(
            "bot.card_made" if contract.team == team else "bot.card_set",
            card=card_str(best),
            percent=round(100 * rate),
            samples=len(samples),
            expected=f"{expected[best]:+.0f}",
        )
        return Decision.reasoned(with_belote(best, acts), reason)

    def _samples(self, view: View, n: int) -> tuple[list[tuple[CardSet, ...]], list[float]]:
        c = constraints_from_view(view)
        samples = sample_deals(c, n, self.rng)
        if len(samples) < n // 2:
            samples += sample_deals(relaxed(c), n - len(samples), self.rng)
        if self.config.inference:
            info = parse_auction(view.calls, view.dealer, view.rules)
            # The auction was made on the dealt hands: put back the cards already played.
            played = [0, 0, 0, 0]
            tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.trick_leader, view.trick)]
            for leader, cards in tricks:
                for i, x in enumerate(cards):
                    played[(leader + i) & 3] |= 1 << x
            weights = [
                _auction_likelihood(view, info, [h | p for h, p in zip(hands, played, strict=True)])
                for hands in samples
            ]
            if sum(weights) <= 0:
                weights = [1.0] * len(samples)
        else:
            weights = [1.0] * len(samples)
        return samples, weights

    # ----- auction -----

    def _call(self, view: View) -> Decision:
        acts = set(view.legal_actions)
        info = parse_auction(view.calls, view.dealer, view.rules)
        team = view.seat & 1
        if SURCOINCHE in acts:
            return self._surcoinche(view, info)
        samples, weights = self._auction_samples(view)
        if not samples:
            return Decision.reasoned(PASS, Message.of("bot.no_consistent_deal"))
        rules = view.rules
        trumps: list[Trump] = [0, 1, 2, 3] + ([NO_TRUMP, ALL_TRUMP] if rules.sa_ta else [])
        # Double-dummy points of our team for each trump over the sampled deals.
        dd: dict[Trump, list[int]] = {}
        candidates = self._candidate_trumps(view, info, trumps)
        for t in candidates:
            dd[t] = [_dd_points(view, t, hands, team) for hands in samples]
        # The value of passing: the current contract played as it stands.
        pass_value = 0.0
        if info.last_bid is not None:
            cur_trump = bid_trump(info.last_bid)
            if cur_trump not in dd:
                dd[cur_trump] = [_dd_points(view, cur_trump, hands, team) for hands in samples]
            contract = info.contract()
            assert contract is not None
            pass_value = self._expected(view, contract, dd[cur_trump], samples, weights)
            if COINCHE in acts:
                coinched = contract_of(info.last_bid, info.bidder, True, False, rules)
                value = self._expected(view, coinched, dd[cur_trump], samples, weights)
                fails = self._fail_rate(view, contract, dd[cur_trump], samples, weights)
                if value > pass_value + 20 and fails > 0.65:
                    return Decision.reasoned(
                        COINCHE,
                        Message.of(
                            "bot.coinche",
                            call=call_str(info.last_bid),
                            percent=round(100 * fails),
                            samples=len(samples),
                        ),
                    )
        best_action, best_value = PASS, pass_value
        for a in acts:
            if not is_bid(a) or is_generale(a):
                continue
            t = bid_trump(a)
            if t not in dd:
                continue
            if is_capot(a) and min(dd[t]) < 162:
                continue
            contract = contract_of(a, view.seat, False, False, rules)
            pts = [max(0, p - self.config.dd_optimism) for p in dd[t]]
            v = self._expected(view, contract, pts, samples, weights)
            if v > best_value + 1e-9:
                best_action, best_value = a, v
        if best_action == PASS:
            return Decision.reasoned(PASS, Message.of("bot.pass_no_contract", expected=f"{pass_value:+.0f}"))
        t = bid_trump(best_action)
        mean_pts = sum(dd[t]) / len(dd[t])
        return Decision.reasoned(
            best_action,
            Message.of(
                "bot.bid",
                call=call_str(best_action),
                points=round(mean_pts),
                trump=TRUMP_NAMES[t],
                samples=len(samples),
                expected=f"{best_value:+.0f}",
            ),
        )

    def _candidate_trumps(self, view: View, info: AuctionInfo, trumps: Sequence[Trump]) -> list[Trump]:
        """The trumps worth a search: the two strongest for our hand, and any our partner named."""
        hand = view.hand
        ranked = sorted(trumps, key=lambda t: -_hand_strength(hand, t))
        out = ranked[:2]
        partner = (view.seat + 2) & 3
        for t in info.trumps_bid(partner):
            if t not in out and t in trumps:
                out.append(t)
        return out

    def _auction_samples(self, view: View) -> tuple[list[tuple[CardSet, ...]], list[float]]:
        n = self.config.bid_samples
        hands = [0, 0, 0, 0]
        hands[view.seat] = view.hand
        forbidden = [0, 0, 0, 0]
        forbidden[view.seat] = FULL_DECK & ~view.hand
        c = Constraints(view.seat, tuple(hands), (8, 8, 8, 8), tuple(forbidden), FULL_DECK & ~view.hand)
        samples = sample_deals(c, n * 3 if self.config.inference else n, self.rng)
        if not self.config.inference:
            return samples, [1.0] * len(samples)
        info = parse_auction(view.calls, view.dealer, view.rules)
        weights = [_auction_likelihood(view, info, h) for h in samples]
        # Keep the n most likely of the drawn deals (importance resampling, cheap form).
        order = sorted(range(len(samples)), key=lambda i: -weights[i])[:n]
        return [samples[i] for i in order], [max(weights[i], 1e-12) for i in order]

    def _expected(
        self,
        view: View,
        contract: Contract,
        team_points: Sequence[int],
        samples: Sequence[tuple[CardSet, ...]],
        weights: Sequence[float],
    ) -> float:
        """Expected score margin of our team if ``contract`` is played, from double-dummy
        card points of our team in each sampled deal."""
        team = view.seat & 1
        total = 0.0
        for pts, hands, w in zip(team_points, samples, weights, strict=True):
            total += w * _deal_margin(view, contract, team, pts, hands)
        return total / max(sum(weights), 1e-12)

    def _fail_rate(
        self,
        view: View,
        contract: Contract,
        team_points: Sequence[int],
        samples: Sequence[tuple[CardSet, ...]],
        weights: Sequence[float],
    ) -> float:
        team = view.seat & 1
        fails = 0.0
        for pts, hands, w in zip(team_points, samples, weights, strict=True):
            facts = _facts(view, contract, team, pts, hands)
            if not score_deal(view.rules, contract, facts).made:
                fails += w
        return fails / max(sum(weights), 1e-12)

    def _surcoinche(self, view: View, info: AuctionInfo) -> Decision:
        samples, weights = self._auction_samples(view)
        contract = info.contract()
        assert contract is not None
        pts = [_dd_points(view, contract.trump, h, view.seat & 1) for h in samples]
        pts = [max(0, p - 2 * self.config.dd_optimism) for p in pts]
        fails = self._fail_rate(view, contract, pts, samples, weights)
        if samples and fails < 0.05:
            return Decision.reasoned(SURCOINCHE, Message.of("bot.surcoinche", percent=round(100 * (1 - fails))))
        return Decision.reasoned(PASS, Message.of("bot.pass_fails", percent=round(100 * fails)))


# ----- helpers -----


_LEVELS = (0, 42, 62, 72, 82, 92, 102, 112, 122, 132, 142, 152, 162)
"""Point levels the auction distinguishes (contract thresholds, 10 apart around them)."""


def _dd_points(view: View, trump: Trump, hands: Sequence[CardSet], team: int) -> int:
    """Double-dummy card points of ``team`` over a whole deal with ``trump``, to the
    nearest auction level: a binary search of null-window tests (a few fast searches
    instead of one exact one); the midpoint of the bracket found is returned."""
    rules = view.rules
    pos = Position(
        (hands[0], hands[1], hands[2], hands[3]),
        trump,
        (view.dealer + 1) & 3,
        (),
        rules.undertrump == "forced",
        rules.ta_values == "ffb",
    )
    lo, hi = 0, len(_LEVELS) - 1  # _LEVELS[lo] is reachable; find the highest reachable level
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if can_reach(pos, team, _LEVELS[mid]):
            lo = mid
        else:
            hi = mid - 1
    if lo == len(_LEVELS) - 1:
        return 162
    return (_LEVELS[lo] + _LEVELS[lo + 1]) // 2


def _facts(view: View, contract: Contract, team: int, team_points: int, hands: Sequence[CardSet]) -> DealFacts:
    """Facts of a full deal where our team takes ``team_points`` card points (double dummy
    from the first trick): used by the auction."""
    total = 162
    sweep: Sweep | None = None
    if team_points >= total:
        team_points = total
        sweep = "taker" if contract.team == team else "defense"
    elif team_points <= 0:
        sweep = "defense" if contract.team == team else "taker"
    if sweep is not None and view.rules.last_trick_sweep != 10:
        total = 152 + view.rules.last_trick_sweep
        team_points = total if team_points else 0
    b = dealt_belotes(contract.trump, hands)
    taker_team = contract.team
    t_pts = team_points if taker_team == team else total - team_points
    return DealFacts(
        taker_points=t_pts,
        defense_points=total - t_pts,
        taker_belotes=b[taker_team],
        defense_belotes=b[1 - taker_team],
        sweep=sweep,
    )


def _deal_margin(view: View, contract: Contract, team: int, team_points: int, hands: Sequence[CardSet]) -> float:
    sc = score_deal(view.rules, contract, _facts(view, contract, team, team_points, hands))
    t, d = sc.taker, sc.defense
    return (t - d) if contract.team == team else (d - t)


def _representatives(view: View, cards: Sequence[int]) -> list[int]:
    """One card of each group of equivalent cards: same suit, same points, and no card
    held by another seat ranking between them; the solver gives them the same value."""
    contract = view.contract
    assert contract is not None
    tt = tables(contract.trump, view.rules.ta_values == "ffb")
    played = 0
    for t in view.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in view.trick:
        played |= 1 << c
    others = FULL_DECK & ~played & ~view.hand
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


def _taker_makes_after(pos: Position, c: int, contract: Contract, need: int | None, scorer: _Scorer) -> bool:
    """Whether the takers still make the contract with best play after ``c`` is played
    (``need``: the points they must still win, None for a capot or a générale)."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~(1 << c)
    trick = (*pos.trick, c)
    taker_team = contract.team
    target = need
    leader, sweep_team, sweep_bonus = pos.leader, pos.sweep_team, pos.sweep_bonus
    if len(trick) == 4:
        tt = tables(pos.trump, pos.ffb_ta)
        winner = (pos.leader + trick_winner(trick, tt)) & 3
        pts = sum(tt.points[x] for x in trick)
        last = not any(hands)
        if last:
            pts += pos.last_trick_bonus
        if target is not None and winner & 1 == taker_team:
            target -= pts
        if need is None and (winner & 1 != taker_team or (contract.kind == "generale" and winner != contract.taker)):
            return False
        if sweep_bonus and sweep_team not in (None, winner & 1):
            sweep_bonus, sweep_team = 0, None
        elif sweep_bonus:
            sweep_team = winner & 1
            if last and winner & 1 == taker_team and target is not None:
                target -= sweep_bonus
        if last:
            return target is None or target <= 0
        leader, trick = winner, ()
    if target is not None and target <= 0:
        return True
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
    if target is None:
        return can_sweep(after, taker_team, contract.taker if contract.kind == "generale" else None)
    return can_reach(after, taker_team, target)


class _Scorer:
    """Turns 'points our team takes from now on' into the deal's score margin for our team,
    with what is known now (points won, belotes announced, melds shown)."""

    def __init__(self, view: View) -> None:
        contract = view.contract
        assert contract is not None
        self.view = view
        self.contract = contract
        self.team = view.seat & 1
        tt = tables(contract.trump, view.rules.ta_values == "ffb")
        played = 0
        for t in view.tricks:
            for c in t.cards:
                played |= 1 << c
        unplayed = FULL_DECK & ~played
        self.remaining = sum(tt.points[c] for c in range(32) if unplayed >> c & 1) + 10
        self.won = view.card_points
        teams_won = {t.winner & 1 for t in view.tricks}
        self.only_winner = teams_won.pop() if len(teams_won) == 1 else (None if view.tricks else -1)
        belotes = [0, 0]
        for b in view.belotes:
            if b.counts:
                belotes[b.seat & 1] += 1
        # Our own belote not announced yet: we will announce it.
        announced = {(b.seat, b.suit) for b in view.belotes}
        for su in belote_suits(view.hand, contract.trump):
            if (view.seat, su) not in announced:
                belotes[self.team] += 1
        self.belotes = belotes
        self.melds, self.cancelled = _known_melds(view)
        self.cache: dict[int, float] = {}
        self._made_cache: dict[int, bool] = {}

    def taker_threshold(self) -> int | None:
        """Fewest points the takers must still win (from the current trick on) to make
        the contract; None for a capot or générale (made by tricks, not points)."""
        if self.contract.kind != "bid":
            return None
        taker_is_us = self.contract.team == self.team
        for x in range(self.remaining + 1):
            mine = x if taker_is_us else self.remaining - x
            if self._made(mine):
                return x
        return self.remaining + 1

    def _made(self, value: int) -> bool:
        m = self._made_cache.get(value)
        if m is None:
            m = self._made_cache[value] = self._score(value).made
        return m

    def margin_if(self, est: float, taker_made: bool) -> float:
        """Score margin for our team when we take about ``est`` points from now and the
        contract is made (or not): ``est`` is moved to the nearest value that agrees."""
        v = round(est)
        lo, hi = 0, self.remaining
        v = max(lo, min(hi, v))
        step = 1 if (self.contract.team == self.team) == taker_made else -1
        while lo <= v <= hi and self._made(v) != taker_made:
            v += step
        if not lo <= v <= hi:
            v = max(lo, min(hi, v))
        return self.margin(v)

    def margin(self, value: int) -> float:
        m = self.cache.get(value)
        if m is None:
            m = self.cache[value] = self._margin(value)
        return m

    def _margin(self, value: int) -> float:
        sc = self._score(value)
        return float(sc.taker - sc.defense) if self.contract.team == self.team else float(sc.defense - sc.taker)

    def _score(self, value: int) -> DealScore:
        team, contract, rules = self.team, self.contract, self.view.rules
        base_value = min(value, self.remaining)
        mine = self.won[team] + base_value
        theirs = self.won[1 - team] + self.remaining - base_value
        sweep: Sweep | None = None
        if theirs == 0 and self.only_winner in (team, -1):
            sweep = "taker" if contract.team == team else "defense"
        elif mine == 0 and self.only_winner in (1 - team, -1):
            sweep = "defense" if contract.team == team else "taker"
        if sweep is not None and rules.last_trick_sweep != 10:
            if mine == 0:
                theirs = 152 + rules.last_trick_sweep
            else:
                mine = 152 + rules.last_trick_sweep
        if sweep == "taker" and contract.kind == "generale":
            sweep = "taker_alone"  # approximation: the générale's partner plays to win nothing
        tt = contract.team
        pts = (mine, theirs) if tt == team else (theirs, mine)
        facts = DealFacts(
            taker_points=pts[0],
            defense_points=pts[1],
            taker_belotes=self.belotes[tt],
            defense_belotes=self.belotes[1 - tt],
            taker_melds=self.melds[tt],
            defense_melds=self.melds[1 - tt],
            sweep=sweep,
            cancelled_melds=self.cancelled,
        )
        return score_deal(rules, contract, facts)


def _known_melds(view: View) -> tuple[tuple[int, int], int]:
    """Meld points each team takes as far as this seat knows (its own declaration and the
    melds shown), and the points cancelled by a tie."""
    rules = view.rules
    contract = view.contract
    if not rules.melds or contract is None:
        return (0, 0), 0
    declared: list[list[Meld]] = [[], []]
    for s in range(4):
        melds = view.declared if s == view.seat and view.declared else view.shown_melds[s]
        declared[s & 1].extend(melds)
    best = compare_teams(declared[0], declared[1], contract.trump)
    if rules.meld_scoring == "winner_takes_all":
        total = melds_points(declared[0]) + melds_points(declared[1])
        if best is None:
            return (0, 0), total
        return ((total, 0) if best == 0 else (0, total)), 0
    if best is None:
        return (0, 0), 0
    pts = melds_points(declared[best])
    return ((pts, 0) if best == 0 else (0, pts)), 0


def _hand_strength(hand: CardSet, trump: Trump) -> float:
    """A quick estimate of a hand's worth with ``trump`` (points it brings), for choosing
    which trumps to search and for reading the other seats' bids."""
    tt = tables(trump)
    score = 0.0
    if trump < NO_TRUMP:
        trumps = hand & SUIT_MASKS[trump]
        n = trumps.bit_count()
        score += 18 * (trumps >> card(trump, JACK) & 1) + 12 * (trumps >> card(trump, NINE) & 1)
        score += 6 * n + 4 * (trumps >> card(trump, ACE) & 1)
        for s in range(4):
            if s != trump:
                score += 10 * (hand >> card(s, ACE) & 1) + 4 * (hand >> card(s, TEN) & 1 and hand >> card(s, ACE) & 1)
        return score
    for c in range(32):
        if hand >> c & 1:
            score += tt.points[c] * 0.6
            if trump == ALL_TRUMP and c & 7 in (JACK, NINE):
                score += 6
            if trump == NO_TRUMP and c & 7 == ACE:
                score += 6
    return score


def _auction_likelihood(view: View, info: AuctionInfo, hands: Sequence[CardSet]) -> float:
    """How well a deal explains the other seats' calls: a seat that bid a trump is likely
    strong in it; a seat that passed is unlikely to hold a strong hand. A soft score
    (not a probability model) on ``_hand_strength``."""
    logw = 0.0
    for seat, call in info.calls:
        if seat == view.seat:
            continue
        h = hands[seat]
        if is_numeric_bid(call):
            t = bid_trump(call)
            s = _hand_strength(h, t)
            # Openings around 80 promise a hand of strength ~45; each +10 about +10 strength.
            partner_bid = info.value_in((seat + 2) & 3, t)
            expected = 40 + (bid_rank(call) // 10 - max(80, partner_bid + 10 if partner_bid else 80))
            logw -= max(0.0, expected - s) ** 2 / 200.0
        elif call == PASS and info.last_bid is None:
            best = max(_hand_strength(h, t) for t in range(4))
            logw -= max(0.0, best - 55) ** 2 / 200.0
    return math.exp(max(logw, -50.0))


class UniformExpertBot(ExpertBot):
    """The expert without inference: sampled deals are weighted uniformly (to measure
    what the inference earns)."""

    name = "expert-v1-uniform"

    def __init__(self, seed: int | None = None, samples: int = 100, bid_samples: int = 12) -> None:
        super().__init__(seed, samples=samples, inference=False, bid_samples=bid_samples)
