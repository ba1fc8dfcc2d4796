"""The expert's calls, by expected score: for every call it may make (pass, each bid,
capot, coinche, surcoinche), the expected score margin of the deal for its team under the
profile's scoring, from the hand evaluator's estimate of the team's card points, corrected
by what self-play measured (``calibration``).

No deal is searched: an estimate takes tens of microseconds, so a call takes a few
milliseconds whatever the auction. The distribution of our team's points has the shape of
the evaluator's quantiles, moved to the mean and scaled to the spread that the calibrated
lines predict from the estimate (what self-play measured of the evaluator's optimism); its
top ``p_sweep`` share is a sweep (a capot). Each point value is scored by the engine
(``outcome.deal_facts`` and ``score_deal``): a fall costs 160 plus the bid, a coinche doubles.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass, field

from ...engine.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    bid_trump,
    call_str,
    is_bid,
    is_capot,
    is_generale,
)
from ...engine.auction import contract_of
from ...engine.cards import NO_TRUMP, SUIT_MASKS, TRUMP_NAMES, CardSet, Trump, cards_of, count
from ...engine.deal import View
from ...engine.messages import Message
from ...engine.play import tables
from ...engine.rules import RuleSet
from ...engine.scoring import Contract, DealScore, score_deal
from ..base import Decision
from ..hand_evaluator import MAX_POINTS, Estimate, estimate, estimate_pair, first_trick_place
from ..knowledge import AuctionInfo, bid_value, parse_auction
from .calibration import Calibration, Prediction, calibration, level_of
from .config import ExpertConfig
from .outcome import deal_facts

OUTCOMES = 20
"""Points values (equally likely) the distribution of a team's points is cut into."""


@dataclass(frozen=True)
class Appraisal:
    """What the expert computed of every call open to it: the expected score margin of its
    team (``bid_value_expected``: a bid's coinche risk counted) and how often the contract is
    made or fails. ``choose_call`` decides on it; a bidding puzzle shows it."""

    view: View
    contract: Contract | None
    """The contract the auction stands at (None before a bid)."""
    current: Action | None
    """The highest bid (None before one)."""
    pass_value: float
    pass_fails: float | None
    """How often the standing contract fails (None before a bid)."""
    coinche: tuple[float, float] | None
    """Coinching: its expected margin and the contract's failure rate (None: not open)."""
    surcoinche: tuple[float, float] | None
    """Surcoinching: its expected margin and the contract's made rate (None: not open)."""
    bids: tuple[tuple[float, Action, Outlook], ...]
    """The bids valued (``bid_options``), in legal order."""
    estimates: dict[Trump, Estimate] = field(default_factory=dict, compare=False)
    """The hand evaluator's estimate of our team's points with each trump a legal bid
    names (what ``bid_options`` valued them on, those out of reach included)."""


def appraise(view: View, config: ExpertConfig, every_bid: bool = False) -> Appraisal:
    """Every call open to ``view``'s seat, valued (``every_bid``: the bids out of reach and
    the capots too unlikely to be bid as well, for showing what they are worth)."""
    info = parse_auction(view.calls, view.dealer, view.rules)
    book = calibration()
    contract = info.contract()
    pass_out: Outlook | None = None
    pass_value, pass_fails = 0.0, None
    coinche = surcoinche = None
    acts = view.legal_actions
    if contract is not None:
        pass_out = current_outlook(view, info, book)
        pass_value = pass_out.margin(contract)
        pass_fails = 1.0 - pass_out.made_rate(contract)
        if SURCOINCHE in acts:
            doubled = Contract(
                contract.kind, contract.value, contract.trump, contract.taker, view.rules.surcoinche_multiplier
            )
            surcoinche = (pass_out.margin(doubled), pass_out.made_rate(contract))
        if COINCHE in acts:
            coinched = contract_of(info.last_bid or 0, info.bidder, True, False, view.rules)
            coinche = (pass_out.margin(coinched), pass_fails)
    estimates: dict[Trump, Estimate] = {}
    bids = tuple(bid_options(view, info, book, config, every_bid, estimates))
    return Appraisal(view, contract, info.last_bid, pass_value, pass_fails, coinche, surcoinche, bids, estimates)


