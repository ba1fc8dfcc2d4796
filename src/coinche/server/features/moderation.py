"""The site's team: roles, the reports grouped by person, and the team's actions.

An account is given a role (``moderator``, ``admin``) from the command line only
(``coinche role NAME moderator``). A moderator sees the reports grouped by the person
reported, with the tables they came from (what was said there, the moves and their
times), and acts on a person: a warning, a suspension from quick play and tournaments for
a time, or a ban (no log-in; every session ends). Each action is a row of the audit log
(``moderation_actions``), with who and why; undoing one is an action of its own that
points at it, so the log keeps both. Whoever is suspended or banned is told why and until
when: where they are refused, and on their account page.

Every check reads the database: a role taken away, or a sanction undone, counts at the
next request on every process.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import DateTime, Index, String, Text, and_, delete, func, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ...engine.messages import Message
from ..infra.database import Database
from ..infra.db import Base, aware
from ..infra.rows.people import AccountRow, ReportRow, SaidRow, SessionRow
from ..infra.rows.tables import ActionRow, TableRow
from ..infra.store import Store, new_id
from ..table.live_table import TableError
from .accounts import Account, AccountError, AccountStore

ROLES: Final = ("moderator", "admin")
"""The team's roles; an admin may do all a moderator does, and act on moderators too."""
KINDS: Final = ("warn", "suspend", "ban")
"""What the team does to a person (an ``undo`` row undoes one of them)."""
LONGEST: Final = timedelta(days=3650)
"""A suspension or ban's longest time (a ban may also have none: for good)."""
REASON_MAX: Final = 500
"""The characters of a moderator's reason (shown to the person, escaped)."""
REPORT_DAYS: Final = 30
"""The reports the team's list groups: those of the last days."""
NOTICE_DAYS: Final = 30
"""A warning stays on the person's account page this long."""
SAID_SHOWN: Final = 200
"""The messages of a table the team sees (the latest)."""
MOVES_SHOWN: Final = 400
"""The steps of a table's log the team sees (the latest)."""


