"""A game: deals one after another until a team wins (RULES.md section 6).

``Game`` owns a seeded ``random.Random`` (no global randomness: the same seed deals the
same game), rotates the dealer, deals in packets (or gathers, cuts and deals without
shuffling in ``real_deal`` mode), adds up the scores and applies each profile's end
rules. Its ``legal_actions``/``apply``/``view`` act on the deal in progress.

A game is its rules, its seed, its first dealer and its action log (``Game.log``):
``Game.from_log`` rebuilds it exactly, the deals still to come included, which is how a
server stores a table and restarts it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import Card, CardSet, card_list
from .deal import Deal, DealResult, LogEntry, Phase, View, deal_hands
from .errors import BadSetup, IllegalAction
from .rules import RuleSet

PACKET_PATTERNS = ("332", "323", "233")

HandSource = Callable[[int, int], tuple[CardSet, ...]]
"""Where a game's shuffled deals come from when not from its seed: ``(deal number from 1,
dealer) -> hands``, e.g. ``dealing.hands_from_seed`` of each deal's own seed (a server
keeps the secret, the engine only calls the function)."""


@dataclass(frozen=True)
class DealInfo:
    """How a deal of a game was dealt (``cut`` and ``packets`` matter for real deals)."""

    dealer: int
    hands: tuple[CardSet, ...]
    cut: int | None
    packets: str
    seeded: bool = True
    """Dealt from the game's seed (False: hands given to ``next_deal``)."""


@dataclass(frozen=True)
class GameView:
    """What one seat may know of the game: the deal view plus the score sheet."""

    deal: View
    deal_number: int
    """1 for the first deal."""
    target: int
    totals: tuple[int, int]
    history: tuple[tuple[int, int], ...]
    """Each finished deal's score, team 0 first."""
    winner: int | None


