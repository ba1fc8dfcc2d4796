"""Scoring of one deal (RULES.md section 5), shared by the engine and the score calculator.

The deal engine reduces a played deal to ``DealFacts`` (card points, belotes, valid melds,
who swept) and calls ``score_deal``; the calculator builds the same facts from what a
player types. One function therefore decides every score the product shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .actions import MAX_BID_DIGITS
from .belote import BELOTE_POINTS
from .cards import ALL_TRUMP, NO_TRUMP, TRUMP_NAMES, Trump, parse_trump
from .errors import EngineError, short_repr
from .melds import MAX_DEAL_MELDS, MAX_TEAM_MELDS
from .messages import Message, Param
from .rules import RuleSet

ContractKind = Literal["bid", "capot", "generale"]
Sweep = Literal["taker", "taker_alone", "defense"]
SWEEPS: tuple[Sweep, ...] = ("taker", "taker_alone", "defense")

CAPOT_VALUE = 250
FAILURE_BASE = 160


class ScoringError(EngineError):
    """Facts that no deal can produce (more points than the deal holds, a bad contract...).
    ``field`` names the calculator input at fault (``contract``, ``points``, ``belote``,
    ``taker_melds``, ``defense_melds``, ``melds``, ``sweep``, ``multiplier``), so a form
    shows the message next to it; ``message`` is translatable (ids ``calc.*``)."""

    message: Message

    def __init__(self, field: str, message_id: str, **params: Param) -> None:
        super().__init__(Message.of("calc." + message_id, **params))
        self.field = field


@dataclass(frozen=True)
class Contract:
    """The contract that ended an auction."""

    kind: ContractKind
    value: int
    """Contract value of RULES.md section 5: the bid, 250 for a capot, the générale value."""
    trump: Trump
    taker: int
    """Seat of the taker (0..3)."""
    multiplier: int = 1
    """1, 2 after coinche, 4 (or 3 in ``house`` below 3000) after surcoinche."""

    @property
    def team(self) -> int:
        return self.taker & 1

    @property
    def call(self) -> str:
        """The call that made it, in record notation: ``90H``, ``capotS``, ``generaleTA``."""
        t = TRUMP_NAMES[self.trump]
        return f"{self.value}{t}" if self.kind == "bid" else f"{self.kind}{t}"


def parse_contract(text: str, rules: RuleSet, taker: int = 0, multiplier: int = 1) -> Contract:
    """Parse a contract call of RECORD.md (``90H``, ``120SA``, ``capotS``, ``generaleTA``)."""
    t = text.strip()
    low = t.lower()
    shown = t if len(t) <= 20 else short_repr(t)
    kind: ContractKind
    if low.startswith("capot") or low.startswith("generale"):
        kind = "capot" if low.startswith("capot") else "generale"
        trump_text = t[len(kind) :]
        if kind == "generale" and not rules.generale:
            raise ScoringError("contract", "no_generale", contract=shown, profile=rules.name)
        value = CAPOT_VALUE if kind == "capot" else rules.generale_value
    else:
        kind = "bid"
        digits = ""
        while len(digits) < len(t) and len(digits) <= MAX_BID_DIGITS and t[len(digits)] in "0123456789":
            digits += t[len(digits)]
        trump_text = t[len(digits) :]
        if not digits:
            raise ScoringError("contract", "unknown_contract", contract=short_repr(text))
        value = int(digits) if len(digits) <= MAX_BID_DIGITS else -1  # int() refuses 4,300 digits
        if value not in rules.bid_values:
            raise ScoringError("contract", "bid_value", contract=shown, max_bid=rules.max_bid, profile=rules.name)
    try:
        trump = parse_trump(trump_text)
    except ValueError:
        raise ScoringError("contract", "unknown_contract", contract=short_repr(text)) from None
    if trump >= NO_TRUMP and not rules.sa_ta:
        raise ScoringError("contract", "no_sa_ta", contract=shown, profile=rules.name)
    return Contract(kind, value, trump, taker, multiplier)


@dataclass(frozen=True)
class DealFacts:
    """What scoring needs to know about a played deal."""

    taker_points: int
    """Card points of the taker's team, last-trick bonus included."""
    defense_points: int
    taker_belotes: int = 0
    """Number of belotes announced (and counting) by the taker's team; TA can have several."""
    defense_belotes: int = 0
    taker_melds: int = 0
    """Valid meld points the taker's team takes (RULES.md section 4, after comparison)."""
    defense_melds: int = 0
    sweep: Sweep | None = None
    """Who won all eight tricks: the taker's team, the taker alone, or the defense."""
    cancelled_melds: int = 0
    """Meld points cancelled by an exact tie of the best melds; under ``winner_takes_all``
    the defense still takes them on a failed contract (RULES.md I-10)."""