def choose_call(view: View, config: ExpertConfig, rng: random.Random) -> Decision:
    """The call with the best expected score margin for our team."""
    del rng  # the calls are deterministic: the same hand and auction give the same call
    return decide_call(appraise(view, config), config)


def decide_call(appraisal: Appraisal, config: ExpertConfig) -> Decision:
    """The expert's call on its appraisal: surcoinche when it pays and is made often enough;
    coinche when it adds enough and the contract fails often enough; else the best bid if it
    beats passing; else pass."""
    view, contract = appraisal.view, appraisal.contract
    pass_value = appraisal.pass_value
    if appraisal.surcoinche is not None and contract is not None:
        value, made = appraisal.surcoinche
        if made >= config.surcoinche_made and value > pass_value:
            return Decision.reasoned(SURCOINCHE, Message.of("bot.surcoinche_estimate", percent=round(100 * made)))
        return Decision.reasoned(PASS, Message.of("bot.pass_made_rate", percent=round(100 * made)))
    if appraisal.coinche is not None and contract is not None:
        value, fails = appraisal.coinche
        if value > pass_value + config.coinche_margin and fails >= config.coinche_fails:
            return Decision.reasoned(
                COINCHE,
                Message.of(
                    "bot.coinche_estimate",
                    call=call_str(appraisal.current or 0),
                    percent=round(100 * fails),
                    expected=f"{value:+.0f}",
                ),
            )
    best: tuple[float, Action, Outlook] | None = None
    for option in appraisal.bids:
        if best is None or option[0] > best[0] + 1e-9:
            best = option
    if best is None or best[0] <= pass_value + config.bid_margin:
        if (
            contract is not None
            and appraisal.pass_fails is not None
            and contract.team != view.seat & 1
            and appraisal.coinche is not None
        ):
            return Decision.reasoned(
                PASS,
                Message.of(
                    "bot.pass_estimate", expected=f"{pass_value:+.0f}", percent=round(100 * appraisal.pass_fails)
                ),
            )
        return Decision.reasoned(PASS, Message.of("bot.pass_no_contract", expected=f"{pass_value:+.0f}"))
    value, action, out = best
    bid = contract_of(action, view.seat, False, False, view.rules)
    return Decision.reasoned(
        action,
        Message.of(
            "bot.bid_estimate",
            call=call_str(action),
            points=round(out.mean),
            trump=TRUMP_NAMES[bid.trump],
            percent=round(100 * out.made_rate(bid)),
            expected=f"{value:+.0f}",
        ),
    )


def bid_options(
    view: View,
    info: AuctionInfo,
    book: Calibration,
    config: ExpertConfig,
    every_bid: bool = False,
    estimates: dict[Trump, Estimate] | None = None,
) -> list[tuple[float, Action, Outlook]]:
    """The bids worth valuing, in legal order, each with its expected margin (the coinche
    it may draw counted) and our team's outlook as its takers. No bar on how often a bid is
    made: the expected score decides (only the capot needs ``config.capot_made``).
    ``every_bid``: every bid but the générale, out of reach or not (to show its worth).
    ``estimates``, when given, receives the estimate of each trump valued."""
    options = []
    if estimates is None:
        estimates = {}
    for a in view.legal_actions:
        if not is_bid(a) or is_generale(a):
            continue
        t = bid_trump(a)
        if t not in estimates:
            estimates[t] = team_estimate(view.hand, view.seat, view.dealer, info, view.rules, t, book)
        est = estimates[t]
        bid = contract_of(a, view.seat, False, False, view.rules)
        if not every_bid and not is_capot(a) and out_of_reach(bid, est):
            continue
        out = taker_outlook(view, info, book, est, bid)
        if not every_bid and is_capot(a) and out.made_rate(bid) < config.capot_made:
            continue  # the evaluator's sweep chance runs high on bidding hands
        options.append((bid_value_expected(out, bid, config), a, out))
    return options


def out_of_reach(bid: Contract, est: Estimate) -> bool:
    """A numeric bid no plausible deal makes: not worth valuing."""
    return bid.value > est.mean_162 + 40


