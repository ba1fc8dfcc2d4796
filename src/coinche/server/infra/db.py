"""The database schema (SQLAlchemy 2) and its migrations (Alembic, applied at start).

A table is a row of ``tables`` (its rules, seed, first dealer and first seats) and its
rows of ``actions``, the table's numbered log of steps: the engine's actions, the requests
for the next deal and the changes of who sits where, in order. The live game is rebuilt
from them, so nothing else of a game needs storing. ``(table_id, seq)`` is the primary key
of a step: two writers can never both append the same step. A computer's action keeps its
explanation, a player's its request id (a resent request is applied once), and
``analyses`` caches each reviewed deal's analysis (``upload_analyses`` those of the
``uploaded_records``, the records visitors upload to review them). ``players`` are who sits at tables: a
guest is a player without an account; an ``accounts`` row owns one player, and its
``sessions`` are the logged-in browsers. ``table_players`` says who sat at each table (for
a player's list of games), ``tables.finished_at`` when its game ended, and
``finished_deals`` what each finished deal gave (the history lists them without replaying).
``player_stats`` holds each player's rating and the profile's counters, ``rating_history``
the rating after each rated game (the profile's chart); ``stats_deals`` and ``rated_games``
note the deals and games already counted, so counting again (a table read back from the
log) changes nothing (``player_stats.py``).

What several server processes on one PostgreSQL database share besides the logs:
``table_presence`` (who is connected to which friends' table through which process,
``presence.py``), ``rate_limit_hits`` (the rate limits' tries, ``rate_limits.py``), and the
workers' ``workers``, ``bot_turns`` and ``bot_jobs`` (``work_queue.py``, ``worker.py``).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    true,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .backend import Backend

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A datetime read from the database, aware: SQLite gives back naive ones (they were
    stored in UTC); PostgreSQL's are aware already."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    profile: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Table options that differ from the profile (``RuleSet.options()``), the target included."""
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The first seats, four entries: ``{"kind": "human", "player": id}`` or ``{"kind": "bot",
    "level": name}``; later changes are ``seat`` steps of the log."""
    level: Mapped[str] = mapped_column(String(16))
    """The computers' level as chosen (``adaptive``, ``beginner``...)."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the game ended (None: in progress), or when its players gave it up."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """How it ended: ``{"totals": [us, them], "winner": team}`` or ``{"abandoned": true}``."""
    code: Mapped[str | None] = mapped_column(String(8), nullable=True, unique=True, index=True)
    """A friends' table's invitation code (None: a solo table)."""
    host: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The player who made a friends' table and controls its seats."""
    late_joins: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether a friend may take a computer's seat between deals once the game has started."""
    deal_secret: Mapped[bytes | None] = mapped_column(LargeBinary(32), nullable=True)
    """The 32-byte secret each deal's seed is derived from (docs/dealing.md); never sent to
    anyone. None: a table of before it, dealt from ``seed`` (dealing version 1)."""
    challenge_day: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """The day (``YYYY-MM-DD``) of the daily challenge the table plays; None: another table."""
    adaptive_start: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Where an adaptive table's knob started (from the player's rating); None: 0.5."""
    adaptive_par: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its adaptive knob follows the player's score against each deal's par (``par`` steps);
    False: against the other side's score (the tables of before it)."""
    quick_play: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Quick play seated its people (strangers; dealt at once, no host)."""
    idle_clock: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """A person who lets their turn's time run out is warned, then played for."""
    tournament_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The tournament whose round the table plays (``TournamentTable.tournament``)."""
    tournament_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deal_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deals_booked: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Its first N finished deals had their bookkeeping (the listeners of its commits: history,
    statistics, the daily challenge): reading the table runs it for the later ones only."""
    game_booked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The end of its game had its bookkeeping (the listeners) too."""


class TablePlayerRow(Base):
    """A player who sat at a table, at which seat (a player's list of games reads these)."""

    __tablename__ = "table_players"
    __table_args__ = (Index("ix_table_players_history", "player_id", "finished_at", "table_id"),)

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """The table's ``finished_at``, copied by ``Store.finish_table``: a player's history
    is a range of the index ``(player_id, finished_at, table_id)``."""


class FinishedDealRow(Base):
    """What a finished deal of a table gave, written by a listener of the commits (``history.py``):
    the history's pages list deals from these rows, never from the tables' logs."""

    __tablename__ = "finished_deals"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the table's first deal."""
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    dealer: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The contract's call in record notation, `` x2``/`` x4`` when coinched; None: all passed."""
    taker: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    score: Mapped[list[int]] = mapped_column(JSON)
    """The deal's score ``[North-South, East-West]`` (team of seats 0 and 2 first)."""


class ActionRow(Base):
    """One step of a table's log (``kind``: ``action``, ``deal`` or ``seat``)."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the table's first step."""
    kind: Mapped[str] = mapped_column(String(8), default="action", server_default="action")
    """``action`` (``seat`` took ``action``), ``deal`` (``seat`` asked for the next deal),
    ``seat`` (``seat`` is now held as ``data`` says), ``swap`` (``seat`` and
    ``data["with"]`` exchange their holders) or ``par`` (the double-dummy par of deal
    ``data["deal"]``, ``data["par"]`` for team 0, which an adaptive knob follows)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A ``seat`` step's new seat (``Seat.to_json``); a ``swap`` step's other seat
    (``{"with": n}``); an action a computer played for an absent or idle person
    (``{"by": "away" | "idle"}``); a ``par`` step's deal and par (``{"deal": n, "par": m}``)."""
    request_id: Mapped[str | None] = mapped_column(String(120), nullable=True)
    """``player:id`` of the client request that made the step, so a resend is applied once."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    explanation: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A computer's reasons for the action (``{"public", "private", "reason"}``, the
    reason as message JSON), shown in the deal's review; None for a human's action."""


class AnalysisRow(Base):
    """The double-dummy analysis of a finished deal, computed once for its review."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the table's first deal."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class UploadedRecordRow(Base):
    """A record of a deal or a game a visitor uploaded to replay and review it (``/revoir``):
    checked by the engine before it is stored; only its owner may open it."""

    __tablename__ = "uploaded_records"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """Random and URL-safe."""
    owner: Mapped[str] = mapped_column(String(32), index=True)
    """The player (a guest's or an account's) who uploaded it."""
    record: Mapped[str] = mapped_column(Text)
    """The record's JSON text as uploaded (at most 256 KB)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    """Uploads older than ``Settings.upload_days`` are deleted."""


class UploadAnalysisRow(Base):
    """The double-dummy analysis of a deal of an uploaded record, computed once for its review."""

    __tablename__ = "upload_analyses"

    upload_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("uploaded_records.id", ondelete="CASCADE"), primary_key=True
    )
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the record's first deal."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


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
    name_skeleton: Mapped[str] = mapped_column(String(64), index=True)
    """The SHA-256 of the name's TR39 skeleton (``accounts.name_skeleton``): a name that looks
    like an account's (``Расосахсаа``, ``Pacocaxcaa``) is refused in one look-up."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    bot_owner_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """A bot account's owner (an account's id); None for a person's account."""


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


