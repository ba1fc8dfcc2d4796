"""The tournaments' SQL: organising and entering, what the pages read, and each move of a
running tournament from one stage to the next as one conditional UPDATE of its row (one
process wins it; the others find nothing to do)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, true, update
from sqlalchemy.exc import IntegrityError

from ...infra.db import aware
from ...infra.rows.people import AccountRow
from ...infra.rows.tables import TableRow
from ...infra.store import Store, new_id
from ...table.live_table import TableError
from ...table.tournament_pairing import BYE, Pairing, arena_pairing, first_round, max_rounds, next_round
from ...table.tournament_scoring import arena_scores, met, standings
from .model import (
    ARENA_BYE_AFTER,
    Entry,
    Plan,
    RoundTable,
    Snapshot,
    Tournament,
    commitment,
    draw_seed,
    standings_of,
)
from .rows import (
    TournamentEntryRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
    entry_of_row,
    round_table_of_row,
    tournament_of_row,
)
from .seating import entries_in_play, name_tables, online_of, pair_people_alone, table_rows


class TournamentStore:
    """The tournaments' rows (blocking calls: ``Tournaments`` runs them on the database's
    threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----- organising, entering -----

    def create(
        self,
        plan: Plan,
        organiser: str,
        at: datetime,
        test_seed: int | str | None = None,
        tournament_id: str | None = None,
    ) -> Tournament:
        """A new tournament (``tournament_id``: the id it must have; taken: ``IntegrityError``)."""
        for attempt in range(8):
            try:
                return self._create(plan, organiser, at, test_seed, tournament_id)
            except IntegrityError:
                if tournament_id is not None or not plan.private or attempt == 7:
                    raise  # a private one's code (six hex digits) may clash: another code
        raise AssertionError("unreachable")

    def _create(
        self, plan: Plan, organiser: str, at: datetime, test_seed: int | str | None, tournament_id: str | None
    ) -> Tournament:
        tournament_id = tournament_id or new_id()
        if test_seed is None:
            secret = secrets.token_bytes(32)
        else:
            secret = hashlib.sha256(f"coinche-test-tournament:{test_seed}:{tournament_id}".encode()).digest()
        rules = plan.rules
        with self.store.session() as s, s.begin():
            row = TournamentRow(
                id=tournament_id,
                name=plan.name.strip(),
                organiser_id=organiser,
                profile=rules.name,
                options=rules.options(),
                format=plan.format,
                rounds=plan.rounds,
                deals=plan.deals,
                minutes_per_deal=plan.minutes_per_deal,
                break_seconds=plan.break_seconds,
                duration_minutes=plan.duration_minutes,
                opens_at=plan.opens_at,
                starts_at=plan.starts_at,
                code=secrets.token_hex(3).upper() if plan.private else None,
                alone=plan.alone,
                computer_partner=plan.computer_partner,
                bots=plan.bots,
                club_id=plan.club,
                level=plan.level,
                secret=secret,
                commitment=commitment(tournament_id, secret),
                state="open",
                round=0,
                created_at=at,
            )
            s.add(row)
            s.flush()
            return tournament_of_row(row)

    def get(self, tournament_id: str) -> Tournament | None:
        with self.store.session() as s:
            row = s.get(TournamentRow, tournament_id)
            return None if row is None else tournament_of_row(row)

    def listing(self, limit: int = 50) -> dict[str, list[Tournament]]:
        """The public tournaments: upcoming (soonest first), running, finished (latest
        first)."""
        out: dict[str, list[Tournament]] = {}
        with self.store.session() as s:
            for state, order in (
                ("open", TournamentRow.starts_at),
                ("running", TournamentRow.starts_at),
                ("finished", TournamentRow.finished_at.desc()),
            ):
                rows = s.execute(
                    select(TournamentRow)
                    .where(TournamentRow.state == state, TournamentRow.code.is_(None), TournamentRow.club_id.is_(None))
                    .order_by(order)
                    .limit(limit)
                ).scalars()
                out[state] = [tournament_of_row(r) for r in rows]
        return out

    def of_club(self, club_id: str, limit: int = 20) -> list[Tournament]:
        """A club's tournaments, the latest first (upcoming, running and finished)."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow)
                .where(TournamentRow.club_id == club_id, TournamentRow.state != "cancelled")
                .order_by(TournamentRow.starts_at.desc())
                .limit(limit)
            ).scalars()
            return [tournament_of_row(r) for r in rows]

    def finished_of_club(self, club_id: str, since: datetime, until: datetime, limit: int) -> list[Tournament]:
        """A club's tournaments finished in ``[since, until)``, the latest first."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow)
                .where(
                    TournamentRow.club_id == club_id,
                    TournamentRow.state == "finished",
                    TournamentRow.finished_at >= since,
                    TournamentRow.finished_at < until,
                )
                .order_by(TournamentRow.finished_at.desc())
                .limit(limit)
            ).scalars()
            return [tournament_of_row(r) for r in rows]

    def cancel(self, tournament_id: str, player: str) -> None:
        """The organiser cancels before the start (``not_open`` for anyone else, or after)."""
        self._organise(tournament_id, player, state="cancelled")

    def start_now(self, tournament_id: str, player: str, at: datetime) -> None:
        """The organiser starts it now (everyone is there): the next tick of any runner
        starts it as at its hour."""
        self._organise(tournament_id, player, starts_at=at)

    def _organise(self, tournament_id: str, player: str, **values: Any) -> None:
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.organiser_id == player,
                    TournamentRow.state == "open",
                )
                .values(**values)
                .execution_options(preserve_rowcount=True)
            )
            if not done.rowcount:
                raise TableError("not_open")

    def enter(self, tournament_id: str, player: str, partner: str | None, code: str | None, at: datetime) -> Entry:
        """``player`` enters, with ``partner`` (who must accept) or alone."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None:
                raise TableError("gone")
            if row.state != "open" or at < aware(row.opens_at) or at >= aware(row.starts_at):
                raise TableError("not_open")
            if row.code is not None and (code or "").strip().upper() != row.code:
                raise TableError("bad_code")
            if partner == player:
                raise TableError("yourself")
            if partner is None and not row.alone:
                raise TableError("pairs_only")
            if not row.bots:
                named = [p for p in (player, partner) if p is not None]
                robots = select(AccountRow.id).where(
                    AccountRow.player_id.in_(named), AccountRow.bot_owner_id.is_not(None)
                )
                if s.execute(robots.limit(1)).first() is not None:
                    raise TableError("no_bots")
            taken = s.execute(
                select(TournamentPlayerRow.player_id).where(
                    TournamentPlayerRow.tournament_id == tournament_id,
                    TournamentPlayerRow.player_id.in_([p for p in (player, partner) if p is not None]),
                )
            ).scalars()
            for who in taken:
                raise TableError("entered" if who == player else "partner_entered")
            entry = TournamentEntryRow(
                id=new_id(),
                tournament_id=tournament_id,
                first_id=player,
                second_id=partner,
                second_ok=False,
                created_at=at,
            )
            s.add(entry)
            s.add(TournamentPlayerRow(tournament_id=tournament_id, player_id=player, entry_id=entry.id))
            try:
                s.flush()
            except IntegrityError:
                raise TableError("entered") from None
            return entry_of_row(entry)

    def answer(self, tournament_id: str, player: str, entry_id: str, accept: bool, at: datetime) -> None:
        """``player``, named as a partner in the entry ``entry_id`` (several may name
        them), accepts (their entry is the pair's) or declines (the one who named them is
        entered alone, or not at all where nobody may be)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None or row.state != "open" or at >= aware(row.starts_at):
                raise TableError("not_open")
            entry = s.execute(
                select(TournamentEntryRow).where(
                    TournamentEntryRow.id == entry_id,
                    TournamentEntryRow.tournament_id == tournament_id,
                    TournamentEntryRow.second_id == player,
                    TournamentEntryRow.second_ok.is_(False),
                )
            ).scalar_one_or_none()
            if entry is None:
                raise TableError("no_proposal")
            if not accept:
                entry.second_id = None
                if not row.alone:
                    s.execute(delete(TournamentPlayerRow).where(TournamentPlayerRow.entry_id == entry.id))
                    s.delete(entry)
                return
            s.add(TournamentPlayerRow(tournament_id=tournament_id, player_id=player, entry_id=entry.id))
            try:
                s.flush()
            except IntegrityError:
                raise TableError("entered") from None
            entry.second_ok = True

    def withdraw(self, tournament_id: str, player: str, at: datetime) -> None:
        """``player``'s pair leaves: before the start, its entry goes; after, it is not
        paired again (a round under way goes on: a computer stands in)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            link = s.get(TournamentPlayerRow, (tournament_id, player))
            if row is None or link is None:
                raise TableError("not_entered")
            entry = s.get(TournamentEntryRow, link.entry_id)
            assert entry is not None
            if row.state == "open":
                s.execute(delete(TournamentPlayerRow).where(TournamentPlayerRow.entry_id == entry.id))
                s.delete(entry)
            elif row.state == "running":
                entry.withdrawn_at = at
            else:
                raise TableError("not_open")

    def entries(self, tournament_id: str) -> list[Entry]:
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentEntryRow)
                .where(TournamentEntryRow.tournament_id == tournament_id)
                .order_by(TournamentEntryRow.created_at, TournamentEntryRow.id)
            ).scalars()
            return [entry_of_row(r) for r in rows]

    def proposals(self, tournament_id: str, player: str) -> list[Entry]:
        """Entries that name ``player`` as a partner, not accepted yet."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentEntryRow).where(
                    TournamentEntryRow.tournament_id == tournament_id,
                    TournamentEntryRow.second_id == player,
                    TournamentEntryRow.second_ok.is_(False),
                )
            ).scalars()
            return [entry_of_row(r) for r in rows]

    def partner_requests(self, player: str, at: datetime, limit: int = 10) -> list[tuple[Tournament, Entry]]:
        """The entries that name ``player`` as a partner, not answered yet, in tournaments
        still open to entries at ``at`` (the oldest first): what they may still accept.
        Found from the open tournaments (few, indexed by state), not from every entry."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow, TournamentEntryRow)
                .join(TournamentEntryRow, TournamentEntryRow.tournament_id == TournamentRow.id)
                .where(
                    TournamentRow.state == "open",
                    TournamentRow.starts_at > at,
                    TournamentEntryRow.second_id == player,
                    TournamentEntryRow.second_ok.is_(False),
                )
                .order_by(TournamentEntryRow.created_at, TournamentEntryRow.id)
                .limit(limit)
            ).all()
            return [(tournament_of_row(t), entry_of_row(e)) for t, e in rows]

    def tables(self, tournament_id: str, number: int | None = None) -> list[RoundTable]:
        with self.store.session() as s:
            query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
            if number is not None:
                query = query.where(TournamentTableRow.round == number)
            rows = s.execute(query.order_by(TournamentTableRow.round, TournamentTableRow.number)).scalars()
            return [round_table_of_row(r) for r in rows]

    def version(self, tournament_id: str) -> tuple[int, ...]:
        """What the standings of a tournament under way depend on, counted: withdrawals,
        tables, results, deals played."""
        with self.store.session() as s:
            withdrawn = s.execute(
                select(func.count(TournamentEntryRow.withdrawn_at)).where(
                    TournamentEntryRow.tournament_id == tournament_id
                )
            ).scalar_one()
            tables = s.execute(
                select(
                    func.count(), func.count(TournamentTableRow.result), func.sum(TournamentTableRow.deals_played)
                ).where(TournamentTableRow.tournament_id == tournament_id)
            ).one()
            return int(withdrawn), int(tables[0]), int(tables[1]), int(tables[2] or 0)

    def snapshot(self, tournament: Tournament, key: Any) -> Snapshot:
        entries = self.entries(tournament.id)
        tables = self.tables(tournament.id)
        return Snapshot(key, entries, tables, standings_of(tournament, entries, tables))

    def played_by(self, player: str, private: bool, limit: int = 20) -> list[tuple[Tournament, str]]:
        """The tournaments ``player`` entered (latest first) and their entry; a club's
        (private) ones only when ``private`` (the player's own eyes)."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow, TournamentPlayerRow.entry_id)
                .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentRow.id)
                .where(
                    TournamentPlayerRow.player_id == player,
                    TournamentRow.state.in_(("running", "finished")),
                    true() if private else TournamentRow.code.is_(None),
                )
                .order_by(TournamentRow.starts_at.desc())
                .limit(limit)
            ).all()
            return [(tournament_of_row(t), entry) for t, entry in rows]

    def person_table(self, player: str) -> str | None:
        """The table of a round under way where ``player`` sits, its game not over."""
        with self.store.session() as s:
            found = s.execute(
                select(TournamentTableRow.table_id, TournamentTableRow.seats)
                .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentTableRow.tournament_id)
                .join(TournamentRow, TournamentRow.id == TournamentTableRow.tournament_id)
                .where(
                    TournamentPlayerRow.player_id == player,
                    or_(
                        TournamentTableRow.ns_entry == TournamentPlayerRow.entry_id,
                        TournamentTableRow.ew_entry == TournamentPlayerRow.entry_id,
                    ),
                    or_(TournamentTableRow.round == TournamentRow.round, TournamentRow.format == "arena"),
                    TournamentTableRow.result.is_(None),
                    TournamentRow.state == "running",
                    TournamentRow.round_closed_at.is_(None),
                )
            ).all()
            for table_id, seats in found:
                if any(seat.get("player") == player for seat in seats):
                    return str(table_id)
            return None

    # ----- running -----

    def due(self, at: datetime) -> list[Tournament]:
        """The tournaments a runner looks at: those due to start, and those running."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow).where(
                    or_(
                        and_(TournamentRow.state == "open", TournamentRow.starts_at <= at),
                        TournamentRow.state == "running",
                    )
                )
            ).scalars()
            return [tournament_of_row(r) for r in rows]

    def start_round(self, tournament_id: str, number: int, at: datetime) -> list[RoundTable]:
        """Start round ``number`` if it is still to start (one process does: the row's
        conditional UPDATE): pair it, name and seat its tables; the tables to make (none:
        another process started it, or the tournament ended for want of entrants)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None:
                return []
            if number == 1:
                moved = s.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tournament_id, TournamentRow.state == "open")
                    .values(state="running", round=1, round_closed_at=None)
                    .execution_options(synchronize_session=False)
                )
            else:
                moved = s.execute(
                    update(TournamentRow)
                    .where(
                        TournamentRow.id == tournament_id,
                        TournamentRow.state == "running",
                        TournamentRow.round == number - 1,
                        TournamentRow.round_closed_at.is_not(None),
                    )
                    .values(round=number, round_closed_at=None)
                    .execution_options(synchronize_session=False)
                )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return []
            s.refresh(row)
            tournament = tournament_of_row(row)
            if number == 1:
                pair_people_alone(s, tournament, at)
            entries = entries_in_play(s, tournament_id)
            if not entries:
                row.state, row.finished_at = ("cancelled" if number == 1 else "finished"), at
                return []
            if tournament.is_arena:  # its waves seat the pairs from now on
                row.round, row.round_ends_at = 0, tournament.ends_at
                return []
            ids = sorted(e.id for e in entries)
            if number == 1:
                row.rounds = min(row.rounds, max_rounds(len(ids)))
                pairing = first_round(ids, draw_seed(tournament.secret))
            else:
                done = [t.result for t in map(round_table_of_row, table_rows(s, tournament_id)) if t.result is not None]
                field = [st for st in standings(ids, done) if st.pair in ids]
                try:
                    pairing = next_round(field, met(done), tournament.by_matchpoints)
                except ValueError:  # every pairing repeats a game (entrants withdrew): it ends
                    row.state, row.finished_at, row.round = "finished", at, number - 1
                    row.round_closed_at = at
                    return []
            row.round_ends_at = at + timedelta(seconds=tournament.round_seconds)
            return name_tables(s, tournament, number, pairing, entries, at)

    def record(self, table_id: str, result: dict[str, Any], at: datetime) -> bool:
        """A table's result, once (False: it had one), with when it came."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentTableRow)
                .where(TournamentTableRow.table_id == table_id, TournamentTableRow.result.is_(None))
                .values(result={**result, "at": at.isoformat()})
                .execution_options(preserve_rowcount=True)
            )
            return bool(done.rowcount)

    def deal_played(self, table_id: str, played: list[list[int]]) -> bool:
        """A table ended its deal ``len(played)`` (``played``: the points of each deal it
        ended): kept unless a later deal's are there already (False then, or when the table
        is no tournament's)."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentTableRow)
                .where(TournamentTableRow.table_id == table_id, TournamentTableRow.deals_played < len(played))
                .values(deals_played=len(played), played=played)
                .execution_options(preserve_rowcount=True)
            )
            return bool(done.rowcount)

    def _move(self, tournament_id: str, number: int, closed: bool, **values: Any) -> bool:
        """One stage change of a running tournament at round ``number`` (closed or not
        yet): the conditional UPDATE only one process wins."""
        closing = TournamentRow.round_closed_at
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.state == "running",
                    TournamentRow.round == number,
                    closing.is_not(None) if closed else closing.is_(None),
                )
                .values(**values)
                .execution_options(preserve_rowcount=True)
            )
            return bool(done.rowcount)

    def close_round(self, tournament_id: str, number: int, at: datetime) -> bool:
        """Round ``number`` is scored (every table has its result): once."""
        return self._move(tournament_id, number, False, round_closed_at=at)

    def finish(self, tournament_id: str, number: int, at: datetime) -> bool:
        """The last round closed: the tournament is over (once)."""
        return self._move(tournament_id, number, True, state="finished", finished_at=at)

    def arena_wave(self, tournament_id: str, wave: int, at: datetime) -> list[RoundTable]:
        """An arena's wave ``wave`` (one process runs it: the row's conditional UPDATE of
        ``round``): the pairs waiting (no game under way, one of them online at least),
        ranked by their arena points, meet their neighbours; one left over waits for the
        next wave, or plays two computers once it has waited ``ARENA_BYE_AFTER``. Nothing
        to seat: nothing written."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None or row.state != "running" or row.round != wave:
                return []
            tournament = tournament_of_row(row)
            tables = [round_table_of_row(t) for t in table_rows(s, tournament_id)]
            busy = {p for t in tables if t.result is None for p in (t.ns, t.ew) if p is not None}
            entries = entries_in_play(s, tournament_id)
            online = online_of(s, [p for e in entries for p in e.players], at)
            waiting = [e for e in entries if e.id not in busy and any(p in online for p in e.players)]
            if not waiting:
                return []
            scores = arena_scores(t.result for t in tables if t.result is not None)
            free_since: dict[str, datetime] = {}
            last_opponent: dict[str, str | None] = {}
            for t in sorted(tables, key=lambda t: t.round):
                ended = t.ended_at or tournament.starts_at
                for pair, other in ((t.ns, t.ew), (t.ew, t.ns)):
                    if pair is not None:
                        free_since[pair], last_opponent[pair] = ended, other

            def order(entry: Entry) -> tuple[int, datetime, str]:
                found = scores.get(entry.id)
                return (-(found.points if found else 0), free_since.get(entry.id, tournament.starts_at), entry.id)

            pairing, left = arena_pairing([e.id for e in sorted(waiting, key=order)], last_opponent)
            pairings: list[Pairing] = list(pairing)
            if left is not None and at - free_since.get(left, tournament.starts_at) >= ARENA_BYE_AFTER:
                pairings.append((left, BYE))
            if not pairings:
                return []
            moved = s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.round == wave)
                .values(round=wave + 1)
                .execution_options(synchronize_session=False)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return []
            return name_tables(s, tournament, wave + 1, pairings, entries, at)

    def named(self, table_id: str) -> tuple[str, RoundTable] | None:
        """The table ``table_id`` of a tournament under way, named and not made yet, and
        its tournament's id (None: no such table, made already, or its result is in)."""
        with self.store.session() as s:
            found = s.execute(
                select(TournamentTableRow)
                .join(TournamentRow, TournamentRow.id == TournamentTableRow.tournament_id)
                .outerjoin(TableRow, TableRow.id == TournamentTableRow.table_id)
                .where(
                    TournamentTableRow.table_id == table_id,
                    TournamentTableRow.result.is_(None),
                    TournamentRow.state == "running",
                    TableRow.id.is_(None),
                )
            ).scalar_one_or_none()
            return None if found is None else (found.tournament_id, round_table_of_row(found))

    def unmade(self, tournament_id: str, number: int | None, older_than: datetime) -> list[RoundTable]:
        """Tables of the round (None: of any) named before ``older_than`` and never made."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentTableRow)
                .outerjoin(TableRow, TableRow.id == TournamentTableRow.table_id)
                .where(
                    TournamentTableRow.tournament_id == tournament_id,
                    TournamentTableRow.round == number if number is not None else true(),
                    TournamentTableRow.claimed_at < older_than,
                    TableRow.id.is_(None),
                )
            ).scalars()
            return [round_table_of_row(r) for r in rows]
