"""Everything the site keeps about one person (issue 52): the archive they download from
their account page (``PersonalData.archive``: one ZIP, a README in their language and a
file per kind of data), and what deleting their account removes beyond the account's own
rows (``erase``, run in the deletion's transaction).

``TABLES`` says, for every table of the schema, what it holds of a person, in which file
of the archive, and what becomes of it when the account goes; a table of the database
missing from it fails ``tests/server/features/test_personal_data.py``: a new table must
come with its decision. The rules behind the decisions:

- The archive holds the person's own data and nothing hidden of anyone else: their
  finished games as records (RECORD.md, made by ``history.finished_record`` as the
  game's page makes it: finished deals, seeds revealed, nothing of a game in progress);
  the names of the accounts they follow or blocked (public names); the reports *they*
  made; the team's decisions about them (not who took them, nor who reported them);
  never a token or a hash, another person's address, sessions or reports.
- Deleting an account erases what is the person's alone (sessions, links, mail to their
  address, follows and blocks either way, invitations, club memberships, puzzles, their
  mistakes and faults, their uploads, settings), removes their name and the name they
  gave at a table from the tables' seats (the games stay, "compte supprimé"), hands a
  club they own to its next moderator or member (deleted when nobody is left), and keeps
  what other people's results are made of (ratings, seasons, the daily challenge's and
  tournaments' standings, what was said at a table, reports they made, the team's log)
  under the player id, which no account names any more.
"""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from ..infra.database import Database
from ..infra.db import aware, now
from ..infra.rate_limits import stored_key
from ..infra.rows.accuracy import DealAccuracyRow
from ..infra.rows.challenge import ChallengeAttemptRow, ChallengeResultRow, ChallengeStandingRow
from ..infra.rows.lobby import OpenTableRow, QuickWaitRow
from ..infra.rows.people import (
    AccountRow,
    BlockRow,
    BotTokenRow,
    FollowRow,
    InvitationRow,
    OnlineRow,
    PlayerRow,
    ReportRow,
    SaidRow,
    SessionRow,
)
from ..infra.rows.processes import RateLimitHitRow
from ..infra.rows.puzzles import BiddingPuzzleTryRow, PuzzlePlayerRow, PuzzleTryRow
from ..infra.rows.ratings import PlayerStatsRow, ProfileRatingRow, RatingHistoryRow
from ..infra.rows.tables import (
    ActionRow,
    TablePlayerRow,
    TablePresenceRow,
    TableRow,
    UploadAnalysisRow,
    UploadedRecordRow,
)
from ..infra.store import Store
from ..table import i18n
from ..table.live_table import LiveTable
from ..table.names import login_key
from ..table.spec import Step, TableSpec
from .account_recovery import AccountTokenRow
from .accounts import Account
from .clubs import ClubBanRow, ClubMemberRow, ClubPostRow, ClubRequestRow, ClubRow
from .coach.rows import CoachSettingRow
from .history import finished_record
from .mail import MailRow
from .mistakes import MistakeRow
from .moderation import ModerationRow, RoleRow
from .player_stats import COUNTERS
from .progress import FaultRow
from .seasons import SeasonDivisionRow, SeasonFinalRow, SeasonPlayerRow
from .tournaments.rows import TournamentEntryRow, TournamentPlayerRow, TournamentRow, TournamentTableRow

GAMES_PER_READ: Final = 20
"""Finished games read from the database at a time (the database's threads serve the
tables too: an archive of thousands of games never holds one for long)."""
AT_ONCE: Final = 2
"""Archives one process makes at a time (the rest wait their turn)."""

ERASED: Final = "erased"
"""The person's rows go with the account."""
SCRUBBED: Final = "names removed"
"""The rows stay (a game's log, its seats), the person's name taken out of them."""
KEPT: Final = "kept"
"""The rows stay, under the player id no account names any more: other people's results,
standings or the team's log are made of them."""
NOT_PERSONAL: Final = "not personal"
"""Nothing in them says who a person is or what they did."""


@dataclass(frozen=True)
class Holding:
    """What one table holds of a person: the archive's file that has it (None: not in the
    archive, ``note`` says why) and what deleting the account does to it."""

    archive: str | None
    deletion: str
    note: str = ""


