"""The facts of the rules pages, asked of the engine when a page is first built.

Every number and card a rules page shows comes from here: the card values and orders
from ``cards``, the legal cards of the card-play examples from a ``Deal`` set up on the
position, the meld values from ``melds`` and each worked example's score from
``scoring.calculate``. The prose only words them, so a rule change cannot leave a page
wrong. ``content(rules)`` is cached per rule set (a ``RuleSet`` is frozen and hashable).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from functools import cache
from typing import Final, get_args

from ...engine.actions import PASS, card_of, is_card, is_declaration, make_bid
from ...engine.belote import BELOTE_POINTS
from ...engine.cards import (
    ALL_TRUMP,
    HEARTS,
    NINE,
    NO_TRUMP,
    RANK_CHARS,
    SPADES,
    TRUMP_NAMES,
    TRUMP_ORDER,
    Card,
    CardSet,
    Trump,
    card,
    card_str,
    mask_of,
    parse_card,
    parse_trump,
    points_table,
    sorted_cards,
    strength,
)
from ...engine.deal import Deal
from ...engine.errors import IllegalAction
from ...engine.melds import RUN_LENGTH_BY_KIND, RUN_POINTS, SQUARE_POINTS
from ...engine.play import tables, trick_winner
from ...engine.rules import PROFILES, Packets, RuleSet
from ...engine.scoring import CAPOT_VALUE, FAILURE_BASE, DealScore, Sweep, calculate, deal_total, round_award

# ----- the cards' order and values -----


@dataclass(frozen=True)
class ValueColumn:
    """One way of counting the cards: ``trump`` (the trump suit of a suit contract),
    ``plain`` (the other suits), ``sa`` (no trump) or ``ta`` (all trump)."""

    key: str
    points: tuple[int, ...]
    """Points of each row's rank (rows in ``ValueTable.ranks`` order)."""
    places: tuple[int, ...]
    """Place of each row's rank in the suit, 1 = strongest."""
    order: tuple[str, ...]
    """Rank letters strongest first."""
    suit_total: int


@dataclass(frozen=True)
class ValueTable:
    ranks: tuple[str, ...]
    columns: tuple[ValueColumn, ...]


def _column(key: str, trump: Trump, suit: int, ffb: bool) -> ValueColumn:
    points = points_table(trump, ffb)
    cards = [card(suit, r) for r in reversed(TRUMP_ORDER)]
    by_strength = sorted(range(8), key=lambda r: -strength(card(suit, r), trump))
    place = {r: i + 1 for i, r in enumerate(by_strength)}
    return ValueColumn(
        key=key,
        points=tuple(points[c] for c in cards),
        places=tuple(place[c & 7] for c in cards),
        order=tuple(RANK_CHARS[r] for r in by_strength),
        suit_total=sum(points[card(suit, r)] for r in range(8)),
    )


def value_table(rules: RuleSet) -> ValueTable:
    """The card table of RULES.md section 1 as the engine counts it (rows: trump order)."""
    ffb = rules.ta_values == "ffb"
    columns = [_column("trump", HEARTS, HEARTS, ffb), _column("plain", HEARTS, SPADES, ffb)]
    if rules.sa_ta:
        columns += [_column("sa", NO_TRUMP, SPADES, ffb), _column("ta", ALL_TRUMP, SPADES, ffb)]
    return ValueTable(tuple(RANK_CHARS[r] for r in reversed(TRUMP_ORDER)), tuple(columns))


# ----- card play: drawn positions with the engine's legal cards -----


@dataclass(frozen=True)
class PlayedCard:
    card: str
    who: str
    """``partner`` or ``opponent``: who played it, seen from the player to move."""
    winning: bool


@dataclass(frozen=True)
class PlayExample:
    id: str
    note: str
    """Which explanation goes with it (``rules.playnote.*``): the undertrump position
    reads differently when undertrumping is optional."""
    trump: str
    trick: tuple[PlayedCard, ...]
    hand: tuple[str, ...]
    """The hand of the player to move, grouped by suit, strongest first."""
    legal: tuple[str, ...]
    """The cards the engine lets that player play, in hand order."""


@dataclass(frozen=True)
class _Position:
    id: str
    trump: str
    trick: str
    hand: str
    needs_sa_ta: bool = False