@dataclass(frozen=True)
class DealScore:
    """The result of a deal: made or failed, each team's award, and how it was computed."""

    made: bool
    taker: int
    defense: int
    lines: tuple[Message, ...] = field(default=())
    """How it was computed, one translatable line each (``steps`` gives the English)."""
    melds: tuple[int, int] = (0, 0)
    """Meld points the takers and the defense took, before multiplier and rounding."""

    @property
    def steps(self) -> tuple[str, ...]:
        """The explanation lines in English."""
        return tuple(m.text for m in self.lines)

    def by_team(self, taker_team: int) -> tuple[int, int]:
        """The two awards indexed by team (team 0 = seats 0 and 2)."""
        return (self.taker, self.defense) if taker_team == 0 else (self.defense, self.taker)

    def melds_by_team(self, taker_team: int) -> tuple[int, int]:
        t, d = self.melds
        return (t, d) if taker_team == 0 else (d, t)


def round_award(amount: int, rules: RuleSet, attack: bool) -> int:
    """Round one team's award the way the rules say (RULES.md 5.2, 5.3)."""
    if rules.rounding == "nearest10":
        return (amount + 5) // 10 * 10
    if rules.rounding == "house":
        return (amount + (4 if attack else 3)) // 10 * 10
    return amount


def deal_total(rules: RuleSet, sweep: bool) -> int:
    """Card points in a deal: 162, or 252 when a sweep makes the last trick worth 100."""
    return 152 + (rules.last_trick_sweep if sweep else 10)


def check_facts(rules: RuleSet, contract: Contract, facts: DealFacts) -> None:
    """Raise ``ScoringError`` when no deal under ``rules`` can produce these facts."""
    swept = facts.sweep is not None
    total = deal_total(rules, swept)
    if facts.sweep is not None and facts.sweep not in SWEEPS:
        raise ScoringError("sweep", "unknown_sweep", sweep=short_repr(facts.sweep))
    if not 0 <= facts.taker_points <= total:
        raise ScoringError("points", "points_range", total=total, points=short_repr(facts.taker_points))
    if facts.taker_points + facts.defense_points != total:
        raise ScoringError("points", "points_sum", total=total, points=facts.taker_points + facts.defense_points)
    if facts.sweep in ("taker", "taker_alone") and facts.taker_points != total:
        raise ScoringError("points", "taker_sweep_points", total=total, points=facts.taker_points)
    if facts.sweep == "defense" and facts.taker_points != 0:
        raise ScoringError("points", "defense_sweep_points", points=facts.taker_points)
    if facts.taker_belotes < 0 or facts.defense_belotes < 0:
        raise ScoringError("belote", "negative_belotes")
    max_belotes = 0 if contract.trump == NO_TRUMP else 4 if contract.trump == ALL_TRUMP else 1
    if min(facts.taker_belotes, facts.defense_belotes) < 0 or facts.taker_belotes + facts.defense_belotes > max_belotes:
        raise ScoringError(
            "belote",
            "too_many_belotes",
            trump=TRUMP_NAMES[contract.trump],
            most=max_belotes,
            count=facts.taker_belotes + facts.defense_belotes,
        )
    # winner_takes_all: the team with the best meld takes the melds of all four hands;
    # winner_own: it keeps its own two hands' melds only (RULES.md section 4).
    takes_all = rules.meld_scoring == "winner_takes_all"
    most = MAX_DEAL_MELDS if takes_all else MAX_TEAM_MELDS
    for name, team, melds in (
        ("taker_melds", Message.of("team.takers"), facts.taker_melds),
        ("defense_melds", Message.of("team.defense"), facts.defense_melds),
    ):
        if melds < 0 or melds % 10:
            raise ScoringError(name, "melds_multiple", team=team, melds=short_repr(melds))
        if melds and not rules.melds:
            raise ScoringError(name, "no_melds", team=team, melds=short_repr(melds), profile=rules.name)
        if melds > most:
            raise ScoringError(
                name,
                "deal_melds_most" if takes_all else "team_melds_most",
                team=team,
                most=most,
                melds=short_repr(melds),
            )
    if facts.taker_melds + facts.defense_melds > MAX_DEAL_MELDS:
        raise ScoringError(
            "melds", "both_melds_most", most=MAX_DEAL_MELDS, melds=facts.taker_melds + facts.defense_melds
        )
    if takes_all and facts.taker_melds and facts.defense_melds:
        raise ScoringError("melds", "one_team_melds", profile=rules.name)
    if contract.multiplier not in (1, 2, rules.surcoinche_multiplier):
        raise ScoringError(
            "multiplier",
            "multiplier",
            multiplier=short_repr(contract.multiplier),
            surcoinche=rules.surcoinche_multiplier,
        )