class RoleRow(Base):
    """An account of the site's team and its role (given by ``coinche role``)."""

    __tablename__ = "roles"

    account_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    given_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ModerationRow(Base):
    """One action of the site's team (the audit log): ``kind`` ``warn``, ``suspend``,
    ``ban`` or ``undo`` (of ``undoes``), on ``player_id``, by ``moderator_id``, and why."""

    __tablename__ = "moderation_actions"
    __table_args__ = (Index("ix_moderation_player", "player_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[str] = mapped_column(String(32))
    moderator_id: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """A suspension's or a ban's end (None: a ban for good, or a warning)."""
    undoes: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """An ``undo``'s action."""
    undone_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The ``undo`` of this action, once undone."""


@dataclass(frozen=True)
class Action:
    """An action of the audit log, with the names of the person and the moderator."""

    id: str
    kind: str
    player: str
    name: str
    """The person's account name (their player id without an account)."""
    moderator: str
    reason: str
    at: datetime
    until: datetime | None
    undoes: str | None
    undone_by: str | None

    def active(self, moment: datetime) -> bool:
        """A suspension or ban not undone and not over at ``moment``."""
        return (
            self.kind in ("suspend", "ban") and self.undone_by is None and (self.until is None or self.until > moment)
        )


@dataclass(frozen=True)
class Reported:
    """A person reported lately: by how many people, how often, for what."""

    player: str
    name: str
    reporters: int
    reports: int
    reasons: dict[str, int]
    last: datetime
    restriction: Action | None = None


@dataclass(frozen=True)
class ReportSeen:
    at: datetime
    table_id: str
    reporter: str | None
    """The reporter's account name (None: a guest, ``reporter_id``)."""
    reason: str
    reporter_id: str


@dataclass(frozen=True)
class Said:
    """A quick message or a reaction at a table (``kind`` ``say`` or ``react``)."""

    at: datetime
    seat: int
    player: str
    kind: str
    what: str


@dataclass(frozen=True)
class Move:
    """A step of a table's log as the team reads it: when, from which seat, by whom (the
    seat's holder then: a player id, None for a computer), what (``kind`` as
    ``ActionRow``; ``action`` the engine's, ``by`` ``away``/``idle`` when a computer
    played for an absent person)."""

    seq: int
    at: datetime
    seat: int
    player: str | None
    kind: str
    action: int | None
    by: str | None


@dataclass(frozen=True)
class Person:
    """What the team sees of a person: their reports, the team's actions on them."""

    player: str
    name: str
    account_id: str | None
    role: str | None
    reports: list[ReportSeen] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)


def _name_of(player: str, name: str | None) -> str:
    return name if name is not None else player


def strictest(actions: Sequence[Action], moment: datetime) -> Action | None:
    """The sanction that binds at ``moment``: a ban before a suspension, the latest end
    first (None: free)."""
    live = [a for a in actions if a.active(moment)]
    if not live:
        return None
    far = datetime.max.replace(tzinfo=moment.tzinfo)
    return max(live, key=lambda a: (a.kind == "ban", a.until or far))


class ModerationStore:
    """The team's reads and writes (blocking: run them on ``Moderation.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----- roles -----

    def set_role(self, name: str, role: str | None, at: datetime) -> str | None:
        """Give the account named ``name`` the ``role`` (None: none); its id, None if no
        account has that name."""
        found = AccountStore(self.store).by_name(name)
        if found is None:
            return None
        account, _ = found
        with self.store.engine.begin() as conn:
            conn.execute(delete(RoleRow).where(RoleRow.account_id == account.id))
            if role is not None:
                conn.execute(insert(RoleRow), {"account_id": account.id, "role": role, "given_at": at})
        return account.id

    def role_of(self, account_id: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(RoleRow.role).where(RoleRow.account_id == account_id))

    def role_of_player(self, player: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(
                select(RoleRow.role)
                .join(AccountRow, AccountRow.id == RoleRow.account_id)
                .where(AccountRow.player_id == player)
            )

    # ----- reports -----

    def reported(self, since: datetime) -> list[Reported]:
        """The people reported since ``since``, the most reporters first."""
        with self.store.session() as s:
            rows = s.execute(
                select(
                    ReportRow.reported_id,
                    ReportRow.reporter_id,
                    ReportRow.reason,
                    ReportRow.created_at,
                    func.coalesce(AccountRow.name, ReportRow.reported_name),
                )
                .outerjoin(AccountRow, AccountRow.player_id == ReportRow.reported_id)
                .where(ReportRow.created_at >= since)
            ).all()
        people: dict[str, tuple[str, set[str], Counter[str], datetime]] = {}
        for reported, reporter, reason, at, name in rows:
            entry = people.setdefault(reported, (_name_of(reported, name), set(), Counter(), aware(at)))
            entry[1].add(reporter)
            entry[2][reason] += 1
            if aware(at) > entry[3]:
                people[reported] = (entry[0], entry[1], entry[2], aware(at))
        found = [
            Reported(player, name, len(reporters), sum(reasons.values()), dict(reasons), last)
            for player, (name, reporters, reasons, last) in people.items()
        ]
        found.sort(key=lambda r: (-r.reporters, -r.reports, -r.last.timestamp(), r.player))
        return found

    def person(self, player: str, since: datetime) -> Person | None:
        """A person's account, reports since ``since`` and the team's actions on them
        (None: no such player)."""
        with self.store.session() as s:
            account = s.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.player_id == player)).first()
            seen_as = s.scalar(
                select(ReportRow.reported_name)
                .where(ReportRow.reported_id == player)
                .order_by(ReportRow.created_at.desc())
                .limit(1)
            )
            reporter = AccountRow.__table__.alias("reporter")
            reports = s.execute(
                select(
                    ReportRow.created_at, ReportRow.table_id, ReportRow.reporter_id, reporter.c.name, ReportRow.reason
                )
                .outerjoin(reporter, reporter.c.player_id == ReportRow.reporter_id)
                .where(ReportRow.reported_id == player, ReportRow.created_at >= since)
                .order_by(ReportRow.created_at.desc())
            ).all()
        actions = self.actions(player=player)
        if account is None and not reports and not actions:
            return None
        role = self.role_of(account.id) if account is not None else None
        return Person(
            player,
            account.name if account is not None else seen_as or player,
            account.id if account is not None else None,
            role,
            [ReportSeen(aware(at), table, name, reason, by) for at, table, by, name, reason in reports],
            actions,
        )

    def said(self, table_id: str) -> list[Said]:
        """The latest messages said at a table (``SAID_SHOWN``), in order."""
        with self.store.session() as s:
            rows = s.execute(
                select(SaidRow)
                .where(SaidRow.table_id == table_id)
                .order_by(SaidRow.created_at.desc())
                .limit(SAID_SHOWN)
            ).scalars()
            found = [Said(aware(r.created_at), r.seat, r.player_id, r.kind, r.what) for r in rows]
        found.reverse()
        return found

    def moves(self, table_id: str) -> tuple[list[Move], dict[str, str]]:
        """The latest steps of a table's log (``MOVES_SHOWN``), each with its seat's holder
        then, and the account names of the players in them."""
        with self.store.session() as s:
            first = s.scalar(select(TableRow.seats).where(TableRow.id == table_id))
            if first is None:
                return [], {}
            rows = s.execute(
                select(
                    ActionRow.seq,
                    ActionRow.created_at,
                    ActionRow.seat,
                    ActionRow.kind,
                    ActionRow.action,
                    ActionRow.data,
                )
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.seq)
            ).all()
            holders: list[str | None] = [seat.get("player") if seat.get("kind") == "human" else None for seat in first]
            names: dict[str, str] = {}
            """A guest's name at the table (an account's, read below, wins)."""
            for seat in first:
                if seat.get("player") and seat.get("name"):
                    names[seat["player"]] = seat["name"]
            found = []
            for r in rows:
                data = r.data or {}
                if r.kind == "seat":
                    holders[r.seat] = data.get("player") if data.get("kind") == "human" else None
                    if data.get("player") and data.get("name"):
                        names[data["player"]] = data["name"]
                elif r.kind == "swap":
                    other = data.get("with")
                    if isinstance(other, int) and 0 <= other <= 3:
                        holders[r.seat], holders[other] = holders[other], holders[r.seat]
                by = data.get("by") if r.kind == "action" else None
                found.append(Move(r.seq, aware(r.created_at), r.seat, holders[r.seat], r.kind, r.action, by))
            found = found[-MOVES_SHOWN:]
            players = {m.player for m in found if m.player is not None}
            accounts = select(AccountRow.player_id, AccountRow.name).where(AccountRow.player_id.in_(players))
            names.update({player: name for player, name in s.execute(accounts)})
        return found, names

    # ----- actions -----

    def _actions(self, where: object | None, limit: int) -> list[Action]:
        person = AccountRow.__table__.alias("person")
        moderator = AccountRow.__table__.alias("moderator")
        query = (
            select(ModerationRow, person.c.name, moderator.c.name)
            .outerjoin(person, person.c.player_id == ModerationRow.player_id)
            .outerjoin(moderator, moderator.c.id == ModerationRow.moderator_id)
            .order_by(ModerationRow.created_at.desc(), ModerationRow.id)
            .limit(limit)
        )
        if where is not None:
            query = query.where(where)  # type: ignore[arg-type]
        with self.store.session() as s:
            rows = s.execute(query).all()
        return [
            Action(
                r.id,
                r.kind,
                r.player_id,
                _name_of(r.player_id, name),
                moderator_name or "?",
                r.reason,
                aware(r.created_at),
                aware(r.until) if r.until is not None else None,
                r.undoes,
                r.undone_by,
            )
            for r, name, moderator_name in rows
        ]

    def actions(self, player: str | None = None, limit: int = 500) -> list[Action]:
        """The audit log, the newest first (``player``: of one person only)."""
        return self._actions(ModerationRow.player_id == player if player is not None else None, limit)

    def action(self, action_id: str) -> Action | None:
        found = self._actions(ModerationRow.id == action_id, 1)
        return found[0] if found else None

    def sanctions(self, player: str) -> list[Action]:
        """The person's suspensions and bans not undone (over or not)."""
        return [
            a
            for a in self._actions(ModerationRow.player_id == player, 500)
            if a.kind in ("suspend", "ban") and a.undone_by is None
        ]

    def sanctions_of(self, players: Sequence[str]) -> dict[str, list[Action]]:
        """``sanctions`` of many people at once (the reports' list), a query per 500."""
        out: dict[str, list[Action]] = {p: [] for p in players}
        for start in range(0, len(players), 500):
            chunk = players[start : start + 500]
            where = and_(
                ModerationRow.player_id.in_(chunk),
                ModerationRow.kind.in_(("suspend", "ban")),
                ModerationRow.undone_by.is_(None),
            )
            for action in self._actions(where, 500 * len(chunk)):
                out[action.player].append(action)
        return out

    def act(self, kind: str, player: str, moderator: str, reason: str, until: datetime | None, at: datetime) -> str:
        """Keep an action (a ban also ends every session of the person's account)."""
        action_id = new_id()
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(ModerationRow),
                {
                    "id": action_id,
                    "kind": kind,
                    "player_id": player,
                    "moderator_id": moderator,
                    "reason": reason,
                    "created_at": at,
                    "until": until,
                },
            )
            if kind == "ban":
                account = select(AccountRow.id).where(AccountRow.player_id == player).scalar_subquery()
                conn.execute(delete(SessionRow).where(SessionRow.account_id == account))
        return action_id

    def undo(self, action_id: str, moderator: str, reason: str, at: datetime) -> str | None:
        """Undo an action not undone yet (the undo is an action too); None: no such
        action, or undone already (by another moderator, at the same time: one wins)."""
        undo_id = new_id()
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(ModerationRow.player_id).where(
                    ModerationRow.id == action_id, ModerationRow.kind != "undo", ModerationRow.undone_by.is_(None)
                )
            ).first()
            if row is None:
                return None
            changed = conn.execute(
                update(ModerationRow)
                .where(ModerationRow.id == action_id, ModerationRow.undone_by.is_(None))
                .values(undone_by=undo_id)
            ).rowcount
            if changed != 1:
                return None
            conn.execute(
                insert(ModerationRow),
                {
                    "id": undo_id,
                    "kind": "undo",
                    "player_id": row.player_id,
                    "moderator_id": moderator,
                    "reason": reason,
                    "created_at": at,
                    "undoes": action_id,
                },
            )
        return undo_id