TABLES: Final[dict[str, Holding]] = {
    # who plays
    "players": Holding("account.json", KEPT, "marked deleted; the finished games name the player"),
    "accounts": Holding(
        "account.json",
        ERASED,
        "name, address, password hash, named in the open games database or not (open_data.py: "
        "the files made after the deletion name their games by the pseudonym only); the bots' too",
    ),
    "sessions": Holding("account.json", ERASED, "when each began and ends; never the token's hash"),
    "bot_tokens": Holding("bots.json", ERASED, "when made and used; never the hash"),
    "account_tokens": Holding("account.json", ERASED, "links sent: kind, address, dates; never the hash"),
    "mail_queue": Holding(
        "mail.json", ERASED, "mail to the person's addresses (subject and dates: a body holds a link)"
    ),
    "roles": Holding("account.json", ERASED, "a team member's role"),
    "coach_settings": Holding("account.json", ERASED),
    "online": Holding("account.json", ERASED),
    "rate_limit_hits": Holding(None, ERASED, "tries counted for a day under the account's keys"),
    # between people
    "follows": Holding("people.json", ERASED, "whom they follow (who follows them is the followers' own)"),
    "blocks": Holding("people.json", ERASED, "whom they blocked (who blocked them is not told)"),
    "invitations": Holding("people.json", ERASED, "both ways"),
    "reports": Holding("moderation.json", ERASED, "those they made kept for the team; those about them erased"),
    "moderation_actions": Holding("moderation.json", KEPT, "the team's log; exported without the moderator"),
    "table_said": Holding("messages.json", KEPT, "phrases from a list, part of the table's record for the team"),
    # tables and games
    "tables": Holding("games.jsonl", SCRUBBED, "finished games as records; names in the first seats"),
    "actions": Holding("games.jsonl", SCRUBBED, "the log the records are made of; names in seat steps"),
    "table_players": Holding("games.jsonl", KEPT, "who sat where: the games stay, 'compte supprimé'"),
    "finished_deals": Holding(None, NOT_PERSONAL, "each deal's outcome (in the records)"),
    "analyses": Holding(None, NOT_PERSONAL, "a deal's double-dummy analysis"),
    "table_presence": Holding(None, ERASED, "open connections per process: minutes long"),
    "open_tables": Holding(None, SCRUBBED, "the open tables' list as shown to all; a name taken out"),
    "quick_waits": Holding("account.json", ERASED),
    "uploaded_records": Holding("uploads.json", ERASED),
    "upload_analyses": Holding(None, ERASED, "the analysis of an upload (computed)"),
    # ratings and progress
    "player_stats": Holding("ratings.json", KEPT, "boards and other people's ratings were made of it"),
    "profile_ratings": Holding("ratings.json", KEPT),
    "rating_history": Holding("ratings.json", ERASED, "their own chart"),
    "rated_games": Holding(None, NOT_PERSONAL),
    "stats_deals": Holding(None, NOT_PERSONAL),
    "deal_accuracy": Holding("progress.json", ERASED),
    "faults": Holding("progress.json", ERASED),
    "mistakes": Holding("progress.json", ERASED, "exported without the hands and the solver's values"),
    "puzzles": Holding(None, NOT_PERSONAL, "found in deals; no player"),
    "puzzle_tries": Holding("puzzles.json", ERASED),
    "puzzle_players": Holding("puzzles.json", ERASED),
    "bidding_puzzles": Holding(None, NOT_PERSONAL),
    "bidding_puzzle_tries": Holding("puzzles.json", ERASED),
    # seasons, the daily challenge, tournaments, clubs
    "season_games": Holding(None, KEPT, "each seat's rating at a game's start (in ratings.json)"),
    "season_players": Holding("seasons.json", KEPT, "other people's ranks"),
    "season_finals": Holding("seasons.json", KEPT),
    "season_divisions": Holding("seasons.json", KEPT),
    "season_closes": Holding(None, NOT_PERSONAL),
    "challenge_days": Holding(None, NOT_PERSONAL),
    "challenge_pars": Holding(None, NOT_PERSONAL),
    "challenge_attempts": Holding("daily.json", KEPT, "the day's ranking"),
    "challenge_results": Holding("daily.json", KEPT),
    "challenge_standings": Holding("daily.json", KEPT),
    "tournaments": Holding("tournaments.json", KEPT, "those they organised: others played in them"),
    "tournament_entries": Holding("tournaments.json", KEPT),
    "tournament_players": Holding("tournaments.json", KEPT),
    "tournament_tables": Holding(None, SCRUBBED, "a round's seats, names taken out (the games are in games.jsonl)"),
    "ladder_engines": Holding(None, NOT_PERSONAL, "a bot's ladder figures: a program's, by its player id, no name"),
    "ladder_matches": Holding(None, NOT_PERSONAL, "the ladder's matches between bots (programs), by player id"),
    "clubs": Holding("clubs.json", KEPT, "handed to the next moderator or member; deleted when nobody is left"),
    "club_members": Holding("clubs.json", ERASED),
    "club_requests": Holding("clubs.json", ERASED),
    "club_bans": Holding("clubs.json", ERASED, "exported without who banned"),
    "club_posts": Holding("clubs.json", ERASED),
    # what the processes share
    "bot_turns": Holding(None, NOT_PERSONAL),
    "bot_jobs": Holding(None, NOT_PERSONAL, "computations asked of the workers, deleted once read"),
    "workers": Holding(None, NOT_PERSONAL),
    "settings": Holding(None, NOT_PERSONAL),
}