class ChallengeDayRow(Base):
    """A day of the daily challenge (``daily.py``): its seed stays secret until the day is
    over; its commitment is shown before the day starts."""

    __tablename__ = "challenge_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """``YYYY-MM-DD`` (UTC)."""
    profile: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(64))
    """32 bytes in hex: the dealing secret of the day's tables (docs/dealing.md)."""
    commitment: Mapped[str] = mapped_column(String(64))
    """hex SHA-256 of ``coinche-challenge-v1 || u8(0) || day || u8(0) || seed`` (``daily.commitment_of``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    ranked_results: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many ranked results ``challenge_standings`` was computed from (a newer result
    makes it stale)."""
    ranked_final: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The standings are the final ranking (computed after the day's end)."""
    ranked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    expert_table: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The table where the expert played the day's deals from South, once the day is over."""


class ChallengeStandingRow(Base):
    """A line of a day's ranking as last computed (``daily.py``): reading the ranking is
    one indexed range, whatever the number of results behind it."""

    __tablename__ = "challenge_standings"
    __table_args__ = (Index("ix_challenge_standings_day_position", "day", "position"),)

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    """0 for the first line: the order of the page."""
    rank: Mapped[int] = mapped_column(Integer)
    """Shared by equal averages (1, 2, 2, 4)."""
    average: Mapped[float] = mapped_column(Float)
    finished: Mapped[int] = mapped_column(Integer)
    percents: Mapped[list[float | None]] = mapped_column(JSON)


class ChallengeParRow(Base):
    """The double-dummy par of one of a day's deals (the same cards for everyone: solved once)."""

    __tablename__ = "challenge_pars"

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengeAttemptRow(Base):
    """A player's attempt at a day's challenge: one per player and day (an account's one
    attempt; a guest's lasts as long as its cookie)."""

    __tablename__ = "challenge_attempts"
    __table_args__ = (UniqueConstraint("day", "player_id", name="uq_challenge_attempts_day_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"))
    player_id: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played without an account: no place in the ranking."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChallengeResultRow(Base):
    """One deal of a day's challenge as a player finished it."""

    __tablename__ = "challenge_results"
    __table_args__ = (
        Index("ix_challenge_results_day_deal_score", "day", "deal", "score"),
        Index("ix_challenge_results_day_player", "day", "player_id"),
    )

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1..4."""
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    """South-North's score minus East-West's (what the matchpoints compare)."""
    contract: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The contract's call in record notation, ``x2``/``x4`` when coinched; None: all passed."""
    taker: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    deal_score: Mapped[list[int]] = mapped_column(JSON)
    """The deal's score ``[South-North, East-West]``."""
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    """A guest's result: stored, not ranked."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PlayerStatsRow(Base):
    """A player's rating (openskill ``mu``, ``sigma``) and the profile's counters; only
    persons are counted (``player_stats.py``)."""

    __tablename__ = "player_stats"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    """Rated games (an abandoned one counts: it is a loss)."""
    games_won: Mapped[int] = mapped_column(Integer, default=0)
    deals_played: Mapped[int] = mapped_column(Integer, default=0)
    contracts_taken: Mapped[int] = mapped_column(Integer, default=0)
    contracts_made: Mapped[int] = mapped_column(Integer, default=0)
    coinches: Mapped[int] = mapped_column(Integer, default=0)
    """Coinches and surcoinches the player called."""
    coinches_won: Mapped[int] = mapped_column(Integer, default=0)
    """Of them, those that paid: a coinche that set the contract, a surcoinche made."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """A player's rating after one rated game (the profile's chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player_at", "player_id", "at"),)

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)


