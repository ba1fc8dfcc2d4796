"""The players' ratings and the profile's counters, kept up to date from the tables.

``PlayerStats`` listens to the tables' commits:

* **each finished deal** adds to each person seated at its end: a deal played, a contract
  taken (the taker's seat) and whether it was made, a coinche or surcoinche called and
  whether it paid (a coinche that set the contract, a surcoinche made); the daily
  challenge's deals are left out (they are its own results);
* **each finished game** but the daily challenge's (four deals "won
  by nobody": not rated) updates the persons' ratings with ``ratings.rate_game`` and counts
  a game played (and won), by the rules of docs/ratings.md (``game_plans``); and, by the
  same plans and the same ``rate_game``, their ratings in the game's rules profile
  (``profile_ratings``, the boards of each profile: the same game, rated from the ratings
  the persons have in that profile);
* **a game given up alone** (``Tables.abandon``: a solo game, or a friends' table
  whose other seats are computers'): the person who gave it up loses it, everyone rated as
  seated then (``abandon_plan``). At a table of several people giving up ends nothing: it
  is a ``seat`` step like leaving (``friends.give_up``).

Who counts as what, from the table's log (docs/ratings.md says it for players):

* a person's seat played by a computer while they are away (``Seat.stand_in``) is still
  theirs: they may come back, they are not leaving; still replaced at the end, they left;
* a person whose seat went to a computer marked ``Seat.gone`` (they left or gave up, or the
  host freed it while a computer stood in for them) left: they alone are rated as losing,
  in the seat they left (or where they sit again), whatever the score;
* everyone else is rated on the real result for the team whose seats they played at least
  half the deals in, themselves (a computer standing in for them does not count), and only
  then (``rated_seat``: a late friend, a person moved out early or moved from one team to
  the other at the middle of the game: not rated): as seated at the end when that seat is
  that team's (a leaver's seat as the computer that finished it), else alone in the seat
  of that team they played most (one the host moved out while they were there, or moved to
  the other team: the table as before that move);
* a computer plays at its level's measured rating (``LevelRatings``); an **adaptive**
  computer at the rating of where its knob **ended** the game (interpolated between the
  levels' mus, the inverse of ``adaptive_start``), since that is the strength the person
  faced at the end, after the knob had settled on them; a level the measures do not know
  (a test's bot) counts as the confirmed one.

Every update is idempotent: the listeners are told again whenever a table is read back from the
database, so each one inserts a guard row (``stats_deals``, ``rated_games``) in the same
transaction as the counters and does nothing when the guard is already there (the
ratings of a profile are written in the game's transaction, under its guard).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import select, update

from ...bots.adaptive import KNOB_LEVELS
from ...engine.actions import COINCHE, SURCOINCHE
from ...engine.rules import PROFILES
from ..infra.database import Database
from ..infra.db import now
from ..infra.rows.ratings import PlayerStatsRow, ProfileRatingRow, RatedGameRow, RatingHistoryRow, StatsDealRow
from ..infra.store import Store
from ..live.events import DealEnded, GameEnded
from ..live.registry import LiveTables
from ..table.live_table import LiveTable
from ..table.ratings import NEW_PLAYER, Computer, LevelRatings, Person, PlayerId, Rating, adaptive_start, rate_game
from ..table.spec import Seat

log = logging.getLogger("coinche.player_stats")

PROVISIONAL_SIGMA = 5.0
"""Above this sigma a rating is shown as provisional (a new account starts at 8.33; about
ten games bring it below)."""


@cache
def levels() -> LevelRatings:
    return LevelRatings.load()


def knob_rating(knob: float, lv: LevelRatings | None = None) -> Rating:
    """The rating of an adaptive computer whose knob is at ``knob`` (0 beginner, 0.5
    confirmed, 1 expert): the levels' mus and sigmas interpolated linearly between the two
    neighbours (``adaptive_start``'s inverse)."""
    lv = lv or levels()
    knob = min(1.0, max(0.0, knob))
    low, high, t = (lv.beginner, lv.confirmed, knob * 2) if knob <= 0.5 else (lv.confirmed, lv.expert, knob * 2 - 1)
    return Rating(low.mu + (high.mu - low.mu) * t, low.sigma + (high.sigma - low.sigma) * t)


@dataclass(frozen=True)
class DealCounts:
    """What one finished deal adds to one person's counters."""

    taken: int = 0
    made: int = 0
    coinches: int = 0
    coinches_won: int = 0


def deal_counts(live: LiveTable, number: int) -> dict[PlayerId, DealCounts]:
    """The counters of deal ``number`` (from 1) for each person seated at the table."""
    deal = live.game.deals[number - 1]
    res = deal.result()
    persons = {i: s.player for i, s in enumerate(live.seats) if s.kind == "human" and s.player is not None}
    out = {p: DealCounts() for p in persons.values()}
    if res is None or res.contract is None:
        return out
    contract = res.contract
    made = bool(res.made)
    taker = persons.get(contract.taker)
    if taker is not None:
        out[taker] = DealCounts(1, int(made))
    auction = deal.auction
    for i, call in enumerate(auction.calls):
        if call not in (COINCHE, SURCOINCHE):
            continue
        player = persons.get((auction.first + i) & 3)
        if player is None:
            continue
        paid = (not made) if call == COINCHE else made
        c = out[player]
        out[player] = DealCounts(c.taken, c.made, c.coinches + 1, c.coinches_won + int(paid))
    return out


SeatPlan = tuple[PlayerId | None, Rating | str]
"""A seat as rated: a person's id (and None), or no id and a computer's fixed rating or level."""


@dataclass(frozen=True)
class GamePlan:
    """One ``rate_game`` call: the four seats, the team that won on the score, the
    leavers, and whose new ratings to keep (None: every person's)."""

    seats: tuple[SeatPlan, SeatPlan, SeatPlan, SeatPlan]
    winner: int
    left: frozenset[PlayerId] = frozenset()
    only: frozenset[PlayerId] | None = None

    def persons(self) -> list[tuple[int, PlayerId]]:
        return [(i, pid) for i, (pid, _) in enumerate(self.seats) if pid is not None]

    def outcome(self, player: PlayerId) -> bool:
        """Whether ``player`` won: their team won on the score and had no leaver."""
        seats = [i for i, pid in self.persons() if pid == player]
        if not seats:
            raise ValueError(f"{player} is not at this game")
        team = seats[0] & 1
        leavers = {i & 1 for i, pid in self.persons() if pid in self.left}
        if leavers:
            return team not in leavers
        return team == self.winner


def computer_plan(holder: Seat, knob: float | None) -> SeatPlan:
    level = holder.stand_in or holder.level or "confirmed"
    if level == "adaptive":
        return None, knob_rating(0.5 if knob is None else knob)
    return None, level if level in KNOB_LEVELS else "confirmed"


def plan_seat(holder: Seat, knob: float | None) -> SeatPlan:
    """A person (a computer standing in for them included), or a computer's rating."""
    if holder.kind == "human" and holder.player is not None:
        return holder.player, ""
    return computer_plan(holder, knob)


def rated_seat(played: Mapping[int, int], deals: int, end: int | None = None) -> int | None:
    """The seat a person is rated in (docs/ratings.md, rule 5), or None: not rated.

    ``played`` holds, for each seat they held, the deals of the game they played there
    themselves (dealt to them there, no computer standing in for them); ``deals`` is the
    game's count. They are rated for the team whose seats they held for at least half the
    deals, and only then: in ``end`` (their seat at the end) if it is that team's, else in
    that team's seat where they played the most deals (the lower on a tie). Half for each
    team (moved at the middle of the game) is no side of theirs: None. The same rule for
    everybody, host or not, so moving between seats never changes the side a person is
    rated on.
    """
    team = [sum(n for seat, n in played.items() if seat & 1 == side) for side in (0, 1)]
    sides = [side for side in (0, 1) if team[side] > 0 and 2 * team[side] >= deals]
    if len(sides) != 1:
        return None
    side = sides[0]
    if end is not None and end & 1 == side:
        return end
    return max((seat for seat, n in played.items() if seat & 1 == side and n > 0), key=lambda s: (played[s], -s))


def game_plans(live: LiveTable) -> list[GamePlan]:
    """The ``rate_game`` calls of a finished game (see the module's docstring and
    docs/ratings.md): each leaver alone as losing, in their seat; everyone else by
    ``rated_seat``: as seated at the end when that is their side, else alone in the seat
    they played most, the table as before the move that took them away from it; nobody
    on a side they played for fewer than half the deals."""
    winner = live.spec.kind.winner(live.game)
    if winner is None:
        return []
    holders = list(live.spec.seats)
    started = not live.spec.kind.waits_for_host  # a solo table is dealt its first deal with it
    deals = 0
    played: dict[PlayerId, Counter[int]] = {}  # person -> seat -> deals played there themselves

    def deal() -> None:
        nonlocal deals
        deals += 1
        for i, h in enumerate(holders):
            if h.kind == "human" and h.player is not None and h.stand_in is None:
                played.setdefault(h.player, Counter())[i] += 1

    if started:
        deal()
    left: dict[PlayerId, int] = {}  # leaver -> the seat they left
    for step in live.steps:
        if step.kind == "deal":
            started = True
            deal()
        elif step.kind == "swap" and step.other_seat is not None:
            holders[step.seat], holders[step.other_seat] = holders[step.other_seat], holders[step.seat]
        elif step.kind == "seat" and step.seat_data is not None:
            if started and step.seat_data.gone is not None:
                left.setdefault(step.seat_data.gone, step.seat)
            holders[step.seat] = step.seat_data
    for i, h in enumerate(holders):  # replaced past the grace period and not back: gone
        if h.kind == "human" and h.player is not None and h.stand_in is not None:
            left.setdefault(h.player, i)
    knob = live.adaptive_level
    main: list[SeatPlan] = [
        computer_plan(h, knob) if h.player in left and h.stand_in is not None else plan_seat(h, knob) for h in holders
    ]
    seated = {pid: i for i, (pid, _) in enumerate(main) if pid is not None}
    rated: dict[PlayerId, int] = {}
    for pid, counts in played.items():
        seat = rated_seat(counts, deals, seated.get(pid))
        if pid not in left and seat is not None:
            rated[pid] = seat
    plans = [GamePlan(_four(main), winner, only=frozenset(p for p, seat in rated.items() if seat == seated.get(p)))]
    for pid, seat in left.items():
        seats = list(main)
        seats[seated.get(pid, seat)] = (pid, "")
        plans.append(GamePlan(_four(seats), winner, frozenset({pid}), only=frozenset({pid})))
    for pid, seat in rated.items():
        end = seated.get(pid)
        if seat == end:
            continue
        seats = list(main)
        if end is None:  # moved out of the game (a computer holds the seat)
            seats[seat] = (pid, "")
        else:  # moved to the other team: the two seats exchanged back
            seats[end], seats[seat] = seats[seat], seats[end]
        plans.append(GamePlan(_four(seats), winner, only=frozenset({pid})))
    return [p for p in plans if p.only]


def _four(seats: Sequence[SeatPlan]) -> tuple[SeatPlan, SeatPlan, SeatPlan, SeatPlan]:
    return (seats[0], seats[1], seats[2], seats[3])


def abandon_plan(live: LiveTable, player: PlayerId) -> GamePlan | None:
    """A solo game given up by ``player``: their team loses, everyone as seated now."""
    seat = live.seat_of(player)
    if seat is None or not live.started:  # a friends' table given up before its first deal
        return None
    knob = live.adaptive_level
    seats = [plan_seat(h, knob) for h in live.seats]
    return GamePlan(_four(seats), 1 - (seat & 1), frozenset({player}))


@dataclass(frozen=True)
class ProfileRating:
    """A player's rating in one rules profile (its board's), and the games it counts."""

    profile: str
    rating: Rating
    rated_games: int


@dataclass
class Profile:
    """What the profile page shows of a player."""

    rating: Rating = NEW_PLAYER
    rated_games: int = 0
    games_played: int = 0
    games_won: int = 0
    deals_played: int = 0
    contracts_taken: int = 0
    contracts_made: int = 0
    coinches: int = 0
    coinches_won: int = 0
    history: list[tuple[datetime, int]] = field(default_factory=list)
    """(when, display) after each rated game, oldest first."""
    boards: list[ProfileRating] = field(default_factory=list)
    """The rules profiles the player has rated games in, in ``PROFILES``' order."""


class StatsStore:
    """The blocking reads and writes (run on the database threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add_deal(self, table_id: str, number: int, counts: Mapping[PlayerId, DealCounts]) -> bool:
        """Add one deal's counters, once per (table, deal); whether they were added now."""
        engine = self.store.engine
        with engine.begin() as conn:
            guard = conn.execute(
                self.store.backend.insert_ignoring(StatsDealRow, ["table_id", "deal"]),
                {"table_id": table_id, "deal": number, "created_at": now()},
            )
            if guard.rowcount != 1:
                return False
            if counts:  # one statement: each person's row made if missing, the counts added
                at = now()
                rows = [
                    {
                        "player_id": player,
                        "mu": NEW_PLAYER.mu,
                        "sigma": NEW_PLAYER.sigma,
                        "ordinal": NEW_PLAYER.ordinal,
                        **dict.fromkeys(COUNTERS, 0),
                        "deals_played": 1,
                        "contracts_taken": c.taken,
                        "contracts_made": c.made,
                        "coinches": c.coinches,
                        "coinches_won": c.coinches_won,
                        "updated_at": at,
                    }
                    for player, c in sorted(counts.items())  # one order of locks for every writer
                ]
                conn.execute(
                    self.store.backend.insert_ignoring(PlayerStatsRow, ["player_id"], ["updated_at"], DEAL_COUNTERS),
                    rows,
                )
            return True

    def rate(self, table_id: str, plans: Sequence[GamePlan], profile: str) -> dict[PlayerId, Rating] | None:
        """Rate a finished game of the rules ``profile`` once (None: rated before); the
        persons' new (site) ratings. Their ratings in ``profile`` move by the same plans in
        the same transaction."""
        engine = self.store.engine
        with engine.begin() as conn:
            guard = conn.execute(
                self.store.backend.insert_ignoring(RatedGameRow, ["table_id"]),
                {"table_id": table_id, "created_at": now()},
            )
            if guard.rowcount != 1:
                return None
            # one order of locks for every writer (``add_deal`` too): in seat order, a game's
            # end and its last deal's counters, written at once, deadlocked on PostgreSQL
            ordered = sorted({pid for plan in plans for _, pid in plan.persons()})
            rows = {pid: self._row(conn, pid) for pid in ordered}
            boards = {pid: self._board_row(conn, pid, profile) for pid in ordered}
            new, won = _rated(plans, {pid: Rating(r["mu"], r["sigma"]) for pid, r in rows.items()})
            on_board, _ = _rated(plans, {pid: Rating(r["mu"], r["sigma"]) for pid, r in boards.items()})
            at = now()
            for pid, rating in on_board.items():
                conn.execute(
                    update(ProfileRatingRow)
                    .where(ProfileRatingRow.player_id == pid, ProfileRatingRow.profile == profile)
                    .values(
                        mu=rating.mu,
                        sigma=rating.sigma,
                        ordinal=rating.ordinal,
                        rated_games=boards[pid]["rated_games"] + 1,
                        updated_at=at,
                    )
                )
            for pid, rating in new.items():
                row = rows[pid]
                row.update(mu=rating.mu, sigma=rating.sigma)
                row["rated_games"] += 1
                row["games_played"] += 1
                row["games_won"] += int(won[pid])
                self._save(conn, row)
                conn.execute(
                    self.store.backend.insert_ignoring(RatingHistoryRow, ["player_id", "table_id"]),
                    {
                        "player_id": pid,
                        "table_id": table_id,
                        "at": at,
                        "mu": rating.mu,
                        "sigma": rating.sigma,
                        "display": rating.display,
                        "won": won[pid],
                    },
                )
            return new

    def _row(self, conn: Any, player: PlayerId) -> dict[str, Any]:
        """The player's row, made if missing, locked until the transaction ends (``FOR
        UPDATE`` on PostgreSQL; SQLite's write lock is held since the guard's insert): two
        games of one player ending at once never lose an update."""
        conn.execute(
            self.store.backend.insert_ignoring(PlayerStatsRow, ["player_id"]),
            {
                "player_id": player,
                "mu": NEW_PLAYER.mu,
                "sigma": NEW_PLAYER.sigma,
                "ordinal": NEW_PLAYER.ordinal,
                **dict.fromkeys(COUNTERS, 0),
                "updated_at": now(),
            },
        )
        columns = PlayerStatsRow.__table__.columns
        found = conn.execute(select(*columns).where(PlayerStatsRow.player_id == player).with_for_update()).one()
        return dict(found._mapping)

    def _board_row(self, conn: Any, player: PlayerId, profile: str) -> dict[str, Any]:
        """The player's row of ``profile``'s board, made if missing and locked as ``_row``
        (after every ``player_stats`` row of the game: one order of locks)."""
        conn.execute(
            self.store.backend.insert_ignoring(ProfileRatingRow, ["player_id", "profile"]),
            {
                "player_id": player,
                "profile": profile,
                "mu": NEW_PLAYER.mu,
                "sigma": NEW_PLAYER.sigma,
                "ordinal": NEW_PLAYER.ordinal,
                "rated_games": 0,
                "updated_at": now(),
            },
        )
        found = conn.execute(
            select(ProfileRatingRow.mu, ProfileRatingRow.sigma, ProfileRatingRow.rated_games)
            .where(ProfileRatingRow.player_id == player, ProfileRatingRow.profile == profile)
            .with_for_update()
        ).one()
        return dict(found._mapping)

    @staticmethod
    def _save(conn: Any, row: dict[str, Any]) -> None:
        values = {k: v for k, v in row.items() if k != "player_id"}
        values["ordinal"] = Rating(row["mu"], row["sigma"]).ordinal
        values["updated_at"] = now()
        conn.execute(update(PlayerStatsRow).where(PlayerStatsRow.player_id == row["player_id"]).values(**values))

    def ratings_of(self, player_ids: Iterable[PlayerId]) -> dict[PlayerId, Rating]:
        """The ratings of these players (those who never finished a rated game: absent)."""
        ids = list(set(player_ids))
        out: dict[PlayerId, Rating] = {}
        with self.store.session() as s:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows = s.execute(
                    select(PlayerStatsRow.player_id, PlayerStatsRow.mu, PlayerStatsRow.sigma).where(
                        PlayerStatsRow.player_id.in_(chunk)
                    )
                )
                out.update({r.player_id: Rating(r.mu, r.sigma) for r in rows})
        return out

    def profile(self, player: PlayerId, history: bool = True) -> Profile:
        """The player's counters, rating, each profile's rating and, with ``history``, the
        rating's history (one row per rated game: a chart's, which the API leaves out)."""
        with self.store.session() as s:
            row = s.get(PlayerStatsRow, player)
            charted = (
                s.execute(
                    select(RatingHistoryRow.at, RatingHistoryRow.display)
                    .where(RatingHistoryRow.player_id == player)
                    .order_by(RatingHistoryRow.at, RatingHistoryRow.table_id)
                ).all()
                if history
                else []
            )
            boards = s.execute(
                select(ProfileRatingRow.profile, ProfileRatingRow.mu, ProfileRatingRow.sigma)
                .add_columns(ProfileRatingRow.rated_games)
                .where(ProfileRatingRow.player_id == player, ProfileRatingRow.rated_games > 0)
            ).all()
        order = list(PROFILES)
        found = Profile(
            history=[(at, display) for at, display in charted],
            boards=sorted(
                (ProfileRating(name, Rating(mu, sigma), games) for name, mu, sigma, games in boards),
                key=lambda b: (order.index(b.profile) if b.profile in order else len(order), b.profile),
            ),
        )
        if row is not None:
            found.rating = Rating(row.mu, row.sigma)
            for name in COUNTERS:
                setattr(found, name, getattr(row, name))
        return found


COUNTERS = (
    "rated_games",
    "games_played",
    "games_won",
    "deals_played",
    "contracts_taken",
    "contracts_made",
    "coinches",
    "coinches_won",
)
DEAL_COUNTERS = ("deals_played", "contracts_taken", "contracts_made", "coinches", "coinches_won")
"""The counters a finished deal adds to (``DealCounts``); the others count games."""


def _rated(
    plans: Sequence[GamePlan], current: Mapping[PlayerId, Rating]
) -> tuple[dict[PlayerId, Rating], dict[PlayerId, bool]]:
    """Each plan rated by ``rate_game`` from the persons' ``current`` ratings: the new
    ratings of the persons each plan keeps, and whether they won."""
    new: dict[PlayerId, Rating] = {}
    won: dict[PlayerId, bool] = {}
    for plan in plans:
        rated = rate_game(_teams(plan, current), plan.winner, plan.left, levels())
        persons = {pid for _, pid in plan.persons()}  # not an adaptive computer's stand-in id
        for pid, rating in rated.items():
            if pid in persons and (plan.only is None or pid in plan.only):
                new[pid] = rating
                won[pid] = plan.outcome(pid)
    return new, won


def _teams(plan: GamePlan, current: Mapping[PlayerId, Rating]) -> Any:
    def seat(entry: SeatPlan, i: int) -> Person | Computer:
        pid, fixed = entry
        if pid is not None:
            return Person(pid, current.get(pid, NEW_PLAYER))
        if isinstance(fixed, Rating):  # an adaptive computer: a person whose rating is dropped
            return Person(f"computer:{i}", fixed)
        return Computer(fixed)

    s = [seat(e, i) for i, e in enumerate(plan.seats)]
    return ((s[0], s[2]), (s[1], s[3]))


def ratings_of(store: Store, player_ids: Iterable[PlayerId]) -> dict[PlayerId, Rating]:
    """The ratings of these players (blocking; the rankings call it on a database thread):
    a player who has not finished a rated game is absent (``NEW_PLAYER``)."""
    return StatsStore(store).ratings_of(player_ids)


class PlayerStats:
    """The listener of the registry's commits, and the reads the pages make; ``abandoned``
    and ``adaptive_start`` are what the tables ask of it (``services.py`` hands them over)."""

    def __init__(self, store: StatsStore, db: Database, registry: LiveTables) -> None:
        self.store = store
        self.db = db
        registry.on(DealEnded, self._deal_ended)
        registry.on(GameEnded, self._game_ended)

    async def _deal_ended(self, event: DealEnded) -> None:
        live, number = event.table, event.number
        if not live.spec.kind.rated:
            return
        counts = deal_counts(live, number)
        if counts:
            await self.db(self.store.add_deal, live.id, number, counts)

    async def _game_ended(self, event: GameEnded) -> None:
        live = event.table
        if not live.spec.kind.rated:
            return
        plans = game_plans(live)
        if plans:
            await self.db(self.store.rate, live.id, plans, live.spec.rules.name)

    async def abandoned(self, live: LiveTable, player: PlayerId) -> None:
        """A player gave up the game alone (``Tables.abandon``): rated a loss."""
        if not live.spec.kind.rated:
            return
        plan = abandon_plan(live, player)
        if plan is not None:
            await self.db(self.store.rate, live.id, [plan], live.spec.rules.name)

    async def adaptive_start(self, player: PlayerId) -> float:
        """The adaptive knob's start for ``player``: from their rating (0.5 for a new one)."""
        found = await self.db(self.store.ratings_of, [player])
        return adaptive_start(found.get(player, NEW_PLAYER), levels())

    async def profile(self, player: PlayerId) -> Profile:
        return await self.db(self.store.profile, player)
