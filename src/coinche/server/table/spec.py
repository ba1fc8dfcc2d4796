"""A table's value types, as its log stores them: who holds each seat (``Seat``), what the
table is before any step (``TableSpec``) and one step of its log (``Step``). Immutable, no
database: the store writes and reads them, the live table applies them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from ...engine.rules import RuleSet

SeatKind = Literal["human", "bot"]
StepKind = Literal["action", "deal", "seat", "swap", "par"]
PlayedBy = Literal["away", "idle"]


@dataclass(frozen=True)
class Seat:
    """Who holds a seat: a person (``player``) or a computer (``level``)."""

    kind: SeatKind
    player: str | None = None
    """The player seated here (``human`` seats)."""
    level: str | None = None
    """The bot's level (``bot`` seats): ``beginner``, ``confirmed``, ``expert``, ``adaptive``
    or any ``module:attribute`` the bot loader knows."""
    name: str | None = None
    """The name the person gave at a friends' table (None at a solo table)."""
    stand_in: str | None = None
    """A person's seat that a computer of this level plays while they are away (their
    connection dropped longer than the grace period); None when they play it themselves."""
    gone: str | None = None
    """On a computer's seat: the person who held it and has gone during the game (they left
    or gave it up, or the host freed it while a computer stood in for them). The ratings
    count them as a leaver (``player_stats.py``); a person the host moved out while they
    were there is not one (None)."""
    guest: bool = False
    """The person sat without an account (their ``name`` is any they gave): marked as a
    guest wherever the name shows, so nobody passes for an account's owner."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "player": self.player, "level": self.level}
        if self.name is not None:
            data["name"] = self.name
        if self.stand_in is not None:
            data["stand_in"] = self.stand_in
        if self.gone is not None:
            data["gone"] = self.gone
        if self.guest:
            data["named_guest"] = True
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        kind = data.get("kind")
        if kind not in ("human", "bot"):
            raise ValueError(f"not a seat: {data!r}")
        return Seat(
            kind,
            data.get("player", data.get("guest")),
            data.get("level"),
            data.get("name"),
            data.get("stand_in"),
            data.get("gone"),
            data.get("named_guest") is True,
        )

    @property
    def played_by_computer(self) -> bool:
        """A computer chooses this seat's moves (a computer's seat, or an absent person's)."""
        return self.kind == "bot" or self.stand_in is not None


Seats = tuple[Seat, Seat, Seat, Seat]


def seat_of(seats: Seats, player: str) -> int | None:
    """The seat ``player`` holds among ``seats``, None if none."""
    for i, seat in enumerate(seats):
        if seat.kind == "human" and seat.player == player:
            return i
    return None