class StatsDealRow(Base):
    """A finished deal whose counters were added (inserted in the same transaction)."""

    __tablename__ = "stats_deals"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatedGameRow(Base):
    """A game whose ratings were updated (inserted in the same transaction)."""

    __tablename__ = "rated_games"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class QuickWaitRow(Base):
    """A person in quick play's queue (``features/quick_play.py``): for which rules (None:
    any), at what rating, since when and until when the computers wait; the table a wave
    seated them at (then the row says where to go, until they join again or leave)."""

    __tablename__ = "quick_waits"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_quick_waits_waiting", "table_id", "since"),)


class OpenTableRow(Base):
    """A friends' table its host made public (``features/open_tables.py``): what the list
    of open tables shows of it, as of its step ``seq`` (kept by the listener of its
    commits, so listing 2,000 of them reads one table, not 2,000 logs)."""

    __tablename__ = "open_tables"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    code: Mapped[str] = mapped_column(String(8))
    profile: Mapped[str] = mapped_column(String(16))
    target: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The four seats as listed: ``{"kind": "human", "name", "guest", "rating"}`` or
    ``{"kind": "bot", "level"}``."""
    free_seats: Mapped[int] = mapped_column(Integer)
    """Computers' seats a newcomer may take (0: full, or a game under way without late
    joins): only tables with one are listed."""
    started: Mapped[bool] = mapped_column(Boolean, default=False)
    watchable: Mapped[bool] = mapped_column(Boolean, default=True)
    """Anyone may watch the game (its players may close it to watchers)."""
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Bots may take its free seats through the bot API (its host says so)."""
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seq: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_open_tables_listed", "free_seats", "opened_at"),)


