"""The daily challenge's rows: its days, attempts, results, stored ranking, pars and the
expert's table (blocking calls: ``DailyChallenge`` runs them on the database's threads)."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from sqlalchemy import String, cast, delete, func, insert, select, update

from ...infra.db import now
from ...infra.rows.challenge import (
    ChallengeAttemptRow,
    ChallengeDayRow,
    ChallengeParRow,
    ChallengeResultRow,
    ChallengeStandingRow,
)
from ...infra.rows.people import AccountRow
from ...infra.store import Store
from ...table.matchpoints import Standing
from ...table.ratings import Rating
from ..player_stats import ratings_of
from .model import Day, FieldLine, RankingLine, Result, commitment


class ChallengeStore:
    """The challenge's rows (blocking calls: ``DailyChallenge`` runs them on the database's
    threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def abandon_table(self, table_id: str) -> None:
        """A table made for nothing (another start won the race): finished as abandoned."""
        self.store.finish_table(table_id, {"abandoned": True})

    def days_played(self, player: str, since: str) -> dict[str, int]:
        return challenge_days(self.store, player, since)

    def ratings(self, players: list[str]) -> dict[str, Rating]:
        """The ratings of the ranking's players (a new player: absent)."""
        return ratings_of(self.store, players)

    def ensure_day(self, day: str, profile: str, test_seed: int | str | None = None) -> Day:
        """The day's row, made with a random seed if there is none (the primary key settles
        a race: whoever lost reads the winner's); ``test_seed`` (``Settings.table_seed``,
        tests only): the seed follows from it and the day, so a test deals alike each run."""
        if test_seed is None:
            seed = secrets.token_bytes(32)
        else:
            seed = hashlib.sha256(f"coinche-test-challenge:{test_seed}:{day}".encode()).digest()
        with self.store.engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(ChallengeDayRow, ["day"]),
                {
                    "day": day,
                    "profile": profile,
                    "seed": seed.hex(),
                    "commitment": commitment(day, seed),
                    "created_at": now(),
                },
            )
        found = self.day(day)
        assert found is not None
        return found

    def day(self, day: str) -> Day | None:
        with self.store.session() as s:
            row = s.get(ChallengeDayRow, day)
            if row is None:
                return None
            return Day(row.day, row.profile, bytes.fromhex(row.seed), row.commitment)

    def attempt(self, day: str, player: str) -> tuple[str, bool] | None:
        """The player's table of the day and whether it is finished."""
        with self.store.session() as s:
            query = select(ChallengeAttemptRow).where(
                ChallengeAttemptRow.day == day, ChallengeAttemptRow.player_id == player
            )
            row = s.scalar(query)
            return None if row is None else (row.table_id, row.finished_at is not None)

    def add_attempt(self, day: str, player: str, table_id: str, guest: bool) -> bool:
        """Record the player's attempt at this table; False if they already had one (a race)."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                self.store.backend.insert_ignoring(ChallengeAttemptRow, ["day", "player_id"]),
                {"day": day, "player_id": player, "table_id": table_id, "guest": guest, "started_at": now()},
            )
            return bool(done.rowcount == 1)

    def adopt(self, guest: str, player: str, today: str) -> list[str]:
        """A guest signed up as the account playing as ``player`` (the guest's own id, or a
        new one): the guest's attempts of days not over (from ``today``) and their results
        become the account's, ranked. A day the account already has an attempt at keeps
        its own. The days changed."""
        with self.store.engine.begin() as conn:
            theirs = set(
                conn.execute(
                    select(ChallengeAttemptRow.day).where(
                        ChallengeAttemptRow.player_id == player,
                        ChallengeAttemptRow.day >= today,
                        ChallengeAttemptRow.guest.is_(False),
                    )
                ).scalars()
            )
            days = [
                d
                for d in conn.execute(
                    select(ChallengeAttemptRow.day).where(
                        ChallengeAttemptRow.player_id == guest, ChallengeAttemptRow.day >= today
                    )
                ).scalars()
                if d not in theirs
            ]
            for row in (ChallengeAttemptRow, ChallengeResultRow):
                conn.execute(
                    update(row).where(row.player_id == guest, row.day.in_(days)).values(player_id=player, guest=False)
                )
            return days

    def record(self, table_id: str, day: str, number: int, result: dict[str, Any], finished: bool) -> None:
        """A finished deal of the table's attempt (nothing if already there); ``finished``:
        the attempt is over."""
        with self.store.engine.begin() as conn:
            attempt = conn.execute(
                select(ChallengeAttemptRow.player_id, ChallengeAttemptRow.guest).where(
                    ChallengeAttemptRow.table_id == table_id
                )
            ).first()
            if attempt is None:  # the table of a start that lost a race: not an attempt
                return
            conn.execute(
                self.store.backend.insert_ignoring(ChallengeResultRow, ["day", "deal", "player_id"]),
                {
                    "day": day,
                    "deal": number,
                    "player_id": attempt.player_id,
                    "guest": attempt.guest,
                    "created_at": now(),
                    **result,
                },
            )
            if finished:
                conn.execute(
                    update(ChallengeAttemptRow)
                    .where(ChallengeAttemptRow.table_id == table_id, ChallengeAttemptRow.finished_at.is_(None))
                    .values(finished_at=now())
                )

    def results(self, day: str, player: str | None = None, guests: bool = True) -> list[Result]:
        """The day's results (a player's only; without the guests'), by deal then player."""
        with self.store.session() as s:
            query = select(ChallengeResultRow).where(ChallengeResultRow.day == day)
            if player is not None:
                query = query.where(ChallengeResultRow.player_id == player)
            if not guests:
                query = query.where(ChallengeResultRow.guest.is_(False))
            rows = s.scalars(query.order_by(ChallengeResultRow.deal, ChallengeResultRow.player_id))
            return [
                Result(
                    r.player_id,
                    r.deal,
                    r.score,
                    r.contract,
                    r.taker,
                    r.made,
                    (r.deal_score[0], r.deal_score[1]),
                    r.guest,
                )
                for r in rows
            ]

    # ----- the ranking, kept ready to read -----

    def ranked_scores(self, day: str) -> list[tuple[str, int, int]]:
        """The day's ranked results ``(player, deal index from 0, net score)`` (accounts'
        only)."""
        with self.store.session() as s:
            rows = s.execute(
                select(ChallengeResultRow.player_id, ChallengeResultRow.deal, ChallengeResultRow.score).where(
                    ChallengeResultRow.day == day, ChallengeResultRow.guest.is_(False)
                )
            )
            return [(player, deal - 1, score) for player, deal, score in rows]

    def ranking_state(self, day: str) -> tuple[int, bool] | None:
        """How many results the stored ranking counts and whether it is final (None: no day)."""
        with self.store.session() as s:
            row = s.execute(
                select(ChallengeDayRow.ranked_results, ChallengeDayRow.ranked_final).where(ChallengeDayRow.day == day)
            ).first()
            return None if row is None else (row.ranked_results, row.ranked_final)

    def save_standings(self, day: str, standings: list[Standing], counted: int, final: bool) -> bool:
        """Replace the day's stored ranking unless what is stored counts more results
        (another process was quicker with newer results: a conditional write, so two
        refreshes racing never leave the older one stored), or is final and this one is
        not, or is final and counts as many. A final ranking is replaced only by a final
        one with more results (a deal the computers finished just after midnight). True if
        written."""
        newer = ChallengeDayRow.ranked_final.is_(False) & (ChallengeDayRow.ranked_results <= counted)
        if final:
            newer = newer | (ChallengeDayRow.ranked_results < counted)
        with self.store.engine.begin() as conn:
            claimed = conn.execute(
                update(ChallengeDayRow)
                .where(ChallengeDayRow.day == day, newer)
                .values(ranked_results=counted, ranked_final=final, ranked_at=now())
            )
            if claimed.rowcount != 1:
                return False
            conn.execute(delete(ChallengeStandingRow).where(ChallengeStandingRow.day == day))
            if standings:
                conn.execute(
                    insert(ChallengeStandingRow),
                    [
                        {
                            "day": day,
                            "player_id": st.player,
                            "position": i,
                            "rank": st.rank,
                            "average": st.average,
                            "finished": st.finished,
                            "percents": list(st.percents),
                        }
                        for i, st in enumerate(standings)
                    ],
                )
            return True

    def standings(self, day: str, limit: int, player: str | None = None) -> list[RankingLine]:
        """The first ``limit`` lines of the day's stored ranking, and ``player``'s own line
        after them if it is further down; with the account names."""
        with self.store.session() as s:
            query = (
                select(ChallengeStandingRow, AccountRow.name)
                .join(AccountRow, AccountRow.player_id == ChallengeStandingRow.player_id, isouter=True)
                .where(ChallengeStandingRow.day == day)
            )
            rows = list(s.execute(query.order_by(ChallengeStandingRow.position).limit(limit)))
            if player is not None and all(r[0].player_id != player for r in rows):
                rows += list(s.execute(query.where(ChallengeStandingRow.player_id == player)))
            return [
                RankingLine(r.player_id, name, r.position, r.rank, r.average, tuple(r.percents), r.finished)
                for r, name in rows
            ]

    def ranked_count(self, day: str) -> int:
        """Players in the day's stored ranking."""
        with self.store.session() as s:
            return s.scalar(select(func.count()).where(ChallengeStandingRow.day == day)) or 0

    # ----- one deal's field -----

    def deal_field(self, day: str, deal: int) -> list[FieldLine]:
        """Deal ``deal``'s ranked results grouped by what happened (contract, taker, made,
        score), most played first."""
        # Grouped by the JSON's text: PostgreSQL's ``json`` has no equality.
        score_text = cast(ChallengeResultRow.deal_score, String)
        with self.store.session() as s:
            rows = s.execute(
                select(
                    ChallengeResultRow.contract,
                    ChallengeResultRow.taker,
                    ChallengeResultRow.made,
                    ChallengeResultRow.score,
                    score_text,
                    func.count(),
                )
                .where(
                    ChallengeResultRow.day == day,
                    ChallengeResultRow.deal == deal,
                    ChallengeResultRow.guest.is_(False),
                )
                .group_by(
                    ChallengeResultRow.contract,
                    ChallengeResultRow.taker,
                    ChallengeResultRow.made,
                    ChallengeResultRow.score,
                    score_text,
                )
            )
            return [
                FieldLine(contract, taker, made, score, (deal_score[0], deal_score[1]), count)
                for contract, taker, made, score, text, count in rows
                for deal_score in [json.loads(text)]
            ]

    def par(self, day: str, deal: int) -> dict[str, Any] | None:
        with self.store.session() as s:
            row = s.get(ChallengeParRow, (day, deal))
            return None if row is None else dict(row.data)

    def save_par(self, day: str, deal: int, data: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(ChallengeParRow, ["day", "deal"]),
                {"day": day, "deal": deal, "data": data, "created_at": now()},
            )

    # ----- the expert's play of a finished day -----

    def expert_table(self, day: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(ChallengeDayRow.expert_table).where(ChallengeDayRow.day == day))

    def claim_expert_table(self, day: str, table_id: str) -> str | None:
        """Make ``table_id`` the day's expert table unless it has one; the day's expert table."""
        with self.store.engine.begin() as conn:
            conn.execute(
                update(ChallengeDayRow)
                .where(ChallengeDayRow.day == day, ChallengeDayRow.expert_table.is_(None))
                .values(expert_table=table_id)
            )
            found: str | None = conn.execute(
                select(ChallengeDayRow.expert_table).where(ChallengeDayRow.day == day)
            ).scalar()
            return found

    def unfinished_days(self, before: str) -> list[str]:
        """Days before ``before`` whose final ranking or expert's play is not done yet."""
        with self.store.session() as s:
            return list(
                s.scalars(
                    select(ChallengeDayRow.day)
                    .where(
                        ChallengeDayRow.day < before,
                        (ChallengeDayRow.ranked_final.is_(False)) | (ChallengeDayRow.expert_table.is_(None)),
                    )
                    .order_by(ChallengeDayRow.day.desc())
                    .limit(7)
                )
            )


def challenge_days(store: Store, player: str, since: str) -> dict[str, int]:
    """The challenge days from ``since`` the player played, with their deals finished."""
    with store.session() as s:
        days = s.scalars(
            select(ChallengeAttemptRow.day).where(
                ChallengeAttemptRow.player_id == player, ChallengeAttemptRow.day >= since
            )
        ).all()
        counts = s.execute(
            select(ChallengeResultRow.day, func.count())
            .where(ChallengeResultRow.player_id == player, ChallengeResultRow.day >= since)
            .group_by(ChallengeResultRow.day)
        ).all()
    found = dict.fromkeys(days, 0)
    found.update({day: count for day, count in counts})
    return found
