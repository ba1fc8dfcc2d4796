"""One deal: auction, meld declarations, card play with belote, and its result.

``Deal`` is the state object every client uses: ``legal_actions()``, ``apply(action)``,
``view(seat)`` (what that seat may know, never more) and ``result()`` once over. It is
mutable like python-chess's ``Board`` (``apply`` is a push), so a bot that searches takes
a ``copy()``. A refused action raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .actions import ANNOUNCE, DECLARE_BASE, Action, action_str, is_declaration
from .auction import Auction
from .belote import BELOTE_POINTS, belote_cards
from .cards import (
    FULL_DECK,
    NO_TRUMP,
    SUIT_MASKS,
    Card,
    CardSet,
    card_list,
    card_str,
    cards_str,
)
from .errors import EngineError, IllegalAction, short_repr
from .melds import Meld, best_melds, compare_teams, declaration_choices, declaration_problem, melds_points
from .messages import Message
from .play import TrumpTables, explain_illegal, legal_mask, tables
from .rules import RuleSet
from .scoring import Contract, DealFacts, DealScore, Sweep, score_deal


class InvalidDeal(EngineError):
    """Hands that are not a deal of the 32 cards, 8 to each seat."""


class Phase(enum.Enum):
    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"


class Trick(NamedTuple):
    """A finished trick (a named tuple: tricks are made on the hot path)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    """Card points, last-trick bonus included for the eighth trick."""


@dataclass(frozen=True)
class BeloteCall:
    """A belote announced by ``seat`` in ``suit``, on its first card (``belote``) or
    only on its second (``rebelote``). ``counts`` is False for a rebelote-only
    announcement under ``belote_must_announce``."""

    seat: int
    suit: int
    at: Literal["belote", "rebelote"]
    counts: bool


@dataclass(frozen=True)
class DealResult:
    contract: Contract | None
    """None for a void deal (four passes)."""
    card_points: tuple[int, int]
    belote: tuple[int, int]
    melds: tuple[int, int]
    """Meld points each team took, before multiplier and rounding."""
    made: bool | None
    score: tuple[int, int]
    sweep: Sweep | None
    explained: tuple[Message, ...] | None = field(default=None, compare=False, repr=False)
    """The explanation lines once made (``lines`` makes them on first use)."""
    scored: tuple[RuleSet, Contract, DealFacts] | None = field(default=None, compare=False, repr=False)
    """What the deal was scored from, to explain it when asked."""

    @property
    def lines(self) -> tuple[Message, ...]:
        """How the score was computed, one translatable line each (``steps``: in English).
        Made on first use: a deal is scored on the hot path, explained only when shown."""
        if self.explained is None:
            lines = score_deal(*self.scored).lines if self.scored is not None else ()
            object.__setattr__(self, "explained", lines)
            return lines
        return self.explained

    @property
    def steps(self) -> tuple[str, ...]:
        return tuple(m.text for m in self.lines)


@dataclass(frozen=True)
class View:
    """What one seat may know at a moment of the deal (OpenSpiel's observation)."""

    seat: int
    rules: RuleSet
    dealer: int
    phase: Phase
    to_move: int
    hand: CardSet
    calls: tuple[Action, ...]
    """Every call so far, the first by ``dealer + 1``."""
    contract: Contract | None
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick: tuple[Card, ...]
    """Cards of the trick in progress, led first."""
    card_points: tuple[int, int]
    belotes: tuple[BeloteCall, ...]
    shown_melds: tuple[tuple[Meld, ...], ...]
    """Melds of each seat that have been shown to the table."""
    declared: tuple[Meld, ...] | None
    """This seat's own declaration (None before it declared)."""
    hand_sizes: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    """The seat's legal actions when it is to move, else empty."""
    result: DealResult | None


@dataclass(frozen=True)
class Declaration:
    """A meld declaration made with ``Deal.declare`` (any valid melds, as records may
    declare), as it stands in a deal's action log. Declarations made through ``apply``
    (``DECLARE_BASE + k``) are logged as those actions."""

    melds: tuple[Meld, ...]


LogEntry = Action | Declaration
"""One accepted step of a deal: an action taken through ``apply``, or a ``Declaration``."""

