"""Clubs: a place to belong. Any account makes a club (a name, a short description, open
to all or on request); people join, ask to join or are invited; the owner names
moderators; moderators accept requests, invite, remove and ban; the owner deletes the
club. The club's page shows its members (online now, at which public table), their
ranking by rating, and a message board of predefined messages only (no free text with
strangers, as at the tables).

Who may do what is decided here, on the server, from the database at each request: the
club's owner, its moderators, its members, anyone else. The limits (clubs an account owns,
clubs it is in, members of a club, invitations a minute) keep one person from flooding.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import Boolean, DateTime, Index, String, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..infra.database import Database
from ..infra.db import Base, aware
from ..infra.rate_limits import RateLimits
from ..infra.rows.lobby import OpenTableRow
from ..infra.rows.people import AccountRow, OnlineRow
from ..infra.rows.ratings import PlayerStatsRow
from ..infra.rows.tables import TablePlayerRow, TableRow
from ..infra.store import Store, new_id
from ..table.live_table import LiveTable, TableError
from ..table.names import clean_name, name_key, name_skeleton
from ..table.ratings import Rating
from .tournaments.model import Tournament

NAME_MIN: Final = 3
NAME_MAX: Final = 40
DESCRIPTION_MAX: Final = 300
OWNED_MAX: Final = 3
"""Clubs one account may own."""
JOINED_MAX: Final = 10
"""Clubs one account may be in (its own included)."""
MEMBERS_MAX: Final = 2000
POSTS_SHOWN: Final = 50
PAGE: Final = 50
"""Members a page of the club's list shows."""
TABLES_SHOWN: Final = 20
"""The club's tables under way its page lists."""
RANKED: Final = 50
"""Members the club's ranking shows."""
ONLINE_FOR: Final = timedelta(minutes=2)
"""A member is online while their socket said so this recently (as a friend is)."""
PHRASES: Final = ("hello", "welcome", "who_plays", "game_tonight", "tournament_soon", "well_played", "thanks", "bye")
"""The club board's messages: chosen from a list, no free text to moderate."""
SITE_NAMES: Final = (
    "coinche",
    "admin",
    "administrateur",
    "moderateur",
    "moderation",
    "equipe",
    "staff",
    "support",
    "officiel",
    "official",
    "site",
)
"""Names a club may not take, nor look like: the site's and its team's."""
ROLES: Final = ("owner", "moderator", "member")


class ClubError(Exception):
    """A club request refused; ``code`` says why (``clubs.error.<code>``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class ClubRow(Base):
    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    name_skeleton: Mapped[str] = mapped_column(String(64), index=True)
    description: Mapped[str] = mapped_column(String(DESCRIPTION_MAX))
    open: Mapped[bool] = mapped_column(Boolean)
    """Anyone joins at once (else: on request, accepted by a moderator)."""
    owner_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubMemberRow(Base):
    __tablename__ = "club_members"

    club_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    role: Mapped[str] = mapped_column(String(10))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_club_members_player", "player_id"),)


class ClubRequestRow(Base):
    """A person asking to join (``ask``) or invited by a moderator (``invite``)."""

    __tablename__ = "club_requests"

    club_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    by_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_club_requests_player", "player_id"),)


class ClubBanRow(Base):
    __tablename__ = "club_bans"

    club_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    by_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubPostRow(Base):
    __tablename__ = "club_posts"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    club_id: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str] = mapped_column(String(32))
    phrase: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_club_posts_club", "club_id", "created_at"),)


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    description: str
    open: bool
    owner: str
    members: int


@dataclass(frozen=True)
class Member:
    player: str
    name: str
    role: str
    online: bool
    public_table: str | None
    """The code of a public table they sit at (private tables are not named)."""
    rating: int
    """The displayed rating (``Rating.display``)."""


@dataclass(frozen=True)
class Post:
    name: str
    phrase: str
    at: datetime


@dataclass(frozen=True)
class Waiting:
    """A request to join, or an invitation, waiting for an answer."""

    player: str
    name: str
    kind: str
    at: datetime


def check_club_name(name: str) -> None:
    """``ClubError`` unless ``name`` has 3 to 40 characters, letters of any language,
    digits, spaces, ``-``, ``'`` or ``.``, and neither is nor looks like the site's own."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ClubError("name_length")
    for ch in name:
        if not (unicodedata.category(ch).startswith("L") or ch in "0123456789 -'."):
            raise ClubError("name_chars")
    if "  " in name:
        raise ClubError("name_chars")
    folded = "".join(c for c in unicodedata.normalize("NFKD", name_key(name)) if c.isalnum())
    skeleton = name_skeleton(name)
    for site in SITE_NAMES:
        if site in folded or name_skeleton(site) == skeleton:
            raise ClubError("name_site")