FILES: Final = (
    "account.json",
    "games.jsonl",
    "ratings.json",
    "seasons.json",
    "puzzles.json",
    "daily.json",
    "tournaments.json",
    "clubs.json",
    "people.json",
    "bots.json",
    "moderation.json",
    "messages.json",
    "progress.json",
    "uploads.json",
    "mail.json",
)
"""The archive's files besides README.txt, in the README's order."""


def _at(moment: datetime | None) -> str | None:
    """A moment of the database as the archive writes it (ISO 8601, UTC)."""
    return None if moment is None else aware(moment).isoformat()


def _dicts(rows: Iterable[Any], *fields: str) -> list[dict[str, Any]]:
    """Rows as dicts of ``fields`` (moments as text)."""
    out = []
    for row in rows:
        item: dict[str, Any] = {}
        for f in fields:
            value = getattr(row, f)
            item[f] = _at(value) if isinstance(value, datetime) else value
        out.append(item)
    return out


ERASED_BY_PLAYER: Final = (
    OnlineRow,
    QuickWaitRow,
    TablePresenceRow,
    CoachSettingRow,
    RatingHistoryRow,
    DealAccuracyRow,
    FaultRow,
    MistakeRow,
    PuzzleTryRow,
    PuzzlePlayerRow,
    BiddingPuzzleTryRow,
    ClubMemberRow,
    ClubRequestRow,
    ClubBanRow,
    ClubPostRow,
)
"""The tables whose rows of a player (``player_id``) go with their account."""


@dataclass(frozen=True)
class Gathered:
    """An account's data as read in one go: each small file's content, and the finished
    games to read (table id, the person's seat, when the game ended, how)."""

    files: dict[str, Any]
    games: list[tuple[str, int, datetime | None, dict[str, Any] | None]]


