"""Who sits where when a round starts, in the transaction that claims it: the draw that
pairs the people entered alone, each table's seats (a person not online is a computer for
the round) and the tables named before they are made."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from ...infra.db import aware
from ...infra.rows.people import OnlineRow
from ...infra.store import new_id
from ...table.spec import Seat
from ...table.tournament_pairing import BYE, Pairing
from ..following import ONLINE_FOR
from .model import Entry, RoundTable, Tournament, draw_seed
from .rows import TournamentEntryRow, TournamentPlayerRow, TournamentTableRow, entry_of_row, round_table_of_row


def entries_in_play(s: Any, tournament_id: str) -> list[Entry]:
    """The entries still in the tournament (not withdrawn)."""
    rows = s.execute(
        select(TournamentEntryRow).where(
            TournamentEntryRow.tournament_id == tournament_id, TournamentEntryRow.withdrawn_at.is_(None)
        )
    ).scalars()
    return [entry_of_row(e) for e in rows]


def name_tables(
    s: Any, tournament: Tournament, number: int, pairings: Sequence[Pairing], entries: Sequence[Entry], at: datetime
) -> list[RoundTable]:
    """Name round ``number``'s tables (or an arena wave's) and write their seats, in the
    transaction that claimed the round: a person not online is a computer for it."""
    online = online_of(s, [p for e in entries for p in e.players], at)
    by_id = {e.id: e for e in entries}
    made = []
    for i, (ns, ew) in enumerate(pairings, start=1):
        seats = seats_of(tournament, by_id[ns], None if ew is BYE else by_id[ew], online)
        table = TournamentTableRow(
            table_id=new_id(),
            tournament_id=tournament.id,
            round=number,
            number=i,
            ns_entry=ns,
            ew_entry=ew,
            seats=[seat.to_json() for seat in seats],
            claimed_at=at,
        )
        s.add(table)
        made.append(table)
    s.flush()
    return [round_table_of_row(t) for t in made]


def table_rows(s: Any, tournament_id: str) -> Sequence[TournamentTableRow]:
    query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
    rows: Sequence[TournamentTableRow] = s.execute(query).scalars().all()
    return rows


def online_of(s: Any, players: Sequence[str], at: datetime) -> set[str]:
    if not players:
        return set()
    rows = s.execute(select(OnlineRow.player_id, OnlineRow.seen_at).where(OnlineRow.player_id.in_(list(players))))
    return {pid for pid, seen in rows if at - aware(seen) <= ONLINE_FOR}


def pair_people_alone(s: Any, tournament: Tournament, at: datetime) -> None:
    """At the start: a partner who never answered leaves the one who named them alone; the
    people alone are paired in a draw; one left over plays with a computer partner, if the
    organiser allows it, else their entry ends (``withdrawn``)."""
    rows = (
        s.execute(select(TournamentEntryRow).where(TournamentEntryRow.tournament_id == tournament.id)).scalars().all()
    )
    alone = []
    for row in rows:
        if not row.second_ok:
            row.second_id = None
            if tournament.alone:
                alone.append(row)
            else:  # pairs only: a partner who never answered leaves no pair
                row.withdrawn_at = at
    alone.sort(key=lambda r: r.id)
    random.Random(draw_seed(tournament.secret) + 1).shuffle(alone)
    while len(alone) >= 2:
        keep, merged = alone.pop(), alone.pop()
        keep.second_id, keep.second_ok = merged.first_id, True
        s.execute(
            update(TournamentPlayerRow)
            .where(TournamentPlayerRow.entry_id == merged.id)
            .values(entry_id=keep.id)
            .execution_options(synchronize_session=False)
        )
        s.delete(merged)
    if alone and not tournament.computer_partner:
        alone[0].withdrawn_at = at
    s.flush()


def seats_of(tournament: Tournament, ns: Entry, ew: Entry | None, online: set[str]) -> tuple[Seat, ...]:
    """South and North: the first pair (its first entrant South); East and West: the
    second, or computers. A person not online is a computer for the round."""
    computer = Seat("bot", level=tournament.level)

    def of(player: str | None) -> Seat:
        return Seat("human", player=player) if player is not None and player in online else computer

    ns_players = ns.players + (None,) * (2 - len(ns.players))
    if ew is None:
        return (of(ns_players[0]), computer, of(ns_players[1]), computer)
    ew_players = ew.players + (None,) * (2 - len(ew.players))
    return (of(ns_players[0]), of(ew_players[0]), of(ns_players[1]), of(ew_players[1]))