def coinche_chance(fails: float, config: ExpertConfig) -> float:
    """How likely the opponents are to coinche a contract that fails this often (a logistic
    curve centred on ``config.their_coinche_fails``: they see other cards than ours)."""
    z = (fails - config.their_coinche_fails) / config.their_coinche_width
    return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


def bid_value_expected(out: Outlook, bid: Contract, config: ExpertConfig) -> float:
    """Expected margin of a bid, counting the coinche it may draw: a bid that looks like a
    sacrifice is coinched, which doubles its cost (what stops bidding wars)."""
    plain = out.margin(bid)
    q = coinche_chance(1.0 - out.made_rate(bid), config)
    if q < 1e-3:
        return plain
    doubled = Contract(bid.kind, bid.value, bid.trump, bid.taker, 2)
    return (1.0 - q) * plain + q * out.margin(doubled)


# ----- our team's points -----


def partner_context(info: AuctionInfo, seat: int, trump: Trump) -> str | None:
    """What the partner's calls so far say of its hand in ``trump``, as a key of the
    calibration's partner table: ``named:<level>`` (it bid the trump first, highest value),
    ``raised:<step>`` (it raised our bid in it by that much), ``other`` (it bid only other
    trumps), ``passed`` (it only passed); None when it has not spoken yet."""
    partner = (seat + 2) & 3
    ours = 0
    step: int | None = None
    named_first = False
    highest = 0
    spoke = False
    for s, call in info.calls:
        if s == partner:
            spoke = True
        if not is_bid(call) or bid_trump(call) != trump:
            continue
        v = bid_value(call, info.rules)
        if s == seat:
            ours = max(ours, v)
        elif s == partner:
            highest = max(highest, v)
            if ours:
                step = v - ours
            else:
                named_first = True
    if not spoke:
        return None
    if highest:
        if named_first or step is None:
            return f"named:{level_of(highest)}"
        return "raised:capot" if highest >= 250 else f"raised:{min(max(step, 10), 40) // 10 * 10}"
    return "other" if info.bids[partner] else "passed"


def team_estimate(
    hand: CardSet, seat: int, dealer: int, info: AuctionInfo, rules: RuleSet, trump: Trump, book: Calibration
) -> Estimate:
    """The hand evaluator's estimate of our team's double-dummy card points with ``trump``,
    knowing our hand and what the partner's calls say of its own."""
    place = first_trick_place(seat, dealer)
    context = partner_context(info, seat, trump)
    if context is None:
        return estimate(hand, trump, rules, place)
    return estimate_pair(hand, trump, rules, place, book.partner_points(rules, trump, context))


def situation(info: AuctionInfo, contract: Contract) -> tuple[str, int]:
    """The takers' situation the calibration distinguishes, and its figure: ``coinched``
    (the contract's value), ``contested`` (the other team has bid) or ``free``."""
    if contract.multiplier > 1:
        return "coinched", contract.value
    contested = any(info.bids[s] for s in range(4) if s & 1 != contract.team)
    return ("contested" if contested else "free"), 0


@dataclass(frozen=True)
class Outlook:
    """Our team's card points in one deal as equally weighted values (0..162; 162 is a sweep
    by our team, 0 a sweep by the other), and the view they are scored in."""

    view: View
    points: tuple[int, ...]
    scored: dict[Contract, list[DealScore]] = field(default_factory=dict, compare=False, repr=False)
    """Each contract's scores over the values, made once: a bid asks its made rate and its
    margin, plain and coinched."""

    @property
    def mean(self) -> float:
        return sum(min(p, 162) for p in self.points) / len(self.points)

    def scores(self, contract: Contract) -> list[DealScore]:
        """The deal's score for each value if ``contract`` is played."""
        out = self.scored.get(contract)
        if out is None:
            view = self.view
            team = view.seat & 1
            hands = tuple(view.hand if s == view.seat else 0 for s in range(4))
            out = [
                score_deal(view.rules, contract, deal_facts(view, contract, team, p, hands), explain=False)
                for p in self.points
            ]
            self.scored[contract] = out
        return out

    def margin(self, contract: Contract) -> float:
        """Expected score margin of our team if ``contract`` is played."""
        ours = contract.team == self.view.seat & 1
        total = sum((sc.taker - sc.defense) if ours else (sc.defense - sc.taker) for sc in self.scores(contract))
        return total / len(self.points)

    def made_rate(self, contract: Contract) -> float:
        """Share of the values in which ``contract`` is made."""
        return sum(sc.made for sc in self.scores(contract)) / len(self.points)