POSITIONS: Final = (
    _Position("follow", "H", "KS", "AS 7S JH 9D AD TC 8C QD"),
    _Position("trump_led", "H", "9H 8H", "JH AH 7H KS 8S AD 7D TC"),
    _Position("must_trump", "H", "AD", "7S 8S KS 8H QH TH 8C 9C"),
    _Position("partner_master", "H", "AC 7C", "JH 8H AS 7S QS 9D KD 8D"),
    _Position("overtrump", "H", "7C QH", "JH 9H 7H AS TS 8D 9D KD"),
    _Position("undertrump", "H", "7C AH", "8H 7H AS TS 8S 8D 9D KD"),
    _Position("all_trump", "TA", "9S", "JS AS 7S 8H KD QD TC 7C", needs_sa_ta=True),
)
PLAY_IDS: Final = tuple(p.id for p in POSITIONS)
"""Every card-play example (its title is ``rules.play.<id>``)."""
NOTE_IDS: Final = tuple(
    n for p in POSITIONS for n in ((f"{p.id}_forced", f"{p.id}_optional") if p.id == "undertrump" else (p.id,))
)
"""Every card-play explanation (``rules.playnote.<note>``)."""


def _hands(rng: random.Random, trick: list[Card], hand: CardSet) -> list[CardSet]:
    """Hands for the four seats: seat ``i < len(trick)`` played ``trick[i]``, the player
    to move holds ``hand``; a seat that did not follow the suit led gets none of it."""
    mover = len(trick)
    rest = [c for c in range(32) if not (hand >> c & 1) and c not in trick]
    rng.shuffle(rest)
    led = trick[0] >> 3
    void = [i for i in range(mover) if trick[i] >> 3 != led]
    hands = [0, 0, 0, 0]
    hands[mover] = hand
    for i, c in enumerate(trick):
        hands[i] |= 1 << c
    # The suit led goes first to the seats that may hold it.
    rest.sort(key=lambda c: c >> 3 != led)
    order = [s for s in range(4) if s != mover and s not in void] + void
    for c in rest:
        seat = next(s for s in order if hands[s].bit_count() < 8)
        hands[seat] |= 1 << c
    return hands


def _legal_after(rules: RuleSet, trump: Trump, trick: list[Card], hands: list[CardSet]) -> CardSet | None:
    """Seat 0 takes at 80 and leads ``trick``; the cards the next player may play, or
    None when a card of ``trick`` is not legal with these hands."""
    deal = Deal(rules, 3, hands)
    deal.apply(make_bid(rules.bid_values.start, trump))
    for _ in range(3):
        deal.apply(PASS)
    for c in [*trick, None]:
        actions = deal.legal_actions()
        declarations = [a for a in actions if is_declaration(a)]
        if declarations:  # declare nothing: melds do not change the cards one may play
            deal.apply(declarations[-1])
            actions = deal.legal_actions()
        if c is None:
            return mask_of(card_of(a) for a in actions if is_card(a))
        try:
            deal.apply(c)
        except IllegalAction:
            return None
    return None


def play_example(rules: RuleSet, position: _Position) -> PlayExample:
    """The position drawn, with the legal cards the engine gives for it."""
    trump = parse_trump(position.trump)
    trick = [parse_card(w) for w in position.trick.split()]
    hand = mask_of(parse_card(w) for w in position.hand.split())
    rng = random.Random(position.id)
    for _ in range(500):
        legal = _legal_after(rules, trump, trick, _hands(rng, trick, hand))
        if legal is not None:
            break
    else:  # pragma: no cover - a position list error, caught by the tests
        raise ValueError(f"no deal reaches the position {position.id}")
    win = trick_winner(trick, tables(trump, rules.ta_values == "ffb"))
    mover = len(trick)
    played = tuple(
        PlayedCard(card_str(c), "partner" if (mover - i) % 2 == 0 else "opponent", i == win)
        for i, c in enumerate(trick)
    )
    shown = sorted_cards(hand, trump)
    note = f"{position.id}_{rules.undertrump}" if position.id == "undertrump" else position.id
    return PlayExample(
        position.id,
        note,
        position.trump,
        played,
        tuple(card_str(c) for c in shown),
        tuple(card_str(c) for c in shown if legal >> c & 1),
    )


