"""What differs between kinds of table, each kind one class: a solo game against the
computer, a friends' table, quick play's strangers, a tournament's round, the daily
challenge. A table's ``TableSpec.kind`` answers every question whose answer depends on why
the table exists (how it deals and who deals the next deal, when it ends and where its end
leads, what its page says it is played to and what it is part of, who helps, who is stood
in for); the code that
asks never tests which kind it holds. A new kind of table is one new class here and
one line in the store's mapping (``infra/store.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Final, Protocol

from ...engine.game import Game
from .days import day_end

WATCHED_BY_NOBODY: Final = "nobody"
"""Who may watch a table: nobody."""
WATCHED_WHILE_LISTED: Final = "listed"
"""Anyone, while its host lists it among the open tables and its players leave it open to
watchers (``features/open_tables.py``)."""
WATCHED_AFTER_SHARED_DEALS: Final = "shared_deals"
"""Anyone, account or not, up to the end of the last deal every table dealt the same deals
has finished (``features/tournaments``): never a deal someone may still have to play."""


@dataclass(frozen=True)
class Sight:
    """What a watcher may see of a table now: all of it as it plays (``deals`` None), or
    the table as it stood when its deal ``deals`` ended."""

    deals: int | None = None


class WatchRule(Protocol):
    """The feature that decides for the tables of one ``TableKind.watched`` rule (given
    its feature at start-up, ``services.py``)."""

    async def sight(self, table_id: str, kind: TableKind) -> Sight | None:
        """What a watcher may see of the table now, None: nothing (not watchable)."""
        ...


@dataclass(frozen=True)
class Dealing:
    """How a table deals when it is not at random: the dealing secret every deal's seed
    comes from (docs/dealing.md), the table's seed and its first dealer. Several tables
    given the same ``Dealing`` and ``dealing_id`` play the same deals."""

    secret: bytes
    seed: int
    first_dealer: int


NEW_GAME: Final = "new_game"
"""Where a game's end leads: a new game (the home page)."""
TOURNAMENT: Final = "tournament"
"""Back to the tournament whose round the table played (its standings, the next round)."""
CHALLENGE_RANKING: Final = "challenge_ranking"
"""The daily challenge's ranking of the day played (one attempt a day: no new game)."""
CHALLENGE_DEAL: Final = "challenge_deal"
"""How everyone who played a deal of the daily challenge did (a finished deal's page)."""


@dataclass(frozen=True)
class Way:
    """Where the table's page leads: one of the destinations above and what it needs (the
    tournament's id, the challenge's day). The web layer makes it an address and words in
    the page's language."""

    to: str
    of: str | None = None
    number: int | None = None
    """Which part of it, where it has parts (a tournament's round)."""


@dataclass(frozen=True)
class Heading:
    """What the page says the game is played to, as catalogue keys the web layer says in
    the page's language: the objective (``goal``), the score sheet's caption (``sheet``)
    and the score read aloud (``score``, also given ``us``, ``them`` and the deal's
    ``number``), with the parameters they take. ``deals``: the game's fixed number of deals
    (None: played to a target)."""

    goal: str
    sheet: str
    score: str
    params: tuple[tuple[str, int], ...] = ()
    deals: int | None = None


