"""Card-play puzzles found in played deals by the double-dummy solver.

A puzzle is a position of a real deal, all four hands shown, where the side to play can
still reach its goal (the takers: make the contract; the defence: beat it) with one card,
and only one: every other legal card loses that goal against best play. The solver's
values say it (``analysis.card_values``); the deal's score says what the goal is worth
(``expert.outcome.Scorer``, the rules' one scoring), and a puzzle is kept only when the
card matters: the score between the solution and the best other card differs by at least
``MIN_SWING``.

Positions are taken from the third trick on (the melds are shown, at most six cards a
hand: a position a person can read) and only where every belote still to come is the
mover's own (the scoring counts a belote once announced; the mover's own is announced).
The solution's line (best play after it) names the puzzle's themes: ``trump_extraction``
(a trump led while a defender holds trumps), ``ruff``, ``throw_in`` (a lead that gives the
trick to the other side on purpose), ``duck`` (a card that lets the trick go when another
would win it), ``unblock`` (a high card under the partner's winning one), ``keep_master``
(a discard that keeps the master of a suit), ``undertrump`` (a trump under the opponent's,
where the rules force it), ``belote`` (the goal is reached only with the belote counted),
``last_trick`` (only with the ten of der).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, get_args

from ..engine.actions import DECLARE_BASE, card_of, is_announce, is_card
from ..engine.belote import belote_suits, pair_mask
from ..engine.cards import CardSet
from ..engine.deal import Deal, LogEntry, Phase
from ..engine.play import tables, trick_winner
from ..engine.rules import RuleSet
from .analysis import card_values
from .expert.outcome import Scorer

MIN_SWING: Final = 40
"""The least difference of deal score (for the mover's team) between the solution and the
best other card: below it, a miss costs too little to make a puzzle."""
FIRST_TRICK: Final = 2
"""Puzzles start at this trick (0-based): the melds are shown, six cards a hand at most."""
LAST_TRICK: Final = 5
"""...and end here (0-based, three cards a hand): with two left there is too little to find."""
MIN_CHOICES: Final = 2
"""The fewest distinct cards the mover may play."""

Goal = Literal["make", "beat"]
Theme = Literal[
    "trump_extraction", "ruff", "throw_in", "duck", "unblock", "keep_master", "undertrump", "belote", "last_trick"
]
THEMES: Final[tuple[Theme, ...]] = get_args(Theme)


@dataclass(frozen=True)
class Puzzle:
    """One position of a played deal and its one card (``find_puzzles``)."""

    rules: RuleSet
    dealer: int
    hands: tuple[CardSet, ...]
    """The hands as dealt (the record's)."""
    log: tuple[LogEntry, ...]
    """The deal's log up to the position: the auction, the declarations and the cards
    played before it."""
    seat: int
    """Who plays the card asked for."""
    goal: Goal
    solution: int
    """The card (0-31) that reaches the goal."""
    values: tuple[tuple[int, int], ...]
    """Each legal card and the card points the mover's team takes from the position on
    with it (best play after it), the solution's first."""
    swing: int
    """Deal score (the mover's team's margin) the solution is worth more than the best
    other card."""
    line: tuple[int, ...]
    """The solution and the best play after it, to the end of the deal."""
    themes: tuple[Theme, ...]

    @property
    def cards_left(self) -> int:
        """Cards in the mover's hand at the position."""
        return cards_left(self.hands[self.seat], self.log)

    def position(self) -> Deal:
        """The deal at the position, rebuilt by the engine from the log."""
        return Deal.from_log(self.rules, self.dealer, self.hands, self.log)


def cards_left(dealt: CardSet, log: Sequence[LogEntry]) -> int:
    """Cards of the hand ``dealt`` still held after the cards of ``log``."""
    played = 0
    for entry in log:
        if isinstance(entry, int) and is_card(entry):
            played |= 1 << card_of(entry)
    return (dealt & ~played).bit_count()


def find_puzzles(rules: RuleSet, dealer: int, hands: Sequence[CardSet], log: Sequence[LogEntry]) -> list[Puzzle]:
    """Every puzzle of a played deal (``log``: its whole log or a part of it), in the
    order of play. A deal without a contract has none."""
    deal = Deal(rules, dealer, hands)
    found = []
    for n, entry in enumerate(log):
        if deal.phase is Phase.PLAY and deal.contract is not None and FIRST_TRICK <= len(deal.tricks) <= LAST_TRICK:
            puzzle = puzzle_at(deal, tuple(log[:n]))
            if puzzle is not None:
                found.append(puzzle)
        deal.replay_entry(entry)
    return found


def best_puzzle(puzzles: Sequence[Puzzle]) -> Puzzle | None:
    """The one puzzle a deal gives: the one with the most choices, then the most cards
    left (the most to read), then the biggest swing."""
    if not puzzles:
        return None
    return max(puzzles, key=lambda p: (len(p.values), p.cards_left, p.swing))


def puzzle_at(deal: Deal, log: tuple[LogEntry, ...]) -> Puzzle | None:
    """The puzzle of ``deal``'s position (``log``: its log so far), or None."""
    seat = deal.to_move
    if not _belotes_known(deal, seat):
        return None
    values = card_values(deal)
    if len(values) < MIN_CHOICES:
        return None
    view = deal.view(seat)
    contract = view.contract
    assert contract is not None
    scorer = Scorer(view)
    goal: Goal = "make" if contract.team == seat & 1 else "beat"

    def reaches(value: int) -> bool:
        return scorer.made(value) == (goal == "make")

    reached = [c for c, v in values.items() if reaches(v)]
    if len(reached) != 1:
        return None
    solution = reached[0]
    others = [v for c, v in values.items() if c != solution]
    swing = scorer.margin(values[solution]) - max(scorer.margin(v) for v in others)
    if swing < MIN_SWING:
        return None
    line, played_out = best_line(deal, solution)
    ordered = ((solution, values[solution]), *sorted((c, v) for c, v in values.items() if c != solution))
    return Puzzle(
        rules=deal.rules,
        dealer=deal.dealer,
        hands=deal.dealt,
        log=log,
        seat=seat,
        goal=goal,
        solution=solution,
        values=ordered,
        swing=round(swing),
        line=line,
        themes=themes(deal, solution, set(values), played_out, scorer, values[solution]),
    )


def confirm(rules: RuleSet, dealer: int, hands: Sequence[CardSet], log: Sequence[LogEntry], solution: int) -> bool:
    """The position of ``log`` is still a puzzle whose one card is ``solution`` (by this
    engine and this solver: a stored puzzle is checked again before it is the day's)."""
    deal = Deal.from_log(rules, dealer, hands, log)
    if deal.phase is not Phase.PLAY or deal.contract is None:
        return False
    found = puzzle_at(deal, tuple(log))
    return found is not None and found.solution == solution


def _belotes_known(deal: Deal, seat: int) -> bool:
    """No belote can still be announced but by ``seat`` (the scoring counts the others'
    only once announced)."""
    assert deal.contract is not None
    trump = deal.contract.trump
    said = {(b.seat, b.suit) for b in deal.belotes}
    for other in range(4):
        if other == seat:
            continue
        hand = deal.hands[other]
        for suit in belote_suits(hand | _played_by(deal, other), trump):
            if (other, suit) not in said and hand & pair_mask(suit):
                return False
    return True


def _played_by(deal: Deal, seat: int) -> CardSet:
    return deal.dealt[seat] & ~deal.hands[seat]


def best_line(deal: Deal, first: int) -> tuple[tuple[int, ...], Deal]:
    """``first``, then each player's best card (the solver's, the lowest of equal ones) to
    the end of the deal; and the deal played out so (a first trick's declarations on the
    way declare all: ``play_card``)."""
    line = deal.copy()
    cards = [first]
    play_card(line, first)
    while line.phase is Phase.PLAY:
        values = card_values(line)
        best = max(values.values())
        card = min(c for c, v in values.items() if v == best)
        cards.append(card)
        play_card(line, card)
    return tuple(cards), line


def play_card(deal: Deal, card: int) -> None:
    """Play ``card`` for the player to move, announcing a belote where the rules let; then
    the next players' meld declarations of the first trick, each declaring all (what the
    melds are worth does not change the cards' values), so that the deal waits for a card."""
    actions = [a for a in deal.legal_actions() if is_card(a) and card_of(a) == card]
    deal.apply(max(actions, key=is_announce))
    while deal.phase is Phase.PLAY:
        legal = deal.legal_actions()
        if any(is_card(a) for a in legal):
            return
        deal.apply(DECLARE_BASE if DECLARE_BASE in legal else legal[0])


def themes(
    deal: Deal, solution: int, legal: set[int], played_out: Deal, scorer: Scorer, value: int
) -> tuple[Theme, ...]:
    """What the solution does, read from the position (``legal``: the mover's legal cards)
    and the deal played out after it."""
    assert deal.contract is not None
    trump = deal.contract.trump
    seat, team = deal.to_move, deal.to_move & 1
    tt = tables(trump, deal.rules.ta_values == "ffb")
    found: list[Theme] = []
    trick = list(deal.trick)
    leading = not trick
    is_trump = bool(tt.trump_mask >> solution & 1)
    opponents = deal.hands[(seat + 1) & 3] | deal.hands[(seat + 3) & 3]
    if leading and is_trump and opponents & tt.trump_mask:
        found.append("trump_extraction")
    if not leading and is_trump and not tt.trump_mask >> trick[0] & 1:
        found.append("ruff")
    done = played_out.tricks[len(deal.tricks)]  # the trick with the solution in it
    if leading and done.winner & 1 != team:
        found.append("throw_in")
    if not leading:
        best = trick_winner(trick, tt)
        holder, winning = (deal.trick_leader + best) & 3, trick[best]
        partner_holds = holder & 1 == team
        others = [c for c in legal if c != solution]
        could_win = any(tt.beats(c, winning) for c in others)
        if done.winner & 1 != team and could_win and not partner_holds:
            found.append("duck")
        held = deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]
        discard = solution >> 3 != trick[0] >> 3 and not is_trump
        if discard and any(c >> 3 != solution >> 3 and not tt.above[c] & held for c in others):
            found.append("keep_master")  # another card it could throw is master of its suit
        if (
            is_trump
            and deal.rules.undertrump == "forced"
            and not partner_holds
            and tt.trump_mask >> winning & 1
            and not tt.beats(solution, winning)
        ):
            found.append("undertrump")
        same_suit = [c for c in others if c >> 3 == solution >> 3]
        if (
            partner_holds
            and done.winner == holder
            and same_suit
            and all(tt.power[solution] > tt.power[c] for c in same_suit)
        ):
            found.append("unblock")
    if scorer.belotes[team]:
        without = Scorer(scorer.view)
        without.belotes = [b if t != team else 0 for t, b in enumerate(scorer.belotes)]
        if without.made(value) != scorer.made(value):
            found.append("belote")
    if played_out.tricks[-1].winner & 1 == team and value >= 10 and scorer.made(value - 10) != scorer.made(value):
        found.append("last_trick")
    return tuple(found)