def is_made(rules: RuleSet, contract: Contract, facts: DealFacts, lines: list[Message] | None = None) -> bool:
    """Decide made or failed, on exact points before any rounding (why, into ``lines``)."""
    say = _say_into(lines)
    if contract.kind == "capot":
        made = facts.sweep in ("taker", "taker_alone")
        say("score.capot_made" if made else "score.capot_failed")
        return made
    if contract.kind == "generale":
        made = facts.sweep == "taker_alone"
        say("score.generale_made" if made else "score.generale_failed")
        return made
    t_melds, d_melds = _melds_after_sweep(rules, facts)
    with_melds = rules.melds_count_for_contract
    total_t = facts.taker_points + BELOTE_POINTS * facts.taker_belotes + (t_melds if with_melds else 0)
    total_d = facts.defense_points + BELOTE_POINTS * facts.defense_belotes + (d_melds if with_melds else 0)
    say("score.totals_with_melds" if with_melds else "score.totals", takers=total_t, defense=total_d)
    v = contract.value
    made = total_t >= v
    if not made:
        say("score.below_contract", total=total_t, value=v)
        return False
    if rules.beat_defense == "total" and total_t <= total_d:
        say("score.not_beating_defense", total=total_t, value=v, defense=total_d)
        return False
    if rules.beat_defense == "cards" and facts.taker_points <= facts.defense_points:
        say("score.cards_not_beating_defense", takers=facts.taker_points, defense=facts.defense_points)
        return False
    say("score.made", total=total_t, value=v)
    return True


def _melds_after_sweep(rules: RuleSet, facts: DealFacts) -> tuple[int, int]:
    if rules.sweep_transfers_melds and facts.sweep in ("taker", "taker_alone"):
        return facts.taker_melds + facts.defense_melds, 0
    return facts.taker_melds, facts.defense_melds


def _say_into(lines: list[Message] | None) -> Callable[..., None]:
    """``say(id, **params)``: add a line to ``lines``, or nothing when not explaining."""
    if lines is None:
        return _silent

    def say(message_id: str, **params: Param) -> None:
        lines.append(Message.of(message_id, **params))

    return say


def _silent(message_id: str, **params: Param) -> None:
    return None