@dataclass(frozen=True)
class TableKind:
    """A solo table's answers; every other kind overrides what differs. What is the same for
    every table of a kind is a class attribute; what depends on the table, a property."""

    name: ClassVar[str] = "solo"
    several_people: ClassVar[bool] = False
    """Made for several people: who is here is told, a person away long is stood in for,
    and the clock runs once two people sit. False: one person against the computer, who
    may pause."""
    clocks_run_alone: ClassVar[bool] = False
    """Even one person alone with computers is stood in for once away past the grace
    period, and meets the idle clock: a table that must never wait for one person."""
    waits_for_host: ClassVar[bool] = False
    """Its first deal waits for its host to start the game (else it is dealt at once)."""
    allows_hints: ClassVar[bool] = True
    """A player may ask the expert what to play (not where results are compared); the
    coach may be switched on there (``features/coach``)."""
    coaches_newcomers: ClassVar[bool] = True
    """A newcomer's first deals here are coached without asking (one person against the
    computer)."""
    uses_free_deals: ClassVar[bool] = True
    """Each deal dealt counts a free deal of each guest seated."""
    rated: ClassVar[bool] = True
    """Its deals and games count in the players' statistics and ratings."""
    seasonal: ClassVar[bool] = False
    """Its rated games count in the month's season of their rules (docs/seasons.md)."""
    shares_deals: ClassVar[bool] = False
    """Other tables are dealt the same deals (compared results): none of them may be given
    away (as a puzzle) while someone may still have to play it."""
    follows_its_player: ClassVar[bool] = True
    """A game one person owns: a guest's game in progress becomes their account's when
    they log in (not where a host names the seats or one attempt is counted per person)."""
    watched: ClassVar[str] = WATCHED_BY_NOBODY
    """Who may watch it and when: one of the ``WATCHED_*`` rules."""
    may_be_listed: ClassVar[bool] = False
    """Its host may list it among the open tables (``features/open_tables.py``)."""
    paced: ClassVar[bool] = True
    """The computers' moves wait ``Settings.bot_delay`` (and the trick's pause) so people
    can follow them; False: a table of programs, played as fast as they answer."""

    def dealing_id(self, table_id: str) -> str:
        """The id the deals are dealt under (docs/dealing.md): the table's own."""
        return table_id

    @property
    def max_deals(self) -> int | None:
        """The game ends after this many deals whatever the scores; None: when won."""
        return None

    def closes_at(self) -> datetime | None:
        """No move is taken from then on, computers' included (the server's clock); None:
        never."""
        return None

    def refusal_at(self, now: datetime) -> str | None:
        """Why a person's move is refused at ``now`` whatever it is (an error code), None
        while the table takes moves."""
        closes = self.closes_at()
        return "round_over" if closes is not None and now >= closes else None

    @property
    def host(self) -> str | None:
        """The person who sets the seats and starts the game; None: nobody hosts."""
        return None

    @property
    def members_only(self) -> str | None:
        """The club whose members alone may sit here; None: no such rule."""
        return None

    @property
    def idle_clock(self) -> bool:
        """A person who lets their turn's time run out is warned, then played for."""
        return self.several_people

    @property
    def late_joins(self) -> bool:
        """A person may take a computer's seat between deals once the game has started."""
        return False

    def winner(self, game: Game) -> int | None:
        """The team that won the game, None while it goes on."""
        return game.winner

    def deal_refusal(self, player: str, started: bool) -> str | None:
        """Why ``player``, seated, may not ask for the next deal (an error code), None when
        they may. Every person seated deals the next deal once the summary is read (the
        first who asks; a table whose seats are all computers deals on by itself); the first
        deal of a table that waits for its host is its host's alone (every other kind deals
        its first at once)."""
        return None if started or player == self.host else "not_host"

    def heading(self, target: int) -> Heading:
        """What the page says the game is played to (``target``: the rules' objective)."""
        return Heading("js.target", "js.score_sheet", "js.read.score", (("target", target),))

    @property
    def after_game(self) -> Way:
        """Where the game's end leads the players: a new game."""
        return Way(NEW_GAME)

    @property
    def deal_compared(self) -> Way | None:
        """Where a finished deal is compared with the other tables that played it, None:
        nowhere (no other table played it, or not to be compared deal by deal)."""
        return None

    @property
    def part_of(self) -> Way | None:
        """What the table is part of, which its page names and links to (a tournament),
        None: nothing (the table is its own game)."""
        return None


@dataclass(frozen=True)
class SoloTable(TableKind):
    """One person against three computers, a game they started themselves."""


@dataclass(frozen=True)
class FriendsTable(TableKind):
    """A table its host made for friends, who come by its invitation code; its host may
    open it to everyone (``features/open_tables.py``). Friends invited play the whole game,
    guests or not."""

    name: ClassVar[str] = "friends"
    several_people: ClassVar[bool] = True
    coaches_newcomers: ClassVar[bool] = False
    waits_for_host: ClassVar[bool] = True
    uses_free_deals: ClassVar[bool] = False
    follows_its_player: ClassVar[bool] = False
    watched: ClassVar[str] = WATCHED_WHILE_LISTED
    may_be_listed: ClassVar[bool] = True
    code: str = ""
    """The invitation code (``/rejoindre/<code>``)."""
    host_player: str = ""
    """The player who made it."""
    joins_late: bool = False
    """The host lets a friend take a computer's seat between deals once started."""
    clock: bool = True
    """The host plays with the clock (the idle clock)."""
    club: str = ""
    """The club it was made for ("": none); its page lists it."""
    club_only: bool = False
    """Only the club's members may sit there (``features/clubs``: a gate of the seats)."""

    @property
    def host(self) -> str | None:
        return self.host_player

    @property
    def members_only(self) -> str | None:
        return self.club if self.club and self.club_only else None

    @property
    def idle_clock(self) -> bool:
        return self.clock

    @property
    def late_joins(self) -> bool:
        return self.joins_late


@dataclass(frozen=True)
class QuickPlayTable(TableKind):
    """Strangers quick play seated together: dealt at once, nobody hosts, rated."""

    name: ClassVar[str] = "quick_play"
    several_people: ClassVar[bool] = True
    seasonal: ClassVar[bool] = True
    allows_hints: ClassVar[bool] = False
    uses_free_deals: ClassVar[bool] = False
    follows_its_player: ClassVar[bool] = False