@dataclass(frozen=True)
class TableSpec:
    """What a table is before any step: its rules, dealing seed, first dealer, first seats."""

    id: str
    rules: RuleSet
    seed: int
    first_dealer: int
    seats: Seats
    level: str
    code: str | None = None
    """A friends' table's invitation code; None for a solo table."""
    host: str | None = None
    """The player who made a friends' table: they move players, set the computers' levels,
    free seats and start the game."""
    late_joins: bool = False
    """A friend may take a computer's seat between deals once the game has started."""
    secret: bytes | None = field(default=None, repr=False)
    """The table's dealing secret (docs/dealing.md): each deal's seed is derived from it.
    Never sent to a client nor written to a record; None for a table of before it."""
    challenge: str | None = None
    """The day (``YYYY-MM-DD``) of the daily challenge this table plays (``daily.py``): its
    four deals are dealt under the label ``defi-<day>`` with the day's seed as the secret,
    the game ends after them, and it uses no free deal. None: any other table."""
    adaptive_start: float | None = None
    """An adaptive table's knob at the start (0..1, from the player's rating); None: 0.5."""
    adaptive_par: bool = False
    """The adaptive knob moves with the player's score against each deal's double-dummy par
    (a ``par`` step, stored once the workers computed it), not with the raw score that the
    cards dealt decide. False: tables of before it."""
    idle_clock: bool = True
    """A person who lets their turn's time run out is warned, then the computer plays that
    move for them (a clock everyone at the table sees): at quick play, open tables and
    tournaments' rounds always, at a friends' table as the host chose."""
    quick_play: bool = False
    """Quick play seated these people together (``features/quick_play.py``): strangers,
    dealt at once, nobody hosts it; the friends' tables' rules of presence apply."""

    tournament: str | None = None
    """The tournament whose round this table plays (``features/tournaments.py``): its deals
    are dealt under the label ``tournoi-<id>-<round>`` with the tournament's secret, so
    every table of the round plays the same deals; None: any other table."""
    tournament_round: int = 0
    deal_limit: int | None = None
    """The game ends after this many deals whatever the scores (a tournament's round)."""
    closes_at: datetime | None = None
    """No move is taken from then on (a tournament round's clock ran out)."""

    def seat_of(self, player: str) -> int | None:
        return seat_of(self.seats, player)

    @property
    def is_private(self) -> bool:
        """A friends' table: its first deal waits for the host to start the game."""
        return self.code is not None

    @property
    def shared(self) -> bool:
        """A table made for several people (a friends' table or quick play's): who is here
        is told, a person away long is stood in for, and clocks run once two people sit (or
        one, at a table that waits for nobody: ``clocks_run_alone``)."""
        return self.code is not None or self.quick_play or self.tournament is not None

    @property
    def clocks_run_alone(self) -> bool:
        """A person alone with computers is stood in for once away past the grace period,
        and meets the idle clock, as at a table of several people: a tournament's round is
        rated and its clock scores the table as it stands, so it must never wait for one
        person (a lead kept by stalling). A person alone at their own game may pause."""
        return self.tournament is not None

    @property
    def dealing_id(self) -> str:
        """The table id the deals are dealt under (docs/dealing.md): the table's own id, or
        ``defi-<day>`` for a daily challenge's table (every player's table deals the same)."""
        if self.tournament is not None:
            return f"tournoi-{self.tournament}-{self.tournament_round}"
        return self.id if self.challenge is None else f"defi-{self.challenge}"

    @property
    def max_deals(self) -> int | None:
        """The game ends after this many deals (the daily challenge: 4, a tournament's
        round: its deals); None: when won."""
        return 4 if self.challenge is not None else self.deal_limit

    @property
    def allows_hints(self) -> bool:
        """Whether a player may ask the expert what to play: not at the daily challenge (the
        same help for everyone: none) nor among strangers (quick play and tournaments are
        rated)."""
        return self.challenge is None and not self.quick_play and self.tournament is None

    @property
    def uses_free_deals(self) -> bool:
        """Each deal dealt counts a free deal of each guest seated (not at a friends' table,
        whose guests play the whole game, nor at the daily challenge)."""
        return self.code is None and self.challenge is None and not self.quick_play and self.tournament is None


@dataclass(frozen=True)
class RoundDeals:
    """How a tournament's round deals at each of its tables (``TableService.create_table``):
    the tournament's secret, the round's table seed and first dealer, its deals and clock."""

    tournament: str
    round: int
    secret: bytes = field(repr=False)
    seed: int
    first_dealer: int
    deals: int
    closes_at: datetime


@dataclass(frozen=True)
class Step:
    """One step of a table's log: ``seq`` (from 0) and what it did."""

    seq: int
    kind: StepKind
    seat: int
    action: int | None = None
    """The engine's action (``action`` steps)."""
    seat_data: Seat | None = None
    """The seat's new holder (``seat`` steps)."""
    request_id: str | None = None
    """``player:id`` of the client request that made it (None for a computer's action)."""
    other_seat: int | None = None
    """A ``swap`` step's second seat."""
    played_by: PlayedBy | None = None
    """An action a computer chose for a person's seat: ``away`` (they were replaced after
    their connection dropped) or ``idle`` (they let their turn's time run out)."""
    par: tuple[int, int] | None = None
    """A ``par`` step's deal (from 1) and that deal's double-dummy par for team 0
    (``analysis.par_margin``)."""
    explanation: dict[str, Any] | None = None
    """A computer's reasons (only when written; not read back with the log)."""
