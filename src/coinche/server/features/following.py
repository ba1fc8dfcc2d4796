"""Friends and who is online (issue 29): following an account by its name, the list of
one's friends (online or not, at which table: a public one is named), invitations by name
to one's table, and blocking.

Everything is rows in the database, so every process sees the same: ``follows``,
``online`` (a person's socket says they are here every ``HEARTBEAT`` seconds; seen within
``ONLINE_FOR``: online), ``invitations`` (told at once on the person's hub channel, which
their pages listen to on any page: ``/ws/me``) and ``blocks``. A person who blocked
another is never invited by them and never seated with them by quick play
(``QuickPlayStore``'s waves read the same rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, select

from ...engine.rules import RuleSet
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.db import aware
from ..infra.hub import Hub
from ..infra.rows.lobby import OpenTableRow
from ..infra.rows.people import AccountRow, BlockRow, FollowRow, InvitationRow, OnlineRow, ReportRow
from ..infra.rows.tables import TablePlayerRow, TableRow
from ..infra.store import Store, new_id
from ..live.registry import LiveTables
from ..table.kinds import invitation_code
from ..table.live_table import TableError
from ..table.lobby import invited_seat
from ..table.seating import seat_positions
from .accounts import find_person
from .quick_play import person_channel

HEARTBEAT: Final = 30.0
"""A person's socket says they are here this often."""
ONLINE_FOR: Final = timedelta(seconds=75)
"""Seen this recently: online (two beats and some slack)."""
INVITATION_FOR: Final = timedelta(minutes=10)
"""An invitation not answered within this is gone."""
MAX_FOLLOWS: Final = 500
"""Accounts one may follow."""
REASONS: Final = ("cheating", "stalling", "leaving", "name", "other")
"""Why a person may be reported (chosen from a list: no free text to moderate)."""
MAX_PENDING: Final = 3
"""Invitations one person may have waiting for another at once (no flood)."""


@dataclass(frozen=True)
class Friend:
    """An account one follows, as one's list shows it."""

    name: str
    online: bool
    playing: bool
    """At a table whose game goes on."""
    public_table: str | None
    """The code of a public table they sit at (private tables are not named)."""


@dataclass(frozen=True)
class Invitation:
    id: str
    from_name: str
    table_id: str
    code: str | None
    created_at: datetime
    seat: int | None = None
    """The seat offered (None: the first free one, for invitations made before seats)."""
    position: str | None = None
    """That seat's name as every lobby and the invitation page name it (``"north"``)."""


@dataclass(frozen=True)
class Report:
    """A report, as ``coinche reports`` lists it."""

    created_at: datetime
    table_id: str
    reporter: str
    reported: str
    reported_id: str
    reason: str


@dataclass(frozen=True)
class Answered:
    """An invitation answered: its table's code, the seat it offered (None: the first free)."""

    code: str
    seat: int | None


def _position(seat: int | None, profile: str, options: dict[str, Any]) -> str | None:
    """The name of ``seat`` as every lobby names it (the host's view, ``seat_positions``)."""
    if seat is None:
        return None
    try:
        direction = RuleSet.profile(profile, **options).direction
    except (KeyError, TypeError, ValueError):
        return None
    return seat_positions(direction, 0)[seat]