_PLAY = Phase.PLAY


def deal_hands(deck: Sequence[Card], dealer: int, packets: str) -> tuple[CardSet, ...]:
    """Deal ``deck`` (top card first) in packets such as ``332``, starting with dealer + 1."""
    hands = [0, 0, 0, 0]
    i = 0
    for size in (int(ch) for ch in packets):
        for k in range(1, 5):
            seat = (dealer + k) & 3
            for c in deck[i : i + size]:
                hands[seat] |= 1 << c
            i += size
    return tuple(hands)


def random_hands(rng: random.Random) -> tuple[CardSet, ...]:
    """A shuffled deal of the 32 cards (packets do not matter after a random shuffle)."""
    deck = list(range(32))
    rng.shuffle(deck)
    return tuple(sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4))


class Deal:
    """The state of one deal under a ``RuleSet``."""

    def __init__(self, rules: RuleSet, dealer: int, hands: Sequence[CardSet]) -> None:
        if not 0 <= dealer <= 3:
            raise InvalidDeal(f"dealer must be a seat 0..3, not {dealer}")
        if len(hands) != 4:
            raise InvalidDeal(f"a deal has 4 hands, not {len(hands)}")
        seen = 0
        for s, h in enumerate(hands):
            if h.bit_count() != 8 or h & ~FULL_DECK:
                raise InvalidDeal(f"seat {s} must hold 8 cards, not {h.bit_count()}")
            if seen & h:
                raise InvalidDeal(f"card {card_str((seen & h).bit_length() - 1)} is dealt twice")
            seen |= h
        self.rules = rules
        self.dealer = dealer
        self.dealt: tuple[CardSet, ...] = tuple(hands)
        self.hands: list[CardSet] = list(hands)
        self.auction = Auction(rules, (dealer + 1) & 3)
        self.phase = Phase.AUCTION
        self.contract: Contract | None = None
        self.to_move = (dealer + 1) & 3
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.trick_leader = self.to_move
        self._win_card = -1
        self._win_idx = 0
        self.card_points = [0, 0]
        self.played = 0
        self._legal: CardSet = 0
        self._legal_at = -1
        self._show_at = 0
        """Melds are shown once this many cards are played (0: no melds)."""
        self._tt: TrumpTables = tables(NO_TRUMP)
        self._undertrump = rules.undertrump == "forced"
        # Belote: cards that may still carry an announcement, and what was said.
        self._announceable = [0, 0, 0, 0]
        self._belote_pairs = [0, 0, 0, 0]
        self._belote_first: dict[tuple[int, int], bool] = {}
        self.belotes: list[BeloteCall] = []
        # Melds: each seat's best melds, declarations (None: not yet), and what was shown.
        self._best: list[tuple[Meld, ...]] = [(), (), (), ()]
        self.declared: list[tuple[Meld, ...] | None] = [(), (), (), ()]
        self.shown: list[tuple[Meld, ...]] = [(), (), (), ()]
        self._result: DealResult | None = None
        self.log: list[LogEntry] = []
        """Every accepted action and declaration, in order: with the rules, dealer and
        hands, all a deal is (``Deal.from_log`` rebuilds it)."""

    @staticmethod
    def from_log(rules: RuleSet, dealer: int, hands: Sequence[CardSet], log: Sequence[LogEntry]) -> Deal:
        """The deal rebuilt from its log; ``IllegalAction`` if an entry is not legal."""
        deal = Deal(rules, dealer, hands)
        for entry in log:
            deal.replay_entry(entry)
        return deal

    def replay_entry(self, entry: LogEntry) -> None:
        """Apply one log entry: an action, or a ``Declaration``."""
        if isinstance(entry, Declaration):
            self.declare(entry.melds)
        else:
            self.apply(entry)

    def __eq__(self, other: object) -> bool:
        """Same rules, dealer, hands and accepted steps: the same deal in the same state."""
        if not isinstance(other, Deal):
            return NotImplemented
        return (self.rules, self.dealer, self.dealt, self.log) == (other.rules, other.dealer, other.dealt, other.log)

    __hash__ = None  # type: ignore[assignment]

    # ----- the state API -----

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take (empty once the deal is over)."""
        if self.phase is _PLAY:
            seat = self.to_move
            if self.declared[seat] is None:
                return [DECLARE_BASE + k for k in range(len(self.declaration_choices()))]
            mask = self._legal if self._legal_at == self.played else self._legal_cards()
            acts = card_list(mask)
            bel = self._announceable[seat] & mask
            if bel:
                acts.extend(c + ANNOUNCE for c in card_list(bel))
            return acts
        if self.phase is Phase.AUCTION:
            return self.auction.legal_calls()
        return []

    def _legal_cards(self) -> CardSet:
        """Legal cards of the player to move, cached until the next card is played."""
        if self._legal_at == self.played:
            return self._legal
        seat = self.to_move
        trick = self.trick
        if trick:
            mask = legal_mask(
                self.hands[seat],
                trick,
                self._win_card,
                (self.trick_leader + self._win_idx) & 1 == seat & 1,
                self._tt,
                self._undertrump,
            )
        else:  # a lead: any card
            mask = self.hands[seat]
        self._legal, self._legal_at = mask, self.played
        return mask

    def apply(self, action: Action) -> None:
        """Take ``action`` for the player to move; ``IllegalAction`` leaves the state unchanged."""
        if type(action) is not int and (not isinstance(action, int) or isinstance(action, bool)):
            raise IllegalAction("not_an_action", action=short_repr(action))
        if self.phase is _PLAY:
            self._play(action)
            self.log.append(action)
        elif self.phase is Phase.AUCTION:
            self.auction.apply(action)
            self.log.append(action)
            self.to_move = self.auction.to_move
            if self.auction.done:
                self._start_play()
        else:
            raise IllegalAction("deal_over", action=_safe_str(action))

    def declaration_choices(self) -> list[tuple[Meld, ...]]:
        """What the player to move may declare in the first trick: every subset of its best
        melds, all of them first and nothing last."""
        return declaration_choices(self._best[self.to_move])

    def declare(self, melds: Sequence[Meld]) -> None:
        """Declare any valid set of melds for the player to move (records may declare
        melds other than the best); raises ``IllegalAction`` when not allowed now."""
        seat = self.to_move
        if melds and self.rules.melds and self.phase is Phase.PLAY and not self.tricks:
            problem = declaration_problem(self.dealt[seat], melds)
            if problem is not None:
                raise IllegalAction("bad_declaration", seat=seat, problem=problem)
        if self.phase is not Phase.PLAY or self.declared[seat] is not None:
            if not melds:
                return
            raise IllegalAction("declare_not_now", seat=seat, melds=", ".join(m.name for m in melds))
        problem = declaration_problem(self.dealt[seat], melds)
        if problem is not None:
            raise IllegalAction("bad_declaration", seat=seat, problem=problem)
        self.declared[seat] = tuple(melds)
        self.log.append(Declaration(tuple(melds)))

    def view(self, seat: int, alike: View | None = None) -> View:
        """What ``seat`` may know now: its own hand, all calls, cards played, melds shown,
        belotes announced; never another seat's unplayed card. ``alike``: another view of
        this same moment (another seat's, or a watcher's), whose parts that every seat sees
        alike are taken as they are (a server renders every seat's view of each step)."""
        legal = tuple(self.legal_actions()) if self.to_move == seat and self.phase is not Phase.DONE else ()
        return self._view(seat, self.hands[seat], self.declared[seat], legal, alike)

    def watcher_view(self, seat: int, alike: View | None = None) -> View:
        """What a fifth person at the table knows now, seen from ``seat``'s chair: the
        calls, the cards played, the melds shown and the belotes, never a card in a
        hand (``hand`` empty, no declaration of its own, no legal action). ``alike`` as
        for ``view``."""
        return self._view(seat, 0, None, (), alike)

    def _view(
        self, seat: int, hand: CardSet, declared: tuple[Meld, ...] | None, legal: tuple[Action, ...], alike: View | None
    ) -> View:
        if alike is not None:
            return View(
                seat,
                alike.rules,
                alike.dealer,
                alike.phase,
                alike.to_move,
                hand,
                alike.calls,
                alike.contract,
                alike.tricks,
                alike.trick_leader,
                alike.trick,
                alike.card_points,
                alike.belotes,
                alike.shown_melds,
                declared,
                alike.hand_sizes,
                legal,
                alike.result,
            )
        return View(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            to_move=self.to_move,
            hand=hand,
            calls=tuple(self.auction.calls),
            contract=self.contract,
            tricks=tuple(self.tricks),
            trick_leader=self.trick_leader,
            trick=tuple(self.trick),
            card_points=(self.card_points[0], self.card_points[1]),
            belotes=tuple(self.belotes),
            shown_melds=tuple(self.shown),
            declared=declared,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            legal_actions=legal,
            result=self._result,
        )

    def result(self) -> DealResult | None:
        """The result once the deal is over, None before."""
        return self._result

    def returns(self) -> tuple[int, int]:
        """Score of each team for this deal (0, 0 before the end)."""
        return self._result.score if self._result else (0, 0)

    def copy(self) -> Deal:
        """An independent copy, for search."""
        new = Deal.__new__(Deal)
        new.__dict__.update(self.__dict__)
        new.hands = self.hands.copy()
        new.auction = Auction(
            self.auction.rules,
            self.auction.first,
            self.auction.calls.copy(),
            self.auction.bid,
            self.auction.bidder,
            self.auction.coincher,
            self.auction.surcoinched,
            self.auction.passes,
            self.auction.done,
        )
        new.tricks = self.tricks.copy()
        new.trick = self.trick.copy()
        new.card_points = self.card_points.copy()
        new._announceable = self._announceable.copy()
        new._belote_first = self._belote_first.copy()
        new.belotes = self.belotes.copy()
        new.declared = self.declared.copy()
        new.shown = self.shown.copy()
        new.log = self.log.copy()
        return new

    def __repr__(self) -> str:
        hands = " | ".join(cards_str(h) for h in self.hands)
        return f"<Deal {self.rules.name} dealer={self.dealer} {self.phase.value} to_move={self.to_move} [{hands}]>"

    # ----- internals -----

    def _start_play(self) -> None:
        contract = self.auction.contract()
        if contract is None:
            self.phase = Phase.DONE
            self._result = DealResult(
                None, (0, 0), (0, 0), (0, 0), None, (0, 0), None, explained=(Message.of("score.void"),)
            )
            return
        self.contract = contract
        self.phase = Phase.PLAY
        trump = contract.trump
        self._tt = tables(trump, self.rules.ta_values == "ffb")
        self.to_move = self.trick_leader = (self.dealer + 1) & 3
        # New lists, never changed in place: copies made during the auction share the old ones.
        self._belote_pairs = [belote_cards(h, trump) for h in self.dealt]
        self._announceable = self._belote_pairs.copy()
        if self.rules.melds:
            self._show_at = self.rules.meld_show_card_sa if trump == NO_TRUMP else self.rules.meld_show_card
            self._best = [best_melds(h, trump) for h in self.dealt]
            self.declared = [None if best else () for best in self._best]

    def _play(self, action: Action) -> None:
        seat = self.to_move
        if self.declared[seat] is None:
            if not is_declaration(action):
                raise IllegalAction("declare_first", action=_safe_str(action), seat=seat)
            k = action - DECLARE_BASE
            choices = self.declaration_choices()
            if not 0 <= k < len(choices):
                raise IllegalAction("no_such_declaration", index=k, last=len(choices) - 1)
            self.declared[seat] = choices[k]
            return
        if 0 <= action < ANNOUNCE:
            c, announce = action, False
        elif ANNOUNCE <= action < 2 * ANNOUNCE:
            c, announce = action - ANNOUNCE, True
        else:
            raise IllegalAction("not_a_card", action=_safe_str(action))
        bit = 1 << c
        mask = self._legal if self._legal_at == self.played else self._legal_cards()
        if not mask & bit:
            hand = self.hands[seat]
            if not hand & bit or not self.trick:
                raise IllegalAction("not_in_hand", card=card_str(c))
            partner_winning = (self.trick_leader + self._win_idx) & 1 == seat & 1
            raise explain_illegal(c, hand, self.trick, self._win_card, partner_winning, self._tt, self._undertrump)
        if announce and not self._announceable[seat] & bit:
            raise IllegalAction("no_belote", card=card_str(c))

        self.hands[seat] ^= bit
        if self._belote_pairs[seat] & bit:
            self._note_belote(seat, c, announce)
        trick = self.trick
        trick.append(c)
        n = len(trick)
        if n == 1:
            self._win_card, self._win_idx = c, 0
        elif self._tt.beaten_by[self._win_card] >> c & 1:
            self._win_card, self._win_idx = c, n - 1
        self.played += 1
        if self.played == self._show_at:
            self._show_melds()
        if n < 4:
            self.to_move = (seat + 1) & 3
            return
        winner = (self.trick_leader + self._win_idx) & 3
        pts = self._tt.points
        points = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        tricks = self.tricks
        if len(tricks) == 7:
            sweep = all(t.winner & 1 == winner & 1 for t in tricks)
            points += self.rules.last_trick_sweep if sweep else 10
        tricks.append(Trick(self.trick_leader, tuple(trick), winner, points))
        self.card_points[winner & 1] += points
        self.trick = []
        self.trick_leader = self.to_move = winner
        if len(tricks) == 8:
            self._finish()

    def _note_belote(self, seat: int, c: Card, announce: bool) -> None:
        suit = c >> 3
        key = (seat, suit)
        self._announceable[seat] &= ~(1 << c)
        first = self._belote_first.get(key)
        if first is None:
            self._belote_first[key] = announce
            if announce:
                self.belotes.append(BeloteCall(seat, suit, "belote", True))
                self._announceable[seat] &= ~SUIT_MASKS[suit]
        elif announce:
            self.belotes.append(BeloteCall(seat, suit, "rebelote", not self.rules.belote_must_announce))

    def _team_declared(self, team: int) -> list[Meld]:
        return [m for s in (team, team + 2) for m in (self.declared[s] or ())]

    def _show_melds(self) -> None:
        assert self.contract is not None
        best = compare_teams(self._team_declared(0), self._team_declared(1), self.contract.trump)
        for s in range(4):
            if self.rules.meld_reveal == "all" or s & 1 == best:
                self.shown[s] = self.declared[s] or ()

    def _finish(self) -> None:
        contract = self.contract
        assert contract is not None
        tt = contract.team
        winners = [t.winner for t in self.tricks]
        sweep: Sweep | None = None
        if all(w == contract.taker for w in winners):
            sweep = "taker_alone"
        elif all(w & 1 == tt for w in winners):
            sweep = "taker"
        elif all(w & 1 != tt for w in winners):
            sweep = "defense"
        belotes = [0, 0]
        for b in self.belotes:
            if b.counts:
                belotes[b.seat & 1] += 1
        taken = [0, 0]
        cancelled = 0
        if self.rules.melds:
            decl = (self._team_declared(0), self._team_declared(1))
            best = compare_teams(decl[0], decl[1], contract.trump)
            if self.rules.meld_scoring == "winner_takes_all":
                total = melds_points(decl[0]) + melds_points(decl[1])
                if best is None:
                    cancelled = total
                else:
                    taken[best] = total
            elif best is not None:
                taken[best] = melds_points(decl[best])
        facts = DealFacts(
            taker_points=self.card_points[tt],
            defense_points=self.card_points[1 - tt],
            taker_belotes=belotes[tt],
            defense_belotes=belotes[1 - tt],
            taker_melds=taken[tt],
            defense_melds=taken[1 - tt],
            sweep=sweep,
            cancelled_melds=cancelled,
        )
        sc: DealScore = score_deal(self.rules, contract, facts, explain=False)
        self.phase = Phase.DONE
        self._result = DealResult(
            contract=contract,
            card_points=(self.card_points[0], self.card_points[1]),
            belote=(BELOTE_POINTS * belotes[0], BELOTE_POINTS * belotes[1]),
            melds=sc.melds_by_team(tt),
            made=sc.made,
            score=sc.by_team(tt),
            sweep=sweep,
            scored=(self.rules, contract, facts),
        )


def _safe_str(action: Action) -> str:
    try:
        return action_str(action)
    except (ValueError, IndexError, TypeError):
        return repr(action)
