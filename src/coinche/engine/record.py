"""Deal and game records (RECORD.md): export, import, replay and the replay answer.

A record is plain JSON data. ``replay`` checks every call and card against the rules by
driving the same ``Game``/``Deal`` objects live play uses, so a record replays to exactly
the result the live game had. Two error types keep the CLI's exit statuses apart:
``RecordError`` (malformed: exit 2) and ``ReplayError`` (an illegal call or card: exit 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import ANNOUNCE, DECLARE_BASE, PASS, Action, call_str, parse_bid, parse_call
from .belote import BELOTE_POINTS, belote_suits
from .cards import (
    KING,
    NO_TRUMP,
    QUEEN,
    SUIT_CHARS,
    TRUMP_NAMES,
    CardSet,
    card,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
)
from .deal import Deal, DealResult, Phase
from .errors import EngineError, IllegalAction, short_repr
from .game import Game
from .melds import Meld, declaration_problem, parse_meld
from .rules import RulesError, RuleSet


class RecordError(EngineError):
    """A record that is not well formed (bad JSON shape, a card dealt twice, unknown profile)."""


class NotJSONError(RecordError):
    """Bytes that are not UTF-8 JSON: ``line`` and ``column`` (from 1) of the first fault
    in the text, None when the bytes are not UTF-8 text at all."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class ReplayError(EngineError):
    """A record whose calls or cards break the rules; the message says where and which rule."""


@dataclass(frozen=True)
class BeloteSpec:
    """One belote of a record: announced on its first card (``belote``) or its second."""

    seat: int
    suit: int | None
    """None: every belote of the seat, announced on the first card."""
    at: str = "belote"