class FollowingStore:
    """The rows (blocking: called on the database's threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def accounts(self, name: str) -> list[tuple[str, str]]:
        """The player id and the name of each account a person typing ``name`` may mean
        (``accounts.find_person``: any case, any accents; one if the name is exact)."""
        return find_person(self.store, name)

    def follow(self, player: str, followed: str, at: datetime) -> None:
        with self.store.session() as s, s.begin():
            count = s.scalar(select(func.count()).select_from(FollowRow).where(FollowRow.player_id == player)) or 0
            if count >= MAX_FOLLOWS:
                raise TableError("too_many_follows")
            s.execute(
                self.store.backend.insert_ignoring(FollowRow, ["player_id", "followed_id"]),
                {"player_id": player, "followed_id": followed, "created_at": at},
            )

    def unfollow(self, player: str, followed: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(FollowRow).where(FollowRow.player_id == player, FollowRow.followed_id == followed))

    def seen(self, player: str, at: datetime) -> None:
        with self.store.session() as s, s.begin():
            s.execute(
                self.store.backend.insert_ignoring(OnlineRow, ["player_id"]), {"player_id": player, "seen_at": at}
            )
            row = s.get(OnlineRow, player)
            if row is not None:
                row.seen_at = at

    def friends(self, player: str, at: datetime) -> list[Friend]:
        with self.store.session() as s:
            rows = s.execute(
                select(FollowRow.followed_id, AccountRow.name, OnlineRow.seen_at)
                .join(AccountRow, AccountRow.player_id == FollowRow.followed_id)
                .outerjoin(OnlineRow, OnlineRow.player_id == FollowRow.followed_id)
                .where(FollowRow.player_id == player)
                .order_by(AccountRow.name_key)
            ).all()
            ids = [r[0] for r in rows]
            tables: dict[str, list[tuple[str, str | None]]] = {}
            if ids:
                found = s.execute(
                    select(TablePlayerRow.player_id, TableRow.id, OpenTableRow.code)
                    .join(TableRow, TableRow.id == TablePlayerRow.table_id)
                    .outerjoin(OpenTableRow, OpenTableRow.table_id == TableRow.id)
                    .where(
                        TablePlayerRow.player_id.in_(ids),
                        TablePlayerRow.finished_at.is_(None),
                        TableRow.finished_at.is_(None),
                    )
                )
                for pid, table_id, code in found:
                    tables.setdefault(pid, []).append((table_id, code))
            out = []
            for pid, name, seen_at in rows:
                online = seen_at is not None and at - aware(seen_at) <= ONLINE_FOR
                theirs = tables.get(pid, [])
                public = next((code for _, code in theirs if code is not None), None)
                out.append(Friend(name, online, bool(theirs) and online, public))
            return out

    def block(self, player: str, blocked: str, at: datetime) -> None:
        engine = self.store.engine
        with engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(BlockRow, ["player_id", "blocked_id"]),
                {"player_id": player, "blocked_id": blocked, "created_at": at},
            )
            conn.execute(delete(InvitationRow).where(InvitationRow.from_id == blocked, InvitationRow.to_id == player))

    def unblock(self, player: str, blocked: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(BlockRow).where(BlockRow.player_id == player, BlockRow.blocked_id == blocked))

    def blocked(self, player: str) -> list[str]:
        """The names of the accounts ``player`` blocked."""
        with self.store.session() as s:
            return list(
                s.scalars(
                    select(AccountRow.name)
                    .join(BlockRow, BlockRow.blocked_id == AccountRow.player_id)
                    .where(BlockRow.player_id == player)
                    .order_by(AccountRow.name_key)
                )
            )

    def invite(self, sender: str, to: str, table_id: str, seat: int, at: datetime) -> str:
        """A new invitation (its id). ``TableError``: ``blocked`` (``to`` blocked the
        sender: said as if sent, see the caller), ``too_many_invitations``."""
        with self.store.session() as s, s.begin():
            if s.get(BlockRow, (to, sender)) is not None:
                raise TableError("blocked")
            # the recipient's expired invitations go (the table stays small)
            s.execute(
                delete(InvitationRow).where(InvitationRow.to_id == to, InvitationRow.created_at <= at - INVITATION_FOR)
            )
            pending = s.scalar(
                select(func.count())
                .select_from(InvitationRow)
                .where(
                    InvitationRow.from_id == sender,
                    InvitationRow.to_id == to,
                    InvitationRow.created_at > at - INVITATION_FOR,
                )
            )
            if (pending or 0) >= MAX_PENDING:
                raise TableError("too_many_invitations")
            invitation_id = new_id()
            s.add(
                InvitationRow(id=invitation_id, from_id=sender, to_id=to, table_id=table_id, seat=seat, created_at=at)
            )
            return invitation_id

    def invitations(self, player: str, at: datetime) -> list[Invitation]:
        """The invitations waiting for ``player``, oldest first."""
        with self.store.session() as s:
            rows = s.execute(
                select(InvitationRow, AccountRow.name, TableRow.code, TableRow.profile, TableRow.options)
                .join(AccountRow, AccountRow.player_id == InvitationRow.from_id)
                .join(TableRow, TableRow.id == InvitationRow.table_id)
                .where(
                    InvitationRow.to_id == player,
                    InvitationRow.created_at > at - INVITATION_FOR,
                    TableRow.finished_at.is_(None),
                )
                .order_by(InvitationRow.created_at)
            ).all()
            return [
                Invitation(
                    r.id, name, r.table_id, code, aware(r.created_at), r.seat, _position(r.seat, profile, options)
                )
                for r, name, code, profile, options in rows
            ]

    def answer(self, player: str, invitation_id: str) -> Answered | None:
        """``player`` answers (accepts or declines) an invitation: it is gone; its table's
        code and the seat offered (None: there was no such invitation for them)."""
        with self.store.session() as s, s.begin():
            row = s.get(InvitationRow, invitation_id)
            if row is None or row.to_id != player:
                return None
            table = s.get(TableRow, row.table_id)
            s.delete(row)
            if table is None or table.code is None:
                return None
            return Answered(table.code, row.seat)

    def report(self, reporter: str, reported: str, name: str, table_id: str, reason: str, at: datetime) -> None:
        """Store a report (the same person reported twice from one table: once)."""
        engine = self.store.engine
        with engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(ReportRow, ["reporter_id", "reported_id", "table_id"]),
                {
                    "id": new_id(),
                    "reporter_id": reporter,
                    "reported_id": reported,
                    "reported_name": name[:40],
                    "table_id": table_id,
                    "reason": reason,
                    "created_at": at,
                },
            )

    def reports(self, since: datetime) -> list[Report]:
        """The reports made since ``since``, newest first, with the reporter's account name
        (or their player id for a guest)."""
        with self.store.session() as s:
            rows = s.execute(
                select(ReportRow, AccountRow.name)
                .outerjoin(AccountRow, AccountRow.player_id == ReportRow.reporter_id)
                .where(ReportRow.created_at >= since)
                .order_by(ReportRow.created_at.desc())
            ).all()
            return [
                Report(aware(r.created_at), r.table_id, name or r.reporter_id, r.reported_name, r.reported_id, r.reason)
                for r, name in rows
            ]


def one_account(found: list[tuple[str, str]]) -> tuple[str, str]:
    """The one account of a look-up by name (``FollowingStore.accounts``), else
    ``TableError``: ``no_account``, ``ambiguous_name``."""
    if not found:
        raise TableError("no_account")
    if len(found) > 1:
        raise TableError("ambiguous_name")
    return found[0]


class Following:
    """Friends, who is online, invitations and reports."""

    def __init__(self, store: FollowingStore, db: Database, hub: Hub, settings: Settings, registry: LiveTables) -> None:
        self.store = store
        self.db = db
        self.hub = hub
        self.settings = settings
        self.registry = registry
        """Where the table of an invitation or a report is read."""

    def now(self) -> datetime:
        return self.settings.clock()

    async def _account(self, name: str) -> tuple[str, str]:
        """(player id, shown name) of the account a person means by ``name``;
        ``TableError``: ``no_account``, ``ambiguous_name`` (several alike but for their
        accents: the exact name is asked for)."""
        return one_account(await self.db(self.store.accounts, name[:64]))

    async def follow(self, player: str, name: str) -> str:
        """``player`` follows the account called ``name``; its name as written."""
        followed, written = await self._account(name)
        if followed == player:
            raise TableError("yourself")
        await self.db(self.store.follow, player, followed, self.now())
        return written

    async def unfollow(self, player: str, name: str) -> None:
        followed, _ = await self._account(name)
        await self.db(self.store.unfollow, player, followed)

    async def block(self, player: str, name: str) -> None:
        blocked, _ = await self._account(name)
        if blocked == player:
            raise TableError("yourself")
        await self.db(self.store.block, player, blocked, self.now())

    async def unblock(self, player: str, name: str) -> None:
        blocked, _ = await self._account(name)
        await self.db(self.store.unblock, player, blocked)

    async def friends(self, player: str) -> list[Friend]:
        return await self.db(self.store.friends, player, self.now())

    async def blocked(self, player: str) -> list[str]:
        return await self.db(self.store.blocked, player)

    async def seen(self, player: str) -> None:
        await self.db(self.store.seen, player, self.now())

    async def invite(self, sender: str, name: str, table_id: str, seat: int | None = None) -> None:
        """``sender``, seated at the friends' table ``table_id``, invites the account called
        ``name`` to ``seat``, a computer's (None: the first one); told at once on their
        pages. ``TableError`` besides the name's: ``gone``, ``not_seated``, ``seat_not_free``,
        ``full``. One who blocked the sender is not told, and the sender is not told that
        either (a block is not announced)."""
        to, _ = await self._account(name)
        if to == sender:
            raise TableError("yourself")
        live = await self.registry.table(table_id)
        if live is None or invitation_code(live.spec.kind) is None or live.game.is_over:
            raise TableError("gone")
        if live.seat_of(sender) is None:
            raise TableError("not_seated")
        offered = invited_seat(live, seat)
        try:
            await self.db(self.store.invite, sender, to, table_id, offered, self.now())
        except TableError as e:
            if e.code == "blocked":
                return
            raise
        await self.hub.signal(person_channel(to), {"kind": "invitation"})

    async def invitations(self, player: str) -> list[Invitation]:
        return await self.db(self.store.invitations, player, self.now())

    async def answer(self, player: str, invitation_id: str) -> Answered | None:
        answered = await self.db(self.store.answer, player, invitation_id[:32])
        await self.hub.signal(person_channel(player), {"kind": "answered"})
        return answered

    async def report(self, player: str, table_id: str, seat: int, reason: str) -> None:
        """``player``, seated at ``table_id``, reports the person at ``seat``. ``TableError``:
        ``gone``, ``not_seated``, ``bad_seat`` (nobody else there), ``bad_reason``."""
        if reason not in REASONS:
            raise TableError("bad_reason")
        live = await self.registry.table(table_id)
        if live is None:
            raise TableError("gone")
        if live.seat_of(player) is None:
            raise TableError("not_seated")
        if not 0 <= seat <= 3:
            raise TableError("bad_seat")
        holder = live.seats[seat]
        if holder.kind != "human" or holder.player is None or holder.player == player:
            raise TableError("bad_seat")
        await self.db(self.store.report, player, holder.player, holder.name or "?", table_id, reason, self.now())