class Moderation:
    """The team's work, awaited off the loop, on the server's clock."""

    def __init__(self, store: ModerationStore, db: Database, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.db = db
        self.clock = clock
        self.acted_hooks: list[Callable[[str, str], Awaitable[None]]] = []
        """Told of each suspension or ban (its kind, the person): quick play takes them out
        of its wait."""

    async def role(self, account: Account | None) -> str | None:
        """The account's role on the team (None: none, or no account)."""
        if account is None:
            return None
        return await self.db(self.store.role_of, account.id)

    async def reported(self) -> list[Reported]:
        moment = self.clock()
        found = await self.db(self.store.reported, moment - timedelta(days=REPORT_DAYS))
        sanctions = await self.db(self.store.sanctions_of, [r.player for r in found])
        return [replace(r, restriction=strictest(sanctions[r.player], moment)) for r in found]

    async def person(self, player: str) -> Person | None:
        return await self.db(self.store.person, player[:32], self.clock() - timedelta(days=REPORT_DAYS))

    async def said(self, table_id: str) -> list[Said]:
        return await self.db(self.store.said, table_id[:16])

    async def moves(self, table_id: str) -> tuple[list[Move], dict[str, str]]:
        return await self.db(self.store.moves, table_id[:16])

    async def log(self) -> list[Action]:
        return await self.db(self.store.actions)

    async def act(self, moderator: Account, role: str, kind: str, player: str, reason: str, days: int | None) -> str:
        """``moderator`` (of ``role``) acts on ``player`` for ``days`` (None: a warning, or
        a ban for good). ``ValueError`` for a kind, reason or time out of bounds, or a
        person the moderator may not act on (themselves, an admin, a moderator unless
        admin)."""
        if kind not in KINDS or not reason.strip() or len(reason) > REASON_MAX:
            raise ValueError("bad action")
        if (kind == "warn" and days is not None) or (kind == "suspend" and days is None):
            raise ValueError("bad time")
        if days is not None and not 1 <= days <= LONGEST.days:
            raise ValueError("bad time")
        if player == moderator.player:
            raise ValueError("yourself")
        target_role = await self.db(self.store.role_of_player, player)
        if target_role == "admin" or (target_role == "moderator" and role != "admin"):
            raise ValueError("a team member")
        moment = self.clock()
        until = moment + timedelta(days=days) if days is not None else None
        done = await self.db(self.store.act, kind, player, moderator.id, reason.strip(), until, moment)
        if kind != "warn":
            for hook in self.acted_hooks:
                await hook(kind, player)
        return done

    async def undo(self, moderator: Account, action_id: str, reason: str) -> Action | None:
        """Undo an action (None: none such, or undone already)."""
        if not reason.strip() or len(reason) > REASON_MAX:
            raise ValueError("bad reason")
        done = await self.db(self.store.undo, action_id[:16], moderator.id, reason.strip(), self.clock())
        return await self.db(self.store.action, action_id[:16]) if done is not None else None

    # ----- what a sanction refuses -----

    async def restriction(self, player: str) -> Action | None:
        """The suspension or ban that binds ``player`` now (None: free)."""
        return strictest(await self.db(self.store.sanctions, player), self.clock())

    async def notices(self, player: str) -> list[Action]:
        """What the person is told on their account page: the sanctions that bind them,
        and the warnings of the last ``NOTICE_DAYS`` days, not undone."""
        moment = self.clock()
        found = await self.db(self.store.actions, player, 100)
        return [
            a
            for a in found
            if a.undone_by is None
            and (a.active(moment) or (a.kind == "warn" and a.at >= moment - timedelta(days=NOTICE_DAYS)))
        ]

    async def may_meet_strangers(self, player: str) -> None:
        """A gate of quick play and tournaments: ``TableError("suspended")`` with the why
        and the until, for a person suspended or banned."""
        bound = await self.restriction(player)
        if bound is not None:
            raise TableError("suspended", refusal(bound))

    async def may_log_in(self, account: Account) -> None:
        """A gate of the log-in: ``AccountError("banned")`` with the why and the until."""
        bound = await self.restriction(account.player)
        if bound is not None and bound.kind == "ban":
            raise AccountError("banned", refusal(bound))


def notice_of(action: Action) -> Message:
    """What the person reads of an action on their account page: a warning's why, or the
    sanction's (``refusal``)."""
    if action.kind == "warn":
        return Message.of("moderation.notice.warn", reason=action.reason, at=action.at.strftime("%Y-%m-%d"))
    return refusal(action)


def refusal(action: Action) -> Message:
    """What the person is told of a sanction: which, why, until when (UTC)."""
    if action.until is None:
        return Message.of(f"moderation.refused.{action.kind}_for_good", reason=action.reason)
    return Message.of(
        f"moderation.refused.{action.kind}", reason=action.reason, until=action.until.strftime("%Y-%m-%d %H:%M UTC")
    )