class TournamentRow(Base):
    """A tournament (``features/tournaments.py``): what its page says of it, its committed
    secret (every round's deals derive from it; revealed once it is over) and where it
    stands: ``state`` (``open``, ``running``, ``finished``, ``cancelled``), the ``round``
    under way (0 before the start), its clock and whether it is closed (scored)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    organiser_id: Mapped[str] = mapped_column(String(32))
    profile: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(12))
    rounds: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    minutes_per_deal: Mapped[float] = mapped_column(Float)
    break_seconds: Mapped[int] = mapped_column(Integer)
    duration_minutes: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    """An arena's length (the other formats: unused)."""
    opens_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    code: Mapped[str | None] = mapped_column(String(8), nullable=True, unique=True)
    alone: Mapped[bool] = mapped_column(Boolean)
    computer_partner: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Bots may enter (alone, or in a pair)."""
    level: Mapped[str] = mapped_column(String(16))
    secret: Mapped[bytes] = mapped_column(LargeBinary(32))
    commitment: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(12))
    round: Mapped[int] = mapped_column(Integer)
    round_ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    round_closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_tournaments_state", "state", "starts_at"),)


class TournamentEntryRow(Base):
    """A pair entered in a tournament (``second_ok``: the partner named accepted), or a
    person alone (``second_id`` None) whom the start pairs with another."""

    __tablename__ = "tournament_entries"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(16), index=True)
    first_id: Mapped[str] = mapped_column(String(32))
    second_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    second_ok: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_tournament_entries_tournament", "tournament_id"),)


class TournamentPlayerRow(Base):
    """A person's entry in a tournament: one per person (the primary key)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    entry_id: Mapped[str] = mapped_column(String(16))

    __table_args__ = (Index("ix_tournament_players_player", "player_id"),)


class TournamentTableRow(Base):
    """A table of a tournament's round, named (and its seats written) in the transaction
    that starts the round, before the table exists; its ``result`` once it is over or its
    round's clock ran out: ``{"deals": [[ns, ew] | null, ...], "complete": bool}``."""

    __tablename__ = "tournament_tables"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    ns_entry: Mapped[str] = mapped_column(String(16))
    ew_entry: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)

    __table_args__ = (UniqueConstraint("tournament_id", "round", "number", name="uq_tournament_tables_number"),)


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
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InvitationRow(Base):
    """An invitation by name to a friends' table, until it is answered or expires."""

    __tablename__ = "invitations"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[str] = mapped_column(String(32))
    to_id: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(String(16))
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


class BlockRow(Base):
    """An account that blocked another: the other can no longer invite it, and quick play
    never seats the two together."""

    __tablename__ = "blocks"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    __table_args__ = (Index("ix_blocks_blocked", "blocked_id"),)


class TablePresenceRow(Base):
    """A person's open connections to a friends' table in one server process, and when
    that process last confirmed them (``presence.py``): every process reads who is here
    from these rows, and a process that died stops confirming its own."""

    __tablename__ = "table_presence"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    process: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    connections: Mapped[int] = mapped_column(Integer)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """When the process last confirmed the count (0 connections: when the last one closed)."""


class BotTurnRow(Base):
    """A computer's turn handed to the workers (``worker.py``): the step it must fill, when
    its move may be stored (the display pause), which worker holds it until when (a lease:
    a worker that dies lets it go), and when it was done (played, or found stale)."""

    __tablename__ = "bot_turns"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    not_before: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_bot_turns_waiting", "done_at", "created_at"),)


class BotJobRow(Base):
    """A hint or an analysis asked of the workers: its kind and JSON arguments
    (``jobs.py``: data, never code), who computes it until when, and its JSON answer
    (``{"ok": value}``, ``{"error": text}`` or ``{"refused": text}``); the asker deletes the
    row once it has read the answer."""

    __tablename__ = "bot_jobs"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    priority: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    kind: Mapped[str] = mapped_column(String(32))
    arguments: Mapped[str] = mapped_column(Text)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)

    __table_args__ = (Index("ix_bot_jobs_waiting", "done_at", "priority", "created_at"),)


