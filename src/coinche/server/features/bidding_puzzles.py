"""Bidding puzzles from the site's own deals (issue 32, item 3): "what do you call?".

The puzzles' listener (``features/puzzles.py``) hands each finished deal it searches to the
workers' ``bidding_puzzle`` job too (``bots.bidding_puzzles``: a seat's turn to call where
the expert's appraisal names one clear call) and stores what it finds here, one a deal.
A player's first answer is kept (the next puzzle offered is one they have not answered);
the page shows the expert's call, every call's value as the expert computed it, and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ...bots.bidding_puzzles import CallValue, good_answer, value_of
from ...engine.actions import Action, call_str, parse_call
from ...engine.cards import CardSet
from ...engine.deal import Deal
from ...engine.rules import RuleSet
from ...engine.wire import rules_from_json, rules_to_json
from ..infra.db import now
from ..infra.rows.puzzles import BiddingPuzzleRow, BiddingPuzzleTryRow
from ..infra.store import Store, new_id


@dataclass(frozen=True)
class StoredBiddingPuzzle:
    id: str
    rules: RuleSet
    dealer: int
    hands: tuple[CardSet, ...]
    calls: tuple[Action, ...]
    """The calls before the position."""
    seat: int
    call: Action
    """The expert's call."""
    played: Action
    values: tuple[CallValue, ...]
    """Every call open to the seat: its expected margin and chance (``bots.bidding_puzzles``),
    best first."""
    margin: float
    tries: int
    solved: int

    def position(self) -> Deal:
        """The deal at the seat's turn to call, rebuilt by the engine."""
        return Deal.from_log(self.rules, self.dealer, self.hands, self.calls)

    def value_of(self, call: Action) -> CallValue | None:
        return value_of(self.values, call)

    def good(self, call: Action) -> bool:
        """``call`` is as good an answer as the expert's (``bots.bidding_puzzles.good_answer``)."""
        return good_answer(self.values, self.call, call)


def _stored(row: BiddingPuzzleRow) -> StoredBiddingPuzzle:
    return StoredBiddingPuzzle(
        id=row.id,
        rules=rules_from_json(row.rules),
        dealer=row.dealer,
        hands=tuple(row.hands),
        calls=tuple(parse_call(c) for c in row.calls),
        seat=row.seat,
        call=parse_call(row.call),
        played=parse_call(row.played),
        values=tuple(CallValue(parse_call(c), float(e), None if p is None else float(p)) for c, e, p in row.values),
        margin=row.margin,
        tries=row.tries,
        solved=row.solved,
    )


class BiddingPuzzleStore:
    """The bidding puzzles' rows (every method one short transaction, on a database thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, table_id: str, number: int, deal: Deal, found: dict[str, Any]) -> str | None:
        """Store the puzzle ``found`` (the ``bidding_puzzle`` job's answer) of deal
        ``number`` of a table; its id, None if that deal has one already."""
        row = BiddingPuzzleRow(
            id=new_id(8),
            table_id=table_id,
            deal=number,
            created_at=now(),
            rules=rules_to_json(deal.rules),
            dealer=deal.dealer,
            hands=list(deal.dealt),
            calls=[call_str(c) for c in deal.auction.calls[: found["upto"]]],
            seat=found["seat"],
            call=found["call"],
            played=found["played"],
            values=found["values"],
            margin=found["margin"],
            tries=0,
            solved=0,
        )
        return row.id if self.store.add_once(row) else None

    def get(self, puzzle_id: str) -> StoredBiddingPuzzle | None:
        with self.store.session() as s:
            row = s.get(BiddingPuzzleRow, puzzle_id)
            return None if row is None else _stored(row)

    def count(self) -> int:
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(BiddingPuzzleRow)) or 0)

    def number(self, puzzle_id: str) -> int:
        """The puzzle's number in the order bidding puzzles were found (1 for the first;
        ties of time in the order of their ids); 0 if there is no such puzzle."""
        row = BiddingPuzzleRow
        with self.store.session() as s:
            found = s.get(row, puzzle_id)
            if found is None:
                return 0
            earlier = (row.created_at < found.created_at) | ((row.created_at == found.created_at) & (row.id < found.id))
            return 1 + int(s.scalar(select(func.count()).select_from(row).where(earlier)) or 0)

    def next_for(self, player: str, skip: str | None = None) -> str | None:
        """The latest puzzle the player has not answered (nor ``skip``)."""
        answered = select(BiddingPuzzleTryRow.puzzle_id).where(BiddingPuzzleTryRow.player_id == player)
        with self.store.session() as s:
            found = s.scalar(
                select(BiddingPuzzleRow.id)
                .where(BiddingPuzzleRow.id.not_in(answered), BiddingPuzzleRow.id != (skip or ""))
                .order_by(BiddingPuzzleRow.created_at.desc(), BiddingPuzzleRow.id)
                .limit(1)
            )
        return None if found is None else str(found)

    def answered(self, player: str, puzzle_id: str) -> str | None:
        """The call of the player's first answer, None if they have not answered."""
        with self.store.session() as s:
            row = s.get(BiddingPuzzleTryRow, (player, puzzle_id))
            return None if row is None else row.call

    def record_answer(self, player: str, puzzle_id: str, call: str, solved: bool) -> bool:
        """Keep a player's first answer (and count it on the puzzle); False if they had
        answered already (two at once: one is kept)."""
        try:
            with self.store.session() as s, s.begin():
                if s.get(BiddingPuzzleTryRow, (player, puzzle_id)) is not None:
                    return False
                s.add(BiddingPuzzleTryRow(player_id=player, puzzle_id=puzzle_id, call=call, solved=solved, at=now()))
                s.flush()
                s.execute(
                    update(BiddingPuzzleRow)
                    .where(BiddingPuzzleRow.id == puzzle_id)
                    .values(
                        tries=BiddingPuzzleRow.tries + 1,
                        solved=BiddingPuzzleRow.solved + (1 if solved else 0),
                    )
                )
        except IntegrityError:
            return False
        return True