class PersonalStore:
    """The reads of the archive and the deletion's erasure (blocking: run them with
    ``Database``; ``erase`` in the deletion's transaction)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----- the archive -----

    def gather(self, account_id: str) -> Gathered | None:
        """Everything of the account but its games' records; None: no such account."""
        with self.store.session() as s:
            account = s.get(AccountRow, account_id)
            if account is None:
                return None
            player = account.player_id
            names = _Names(s)
            files: dict[str, Any] = {
                "account.json": self._account(s, account),
                "ratings.json": self._ratings(s, player),
                "seasons.json": self._seasons(s, player),
                "puzzles.json": self._puzzles(s, player),
                "daily.json": self._daily(s, player),
                "tournaments.json": self._tournaments(s, player),
                "clubs.json": self._clubs(s, player),
                "people.json": self._people(s, player, names),
                "bots.json": self._bots(s, account.id),
                "moderation.json": self._moderation(s, player),
                "messages.json": _dicts(
                    s.scalars(select(SaidRow).where(SaidRow.player_id == player).order_by(SaidRow.created_at)),
                    "table_id",
                    "seat",
                    "kind",
                    "what",
                    "created_at",
                ),
                "progress.json": self._progress(s, player),
                "uploads.json": _dicts(
                    s.scalars(
                        select(UploadedRecordRow)
                        .where(UploadedRecordRow.owner == player)
                        .order_by(UploadedRecordRow.created_at)
                    ),
                    "id",
                    "created_at",
                    "record",
                ),
                "mail.json": self._mail(s, account),
            }
            t, tp = TableRow, TablePlayerRow
            games = s.execute(
                select(t.id, tp.seat, t.finished_at, t.result)
                .join(tp, tp.table_id == t.id)
                .where(tp.player_id == player, t.finished_at.is_not(None))
                .order_by(t.finished_at, t.id)
            ).all()
        return Gathered(files, [(g.id, g.seat, g.finished_at, g.result) for g in games])

    def _account(self, s: Session, account: AccountRow) -> dict[str, Any]:
        player = s.get(PlayerRow, account.player_id)
        at = now()
        links = list(
            s.scalars(
                select(AccountTokenRow)
                .where(AccountTokenRow.account_id == account.id)
                .order_by(AccountTokenRow.created_at)
            )
        )
        waiting = s.get(QuickWaitRow, account.player_id)
        coach = s.get(CoachSettingRow, account.player_id)
        online = s.get(OnlineRow, account.player_id)
        role = s.get(RoleRow, account.id)
        return {
            "name": account.name,
            "created_at": _at(account.created_at),
            "player_since": _at(player.created_at) if player is not None else None,
            "email": account.email,
            "email_confirmed": account.email is not None,
            "addresses_waiting": sorted(
                {
                    link.email
                    for link in links
                    if link.kind == "address" and link.used_at is None and aware(link.expires_at) > at and link.email
                }
            ),
            "links": _dicts(links, "kind", "email", "created_at", "expires_at", "used_at"),
            "sessions": _dicts(
                s.scalars(
                    select(SessionRow).where(SessionRow.account_id == account.id).order_by(SessionRow.created_at)
                ),
                "created_at",
                "expires_at",
            ),
            "free_deals_used": player.deals_played if player is not None else 0,
            "coach": None if coach is None else coach.on,
            "open_data_named": account.open_data_named,
            "last_seen": None if online is None else _at(online.seen_at),
            "team_role": None if role is None else role.role,
            "quick_play_waiting": None
            if waiting is None
            else {"rules": waiting.rules, "since": _at(waiting.since), "table_id": waiting.table_id},
        }

    def _ratings(self, s: Session, player: str) -> dict[str, Any]:
        stats = s.get(PlayerStatsRow, player)
        fields = ("mu", "sigma", *COUNTERS, "updated_at")
        return {
            "site": None if stats is None else _dicts([stats], *fields)[0],
            "profiles": _dicts(
                s.scalars(select(ProfileRatingRow).where(ProfileRatingRow.player_id == player)),
                "profile",
                "mu",
                "sigma",
                "rated_games",
                "updated_at",
            ),
            "history": _dicts(
                s.scalars(
                    select(RatingHistoryRow)
                    .where(RatingHistoryRow.player_id == player)
                    .order_by(RatingHistoryRow.at, RatingHistoryRow.table_id)
                ),
                "table_id",
                "at",
                "display",
                "mu",
                "sigma",
                "won",
            ),
        }

    def _seasons(self, s: Session, player: str) -> dict[str, Any]:
        return {
            "seasons": _dicts(
                s.scalars(
                    select(SeasonPlayerRow).where(SeasonPlayerRow.player_id == player).order_by(SeasonPlayerRow.season)
                ),
                "season",
                "profile",
                "division",
                "points",
                "games",
                "wins",
                "losses",
                "left",
                "joined_at",
            ),
            "finals": _dicts(
                s.scalars(
                    select(SeasonFinalRow).where(SeasonFinalRow.player_id == player).order_by(SeasonFinalRow.season)
                ),
                "season",
                "profile",
                "division",
                "final_rank",
                "move",
            ),
            "divisions": _dicts(
                s.scalars(select(SeasonDivisionRow).where(SeasonDivisionRow.player_id == player)),
                "profile",
                "division",
                "from_season",
            ),
        }

    def _puzzles(self, s: Session, player: str) -> dict[str, Any]:
        rating = s.get(PuzzlePlayerRow, player)
        return {
            "rating": None
            if rating is None
            else _dicts([rating], "mu", "sigma", "tries", "solved", "streak", "best_streak", "updated_at")[0],
            "card_play": _dicts(
                s.scalars(select(PuzzleTryRow).where(PuzzleTryRow.player_id == player).order_by(PuzzleTryRow.at)),
                "puzzle_id",
                "card",
                "solved",
                "at",
            ),
            "bidding": _dicts(
                s.scalars(
                    select(BiddingPuzzleTryRow)
                    .where(BiddingPuzzleTryRow.player_id == player)
                    .order_by(BiddingPuzzleTryRow.at)
                ),
                "puzzle_id",
                "call",
                "solved",
                "at",
            ),
        }

    def _daily(self, s: Session, player: str) -> dict[str, Any]:
        return {
            "attempts": _dicts(
                s.scalars(
                    select(ChallengeAttemptRow)
                    .where(ChallengeAttemptRow.player_id == player)
                    .order_by(ChallengeAttemptRow.day)
                ),
                "day",
                "table_id",
                "guest",
                "started_at",
                "finished_at",
            ),
            "results": _dicts(
                s.scalars(
                    select(ChallengeResultRow)
                    .where(ChallengeResultRow.player_id == player)
                    .order_by(ChallengeResultRow.day, ChallengeResultRow.deal)
                ),
                "day",
                "deal",
                "score",
                "contract",
                "taker",
                "made",
                "deal_score",
                "created_at",
            ),
            "standings": _dicts(
                s.scalars(
                    select(ChallengeStandingRow)
                    .where(ChallengeStandingRow.player_id == player)
                    .order_by(ChallengeStandingRow.day)
                ),
                "day",
                "rank",
                "average",
                "finished",
                "percents",
            ),
        }

    def _tournaments(self, s: Session, player: str) -> dict[str, Any]:
        e, t = TournamentEntryRow, TournamentRow
        entered = s.execute(
            select(t.id, t.name, t.state, t.starts_at, e.created_at, e.withdrawn_at, e.first_id, e.second_id)
            .join(e, e.tournament_id == t.id)
            .where(or_(e.first_id == player, e.second_id == player))
            .order_by(t.starts_at)
        ).all()
        return {
            "entered": [
                {
                    "tournament": r.id,
                    "name": r.name,
                    "state": r.state,
                    "starts_at": _at(r.starts_at),
                    "entered_at": _at(r.created_at),
                    "withdrawn_at": _at(r.withdrawn_at),
                    "with_a_partner": r.second_id is not None,
                }
                for r in entered
            ],
            "organised": _dicts(
                s.scalars(select(t).where(t.organiser_id == player).order_by(t.created_at)),
                "id",
                "name",
                "state",
                "format",
                "profile",
                "created_at",
                "starts_at",
                "finished_at",
            ),
        }

    def _clubs(self, s: Session, player: str) -> dict[str, Any]:
        c = ClubRow

        def of(row: Any) -> dict[str, Any]:
            return {"club": row.id, "name": row.name}

        members = s.execute(
            select(c.id, c.name, ClubMemberRow.role, ClubMemberRow.joined_at)
            .join(ClubMemberRow, ClubMemberRow.club_id == c.id)
            .where(ClubMemberRow.player_id == player)
        ).all()
        requests = s.execute(
            select(c.id, c.name, ClubRequestRow.kind, ClubRequestRow.created_at)
            .join(ClubRequestRow, ClubRequestRow.club_id == c.id)
            .where(ClubRequestRow.player_id == player)
        ).all()
        bans = s.execute(
            select(c.id, c.name, ClubBanRow.created_at)
            .join(ClubBanRow, ClubBanRow.club_id == c.id)
            .where(ClubBanRow.player_id == player)
        ).all()
        return {
            "memberships": [{**of(r), "role": r.role, "joined_at": _at(r.joined_at)} for r in members],
            "requests": [{**of(r), "kind": r.kind, "at": _at(r.created_at)} for r in requests],
            "bans": [{**of(r), "at": _at(r.created_at)} for r in bans],
            "owned": _dicts(
                s.scalars(select(c).where(c.owner_id == player)), "id", "name", "description", "open", "created_at"
            ),
            "posts": _dicts(
                s.scalars(select(ClubPostRow).where(ClubPostRow.player_id == player).order_by(ClubPostRow.created_at)),
                "club_id",
                "phrase",
                "created_at",
            ),
        }

    def _people(self, s: Session, player: str, names: _Names) -> dict[str, Any]:
        follows = list(s.scalars(select(FollowRow).where(FollowRow.player_id == player).order_by(FollowRow.created_at)))
        blocks = list(s.scalars(select(BlockRow).where(BlockRow.player_id == player).order_by(BlockRow.created_at)))
        sent = list(s.scalars(select(InvitationRow).where(InvitationRow.from_id == player)))
        received = list(s.scalars(select(InvitationRow).where(InvitationRow.to_id == player)))
        names.want([f.followed_id for f in follows] + [b.blocked_id for b in blocks])
        names.want([i.to_id for i in sent] + [i.from_id for i in received])
        return {
            "following": [{"name": names[f.followed_id], "since": _at(f.created_at)} for f in follows],
            "blocked": [{"name": names[b.blocked_id], "since": _at(b.created_at)} for b in blocks],
            "invitations_sent": [{"to": names[i.to_id], "table_id": i.table_id, "at": _at(i.created_at)} for i in sent],
            "invitations_received": [
                {"from": names[i.from_id], "table_id": i.table_id, "at": _at(i.created_at)} for i in received
            ],
        }

    def _bots(self, s: Session, account_id: str) -> list[dict[str, Any]]:
        bots = []
        for bot in s.scalars(select(AccountRow).where(AccountRow.bot_owner_id == account_id)):
            tokens = s.scalars(select(BotTokenRow).where(BotTokenRow.bot_id == bot.id).order_by(BotTokenRow.created_at))
            bots.append(
                {"name": bot.name, "created_at": _at(bot.created_at), "tokens": _dicts(tokens, "created_at", "used_at")}
            )
        return bots

    def _moderation(self, s: Session, player: str) -> dict[str, Any]:
        return {
            "reports_made": _dicts(
                s.scalars(select(ReportRow).where(ReportRow.reporter_id == player).order_by(ReportRow.created_at)),
                "reported_name",
                "table_id",
                "reason",
                "created_at",
            ),
            "team_actions": [
                {
                    "kind": r.kind,
                    "reason": r.reason,
                    "at": _at(r.created_at),
                    "until": _at(r.until),
                    "undone": r.undone_by is not None,
                }
                for r in s.scalars(
                    select(ModerationRow).where(ModerationRow.player_id == player).order_by(ModerationRow.created_at)
                )
            ],
        }

    def _progress(self, s: Session, player: str) -> dict[str, Any]:
        a = DealAccuracyRow
        return {
            "accuracy": _dicts(
                s.scalars(select(a).where(a.player_id == player).order_by(a.finished_at, a.table_id, a.deal)),
                "table_id",
                "deal",
                "seat",
                "profile",
                "finished_at",
                "cards",
                "cards_kept",
                "card_loss",
                "calls",
                "calls_kept",
                "call_loss",
            ),
            "faults": _dicts(
                s.scalars(select(FaultRow).where(FaultRow.player_id == player).order_by(FaultRow.created_at)),
                "table_id",
                "deal",
                "step",
                "kind",
                "profile",
                "created_at",
            ),
            "mistakes": _dicts(
                s.scalars(select(MistakeRow).where(MistakeRow.player_id == player).order_by(MistakeRow.created_at)),
                "table_id",
                "deal",
                "step",
                "kind",
                "played",
                "cost",
                "profile",
                "created_at",
                "solved_days",
                "tries",
                "retired",
            ),
        }

    def _mail(self, s: Session, account: AccountRow) -> list[dict[str, Any]]:
        mine = _mail_of(s, account)
        if not mine:
            return []
        rows = s.scalars(select(MailRow).where(or_(*mine)).order_by(MailRow.created_at))
        return _dicts(rows, "to_address", "subject", "created_at", "sent_at", "failed_at", "attempts")

    def load_tables(self, table_ids: Sequence[str]) -> list[tuple[TableSpec, list[Step]]]:
        """The tables (and their logs) of ``table_ids`` that exist."""
        loaded = (self.store.load_table(table_id) for table_id in table_ids)
        return [found for found in loaded if found is not None]

    # ----- deletion -----

    def erase(self, s: Session, account: AccountRow) -> None:
        """What deleting ``account`` removes beyond its own rows (``TABLES``), in the
        deletion's transaction ``s``, before the account's row goes (its name and address
        are read here)."""
        player, account_id = account.player_id, account.id
        _scrub_seats(s, player, account.name)
        self._hand_clubs_on(s, player)
        for mine in _mail_of(s, account):
            s.execute(delete(MailRow).where(mine))
        s.execute(delete(FollowRow).where(or_(FollowRow.player_id == player, FollowRow.followed_id == player)))
        s.execute(delete(BlockRow).where(or_(BlockRow.player_id == player, BlockRow.blocked_id == player)))
        s.execute(delete(InvitationRow).where(or_(InvitationRow.from_id == player, InvitationRow.to_id == player)))
        s.execute(delete(ReportRow).where(ReportRow.reported_id == player))
        for row in ERASED_BY_PLAYER:
            s.execute(delete(row).where(row.player_id == player))
        uploads = select(UploadedRecordRow.id).where(UploadedRecordRow.owner == player)
        s.execute(delete(UploadAnalysisRow).where(UploadAnalysisRow.upload_id.in_(uploads)))
        s.execute(delete(UploadedRecordRow).where(UploadedRecordRow.owner == player))
        s.execute(delete(AccountTokenRow).where(AccountTokenRow.account_id == account_id))
        s.execute(delete(RoleRow).where(RoleRow.account_id == account_id))
        keys = (f":{player}", f":{account_id}", ":" + stored_key(f"login-name:{login_key(account.name)}"))
        s.execute(delete(RateLimitHitRow).where(or_(*(RateLimitHitRow.key.endswith(k, autoescape=True) for k in keys))))

    def _hand_clubs_on(self, s: Session, player: str) -> None:
        """Each club ``player`` owns goes to its longest-standing moderator, else member;
        a club with nobody else is deleted."""
        m = ClubMemberRow
        for club in s.scalars(select(ClubRow).where(ClubRow.owner_id == player)):
            heir = s.execute(
                select(m.player_id)
                .where(m.club_id == club.id, m.player_id != player)
                .order_by((m.role == "moderator").desc(), m.joined_at, m.player_id)
                .limit(1)
            ).first()
            if heir is not None:
                club.owner_id = heir.player_id
                s.execute(update(m).where(m.club_id == club.id, m.player_id == heir.player_id).values(role="owner"))
                continue
            for row in (ClubMemberRow, ClubRequestRow, ClubBanRow, ClubPostRow):
                s.execute(delete(row).where(row.club_id == club.id))
            s.delete(club)