class WorkerRow(Base):
    """A ``coinche worker`` alive: its heartbeat (``last_seen``) tells the servers to hand
    it their computers' turns."""

    __tablename__ = "workers"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RateLimitHitRow(Base):
    """One try a rate limit counts, shared by every process on PostgreSQL (``rate_limits.py``)."""

    __tablename__ = "rate_limit_hits"
    __table_args__ = (Index("ix_rate_limit_hits_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    key: Mapped[str] = mapped_column(String(200))
    """``amount/seconds:`` and the limit's own key (``signup:<address>``...)."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRow(Base):
    """A card-play puzzle found in a finished deal (``features/puzzles.py``): the deal as
    dealt and its log up to the position, the solver's answer, and the puzzle's rating (it
    wins when a player misses it)."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("table_id", "deal", name="uq_puzzles_table_deal"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    dealer: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[int]] = mapped_column(JSON)
    log: Mapped[list[Any]] = mapped_column(JSON)
    """The deal's log up to the position (``jobs.analysis_job``'s entries)."""
    seat: Mapped[int] = mapped_column(Integer)
    goal: Mapped[str] = mapped_column(String(8))
    solution: Mapped[str] = mapped_column(String(4))
    values: Mapped[list[Any]] = mapped_column(JSON)
    line: Mapped[list[str]] = mapped_column(JSON)
    themes: Mapped[list[str]] = mapped_column(JSON)
    swing: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleTryRow(Base):
    """A player's first try at a puzzle (the one that is rated)."""

    __tablename__ = "puzzle_tries"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(16), ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True)
    card: Mapped[str] = mapped_column(String(4))
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzlePlayerRow(Base):
    """A player's puzzle rating and streak."""

    __tablename__ = "puzzle_players"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BiddingPuzzleRow(Base):
    """A bidding puzzle found in a finished deal's auction (``features/puzzles.py``): the
    deal as dealt, the calls before the position, the expert's call and every call's value."""

    __tablename__ = "bidding_puzzles"
    __table_args__ = (UniqueConstraint("table_id", "deal", name="uq_bidding_puzzles_table_deal"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    dealer: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[int]] = mapped_column(JSON)
    calls: Mapped[list[str]] = mapped_column(JSON)
    """The calls before the position, in record notation."""
    seat: Mapped[int] = mapped_column(Integer)
    call: Mapped[str] = mapped_column(String(16))
    """The expert's call."""
    played: Mapped[str] = mapped_column(String(16))
    """The call made at the table."""
    values: Mapped[list[Any]] = mapped_column(JSON)
    """Every call open to the seat as ``[call, expected margin, chance or null]``, best first."""
    margin: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class BiddingPuzzleTryRow(Base):
    """A player's first answer to a bidding puzzle."""

    __tablename__ = "bidding_puzzle_tries"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("bidding_puzzles.id", ondelete="CASCADE"), primary_key=True
    )
    call: Mapped[str] = mapped_column(String(16))
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SettingRow(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and a busy timeout (readers never block the
    writer, a second process waits instead of failing)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


MIGRATION_LOCK = 0x636F696E636865
"""The lock the migrations run under ("coinche" in hex)."""


def migrate(engine: Engine, backend: Backend | None = None) -> None:
    """Bring the schema to the newest migration (a second start changes nothing). Several
    processes starting together migrate once: the first holds the backend's lock for its
    transaction and the others, waiting on it, then find the schema done; where that lock
    is one process's own (SQLite), a process that lost the race to another's DDL reads the
    schema again (``Backend.migration_attempts``)."""
    backend = backend or Backend.of(engine.url.render_as_string(hide_password=False))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    for attempt in range(1, backend.migration_attempts + 1):
        try:
            with engine.begin() as conn:
                backend.lock(conn, MIGRATION_LOCK)
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
            return
        except DBAPIError:
            if attempt == backend.migration_attempts:
                raise
            time.sleep(0.5)
