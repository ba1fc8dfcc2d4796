"""Who plays: ``players`` (a guest is a player without an account), ``accounts`` (each
owns one player) and their ``sessions`` (logged-in browsers) and bots' tokens; between
people: following, being online, invitations, reports, what is said at tables, and blocks."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class PlayerRow(Base):
    """Who sits at tables: a guest (the id in its session cookie), or the player an account
    owns (the guest's own id when a guest signs up, so their games stay theirs)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    deals_played: Mapped[int] = mapped_column(Integer, default=0)
    """Free deals used: counted when a deal is dealt, given back when it is void."""
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the player's account was deleted (their finished games stay, under "deleted
    account")."""
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the player stopped being a guest (sign-up, or a guest's log-in to an account):
    a guest cookie naming a retired player is a new guest's (``pages.VisitorMiddleware``)."""


class AccountRow(Base):
    """An account: a name, a password hash (argon2id) and the player it plays as."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    """As its owner wrote it (NFC): shown, always escaped."""
    name_key: Mapped[str] = mapped_column(String(96), unique=True)
    """The name folded for comparison (NFKC, case-folded): unique, so ``Zoé`` and ``ZOÉ``
    are one name."""
    name_search: Mapped[str] = mapped_column(String(288), index=True)
    """The name as a person types it to find someone (``names.search_key``: folded, no
    accents): ``zoe`` finds ``Zoé`` in one look-up. Not unique (``Zoé``, ``Zoè``)."""
    name_skeleton: Mapped[str] = mapped_column(String(64), index=True)
    """The SHA-256 of the name's TR39 skeleton (``accounts.name_skeleton``): a name that looks
    like an account's (``Расосахсаа``, ``Pacocaxcaa``) is refused in one look-up."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)
    """The confirmed address (``account_recovery``): never shown to anyone else."""
    password_hash: Mapped[str] = mapped_column(String(256))
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    bot_owner_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """A bot account's owner (an account's id); None for a person's account."""
    open_data_named: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its owner chose to be named by this name in the open games database (the account
    page's setting, ``features/open_data.py``); False: a pseudonym there."""


class BotTokenRow(Base):
    """A bot's token for the bot API: its SHA-256 only (shown once, revoked by deleting it)."""

    __tablename__ = "bot_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    bot_id: Mapped[str] = mapped_column(String(16), index=True)
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A logged-in browser: the cookie holds a random token, the database its SHA-256
    (a copy of the database gives nobody a session). Deleting the row ends the session."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(16), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FollowRow(Base):
    """An account following another (its list of friends: who is online, at which table)."""

    __tablename__ = "follows"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    followed_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OnlineRow(Base):
    """When a signed-in person's socket (any page of the site) last said they are here."""

    __tablename__ = "online"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class InvitationRow(Base):
    """An invitation by name to a friends' table, until it is answered or expires."""

    __tablename__ = "invitations"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[str] = mapped_column(String(32))
    to_id: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The computer's seat the person is invited to (None: the first free one)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportRow(Base):
    """A player's report of another person at their table (``coinche reports`` lists them)."""

    __tablename__ = "reports"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    reporter_id: Mapped[str] = mapped_column(String(32))
    reported_id: Mapped[str] = mapped_column(String(32), index=True)
    reported_name: Mapped[str] = mapped_column(String(40))
    """The name the reported person had at the table, as the reporter saw it."""
    table_id: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)

    __table_args__ = (UniqueConstraint("reporter_id", "reported_id", "table_id", name="uq_reports_once"),)


class SaidRow(Base):
    """A quick message or a reaction said at a table (``kind`` ``say`` or ``react``,
    ``what`` the phrase's or the emote's name): the site's team reads them beside a
    report from that table."""

    __tablename__ = "table_said"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(8))
    what: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    __table_args__ = (Index("ix_table_said_table", "table_id", "created_at"),)


class BlockRow(Base):
    """An account that blocked another: the other can no longer invite it, and quick play
    never seats the two together."""

    __tablename__ = "blocks"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    __table_args__ = (Index("ix_blocks_blocked", "blocked_id"),)