class _Names:
    """The account names of players, read once for all the lists that need them (None: no
    account, or one deleted)."""

    def __init__(self, s: Session) -> None:
        self._s = s
        self._names: dict[str, str | None] = {}

    def want(self, players: Iterable[str]) -> None:
        missing = sorted({p for p in players if p not in self._names})
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            rows = self._s.execute(
                select(AccountRow.player_id, AccountRow.name).where(AccountRow.player_id.in_(chunk))
            ).all()
            found = {row.player_id: row.name for row in rows}
            for p in chunk:
                self._names[p] = found.get(p)

    def __getitem__(self, player: str) -> str | None:
        return self._names.get(player)


def _addresses(s: Session, account: AccountRow) -> list[str]:
    """Every address the account had or was sent a link at, lower-cased."""
    found = {account.email} | set(
        s.scalars(select(AccountTokenRow.email).where(AccountTokenRow.account_id == account.id))
    )
    return sorted(a.lower() for a in found if a)


def _mail_of(s: Session, account: AccountRow) -> list[ColumnElement[bool]]:
    """Which rows of the mail queue are the account's: those to its addresses; to an
    address another account has too, only those that name this one."""
    found = []
    for address in _addresses(s, account):
        to = func.lower(MailRow.to_address) == address
        others = select(AccountRow.id).where(func.lower(AccountRow.email) == address, AccountRow.id != account.id)
        if s.scalar(others.limit(1)) is None:
            found.append(to)
        else:
            found.append(and_(to, MailRow.body.contains(account.name, autoescape=True)))
    return found


