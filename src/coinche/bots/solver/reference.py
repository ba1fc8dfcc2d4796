"""The pure-Python twin of the C solver: slow, plain and obviously correct.

It answers the same questions with the same meaning as ``coinche.bots.solver`` and is used to
check the C module on small positions. Card legality and trick winners come straight from
the engine (``play.legal_mask``, ``TrumpTables.beats``). The search is exact minimax: the value
of every trick start is computed with a full window and memoized, and only the four card
plays inside one trick are searched with alpha-beta (which returns the exact value at the
root of the trick).
"""

from __future__ import annotations

from ...engine.cards import card_list
from ...engine.play import TrumpTables, legal_mask, tables
from .position import Position, check_position

__all__ = ["can_reach", "can_sweep", "legal_cards", "move_values", "solve"]

_INF = 1 << 20

Hands = tuple[int, int, int, int]


def _elig(pos: Position) -> int:
    """Which team may still earn the sweep bonus: -1 none, 0 or 1 that team, 2 either."""
    if pos.sweep_bonus == 0:
        return -1
    return 2 if pos.sweep_team is None else pos.sweep_team


def _winner(trick: tuple[int, ...], tt: TrumpTables) -> int:
    """Index in ``trick`` of the card winning it so far."""
    w = 0
    for i in range(1, len(trick)):
        if tt.beats(trick[i], trick[w]):
            w = i
    return w


def _legal(hand: int, trick: tuple[int, ...], leader: int, tt: TrumpTables, undertrump_forced: bool) -> int:
    if not trick:
        return hand
    w = _winner(trick, tt)
    seat = (leader + len(trick)) & 3
    return legal_mask(hand, trick, trick[w], (leader + w) & 1 == seat & 1, tt, undertrump_forced)


class _PointsSearch:
    """Minimax on card points for ``team``."""

    def __init__(self, pos: Position, team: int) -> None:
        self.tt = tables(pos.trump, pos.ffb_ta)
        self.uf = pos.undertrump_forced
        self.last = pos.last_trick_bonus
        self.sweep = pos.sweep_bonus
        self.team = team
        self.memo: dict[tuple[Hands, int, int], int] = {}

    def start(self, hands: Hands, leader: int, elig: int) -> int:
        """Exact value of a trick start."""
        if not hands[leader]:
            return 0
        key = (hands, leader, elig)
        v = self.memo.get(key)
        if v is None:
            v = self.play(hands, leader, (), elig, -_INF, _INF)
            self.memo[key] = v
        return v

    def play(self, hands: Hands, leader: int, trick: tuple[int, ...], elig: int, alpha: int, beta: int) -> int:
        """Value for ``team`` of the points not yet won (``trick`` included), alpha-beta."""
        if len(trick) == 4:
            return self.finish(hands, leader, trick, elig)
        seat = (leader + len(trick)) & 3
        maximizing = seat & 1 == self.team
        best = -_INF if maximizing else _INF
        for c in card_list(_legal(hands[seat], trick, leader, self.tt, self.uf)):
            child = _without(hands, seat, c)
            v = self.play(child, leader, (*trick, c), elig, alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def finish(self, hands: Hands, leader: int, trick: tuple[int, ...], elig: int) -> int:
        """Score a complete trick, then the rest of the deal."""
        winner = (leader + _winner(trick, self.tt)) & 3
        team = winner & 1
        points = sum(self.tt.points[c] for c in trick)
        new_elig = team if elig in (2, team) else -1
        if not hands[0]:
            points += self.last
            if new_elig == team:
                points += self.sweep
        gain = points if team == self.team else 0
        return gain + self.start(hands, winner, new_elig)

    def root(self, pos: Position) -> int:
        if not pos.trick:
            return self.start(pos.hands, pos.leader, _elig(pos))
        return self.play(pos.hands, pos.leader, pos.trick, _elig(pos), -_INF, _INF)


def _without(hands: Hands, seat: int, c: int) -> Hands:
    h = list(hands)
    h[seat] &= ~(1 << c)
    return (h[0], h[1], h[2], h[3])


def _check_team(team: int) -> None:
    if team not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team}")


def legal_cards(pos: Position) -> int:
    """Legal card mask of the player to move."""
    check_position(pos)
    tt = tables(pos.trump, pos.ffb_ta)
    return _legal(pos.hands[pos.to_move], pos.trick, pos.leader, tt, pos.undertrump_forced)


def solve(pos: Position, team: int) -> int:
    """Points not yet won (trick in progress, last-trick and sweep bonuses included) that
    ``team`` secures with perfect play by both sides."""
    check_position(pos)
    _check_team(team)
    return _PointsSearch(pos, team).root(pos)


def can_reach(pos: Position, team: int, target: int) -> bool:
    """``solve(pos, team) >= target``."""
    return solve(pos, team) >= target


def move_values(pos: Position, team: int) -> dict[int, int]:
    """``solve`` after each legal card of the player to move, on the scale of ``solve(pos)``."""
    check_position(pos)
    _check_team(team)
    s = _PointsSearch(pos, team)
    seat = pos.to_move
    out: dict[int, int] = {}
    for c in card_list(legal_cards(pos)):
        out[c] = s.play(_without(pos.hands, seat, c), pos.leader, (*pos.trick, c), _elig(pos), -_INF, _INF)
    return out


def can_sweep(pos: Position, team: int, seat: int | None = None) -> bool:
    """Can ``team`` win every remaining trick (``seat`` given: that seat wins them all)."""
    check_position(pos)
    _check_team(team)
    if seat is not None and (not 0 <= seat <= 3 or seat & 1 != team):
        raise ValueError(f"seat {seat} is not a seat of team {team}")
    tt = tables(pos.trump, pos.ffb_ta)
    memo: dict[tuple[Hands, int], bool] = {}

    def start(hands: Hands, leader: int) -> bool:
        if not hands[leader]:
            return True
        key = (hands, leader)
        v = memo.get(key)
        if v is None:
            v = play(hands, leader, ())
            memo[key] = v
        return v

    def play(hands: Hands, leader: int, trick: tuple[int, ...]) -> bool:
        if len(trick) == 4:
            winner = (leader + _winner(trick, tt)) & 3
            won = winner == seat if seat is not None else winner & 1 == team
            return won and start(hands, winner)
        s = (leader + len(trick)) & 3
        cards = card_list(_legal(hands[s], trick, leader, tt, pos.undertrump_forced))
        results = (play(_without(hands, s, c), leader, (*trick, c)) for c in cards)
        return any(results) if s & 1 == team else all(results)

    return play(pos.hands, pos.leader, pos.trick) if pos.trick else start(pos.hands, pos.leader)