@dataclass(frozen=True)
class TournamentTable(TableKind):
    """A table of a tournament's round: every table of the round deals the same deals
    (under ``tournoi-<id>-<round>``), the game is so many deals and whoever is ahead after
    them won it, and no move is taken once the round's clock has run out. The round is
    rated and its clock scores the table as it stands: a lead is never kept by stalling,
    nor the round lost by not coming (``clocks_run_alone``)."""

    name: ClassVar[str] = "tournament"
    several_people: ClassVar[bool] = True
    clocks_run_alone: ClassVar[bool] = True
    allows_hints: ClassVar[bool] = False
    uses_free_deals: ClassVar[bool] = False
    shares_deals: ClassVar[bool] = True
    follows_its_player: ClassVar[bool] = False
    watched: ClassVar[str] = WATCHED_AFTER_SHARED_DEALS
    tournament: str = ""
    round: int = 0
    deals: int = 1
    closes: datetime | None = None

    def dealing_id(self, table_id: str) -> str:
        return f"tournoi-{self.tournament}-{self.round}"

    @property
    def max_deals(self) -> int | None:
        return self.deals

    def closes_at(self) -> datetime | None:
        return self.closes

    def winner(self, game: Game) -> int | None:
        return game.leading_team if game.is_over else None

    def heading(self, target: int) -> Heading:
        params = (("round", self.round), ("deals", self.deals))
        return Heading("js.tournament_goal", "js.tournament_sheet", "js.read.tournament_score", params, self.deals)

    @property
    def after_game(self) -> Way:
        """The round's results on the tournament's page (``number``: the round)."""
        return Way(TOURNAMENT, self.tournament, self.round)

    @property
    def part_of(self) -> Way | None:
        return Way(TOURNAMENT, self.tournament)


@dataclass(frozen=True)
class DailyChallengeTable(TableKind):
    """The daily challenge of ``day`` (``YYYY-MM-DD``): every player's table deals the same
    four deals (under ``defi-<day>``), with no help, open to guests whatever deals they
    played, one attempt per person; its results are the day's standings, not the profile's
    counters, and it takes no move after the day (its seed is public then, and with it
    every hand)."""

    name: ClassVar[str] = "daily_challenge"
    DEALS: ClassVar[int] = 4
    allows_hints: ClassVar[bool] = False
    uses_free_deals: ClassVar[bool] = False
    rated: ClassVar[bool] = False
    shares_deals: ClassVar[bool] = True
    follows_its_player: ClassVar[bool] = False
    day: str = ""

    def dealing_id(self, table_id: str) -> str:
        return f"defi-{self.day}"

    @property
    def max_deals(self) -> int | None:
        return self.DEALS

    def refusal_at(self, now: datetime) -> str | None:
        return "challenge_over" if now >= day_end(self.day) else None

    def heading(self, target: int) -> Heading:
        params = (("deals", self.DEALS),)
        return Heading("js.challenge_goal", "js.challenge_sheet", "js.read.challenge_score", params, self.DEALS)

    @property
    def after_game(self) -> Way:
        return Way(CHALLENGE_RANKING, self.day)

    @property
    def deal_compared(self) -> Way | None:
        return Way(CHALLENGE_DEAL, self.day)


@dataclass(frozen=True)
class LadderTable(TableKind):
    """A table of the engine ladder's duplicate match ``match`` (``features/ladder``): two
    bots (or a bot and one of the site's computer levels), each with the site's expert as
    partner, at two tables dealt the same deals (under ``echelle-<match>``) with the sides
    swapped, so whatever the cards give one side at a table they give the other at the
    second. A game of ``deals`` deals; it waits for nobody: a bot that does not act in its
    time or has gone is played for by a computer (a fault the ladder counts). Not rated
    as the site's games: the ladder keeps its own ratings."""

    name: ClassVar[str] = "ladder"
    several_people: ClassVar[bool] = True
    clocks_run_alone: ClassVar[bool] = True
    allows_hints: ClassVar[bool] = False
    coaches_newcomers: ClassVar[bool] = False
    uses_free_deals: ClassVar[bool] = False
    rated: ClassVar[bool] = False
    shares_deals: ClassVar[bool] = True
    follows_its_player: ClassVar[bool] = False
    paced: ClassVar[bool] = False
    match: str = ""
    deals: int = 4

    def dealing_id(self, table_id: str) -> str:
        return f"echelle-{self.match}"

    @property
    def max_deals(self) -> int | None:
        return self.deals

    def winner(self, game: Game) -> int | None:
        return game.leading_team if game.is_over else None

    def heading(self, target: int) -> Heading:
        params = (("deals", self.deals),)
        return Heading("js.ladder_goal", "js.ladder_sheet", "js.read.ladder_score", params, self.deals)


def ladder_match_of(kind: TableKind) -> str | None:
    """The ladder match a table of this kind plays, None for any other kind."""
    return kind.match if isinstance(kind, LadderTable) else None


def challenge_day(kind: TableKind) -> str | None:
    """The day of the daily challenge a table of this kind plays, None for any other kind:
    its results belong to that day's standings."""
    return kind.day if isinstance(kind, DailyChallengeTable) else None


def tournament_of(kind: TableKind) -> str | None:
    """The tournament whose round a table of this kind plays, None for any other kind."""
    return kind.tournament if isinstance(kind, TournamentTable) else None


def invitation_code(kind: TableKind) -> str | None:
    """A friends' table's invitation code, None for any other kind (nobody is invited)."""
    return kind.code if isinstance(kind, FriendsTable) else None


SOLO: Final = SoloTable()
"""The kind of a table nothing else made: one person against the computer."""