def _unnamed(seat: Any, player: str) -> Any:
    """A seat's JSON without its name if ``player`` holds it (else as it is)."""
    if isinstance(seat, dict) and seat.get("player", seat.get("guest")) == player and "name" in seat:
        return {k: v for k, v in seat.items() if k != "name"}
    return seat


def _scrub_seats(s: Session, player: str, name: str) -> None:
    """Take ``player``'s names out of the seats of every table they sat at: the first
    seats, the log's seat steps, a tournament round's seats, the open tables' list."""
    sat = select(TablePlayerRow.table_id).where(TablePlayerRow.player_id == player)
    for table_id, seats in s.execute(select(TableRow.id, TableRow.seats).where(TableRow.id.in_(sat))).all():
        scrubbed = [_unnamed(seat, player) for seat in seats]
        if scrubbed != seats:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(seats=scrubbed))
    # a lobby left before its game (the deletion gives it up) is no longer among the
    # person's tables: the seat steps of every game still going are read too
    going = select(TableRow.id).where(TableRow.finished_at.is_(None))
    steps = select(ActionRow.table_id, ActionRow.seq, ActionRow.data).where(
        ActionRow.kind == "seat", or_(ActionRow.table_id.in_(sat), ActionRow.table_id.in_(going))
    )
    for table_id, seq, data in s.execute(steps).all():
        scrubbed = _unnamed(data, player)
        if scrubbed != data:
            s.execute(
                update(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq == seq).values(data=scrubbed)
            )
    entered = select(TournamentPlayerRow.tournament_id).where(TournamentPlayerRow.player_id == player)
    rounds = select(TournamentTableRow.table_id, TournamentTableRow.seats).where(
        TournamentTableRow.tournament_id.in_(entered)
    )
    for table_id, seats in s.execute(rounds).all():
        scrubbed = [_unnamed(seat, player) for seat in seats]
        if scrubbed != seats:
            s.execute(update(TournamentTableRow).where(TournamentTableRow.table_id == table_id).values(seats=scrubbed))
    listed = s.execute(
        select(OpenTableRow.table_id, OpenTableRow.seats, TablePlayerRow.seat).join(
            TablePlayerRow, and_(TablePlayerRow.table_id == OpenTableRow.table_id, TablePlayerRow.player_id == player)
        )
    ).all()
    for table_id, seats, seat in listed:
        if 0 <= seat < len(seats) and seats[seat].get("name") == name and not seats[seat].get("guest"):
            changed = [dict(x) for x in seats]
            changed[seat]["name"] = "?"
            s.execute(update(OpenTableRow).where(OpenTableRow.table_id == table_id).values(seats=changed))