# ----- melds -----


@dataclass(frozen=True)
class MeldValues:
    squares: tuple[tuple[str, int], ...]
    """(rank letter, points) strongest first."""
    no_square: tuple[str, ...]
    """Ranks whose four cards make no meld."""
    runs: tuple[tuple[str, int, int], ...]
    """(kind, cards, points): tierce, cinquante, cent."""


def meld_values() -> MeldValues:
    squares = sorted(SQUARE_POINTS.items(), key=lambda kv: (-kv[1], -strength(card(0, kv[0]), ALL_TRUMP)))
    runs = sorted(((k, n, RUN_POINTS[k]) for k, n in RUN_LENGTH_BY_KIND.items()), key=lambda r: r[1])
    return MeldValues(
        tuple((RANK_CHARS[r], p) for r, p in squares),
        tuple(RANK_CHARS[r] for r in range(8) if r not in SQUARE_POINTS),
        tuple(runs),
    )


# ----- worked scoring examples -----


@dataclass(frozen=True)
class WorkedExample:
    id: str
    contract: str
    multiplier: int
    points: int
    defense_points: int
    taker_belotes: int
    defense_belotes: int
    taker_melds: int
    defense_melds: int
    sweep: Sweep | None
    score: DealScore


@dataclass(frozen=True)
class _Example:
    id: str
    contract: str
    points: int
    multiplier: int = 1
    taker_belotes: int = 0
    taker_melds: int = 0
    sweep: Sweep | None = None
    needs_melds: bool = False
    needs_rounding: bool = False
    needs_generale: bool = False
    surcoinche: bool = False


EXAMPLES: Final = (
    _Example("made", "100H", 112),
    _Example("failed", "120S", 110),
    _Example("belote", "100H", 96, taker_belotes=1),
    _Example("beat_defense", "80H", 80),
    _Example("before_rounding", "90H", 89, needs_rounding=True),
    _Example("melds", "80H", 100, taker_melds=20, needs_melds=True),
    _Example("coinched", "100C", 120, multiplier=2),
    _Example("surcoinched", "90D", 80, surcoinche=True),
    _Example("sweep", "110H", -1, sweep="taker"),
    _Example("generale_failed", "generaleH", 120, needs_generale=True),
)
"""The worked examples of RULES.md section 5 and the seeds; each page shows those its
rules allow (``points`` -1: every point of a swept deal)."""
EXAMPLE_IDS: Final = tuple(e.id for e in EXAMPLES)


def _applies(rules: RuleSet, e: _Example) -> bool:
    return (
        (rules.melds or not e.needs_melds)
        and (rules.rounding != "none" or not e.needs_rounding)
        and (rules.generale or not e.needs_generale)
    )


def worked_example(rules: RuleSet, e: _Example) -> WorkedExample:
    """One example, scored by the calculator's function (the one the engine scores with)."""
    x = rules.surcoinche_multiplier if e.surcoinche else e.multiplier
    total = deal_total(rules, e.sweep is not None)
    points = total if e.points < 0 else e.points
    score = calculate(rules, e.contract, points, x, e.taker_belotes, 0, e.taker_melds, 0, e.sweep)
    return WorkedExample(
        e.id, e.contract, x, points, total - points, e.taker_belotes, 0, e.taker_melds, 0, e.sweep, score
    )


# ----- the whole page -----

KEY_FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "rules.col.": ("trump", "plain", "sa", "ta"),
    "rules.play.": PLAY_IDS,
    "rules.playnote.": NOTE_IDS,
    "rules.example.": EXAMPLE_IDS,
    "rank.": tuple(RANK_CHARS),
    "rank.short.": tuple(RANK_CHARS),
    "trump.": TRUMP_NAMES,
    "meld.": tuple(RUN_POINTS),
    "meld.carre.": tuple(RANK_CHARS),
    "home.profile_desc.": tuple(PROFILES),
}
"""The catalogue keys the rules templates build from a name (``t("rules.play." ~ id)``),
each family with every name it takes (the i18n test checks them all)."""