def outlook(view: View, est: Estimate, predicted: Prediction, p_sweep: float) -> Outlook:
    """The team's points as ``OUTCOMES`` equally likely values: the shape of the estimate's
    quantiles, moved to the predicted mean and scaled to the predicted spread; the top
    ``p_sweep`` share is a sweep."""
    qs = [(0.0, 0.0), *est.quantiles, (1.0, float(MAX_POINTS))]
    levels = [q[0] for q in qs]
    mean = est.mean_162
    scale = predicted.sd / est.sd if predicted.sd is not None and est.sd > 0 else 1.0
    scale = min(scale, 3.0)
    points = []
    for k in range(OUTCOMES):
        level = (k + 0.5) / OUTCOMES
        if level > 1.0 - p_sweep:
            points.append(MAX_POINTS)
            continue
        i = min(max(bisect.bisect_left(levels, level), 1), len(qs) - 1)
        (l0, p0), (l1, p1) = qs[i - 1], qs[i]
        x = p0 + (p1 - p0) * (level - l0) / (l1 - l0) if l1 > l0 else p1
        x = predicted.mean + (x - mean) * scale
        points.append(0 if x <= 0 else min(max(round(x), 1), MAX_POINTS - 1))
    return Outlook(view, tuple(points))


def sure_sweep(hand: CardSet, trump: Trump, on_lead: bool) -> bool:
    """Whether ``hand`` alone takes every trick of a contract in the suit ``trump``, whatever
    the others hold: on lead, its trumps are the highest in sequence and at least as many
    as the others hold (a round each draws them at worst), and each side suit it holds is
    headed by its highest cards in sequence; not on lead, a side lead may be ruffed over its
    ace: only the eight trumps. The evaluator's sweep chance, a regression, rates eight
    trumps 0.96, which the calibration's line takes to 0.6."""
    if trump >= NO_TRUMP:
        return False
    held = count(hand & SUIT_MASKS[trump])
    if held == 8:
        return True
    if not on_lead or held < 8 - held:
        return False
    above = tables(trump).above
    return not any(above[c] & ~hand for c in cards_of(hand))  # each suit headed by its best


def sweep_chance(view: View, book: Calibration, est: Estimate, trump: Trump) -> float:
    """Our team's chance to sweep as the takers in ``trump``: certain on a sure sweep,
    else the evaluator's chance as self-play found it."""
    if sure_sweep(view.hand, trump, first_trick_place(view.seat, view.dealer) == 0):
        return 1.0
    return book.sweep_chance(view.rules, est.p_sweep)


def taker_outlook(view: View, info: AuctionInfo, book: Calibration, est: Estimate, contract: Contract) -> Outlook:
    """Our team's points as the takers of ``contract``, corrected as self-play measured."""
    rules = view.rules
    kind, other = situation(info, contract)
    predicted = book.takers(rules, contract.trump, kind, est, other)
    return outlook(view, est, predicted, sweep_chance(view, book, est, contract.trump))


def current_outlook(view: View, info: AuctionInfo, book: Calibration) -> Outlook:
    """Our team's points if the auction stopped now: as the takers when the contract is our
    team's, as the defence otherwise."""
    contract = info.contract()
    assert contract is not None
    rules = view.rules
    est = team_estimate(view.hand, view.seat, view.dealer, info, rules, contract.trump, book)
    if contract.team == view.seat & 1:
        return taker_outlook(view, info, book, est, contract)
    predicted = book.defenders(rules, contract.trump, contract.value, est)
    return outlook(view, est, predicted, book.sweep_chance(rules, est.p_sweep))