def score_deal(rules: RuleSet, contract: Contract, facts: DealFacts, explain: bool = True) -> DealScore:
    """Score one deal under ``rules``; ``check_facts`` first for input you did not compute.
    With ``explain`` False the explanation lines are not made (the deal engine scores every
    deal and explains one only when asked: ``DealResult.lines``)."""
    x = contract.multiplier
    v = contract.value
    lines: list[Message] | None = [_contract_line(contract)] if explain else None
    say = _say_into(lines)
    b_t = BELOTE_POINTS * facts.taker_belotes
    b_d = BELOTE_POINTS * facts.defense_belotes
    m_t, m_d = _melds_after_sweep(rules, facts)
    if (m_t, m_d) != (facts.taker_melds, facts.defense_melds):
        say("score.sweep_transfers_melds", melds=facts.defense_melds)
    made = is_made(rules, contract, facts, lines)
    taker_sweep = facts.sweep in ("taker", "taker_alone")

    melds_taken = (0, 0)
    if made:
        if x > 1 and rules.coinche_scoring == "flat":
            taker = FAILURE_BASE + v * x + b_t
            say("score.takers_flat", value=v, multiplier=x, belote=b_t, total=taker)
            defense = b_d
            say("score.defense_belote_only", total=defense)
        else:
            base_line: Message
            if x > 1 and rules.coinche_made_base == "flat160":
                base = CAPOT_VALUE if taker_sweep else FAILURE_BASE
                base_line = Message.of("base.flat_sweep" if taker_sweep else "base.flat", points=base)
            elif contract.kind != "bid" and rules.slam_forfeit:
                base = v
                base_line = Message.of("base.forfeit", points=v, kind=contract.kind)
            elif taker_sweep and rules.numeric_sweep_forfeit is not None:
                base = rules.numeric_sweep_forfeit
                base_line = Message.of("base.sweep_forfeit", points=base)
            else:
                base = facts.taker_points
                base_line = Message.of("base.card_points", points=base)
            if x > 1 and rules.coinche_takes_all_melds:
                m_t, m_d = m_t + m_d, 0
            melds_taken = (m_t, m_d if x == 1 else 0)
            if x == 1:
                taker = v + base + m_t + b_t
                say("score.takers", value=v, base=base_line, melds=m_t, belote=b_t, total=taker)
                defense = facts.defense_points + m_d + b_d
                say("score.defense", points=facts.defense_points, melds=m_d, belote=b_d, total=defense)
            else:
                inner_b = b_t if rules.multiply_belote else 0
                inner = v + base + m_t + inner_b
                taker = inner * x + (b_t - inner_b)
                say(
                    "score.takers_multiplied" if rules.multiply_belote else "score.takers_multiplied_belote_after",
                    value=v,
                    base=base_line,
                    melds=m_t,
                    belote=b_t,
                    multiplier=x,
                    total=taker,
                )
                defense = b_d
                say("score.defense_belote_only", total=defense)
    else:
        all_melds = m_t + m_d
        if rules.meld_scoring == "winner_takes_all":
            all_melds += facts.cancelled_melds
        taker = b_t
        say("score.takers_belote_only", total=taker)
        base = rules.defense_sweep_base if facts.sweep == "defense" else FAILURE_BASE
        base_line = Message.of("base.defense_sweep" if base != FAILURE_BASE else "base.failure", points=base)
        if x > 1 and rules.coinche_scoring == "flat":
            defense = FAILURE_BASE + v * x + b_d
            say("score.defense_flat", value=v, multiplier=x, belote=b_d, total=defense)
        elif x == 1:
            melds_taken = (0, all_melds)
            defense = base + v + all_melds + b_d
            say("score.defense_failed", base=base_line, value=v, melds=all_melds, belote=b_d, total=defense)
        else:
            melds_taken = (0, all_melds)
            inner_b = b_d if rules.multiply_belote else 0
            defense = (base + v + all_melds + inner_b) * x + (b_d - inner_b)
            say(
                "score.defense_failed_multiplied"
                if rules.multiply_belote
                else "score.defense_failed_multiplied_belote_after",
                base=base_line,
                value=v,
                melds=all_melds,
                belote=b_d,
                multiplier=x,
                total=defense,
            )

    if rules.rounding != "none":
        rt = round_award(taker, rules, attack=True)
        rd = round_award(defense, rules, attack=False)
        say(
            "score.rounding_nearest10" if rules.rounding == "nearest10" else "score.rounding_house",
            takers=taker,
            rounded_takers=rt,
            defense=defense,
            rounded_defense=rd,
        )
        taker, defense = rt, rd
    say("score.result", takers=taker, defense=defense)
    return DealScore(made, taker, defense, tuple(lines or ()), melds_taken)


def _contract_line(contract: Contract) -> Message:
    x = contract.multiplier
    if x == 1:
        return Message.of("score.contract", call=contract.call)
    if x == 2:
        return Message.of("score.contract_coinched", call=contract.call)
    return Message.of("score.contract_surcoinched", call=contract.call, multiplier=x)


def calculate(
    rules: RuleSet,
    contract: str,
    points: int,
    multiplier: int = 1,
    taker_belotes: int = 0,
    defense_belotes: int = 0,
    taker_melds: int = 0,
    defense_melds: int = 0,
    sweep: Sweep | None = None,
) -> DealScore:
    """The score calculator: a deal's score from what a player knows after it.

    ``points`` are the takers' card points with the last-trick bonus; the defense has the
    rest. Impossible input raises ``ScoringError`` with a one-line reason.
    """
    c = parse_contract(contract, rules, multiplier=multiplier)
    total = deal_total(rules, sweep in ("taker", "taker_alone", "defense"))
    if not 0 <= points <= total:
        raise ScoringError("points", "points_range", total=total, points=short_repr(points))
    facts = DealFacts(
        taker_points=points,
        defense_points=total - points,
        taker_belotes=taker_belotes,
        defense_belotes=defense_belotes,
        taker_melds=taker_melds,
        defense_melds=defense_melds,
        sweep=sweep,
    )
    check_facts(rules, c, facts)
    return score_deal(rules, c, facts)