class ClubStore:
    """The clubs' reads and writes (blocking: run them on ``Clubs.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, owner: str, name: str, description: str, is_open: bool, at: datetime) -> str:
        club_id = new_id()
        with self.store.engine.begin() as conn:
            self.store.backend.lock(conn, f"club-owner:{owner}")
            owned = conn.scalar(select(func.count()).select_from(ClubRow).where(ClubRow.owner_id == owner))
            if (owned or 0) >= OWNED_MAX:
                raise ClubError("owned_max")
            if self._joined(conn, owner) >= JOINED_MAX:
                raise ClubError("joined_max")
            key = name_key(name)
            taken = conn.scalar(
                select(ClubRow.id).where((ClubRow.name_key == key) | (ClubRow.name_skeleton == name_skeleton(name)))
            )
            if taken is not None:
                raise ClubError("name_taken")
            conn.execute(
                insert(ClubRow),
                {
                    "id": club_id,
                    "name": name,
                    "name_key": key,
                    "name_skeleton": name_skeleton(name),
                    "description": description,
                    "open": is_open,
                    "owner_id": owner,
                    "created_at": at,
                },
            )
            conn.execute(
                insert(ClubMemberRow), {"club_id": club_id, "player_id": owner, "role": "owner", "joined_at": at}
            )
        return club_id

    @staticmethod
    def _joined(conn: Connection, player: str) -> int:
        found = conn.scalar(select(func.count()).select_from(ClubMemberRow).where(ClubMemberRow.player_id == player))
        return int(found or 0)

    @staticmethod
    def _banned(conn: Connection | Session, club_id: str, player: str) -> bool:
        found = conn.scalar(
            select(ClubBanRow.player_id).where(ClubBanRow.club_id == club_id, ClubBanRow.player_id == player)
        )
        return found is not None

    def club(self, club_id: str) -> Club | None:
        with self.store.session() as s:
            row = s.get(ClubRow, club_id)
            if row is None:
                return None
            count = s.scalar(select(func.count()).select_from(ClubMemberRow).where(ClubMemberRow.club_id == club_id))
            return Club(row.id, row.name, row.description, row.open, row.owner_id, int(count or 0))

    def listing(self, limit: int = 100) -> list[Club]:
        """The clubs with the most members first."""
        with self.store.session() as s:
            counts = select(ClubMemberRow.club_id, func.count().label("n")).group_by(ClubMemberRow.club_id).subquery()
            rows = s.execute(
                select(ClubRow, counts.c.n)
                .join(counts, counts.c.club_id == ClubRow.id)
                .order_by(counts.c.n.desc(), ClubRow.name_key)
                .limit(limit)
            ).all()
            return [Club(r.id, r.name, r.description, r.open, r.owner_id, int(n)) for r, n in rows]

    def of_player(self, player: str) -> list[tuple[Club, str]]:
        """The clubs a person is in, with their role there."""
        with self.store.session() as s:
            rows = s.execute(
                select(ClubRow, ClubMemberRow.role)
                .join(ClubMemberRow, ClubMemberRow.club_id == ClubRow.id)
                .where(ClubMemberRow.player_id == player)
                .order_by(ClubRow.name_key)
            ).all()
        return [(Club(r.id, r.name, r.description, r.open, r.owner_id, 0), role) for r, role in rows]

    def role(self, club_id: str, player: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(
                select(ClubMemberRow.role).where(ClubMemberRow.club_id == club_id, ClubMemberRow.player_id == player)
            )

    def banned(self, club_id: str, player: str) -> bool:
        with self.store.session() as s:
            return self._banned(s, club_id, player)

    def members(self, club_id: str, at: datetime, page: int = 0, online_only: bool = False) -> list[Member]:
        """A page of the members (``PAGE`` of them, by role then name), or every member online
        now (``online_only``), each with their presence, public table and rating. A club of
        thousands reads only what its page shows."""
        m = ClubMemberRow
        order = case({"owner": 0, "moderator": 1}, value=m.role, else_=2)
        query = (
            select(m.player_id, m.role, AccountRow.name, OnlineRow.seen_at, PlayerStatsRow.mu, PlayerStatsRow.sigma)
            .join(AccountRow, AccountRow.player_id == m.player_id)
            .outerjoin(OnlineRow, OnlineRow.player_id == m.player_id)
            .outerjoin(PlayerStatsRow, PlayerStatsRow.player_id == m.player_id)
            .where(m.club_id == club_id)
        )
        if online_only:
            query = query.where(OnlineRow.seen_at >= at - ONLINE_FOR).order_by(AccountRow.name_key)
        else:
            query = query.order_by(order, AccountRow.name_key).offset(page * PAGE).limit(PAGE)
        with self.store.session() as s:
            rows = s.execute(query).all()
            ids = [r.player_id for r in rows]
            playing = (
                s.execute(
                    select(TablePlayerRow.player_id, OpenTableRow.code)
                    .join(TableRow, TableRow.id == TablePlayerRow.table_id)
                    .join(OpenTableRow, OpenTableRow.table_id == TableRow.id)
                    .where(
                        TablePlayerRow.player_id.in_(ids),
                        TablePlayerRow.finished_at.is_(None),
                        TableRow.finished_at.is_(None),
                    )
                ).all()
                if ids
                else []
            )
        public = {pid: code for pid, code in playing}
        return [
            Member(
                r.player_id,
                r.name,
                r.role,
                r.seen_at is not None and at - aware(r.seen_at) <= ONLINE_FOR,
                public.get(r.player_id),
                Rating(r.mu, r.sigma).display if r.mu is not None else 0,
            )
            for r in rows
        ]

    def ranking(self, club_id: str, limit: int = RANKED) -> list[tuple[str, int]]:
        """The members with a rating, the best first (the leaderboard's order): (name, rating)."""
        m = ClubMemberRow
        with self.store.session() as s:
            rows = s.execute(
                select(AccountRow.name, PlayerStatsRow.mu, PlayerStatsRow.sigma)
                .join(m, m.player_id == PlayerStatsRow.player_id)
                .join(AccountRow, AccountRow.player_id == m.player_id)
                .where(m.club_id == club_id, PlayerStatsRow.rated_games > 0)
                .order_by(PlayerStatsRow.ordinal.desc(), AccountRow.name_key)
                .limit(limit)
            ).all()
        return [(name, Rating(mu, sigma).display) for name, mu, sigma in rows]

    def waiting(self, club_id: str) -> list[Waiting]:
        with self.store.session() as s:
            rows = s.execute(
                select(ClubRequestRow, AccountRow.name)
                .join(AccountRow, AccountRow.player_id == ClubRequestRow.player_id)
                .where(ClubRequestRow.club_id == club_id)
                .order_by(ClubRequestRow.created_at)
            ).all()
        return [Waiting(r.player_id, name, r.kind, aware(r.created_at)) for r, name in rows]

    def invitations(self, player: str) -> list[Club]:
        with self.store.session() as s:
            rows = s.execute(
                select(ClubRow)
                .join(ClubRequestRow, ClubRequestRow.club_id == ClubRow.id)
                .where(ClubRequestRow.player_id == player, ClubRequestRow.kind == "invite")
            ).scalars()
            return [Club(r.id, r.name, r.description, r.open, r.owner_id, 0) for r in rows]

    def request_of(self, club_id: str, player: str) -> str | None:
        with self.store.session() as s:
            row = s.get(ClubRequestRow, (club_id, player))
            return row.kind if row is not None else None

    def add_member(self, club_id: str, player: str, at: datetime) -> None:
        """Make ``player`` a member (the club's and the person's limits checked under the
        club's lock, so two joins at once cannot pass a full club)."""
        with self.store.engine.begin() as conn:
            self.store.backend.lock(conn, f"club:{club_id}")
            if self._banned(conn, club_id, player):
                raise ClubError("banned")
            count = conn.scalar(select(func.count()).select_from(ClubMemberRow).where(ClubMemberRow.club_id == club_id))
            if (count or 0) >= MEMBERS_MAX:
                raise ClubError("full")
            if self._joined(conn, player) >= JOINED_MAX:
                raise ClubError("joined_max")
            conn.execute(
                self.store.backend.insert_ignoring(ClubMemberRow, ["club_id", "player_id"]),
                {"club_id": club_id, "player_id": player, "role": "member", "joined_at": at},
            )
            conn.execute(
                delete(ClubRequestRow).where(ClubRequestRow.club_id == club_id, ClubRequestRow.player_id == player)
            )

    def add_request(self, club_id: str, player: str, kind: str, by: str, at: datetime) -> None:
        with self.store.engine.begin() as conn:
            if self._banned(conn, club_id, player):
                raise ClubError("banned")
            conn.execute(
                self.store.backend.insert_ignoring(ClubRequestRow, ["club_id", "player_id"]),
                {"club_id": club_id, "player_id": player, "kind": kind, "by_id": by, "created_at": at},
            )

    def drop_request(self, club_id: str, player: str) -> bool:
        with self.store.engine.begin() as conn:
            return bool(
                conn.execute(
                    delete(ClubRequestRow).where(ClubRequestRow.club_id == club_id, ClubRequestRow.player_id == player)
                ).rowcount
            )

    def remove_member(self, club_id: str, player: str, ban_by: str | None, at: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                delete(ClubMemberRow).where(ClubMemberRow.club_id == club_id, ClubMemberRow.player_id == player)
            )
            conn.execute(
                delete(ClubRequestRow).where(ClubRequestRow.club_id == club_id, ClubRequestRow.player_id == player)
            )
            if ban_by is not None:
                conn.execute(
                    self.store.backend.insert_ignoring(ClubBanRow, ["club_id", "player_id"]),
                    {"club_id": club_id, "player_id": player, "by_id": ban_by, "created_at": at},
                )

    def unban(self, club_id: str, player: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(ClubBanRow).where(ClubBanRow.club_id == club_id, ClubBanRow.player_id == player))

    def bans(self, club_id: str) -> list[tuple[str, str]]:
        with self.store.session() as s:
            return [
                (pid, name)
                for pid, name in s.execute(
                    select(ClubBanRow.player_id, AccountRow.name)
                    .join(AccountRow, AccountRow.player_id == ClubBanRow.player_id)
                    .where(ClubBanRow.club_id == club_id)
                )
            ]

    def set_role(self, club_id: str, player: str, role: str) -> bool:
        with self.store.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(ClubMemberRow)
                    .where(
                        ClubMemberRow.club_id == club_id,
                        ClubMemberRow.player_id == player,
                        ClubMemberRow.role != "owner",
                    )
                    .values(role=role)
                ).rowcount
            )

    def delete_club(self, club_id: str) -> None:
        with self.store.engine.begin() as conn:
            for row in (ClubMemberRow, ClubRequestRow, ClubBanRow, ClubPostRow):
                conn.execute(delete(row).where(row.club_id == club_id))
            conn.execute(delete(ClubRow).where(ClubRow.id == club_id))

    def post(self, club_id: str, player: str, phrase: str, at: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(ClubPostRow),
                {"id": new_id(), "club_id": club_id, "player_id": player, "phrase": phrase, "created_at": at},
            )

    def posts(self, club_id: str) -> list[Post]:
        with self.store.session() as s:
            rows = s.execute(
                select(AccountRow.name, ClubPostRow.phrase, ClubPostRow.created_at)
                .join(AccountRow, AccountRow.player_id == ClubPostRow.player_id)
                .where(ClubPostRow.club_id == club_id)
                .order_by(ClubPostRow.created_at.desc())
                .limit(POSTS_SHOWN)
            ).all()
        return [Post(name, phrase, aware(at)) for name, phrase, at in rows]

    def tables(self, club_id: str) -> list[tuple[str, str, bool]]:
        """The club's tables whose game goes on: (table id, code, members only)."""
        with self.store.session() as s:
            rows = s.execute(
                select(TableRow.id, TableRow.code, TableRow.club_only)
                .where(TableRow.club_id == club_id, TableRow.finished_at.is_(None), TableRow.code.is_not(None))
                .order_by(TableRow.created_at.desc())
                .limit(TABLES_SHOWN)
            ).all()
        return [(table_id, code or "", bool(only)) for table_id, code, only in rows]

    def player_named(self, name: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(AccountRow.player_id).where(AccountRow.name_key == name_key(name)))