@dataclass(frozen=True)
class DealRecord:
    """One deal of a record, parsed and checked for shape (not yet for the rules)."""

    dealer: int
    hands: tuple[CardSet, ...]
    auction: tuple[Action, ...]
    play: tuple[int, ...]
    belotes: tuple[BeloteSpec, ...] | None
    """None: every belote announced (the record has no ``declarations.belote``)."""
    melds: dict[int, tuple[Meld, ...]] | None
    """None: every player declares their best melds (no ``declarations.melds``)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """``cut`` and ``packets``, kept for information."""
    bad_bid: tuple[int, str] | None = None
    """The first well-formed numeric bid no rules allow (``300H``: ``parse_call`` cannot
    encode it), as (index in ``auction``, call): replay refuses it as an illegal call."""


@dataclass(frozen=True)
class Record:
    """A parsed record: one deal (``is_game`` False) or a game."""

    rules: RuleSet
    deals: tuple[DealRecord, ...]
    is_game: bool
    seed: int | None = None
    """A game's dealing seed (an extra key of RECORD.md): replay deals the record's hands
    from it where they match, so the replayed game deals its next hands as the live one."""


# ----- parsing -----

MAX_JSON_DIGITS = 100
"""A number of a record with more digits is refused before ``int()`` (which stops at 4,300)."""


class _HugeNumber(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_int(text: str) -> int:
    if len(text) > MAX_JSON_DIGITS:
        raise _HugeNumber(len(text.lstrip("-")))
    return int(text)


def decode_record(raw: bytes) -> Any:
    """The JSON data of a record's bytes; ``RecordError`` with a one-line reason when they
    are not UTF-8 JSON, hold a number too long, or nest too deeply."""
    try:
        return json.loads(raw.decode("utf-8"), parse_int=_json_int)
    except UnicodeDecodeError as e:
        raise NotJSONError(f"not valid JSON: {e}") from None
    except json.JSONDecodeError as e:
        raise NotJSONError(f"not valid JSON: {e}", e.lineno, e.colno) from None
    except _HugeNumber as e:
        raise RecordError(f"not a usable record: a number of {e.digits} digits") from None
    except RecursionError:
        raise RecordError("not a usable record: JSON nested too deeply") from None


def parse_record(data: Any) -> Record:
    """Check the shape of a decoded JSON record; ``RecordError`` says what is wrong."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with rules, dealer, hands, auction, play (or deals)")
    rules = _parse_rules(data)
    if "deals" in data:
        deals = data["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("deals must be a non-empty list of deal objects")
        parsed = tuple(_parse_deal(d, i + 1) for i, d in enumerate(deals))
        for i in range(1, len(parsed)):
            if parsed[i].dealer != (parsed[i - 1].dealer + 1) & 3:
                raise RecordError(
                    f"deal {i + 1}: dealer must be {(parsed[i - 1].dealer + 1) & 3} (the previous dealer + 1), "
                    f"not {parsed[i].dealer}"
                )
        return Record(rules, parsed, True, _parse_seed(data.get("seed")))
    return Record(rules, (_parse_deal(data, 1),), False)


def _parse_seed(value: Any) -> int | None:
    """The optional game seed: a whole number, kept for information only when it is not one."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64:
        return value
    return None


def _parse_rules(data: Mapping[str, Any]) -> RuleSet:
    name = data.get("rules")
    if not isinstance(name, str):
        raise RecordError('the record must name its rules profile ("rules": "classic", ...)')
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError("options must be a JSON object")
    try:
        return RuleSet.profile(name, **options)
    except RulesError as e:
        raise RecordError(str(e)) from None


def _parse_deal(d: Any, n: int) -> DealRecord:
    where = f"deal {n}"
    if not isinstance(d, Mapping):
        raise RecordError(f"{where}: a deal is a JSON object")
    dealer = d.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise RecordError(f"{where}: dealer must be a seat number 0..3, not {short_repr(dealer)}")
    hands_in = d.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != 4:
        raise RecordError(f"{where}: hands must be a list of 4 strings of 8 cards")
    hands: list[CardSet] = []
    seen = 0
    for s, h in enumerate(hands_in):
        if not isinstance(h, str):
            raise RecordError(f"{where}: hand of seat {s} must be a string of 8 cards")
        try:
            mask = parse_cards(h)
        except ValueError as e:
            raise RecordError(f"{where}: hand of seat {s}: {e}") from None
        if mask.bit_count() != 8:
            raise RecordError(f"{where}: seat {s} must be dealt 8 cards, not {mask.bit_count()}")
        if seen & mask:
            raise RecordError(f"{where}: card {card_str((seen & mask).bit_length() - 1)} is dealt twice")
        seen |= mask
        hands.append(mask)
    auction = _string_list(d.get("auction", []), f"{where}: auction")
    play = _string_list(d.get("play", []), f"{where}: play")
    calls: list[Action] = []
    bad_bid: tuple[int, str] | None = None
    for i, text in enumerate(auction):
        try:
            calls.append(parse_call(text))
        except ValueError as e:
            bid = parse_bid(text)
            if bid is None:
                raise RecordError(f"{where}: auction call {i + 1}: {e}") from None
            calls.append(PASS)  # a stand-in: replay stops at the bad bid
            if bad_bid is None:
                bad_bid = (i, f"{bid[0]}{TRUMP_NAMES[bid[1]]}")
    cards: list[int] = []
    for i, text in enumerate(play):
        try:
            cards.append(parse_card(text))
        except ValueError as e:
            raise RecordError(f"{where}: card {i + 1} of play: {e}") from None
    belotes, melds = _parse_declarations(d.get("declarations"), where)
    extra = {k: d[k] for k in ("cut", "packets") if k in d}
    return DealRecord(dealer, tuple(hands), tuple(calls), tuple(cards), belotes, melds, extra, bad_bid)


def _string_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(f"{what} must be a list of strings")
    return value


def _parse_declarations(
    decl: Any, where: str
) -> tuple[tuple[BeloteSpec, ...] | None, dict[int, tuple[Meld, ...]] | None]:
    if decl is None:
        return None, None
    if not isinstance(decl, Mapping):
        raise RecordError(f"{where}: declarations must be a JSON object")
    belotes: tuple[BeloteSpec, ...] | None = None
    if "belote" in decl:
        entries = decl["belote"]
        if not isinstance(entries, list):
            raise RecordError(f"{where}: declarations.belote must be a list")
        specs = []
        for e in entries:
            if isinstance(e, int) and not isinstance(e, bool) and 0 <= e <= 3:
                specs.append(BeloteSpec(e, None))
            elif isinstance(e, Mapping):
                seat, suit, at = e.get("seat"), e.get("suit"), e.get("at", "belote")
                if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
                    raise RecordError(f"{where}: belote seat must be 0..3, not {short_repr(seat)}")
                if not isinstance(suit, str) or suit.upper() not in SUIT_CHARS or len(suit) != 1:
                    raise RecordError(f"{where}: belote suit must be S, H, D or C, not {short_repr(suit)}")
                if at not in ("belote", "rebelote"):
                    raise RecordError(f'{where}: belote "at" must be belote or rebelote, not {short_repr(at)}')
                specs.append(BeloteSpec(seat, SUIT_CHARS.index(suit.upper()), at))
            else:
                raise RecordError(
                    f"{where}: a belote entry is a seat number or {{seat, suit, at}}, not {short_repr(e)}"
                )
        belotes = tuple(specs)
    melds: dict[int, tuple[Meld, ...]] | None = None
    if "melds" in decl:
        m = decl["melds"]
        if not isinstance(m, Mapping):
            raise RecordError(f"{where}: declarations.melds must be an object of seat -> list of melds")
        melds = {}
        for key, names in m.items():
            if str(key) not in ("0", "1", "2", "3"):
                raise RecordError(f'{where}: declarations.melds key must be a seat "0".."3", not {short_repr(key)}')
            if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
                raise RecordError(f'{where}: melds of seat {key} must be a list of strings like "tierce AH"')
            try:
                melds[int(key)] = tuple(parse_meld(x) for x in names)
            except ValueError as e:
                raise RecordError(f"{where}: melds of seat {key}: {e}") from None
    return belotes, melds


# ----- replay -----


def replay(record: Record) -> Game:
    """Replay a parsed record through a ``Game``; ``ReplayError`` names the first illegal
    call or card. Every deal of a game record is played; the game is returned."""
    first = record.deals[0]
    game = Game(record.rules, seed=record.seed, first_dealer=first.dealer, auto_deal=False)
    for n, dr in enumerate(record.deals, start=1):
        if game.is_over:
            raise ReplayError(f"deal {n}: the game was already won by team {game.winner} after deal {n - 1}")
        deal = game.next_deal(
            dr.hands, dr.extra.get("cut"), dr.extra.get("packets"), seeded_if_same=record.seed is not None
        )
        _replay_deal(game, deal, dr, n)
        if not deal.is_over and n < len(record.deals):
            raise RecordError(f"deal {n} is unfinished: only the last deal of a game may be unfinished")
    return game


def _replay_deal(game: Game, deal: Deal, dr: DealRecord, n: int) -> None:
    for i, call in enumerate(dr.auction):
        seat = deal.to_move
        bad = dr.bad_bid[1] if dr.bad_bid is not None and dr.bad_bid[0] == i else None
        try:
            if deal.phase is not Phase.AUCTION:
                raise IllegalAction("auction_over", action=bad or call_str(call))
            if bad is not None:
                raise IllegalAction("bid_value", call=bad, max_bid=deal.rules.max_bid)
            game.apply(call)
        except IllegalAction as e:
            raise ReplayError(f"deal {n}, auction, seat {seat}: {e}") from None
    if dr.play and deal.phase is Phase.AUCTION:
        raise ReplayError(f"deal {n}, trick 1: cards are played before the auction is over")
    if dr.belotes is not None and (deal.contract is not None or deal.is_over):
        _check_belotes(deal, dr.belotes, n)
    if deal.contract is None and deal.is_over and dr.melds is not None:
        _check_void_melds(deal, dr.melds, n)
    for c in dr.play:
        trick_no = len(deal.tricks) + 1
        seat = deal.to_move
        try:
            if deal.phase is not Phase.PLAY:
                raise IllegalAction("deal_over", action=card_str(c))
            if deal.declared[seat] is None:
                if dr.melds is None:
                    game.apply(DECLARE_BASE)
                else:
                    deal.declare(dr.melds.get(seat, ()))
            elif dr.melds and dr.melds.get(seat) and len(deal.tricks) == 0 and not deal.declared[seat]:
                deal.declare(dr.melds[seat])  # raises: this seat has no melds to declare
            game.apply(c + ANNOUNCE if _announces(deal, seat, c, dr.belotes) else c)
        except IllegalAction as e:
            raise ReplayError(f"deal {n}, trick {trick_no}, seat {seat}: {e}") from None
    if dr.melds and any(dr.melds.values()) and deal.contract is not None and not deal.rules.melds:
        raise ReplayError(f"deal {n}: melds are declared, but the {deal.rules.name} rules have no melds")


def _check_void_melds(deal: Deal, melds: Mapping[int, Sequence[Meld]], n: int) -> None:
    """The melds a record lists in a void deal: held by their seats, as in a played deal."""
    for seat, listed in sorted(melds.items()):
        if not listed:
            continue
        if not deal.rules.melds:
            raise ReplayError(f"deal {n}: melds are declared, but the {deal.rules.name} rules have no melds")
        problem = declaration_problem(deal.dealt[seat], listed)
        if problem is not None:
            raise ReplayError(f"deal {n}: {IllegalAction('bad_declaration', seat=seat, problem=problem)}")


def _check_belotes(deal: Deal, specs: Sequence[BeloteSpec], n: int) -> None:
    # A void deal has no contract, so no belote at all.
    trump = deal.contract.trump if deal.contract is not None else NO_TRUMP
    for spec in specs:
        suits = belote_suits(deal.dealt[spec.seat], trump)
        if spec.suit is None and not suits:
            raise ReplayError(f"deal {n}: seat {spec.seat} is listed with a belote it does not hold")
        if spec.suit is not None and spec.suit not in suits:
            raise ReplayError(
                f"deal {n}: seat {spec.seat} is listed with a belote in {SUIT_CHARS[spec.suit]} it does not hold"
            )


def _announces(deal: Deal, seat: int, c: int, specs: Sequence[BeloteSpec] | None) -> bool:
    """Whether the record announces (re)belote with this card."""
    if c & 7 not in (KING, QUEEN) or c + ANNOUNCE not in deal.legal_actions():
        return False
    if specs is None:
        return True
    suit = c >> 3
    other = card(suit, QUEEN if c & 7 == KING else KING)
    first = bool(deal.hands[seat] >> other & 1)
    for spec in specs:
        if spec.seat == seat and spec.suit in (None, suit):
            return first == (spec.at == "belote")
    return False


# ----- export -----


def deal_record(deal: Deal, with_rules: bool = True) -> dict[str, Any]:
    """The record of a deal as played so far (RECORD.md)."""
    out: dict[str, Any] = {}
    if with_rules:
        out["rules"] = deal.rules.name
        out["options"] = deal.rules.options()
    out["dealer"] = deal.dealer
    out["hands"] = [cards_str(h) for h in deal.dealt]
    out["auction"] = [call_str(a) for a in deal.auction.calls]
    out["play"] = [card_str(c) for t in deal.tricks for c in t.cards] + [card_str(c) for c in deal.trick]
    decl: dict[str, Any] = {}
    if deal.contract is not None:
        decl["belote"] = [{"seat": b.seat, "suit": SUIT_CHARS[b.suit], "at": b.at} for b in deal.belotes]
        if deal.rules.melds:
            decl["melds"] = {str(s): [m.name for m in ms] for s, ms in enumerate(deal.declared) if ms}
        out["declarations"] = decl
    return out


def game_record(game: Game) -> dict[str, Any]:
    """The record of a whole game (RECORD.md, "A game")."""
    deals = []
    for deal, info in zip(game.deals, game.infos, strict=True):
        d = deal_record(deal, with_rules=False)
        if game.rules.real_deal:
            if info.cut is not None:
                d["cut"] = info.cut
            d["packets"] = info.packets
        deals.append(d)
    out: dict[str, Any] = {"rules": game.rules.name, "options": game.rules.options()}
    if all(info.seeded for info in game.infos):
        out["seed"] = game.seed  # extra key: lets a replay go on dealing as the game would
    out["deals"] = deals
    return out


# ----- the replay answer -----


def deal_answer(deal: Deal) -> dict[str, Any]:
    """The per-deal answer of ``coinche replay --json`` (RECORD.md)."""
    res: DealResult | None = deal.result()
    c = deal.contract
    contract = None
    if c is not None:
        contract = {
            "kind": c.kind,
            "value": c.value,
            "trump": ("S", "H", "D", "C", "SA", "TA")[c.trump],
            "taker": c.taker,
            "multiplier": c.multiplier,
        }
    tricks = [
        {"leader": t.leader, "cards": [card_str(x) for x in t.cards], "winner": t.winner, "points": t.points}
        for t in deal.tricks
    ]
    belote = [0, 0]
    for b in deal.belotes:
        if b.counts:
            belote[b.seat & 1] += BELOTE_POINTS
    if res is None:
        return {
            "contract": contract,
            "tricks": tricks,
            "card_points": list(deal.card_points),
            "belote": belote,
            "melds": None,
            "made": None,
            "score": None,
        }
    return {
        "contract": contract,
        "tricks": tricks,
        "card_points": list(res.card_points),
        "belote": list(res.belote),
        "melds": list(res.melds),
        "made": res.made,
        "score": list(res.score),
        "sweep": res.sweep,
        "steps": list(res.steps),
    }


def game_answer(game: Game, is_game: bool = True) -> dict[str, Any]:
    """The answer for a replayed record: one deal's answer, or a game's with totals."""
    if not is_game:
        return deal_answer(game.deals[0])
    deals = []
    running = [0, 0]
    for deal in game.deals:
        a = deal_answer(deal)
        if a["score"] is not None:
            running[0] += a["score"][0]
            running[1] += a["score"][1]
        a["totals"] = list(running)
        deals.append(a)
    return {"deals": deals, "totals": list(game.totals), "winner": game.winner}