# ----- the archive's files -----


def seats_told(live: LiveTable, mine: int) -> list[str]:
    """Who held each seat at the game's end, as the archive tells it: ``you``, ``person``
    (another person: nobody else's name or id) or ``computer``."""
    told = []
    for i, holder in enumerate(live.seats):
        if i == mine:
            told.append("you")
        else:
            told.append("computer" if holder.kind == "bot" else "person")
    return told


def game_lines(
    loaded: Sequence[tuple[TableSpec, list[Step]]],
    games: dict[str, tuple[int, datetime | None, dict[str, Any] | None]],
) -> tuple[list[str], list[dict[str, Any]]]:
    """One JSON line per finished game: its record (``history.finished_record``, the one
    the game's page gives) with the person's seat, who held the others, when and how it
    ended; and the games that ended before any deal did (no record: what is known of them).
    CPU-bound: run off the event loop."""
    lines, unplayed = [], []
    for spec, steps in loaded:
        live = LiveTable.build(spec, steps)
        seat, finished_at, result = games[spec.id]
        about = {"seat": seat, "seats": seats_told(live, seat), "finished_at": _at(finished_at), "result": result}
        record = finished_record(live)
        if record is None:
            unplayed.append({"table": spec.id, "rules": spec.rules.name, "options": spec.rules.options(), **about})
            continue
        record.update(about)
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return lines, unplayed