class Game:
    """A game of coinche under ``rules``; ``hands`` given to ``next_deal`` or dealt by the game."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        hand_source: HandSource | None = None,
        max_deals: int | None = None,
    ) -> None:
        if first_dealer is not None and (
            isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer <= 3
        ):
            raise BadSetup(f"first dealer must be a seat 0..3, not {first_dealer!r}")
        if seed is None:
            seed = random.Random().getrandbits(63)  # still a seed: every game can be rebuilt
        self.rules = rules
        self.seed: int = seed
        """The dealing seed: with the rules, the first dealer and the log, all a game is."""
        self.rng = random.Random(seed)
        drawn = self.rng.randrange(4)  # always drawn, so the deals depend on the seed alone
        self.first_dealer: int = drawn if first_dealer is None else first_dealer
        self.auto_deal = auto_deal
        self.hand_source = hand_source
        """Deals the shuffled deals instead of the seed (a real deal's gathered pack still
        follows the seed's cut)."""
        self.deals: list[Deal] = []
        self.infos: list[DealInfo] = []
        self.history: list[tuple[int, int]] = []
        self.totals = [0, 0]
        self.winner: int | None = None
        self.max_deals = max_deals
        """The game ends after this many deals whatever the scores, and no team wins it (the
        daily challenge's four deals): None, it ends when a team wins."""
        self.finished = False
        """Ended by ``max_deals``."""
        self._pending_validation: set[int] = set()
        self._gathered: list[Card] | None = None
        if auto_deal:
            self._deal_next()

    @staticmethod
    def from_log(
        rules: RuleSet,
        seed: int,
        first_dealer: int,
        log: Sequence[LogEntry],
        auto_deal: bool = True,
        hand_source: HandSource | None = None,
        max_deals: int | None = None,
    ) -> Game:
        """The game rebuilt from its seed (and hand source), first dealer and log
        (``IllegalAction`` if an entry is not legal). With ``auto_deal`` False the log's
        deals are still dealt, and the game then waits for ``deal_next``."""
        game = Game(rules, seed, first_dealer, auto_deal=False, hand_source=hand_source, max_deals=max_deals)
        for entry in log:
            if game.awaiting_deal:
                game.deal_next()
            game.replay_entry(entry)
        if auto_deal:
            game.auto_deal = True
            if game.awaiting_deal:
                game.deal_next()
        return game

    @property
    def log(self) -> list[LogEntry]:
        """Every accepted action and declaration of every deal, in order."""
        return [entry for deal in self.deals for entry in deal.log]

    def __eq__(self, other: object) -> bool:
        """Same rules, seed, deals and log, and the same dealing state for what comes next."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.seed == other.seed
            and self.first_dealer == other.first_dealer
            and self.infos == other.infos
            and self.deals == other.deals
            and self.history == other.history
            and self.winner == other.winner
            and self.finished == other.finished
            and self.rng.getstate() == other.rng.getstate()
        )

    __hash__ = None  # type: ignore[assignment]

    # ----- state API -----

    @property
    def current(self) -> Deal | None:
        """The deal being played (or the last one, once over); None before the first deal."""
        return self.deals[-1] if self.deals else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.finished

    @property
    def leading_team(self) -> int | None:
        """The team ahead on points (0: South-North), None when level: who wins a game of
        a fixed number of deals (a tournament's round), which ``winner`` leaves to the
        caller since such a game is not won by reaching the target."""
        if self.totals[0] == self.totals[1]:
            return None
        return 0 if self.totals[0] > self.totals[1] else 1

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) & 3

    @property
    def awaiting_deal(self) -> bool:
        """True when the game goes on but the next deal has not been dealt (``auto_deal=False``)."""
        return not self.is_over and (not self.deals or self.deals[-1].is_over)

    def legal_actions(self) -> list[Action]:
        deal = self.current
        if deal is None or self.is_over:
            return []
        return deal.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply an action to the deal in progress; deal the next one when it ends."""
        deals = self.deals
        if self.is_over or not deals or deals[-1].phase is Phase.DONE:
            self._deal_in_progress()  # raises the reason
        deal = deals[-1]
        deal.apply(action)
        if deal.phase is Phase.DONE:
            self._after_step(deal)

    def _deal_in_progress(self) -> Deal:
        deal = self.current
        if self.is_over:
            raise IllegalAction("game_over")
        if deal is None or deal.is_over:
            raise IllegalAction("no_deal")
        return deal

    def replay_entry(self, entry: LogEntry) -> None:
        """Apply one entry of a log: an action, or a ``Declaration``."""
        deal = self._deal_in_progress()
        deal.replay_entry(entry)
        self._after_step(deal)

    def deal_next(self) -> Deal:
        """Deal the next hand from the game's seed (what ``apply`` does by itself when
        ``auto_deal`` is on)."""
        if not self.awaiting_deal:
            raise IllegalAction("game_over" if self.is_over else "deal_not_over")
        return self._deal_next()

    def _after_step(self, deal: Deal) -> None:
        if deal.is_over:
            self._after_deal(deal)
            if not self.is_over and self.auto_deal:
                self._deal_next()

    @property
    def to_move(self) -> int:
        deal = self.current
        return deal.to_move if deal is not None else -1

    def view(self, seat: int, watching: bool = False, alike: GameView | None = None) -> GameView:
        """What ``seat`` knows of the game now; ``watching``: what a watcher sitting in
        its chair knows (``Deal.watcher_view``: no hand). ``alike``: another view of this
        same moment, whose parts every seat sees alike are taken as they are."""
        deal = self.current
        if deal is None:
            raise BadSetup("no deal yet")
        alike_deal = alike.deal if alike is not None else None
        view = deal.watcher_view(seat, alike_deal) if watching else deal.view(seat, alike_deal)
        if alike is not None:
            return GameView(view, alike.deal_number, alike.target, alike.totals, alike.history, alike.winner)
        return GameView(
            deal=view,
            deal_number=len(self.deals),
            target=self.rules.target,
            totals=(self.totals[0], self.totals[1]),
            history=tuple(self.history),
            winner=self.winner,
        )

    def next_deal(
        self,
        hands: Sequence[CardSet],
        cut: int | None = None,
        packets: str | None = None,
        *,
        seeded_if_same: bool = False,
    ) -> Deal:
        """Start the next deal with given hands (replays and tests). With
        ``seeded_if_same``, hands that the seed deals next count as dealt from the seed
        (the seed moves on), so a replayed seeded game goes on dealing as it would have."""
        if not self.awaiting_deal:
            raise IllegalAction("game_over" if self.is_over else "deal_not_over")
        hands = tuple(hands)
        if seeded_if_same:
            state = self.rng.getstate()
            drawn, drawn_cut, drawn_packets = self._draw_deal()
            if drawn == hands:
                return self._start(drawn, drawn_cut, drawn_packets)
            self.rng.setstate(state)
        return self._start(hands, cut, packets or self.rules.packets, seeded=False)

    # ----- internals -----

    def _deal_next(self) -> Deal:
        if self.hand_source is not None and not self._gathered_deal:
            hands = self.hand_source(len(self.deals) + 1, self.next_dealer)
            packets = self.rules.packets if self.rules.packets != "any" else PACKET_PATTERNS[0]  # information only
            return self._start(tuple(hands), None, packets, seeded=False)
        hands, cut, packets = self._draw_deal()
        return self._start(hands, cut, packets)

    @property
    def _gathered_deal(self) -> bool:
        """The next deal is a real deal's gathered pack, cut and dealt without shuffling."""
        return self.rules.real_deal and self._gathered is not None

    def _draw_deal(self) -> tuple[tuple[CardSet, ...], int | None, str]:
        """The next deal as the seed deals it: hands, cut (real deal), packets."""
        dealer = self.next_dealer
        packets = self.rules.packets if self.rules.packets != "any" else self.rng.choice(PACKET_PATTERNS)
        cut: int | None = None
        if self._gathered_deal:
            assert self._gathered is not None
            deck = self._gathered
            side = max(1, self.rules.cut_each_side)
            cut = self.rng.randint(side, 32 - side)
            deck = deck[cut:] + deck[:cut]
        else:
            deck = list(range(32))
            self.rng.shuffle(deck)
        return deal_hands(deck, dealer, packets), cut, packets

    def _start(self, hands: tuple[CardSet, ...], cut: int | None, packets: str, seeded: bool = True) -> Deal:
        deal = Deal(self.rules, self.next_dealer, hands)
        self.deals.append(deal)
        self.infos.append(DealInfo(deal.dealer, hands, cut, packets, seeded))
        return deal

    def _after_deal(self, deal: Deal) -> None:
        res = deal.result()
        assert res is not None
        self.history.append(res.score)
        self.totals[0] += res.score[0]
        self.totals[1] += res.score[1]
        self._gathered = _gather(deal)
        if self.max_deals is not None:  # so many deals, whatever the scores: nobody wins
            self.finished = len(self.deals) >= self.max_deals
            return
        if res.contract is None:
            return
        self.winner = self._decide_winner(deal, res)

    def _decide_winner(self, deal: Deal, res: DealResult) -> int | None:
        rules = self.rules
        contract = res.contract
        assert contract is not None and res.made is not None
        target = rules.target
        eligible = [True, True]
        tricks_won = [0, 0]
        for t in deal.tricks:
            tricks_won[t.winner & 1] += 1
        for team in (0, 1):
            taker_side = team == contract.team
            if rules.win_excludes_deal_bonus:
                mult = contract.multiplier if rules.coinche_scoring == "multiply" else 1
                bonus = res.belote[team] + res.melds[team] * mult
                if self.totals[team] - bonus < target:
                    eligible[team] = False
            if rules.win_no_exit_in_defense and res.made != taker_side:
                eligible[team] = False
            if rules.win_belote_validation:
                if team in self._pending_validation and tricks_won[team] > 0:
                    self._pending_validation.discard(team)
                lost = (taker_side and not res.made) or tricks_won[team] == 0
                if (
                    lost
                    and self.totals[team] >= target
                    and self.totals[team] - res.score[team] < target
                    and self.totals[team] - res.belote[team] < target
                ):
                    self._pending_validation.add(team)
                if team in self._pending_validation:
                    eligible[team] = False
        reached = [team for team in (0, 1) if self.totals[team] >= target]
        if not reached:
            return None
        if len(reached) == 2 and self.totals[0] == self.totals[1]:
            return None
        top = max(reached, key=lambda team: self.totals[team])
        return top if eligible[top] else None


def _gather(deal: Deal) -> list[Card]:
    """The pack after a deal, for a real deal: the tricks in order, or the hands if void."""
    if deal.tricks:
        return [c for t in deal.tricks for c in t.cards]
    return [c for k in range(1, 5) for c in card_list(deal.dealt[(deal.dealer + k) & 3])]