class Clubs:
    """Who may do what in a club (see the module), awaited off the loop."""

    def __init__(
        self, store: ClubStore, db: Database, rate_limits: RateLimits, clock: Callable[[], datetime], invite_limit: str
    ) -> None:
        self.store = store
        self.db = db
        self.rate_limits = rate_limits
        self.clock = clock
        self.invite_limit = invite_limit

    async def create(self, owner: str, name: str, description: str, is_open: bool) -> str:
        name = clean_name(name)
        description = " ".join(description.split())
        check_club_name(name)
        if len(description) > DESCRIPTION_MAX:
            raise ClubError("description_length")
        return await self.db(self.store.create, owner, name, description, is_open, self.clock())

    async def club(self, club_id: str) -> Club | None:
        return await self.db(self.store.club, club_id[:16])

    async def listing(self) -> list[Club]:
        return await self.db(self.store.listing)

    async def of_player(self, player: str) -> list[tuple[Club, str]]:
        return await self.db(self.store.of_player, player)

    async def role(self, club_id: str, player: str | None) -> str | None:
        return await self.db(self.store.role, club_id, player) if player is not None else None

    async def members(self, club_id: str, page: int = 0, online_only: bool = False) -> list[Member]:
        return await self.db(self.store.members, club_id, self.clock(), page, online_only)

    async def ranking(self, club_id: str) -> list[tuple[str, int]]:
        return await self.db(self.store.ranking, club_id)

    async def waiting(self, club_id: str) -> list[Waiting]:
        return await self.db(self.store.waiting, club_id)

    async def bans(self, club_id: str) -> list[tuple[str, str]]:
        return await self.db(self.store.bans, club_id)

    async def posts(self, club_id: str) -> list[Post]:
        return await self.db(self.store.posts, club_id)

    async def invitations(self, player: str) -> list[Club]:
        return await self.db(self.store.invitations, player)

    async def request_of(self, club_id: str, player: str) -> str | None:
        return await self.db(self.store.request_of, club_id, player)

    async def tables(self, club_id: str) -> list[tuple[str, str, bool]]:
        return await self.db(self.store.tables, club_id)

    async def may_sit(self, live: LiveTable, player: str) -> None:
        """A gate of the friends' tables' seats: a club's table for its members only refuses
        anyone else (``TableError("club_only")``)."""
        club = live.spec.kind.members_only
        if club is not None and await self.role(club, player) is None:
            raise TableError("club_only")

    async def may_enter(self, tournament: Tournament, player: str) -> None:
        """A gate of the tournaments: a club's tournament refuses anyone not in the club."""
        if tournament.club is not None and await self.role(tournament.club, player) is None:
            raise TableError("club_only")

    # ----- what a person asks -----

    async def join(self, club: Club, player: str) -> str:
        """Join an open club, ask to join one on request, or accept its invitation; what
        happened: ``joined`` or ``asked``."""
        if await self.role(club.id, player) is not None:
            raise ClubError("member")
        if await self.db(self.store.banned, club.id, player):
            raise ClubError("banned")
        invited = await self.db(self.store.request_of, club.id, player) == "invite"
        if club.open or invited:
            await self.db(self.store.add_member, club.id, player, self.clock())
            return "joined"
        await self.db(self.store.add_request, club.id, player, "ask", player, self.clock())
        return "asked"

    async def decline(self, club: Club, player: str) -> None:
        """Decline an invitation, or take back one's request."""
        await self.db(self.store.drop_request, club.id, player)

    async def leave(self, club: Club, player: str) -> None:
        role = await self.role(club.id, player)
        if role is None:
            raise ClubError("not_member")
        if role == "owner":
            raise ClubError("owner_leaves")  # the owner deletes the club instead
        await self.db(self.store.remove_member, club.id, player, None, self.clock())

    async def post(self, club: Club, player: str, phrase: str) -> None:
        if phrase not in PHRASES:
            raise ClubError("bad_phrase")
        if await self.role(club.id, player) is None:
            raise ClubError("not_member")
        if await self.rate_limits.hit("5 per 30 seconds", f"club-post:{player}") is not None:
            raise ClubError("post_limit")
        await self.db(self.store.post, club.id, player, phrase, self.clock())

    # ----- what the club's team does -----

    async def _moderator(self, club: Club, player: str) -> str:
        role = await self.role(club.id, player)
        if role not in ("owner", "moderator"):
            raise ClubError("not_moderator")
        assert role is not None
        return role

    async def accept(self, club: Club, moderator: str, player: str) -> None:
        await self._moderator(club, moderator)
        if await self.db(self.store.request_of, club.id, player[:32]) != "ask":
            raise ClubError("no_request")
        await self.db(self.store.add_member, club.id, player[:32], self.clock())

    async def refuse(self, club: Club, moderator: str, player: str) -> None:
        await self._moderator(club, moderator)
        if not await self.db(self.store.drop_request, club.id, player[:32]):
            raise ClubError("no_request")

    async def invite(self, club: Club, moderator: str, name: str) -> None:
        await self._moderator(club, moderator)
        if await self.rate_limits.hit(self.invite_limit, f"club-invite:{moderator}") is not None:
            raise ClubError("invite_limit")
        target = await self.db(self.store.player_named, name[:96])
        if target is None:
            raise ClubError("no_account")
        if await self.role(club.id, target) is not None:
            raise ClubError("member")
        await self.db(self.store.add_request, club.id, target, "invite", moderator, self.clock())

    async def remove(self, club: Club, moderator: str, player: str, ban: bool) -> None:
        """Remove a member (and ban them: they may not ask again); a moderator removes
        members only, the owner anyone but themselves."""
        role = await self._moderator(club, moderator)
        target_role = await self.role(club.id, player[:32])
        if player == moderator or target_role == "owner":
            raise ClubError("not_allowed")
        if target_role == "moderator" and role != "owner":
            raise ClubError("not_allowed")
        if target_role is None and not ban:
            raise ClubError("not_member")
        await self.db(self.store.remove_member, club.id, player[:32], moderator if ban else None, self.clock())

    async def unban(self, club: Club, moderator: str, player: str) -> None:
        await self._moderator(club, moderator)
        await self.db(self.store.unban, club.id, player[:32])

    async def name_moderator(self, club: Club, owner: str, player: str, moderator: bool) -> None:
        if await self.role(club.id, owner) != "owner":
            raise ClubError("not_owner")
        if not await self.db(self.store.set_role, club.id, player[:32], "moderator" if moderator else "member"):
            raise ClubError("not_member")

    async def delete(self, club: Club, owner: str) -> None:
        if await self.role(club.id, owner) != "owner":
            raise ClubError("not_owner")
        await self.db(self.store.delete_club, club.id)