def readme(lang: str, account: Account, made_at: datetime, games: int) -> str:
    """The archive's README.txt in ``lang``: what each file holds."""
    parts = [
        i18n.gettext(lang, "data.readme.title", name=account.name, at=made_at.strftime("%Y-%m-%d %H:%M UTC")),
        "",
        i18n.gettext(lang, "data.readme.intro", games=games),
        "",
    ]
    for name in FILES:
        parts.append(f"{name}: " + i18n.gettext(lang, "data.readme.file." + name.split(".")[0]))
    parts += ["", i18n.gettext(lang, "data.readme.outside"), ""]
    return "\n".join(parts)


def zipped(readme_text: str, files: dict[str, Any], lines: list[str]) -> bytes:
    """The archive: the README, each file of ``FILES`` as UTF-8 JSON (``games.jsonl``: the
    records' ``lines``), compressed (CPU-bound: off the event loop)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        texts = {"README.txt": readme_text}
        for name in FILES:
            if name == "games.jsonl":
                texts[name] = "".join(line + "\n" for line in lines)
            else:
                texts[name] = json.dumps(files[name], ensure_ascii=False, indent=1) + "\n"
        for name, text in texts.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    return out.getvalue()


class PersonalData:
    """A person's archive, made on the database's threads (reads a few games at a time)
    and off the event loop (the records and the ZIP)."""

    def __init__(self, store: PersonalStore, db: Database) -> None:
        self.store = store
        self.db = db
        self._turns = asyncio.Semaphore(AT_ONCE)

    async def archive(self, account: Account, lang: str) -> bytes | None:
        """The ZIP of everything the site keeps about ``account``, its README in ``lang``;
        None: the account is gone."""
        async with self._turns:
            made_at = now()
            gathered = await self.db(self.store.gather, account.id)
            if gathered is None:
                return None
            games = {table_id: (seat, at, result) for table_id, seat, at, result in gathered.games}
            ids = [g[0] for g in gathered.games]
            lines: list[str] = []
            unplayed: list[dict[str, Any]] = []
            for start in range(0, len(ids), GAMES_PER_READ):
                loaded = await self.db(self.store.load_tables, ids[start : start + GAMES_PER_READ])
                more, ended_early = await asyncio.to_thread(game_lines, loaded, games)
                lines += more
                unplayed += ended_early
            gathered.files["account.json"]["games_without_a_finished_deal"] = unplayed
            text = readme(lang, account, made_at, len(lines))
            return await asyncio.to_thread(zipped, text, gathered.files, lines)