@dataclass(frozen=True)
class RulesContent:
    rules: RuleSet
    values: ValueTable
    bid_min: int
    bid_max: int
    bid_step: int
    capot: int
    failure_base: int
    card_points: int
    """Points in the cards, without the last trick."""
    last_trick: int
    deal_points: int
    sweep_deal_points: int
    belote: int
    surcoinche_threshold: int | None
    """The target from which surcoinche multiplies by 4, when it depends on the target."""
    surcoinche_low: int
    surcoinche_high: int
    raises: tuple[int, int, int]
    """A raise of one, two, three steps (RULES.md section 8)."""
    nine_points: int
    """What the trump Nine is worth (the "9 sec" raise)."""
    packets: tuple[str, ...]
    """The packet patterns the dealer may deal, as ``3-3-2``."""
    beat_half: int
    """The fewest card points that beat the other team's (82 of 162)."""
    capot_failed: int
    generale_failed: int
    rounding_attack: tuple[tuple[int, int], ...]
    """Two awards of the takers and what rounding makes of them (empty: no rounding)."""
    rounding_defense: tuple[tuple[int, int], ...]
    round_up_from: tuple[int, int]
    """The last digit from which the takers' and the defense's awards round up (0: never)."""
    plays: tuple[PlayExample, ...]
    melds: MeldValues | None
    examples: tuple[WorkedExample, ...]


def _surcoinche_threshold(rules: RuleSet) -> int | None:
    if not rules.surcoinche_by_target:
        return None
    return next(t for t in range(100, 10001) if dataclasses.replace(rules, target=t).surcoinche_multiplier == 4)


def _packet_patterns(rules: RuleSet) -> tuple[str, ...]:
    if rules.packets == "any":
        return tuple(p for p in get_args(Packets) if p != "any")
    return (rules.packets,)


def _rounded(rules: RuleSet, amounts: tuple[int, ...], attack: bool) -> tuple[tuple[int, int], ...]:
    """How rounding treats a few awards (the seeds' own examples), none without rounding."""
    if rules.rounding == "none":
        return ()
    if rules.rounding == "nearest10":
        amounts = (85, 84)
    return tuple((a, round_award(a, rules, attack)) for a in amounts)


def _round_up_from(rules: RuleSet, attack: bool) -> int:
    return next((d for d in range(1, 10) if round_award(100 + d, rules, attack) > 100), 0)


@cache
def content(rules: RuleSet) -> RulesContent:
    """Everything factual a rules page of ``rules`` shows."""
    bids = rules.bid_values
    threshold = _surcoinche_threshold(rules)
    low = dataclasses.replace(rules, target=100).surcoinche_multiplier
    high = dataclasses.replace(rules, target=10000).surcoinche_multiplier
    total = deal_total(rules, False)
    card_points = sum(points_table(HEARTS)[c] for c in range(32))
    return RulesContent(
        rules=rules,
        values=value_table(rules),
        bid_min=bids.start,
        bid_max=rules.max_bid,
        bid_step=bids.step,
        capot=CAPOT_VALUE,
        failure_base=FAILURE_BASE,
        card_points=card_points,
        last_trick=total - card_points,
        deal_points=total,
        sweep_deal_points=deal_total(rules, True),
        belote=BELOTE_POINTS,
        surcoinche_threshold=threshold,
        surcoinche_low=low,
        surcoinche_high=high,
        raises=(bids.step, 2 * bids.step, 3 * bids.step),
        nine_points=points_table(HEARTS)[card(HEARTS, NINE)],
        packets=tuple("-".join(p) for p in _packet_patterns(rules)),
        beat_half=total // 2 + 1,
        capot_failed=FAILURE_BASE + CAPOT_VALUE,
        generale_failed=FAILURE_BASE + rules.generale_value,
        rounding_attack=_rounded(rules, (126, 125), attack=True),
        rounding_defense=_rounded(rules, (37, 36), attack=False),
        round_up_from=(_round_up_from(rules, attack=True), _round_up_from(rules, attack=False)),
        plays=tuple(play_example(rules, p) for p in POSITIONS if rules.sa_ta or not p.needs_sa_ta),
        melds=meld_values() if rules.melds else None,
        examples=tuple(worked_example(rules, e) for e in EXAMPLES if _applies(rules, e)),
    )
