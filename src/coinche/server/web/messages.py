"""The protocol's messages, typed (docs/protocol.md, docs/bot-api.md): what a browser sends
on the table socket and a bot in a request's body, read and checked in one call
(``msgspec``: a tagged union on ``type``), and what the server sends on the table, watch
and bot sockets, written by one encoder.

The seat's ``state`` is a JSON tree (``StateMessage``, a ``TypedDict``) rather than a
``Struct``: a ``step`` is what changed between two of them, found by walking both and
passing over the parts they share (``steps.py``); the game's part of it is the engine's
JSON (``docs/wire.md``). Everything else is a ``Struct`` whose fields are the message's
keys; a message omits a key only where the protocol says so (``omit_defaults``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal, TypedDict

import msgspec
from msgspec import Meta, Struct, field

# ----- what a browser sends on the table socket -----

RequestId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
"""A request's ``id``: echoed in its ``ack`` or ``error``."""
SeatNumber = Annotated[int, Meta(ge=0, le=3)]
ShortText = Annotated[str, Meta(max_length=32)]


class ClientRequest(Struct, frozen=True, tag_field="type"):
    """A request of the table socket (unknown keys are ignored)."""


class ActionMessage(ClientRequest, frozen=True, tag="action"):
    """An action, as the wire record of ``docs/wire.md`` (the engine reads it)."""

    id: RequestId
    action: Any = None


class NextDealRequest(ClientRequest, frozen=True, tag="next_deal"):
    id: RequestId


class HintRequest(ClientRequest, frozen=True, tag="hint"):
    """A hint; the only request whose ``id`` may be left out."""

    id: RequestId | None = None


class SayRequest(ClientRequest, frozen=True, tag="say"):
    """A quick message (one of ``friends.PHRASES``)."""

    id: RequestId
    phrase: ShortText


class ReactRequest(ClientRequest, frozen=True, tag="react"):
    """A reaction shown on the sender's plate (one of ``friends.EMOTES``)."""

    id: RequestId
    emote: ShortText


class SitRequest(ClientRequest, frozen=True, tag="sit"):
    """Take the seat ``seat`` (a seated player moves there before the game)."""

    id: RequestId
    seat: SeatNumber


class LeaveRequest(ClientRequest, frozen=True, tag="leave"):
    """Leave the table: a computer plays the seat for the rest of the game."""

    id: RequestId


HostOperation = Literal["move", "level", "free", "start"]
HOST_OPERATIONS: Final = ("move", "level", "free", "start")


class HostRequest(ClientRequest, frozen=True, tag="host"):
    """The host's controls: ``move`` (``seat`` to ``to``), ``level`` (of the computer at
    ``seat``), ``free`` (``seat``), ``start``. What an operation needs is checked as it is
    read: ``seat`` for all but ``start``, ``to`` for a move, ``level`` for a level."""

    id: RequestId
    op: HostOperation
    seat: SeatNumber | None = None
    to: SeatNumber | None = None
    level: ShortText | None = None

    def __post_init__(self) -> None:
        if self.op == "start":
            return
        if self.seat is None:
            raise ValueError("bad seat None")
        if self.op == "move" and self.to is None:
            raise ValueError("bad to None")
        if self.op == "level" and self.level is None:
            raise ValueError("bad level None")


class CoachRequest(ClientRequest, frozen=True, tag="coach"):
    """Switch the person's coach on or off (for every table from now on)."""

    id: RequestId
    on: bool


ClientMessage = (
    ActionMessage
    | NextDealRequest
    | HintRequest
    | SayRequest
    | ReactRequest
    | SitRequest
    | LeaveRequest
    | HostRequest
    | CoachRequest
)
"""Every message a browser may send on the table socket."""

CLIENT_TYPES: Final = ("action", "next_deal", "hint", "say", "react", "sit", "leave", "host", "coach")

client_decoder: Final = msgspec.json.Decoder(ClientMessage)


class Envelope(Struct, frozen=True):
    """What any object sent says of itself: read only to word a refusal."""

    type: Any = None
    id: Any = None


envelope_decoder: Final = msgspec.json.Decoder(Envelope)


def is_json(text: str | bytes) -> bool:
    """Whether a text a type refused is JSON at all (a decoder that expects an object
    refuses ``[1,`` at its first byte, before it finds the text cut short)."""
    try:
        msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


def problem(e: msgspec.ValidationError) -> str:
    """msgspec's words for a value that does not fit, for the ``error`` message."""
    return str(e)


# ----- what a bot sends in a request's body (bot_api.py) -----

BotRequestId = Annotated[str, Meta(min_length=1, max_length=64)]
"""A bot request's ``id`` (printable too: ``bot_api.read_body`` checks it)."""


class BotBody(Struct, frozen=True):
    """A bot request's JSON object (unknown keys are ignored)."""


class BotAction(BotBody, frozen=True):
    """``{"id": ..., "action": <an entry of the view's legal_actions>}``."""

    id: BotRequestId
    action: Any = None


class BotNextDeal(BotBody, frozen=True):
    id: BotRequestId


class BotSeat(BotBody, frozen=True):
    """The seat to take (None: the first a computer holds)."""

    seat: SeatNumber | None = None


class BotEntry(BotBody, frozen=True):
    partner: str | None = None
    code: str | None = None


class BotAnswer(BotBody, frozen=True):
    entry: str
    accept: bool


class BotNewGame(BotBody, frozen=True):
    """A game against the site's computers: a profile's name or a rules object, a target
    (the rules check it), a level (``live.tables.LEVELS``)."""

    rules: str | dict[str, Any] = "classic"
    target: Any = None
    level: str = "expert"


FIELD_IN_ERROR = re.compile(r"`\$\.([A-Za-z_]+)`|field `([A-Za-z_]+)`")


def field_in_error(e: msgspec.ValidationError) -> str | None:
    """The top-level key a validation error is about (None: the object itself)."""
    found = FIELD_IN_ERROR.search(str(e))
    return None if found is None else found.group(1) or found.group(2)


# ----- what the server sends -----


class ServerMessage(Struct, frozen=True, tag_field="type"):
    """A message of the server: ``type`` first, then the fields in order (never changed
    once made: the feed hands one object to many sockets)."""


class HelloMessage(ServerMessage, frozen=True, tag="hello"):
    seq: int
    you: int
    resumed: bool


class AckMessage(ServerMessage, frozen=True, tag="ack"):
    id: str
    seq: int


class ErrorMessage(ServerMessage, frozen=True, tag="error", omit_defaults=True):
    """A refusal: ``rule`` only for an illegal action (the rule it breaks)."""

    id: str | None
    code: str
    message: str
    rule: str | None = None


class SeatJson(TypedDict, total=False):
    """Who holds a seat: a computer's ``level``, a person's ``name``, ``guest``,
    ``stand_in``; ``presence`` where it is told."""

    seat: int
    kind: str
    level: str | None
    name: str
    guest: bool
    stand_in: str
    presence: str


class PresenceMessage(ServerMessage, frozen=True, tag="presence"):
    seq: int
    seats: list[SeatJson]
    watchers: int


class SayMessage(ServerMessage, frozen=True, tag="say"):
    seat: int
    phrase: str
    text: str
    said: str


class ReactMessage(ServerMessage, frozen=True, tag="react"):
    """A reaction: shown on ``seat``'s plate, ``said`` for the live region."""

    seat: int
    emote: str
    symbol: str
    said: str


class ClockMessage(ServerMessage, frozen=True, tag="clock"):
    seat: int
    seq: int
    seconds: int


class NoticeMessage(ServerMessage, frozen=True, tag="notice"):
    kind: str
    seat: int
    seconds: int
    text: str


class HintMessage(ServerMessage, frozen=True, tag="hint"):
    id: str | None
    action: dict[str, Any]
    text: str


class CoachMessage(ServerMessage, frozen=True, tag="coach"):
    """The coach's tip for the seat's turn at step ``seq`` (``features/coach``): ``topic``
    (``auction``, ``play``), ``text`` (what the calls mean, the expert's move and why) and
    ``trick`` (who won the last trick and why, or None)."""

    seq: int
    topic: str
    text: str
    trick: str | None


class StepMessage(ServerMessage, frozen=True, tag="step"):
    """What makes the seat's state of the step before into the state of step ``seq``:
    ``set``, ``[path, value]`` changes (``steps.py``)."""

    seq: int
    last: LastJson | None
    set: list[list[Any]]


class ResyncMessage(ServerMessage, frozen=True, tag="resync"):
    """Never sent: the feed's word that the socket reads the table again."""


class RestartingMessage(ServerMessage, frozen=True, tag="restarting"):
    """The server drains: connect again."""


class LastJson(TypedDict, total=False):
    """The step that made a state: an action (``action``, ``played_by`` when a computer
    played it for the person) or a change of who holds a seat (``seat_change``)."""

    seat: int
    seat_change: bool
    action: dict[str, Any] | None
    text: str
    played_by: str


class FriendsJson(TypedDict, total=False):
    """A table of several people: a friends' table's code, link, host and lobby, or a
    quick play table's ``quick``."""

    quick: bool
    code: str | None
    link: str | None
    host_seat: int | None
    you_host: bool
    lobby_positions: list[str]
    started: bool
    late_joins: bool


class LevelFollowsJson(TypedDict):
    summary: str
    why: str


class TableJson(TypedDict):
    id: str
    profile: str
    options: dict[str, Any]
    direction: str
    you: int
    positions: list[str]
    seats: list[SeatJson]
    seat_names: list[str]
    level: str
    level_label: str
    level_follows: LevelFollowsJson | None
    free_deals_left: int | None
    friends: FriendsJson | None
    hints: bool
    watching: bool
    heading: HeadingJson


class HeadingJson(TypedDict):
    goal: str
    sheet: str
    score: str
    target: int | None
    deals: int | None
    compare: CompareJson | None


class CompareJson(TypedDict):
    url: str
    text: str


class PartOfLink(TypedDict):
    """What a table is part of, named and linked on its page (a tournament)."""

    url: str
    text: str


class AfterGameJson(TypedDict):
    to: str
    url: str
    text: str
    line: str | None


class TournamentJson(TypedDict):
    id: str
    round: int
    deals: int
    url: str
    ahead: int | None


class DealtByJson(TypedDict):
    seat: int
    text: str


class PlayedForJson(TypedDict):
    count: int
    since: int
    until: int
    text: str


class StateMessage(TypedDict):
    """What a seat (or a watcher, from a chair) sees of its table at one step."""

    type: Literal["state"]
    seq: int
    full: bool
    table: TableJson
    game: dict[str, Any] | None
    dealing: dict[str, Any] | None
    last: LastJson | None
    awaiting_next_deal: bool
    over: bool
    challenge: str | None
    max_deals: int | None
    tournament: TournamentJson | None
    after_game: AfterGameJson
    result_lines: list[str]
    can_continue: bool
    free_deals_over: bool
    dealt_by: DealtByJson | None
    played_for_you: PlayedForJson | None


SeatMessage = StateMessage | StepMessage | ResyncMessage
"""What the feed hands a socket for one step."""

TableMessage = (
    SeatMessage
    | HelloMessage
    | AckMessage
    | ErrorMessage
    | PresenceMessage
    | SayMessage
    | ReactMessage
    | ClockMessage
    | NoticeMessage
    | HintMessage
    | CoachMessage
    | RestartingMessage
)
"""Whatever the table socket sends."""

EventMessage = PresenceMessage | SayMessage | ReactMessage | ClockMessage | NoticeMessage
"""What a passing event of the table's hub says."""


# ----- the bot stream (bot_stream.py) -----


class BotHello(ServerMessage, frozen=True, tag="hello"):
    protocol: int
    name: str


class BotPing(ServerMessage, frozen=True, tag="ping"):
    pass


class BotRevoked(ServerMessage, frozen=True, tag="revoked"):
    pass


class BotRestarting(ServerMessage, frozen=True, tag="restarting"):
    pass


class BotInvitation(ServerMessage, frozen=True, tag="invitation"):
    id: str
    from_: str = field(name="from")
    table: str
    code: str | None
    seat: int | None = None
    """The seat offered (None: the first a computer holds), which ``accept`` with ``{}`` takes."""


class BotTable(ServerMessage, frozen=True, tag="table"):
    table: str
    seat: int
    rules: dict[str, Any]
    players: list[str | None]
    friends: bool


class BotTableLeft(ServerMessage, frozen=True, tag="table_left"):
    table: str


class BotDealOver(ServerMessage, frozen=True, tag="deal_over"):
    table: str
    deal: int
    view: dict[str, Any]
    score: list[int] | None


class BotGameOver(ServerMessage, frozen=True, tag="game_over"):
    table: str
    totals: list[int]
    winner: int | None


class BotTurnGame(Struct, frozen=True):
    deal_number: int
    target: int
    totals: list[int]
    history: list[list[int]]
    winner: int | None


class BotTurn(ServerMessage, frozen=True, tag="turn"):
    table: str
    step: int
    seat: int
    view: dict[str, Any]
    game: BotTurnGame
    time_ms: int


class BotDealWait(ServerMessage, frozen=True, tag="deal_wait"):
    table: str
    step: int


BotEvent = (
    BotHello
    | BotPing
    | BotRevoked
    | BotRestarting
    | BotInvitation
    | BotTable
    | BotTableLeft
    | BotDealOver
    | BotGameOver
    | BotTurn
    | BotDealWait
)
"""A line of the bot's event stream."""


# ----- what the bot API answers (bot_api.py) -----


class BotAnswerBody(Struct, frozen=True):
    """A bot request's JSON answer."""


class BotRefusal(BotAnswerBody, frozen=True):
    error: str
    message: str


class BotAccount(BotAnswerBody, frozen=True):
    name: str
    owner: str | None
    player: str


class BotStepDone(BotAnswerBody, frozen=True):
    """The table's seq after the request."""

    step: int


class BotOk(BotAnswerBody, frozen=True):
    ok: bool = True


class BotSeated(BotAnswerBody, frozen=True):
    table: str
    seat: int | None


class BotNewTable(BotAnswerBody, frozen=True):
    table: str


class BotEntered(BotAnswerBody, frozen=True):
    entry: str


class BotOpenTable(Struct, frozen=True):
    code: str
    rules: str
    target: int
    free_seats: int
    seats: list[dict[str, Any]]
    """The open tables list's seats, as stored (``features.open_tables``)."""


class BotOpenTables(BotAnswerBody, frozen=True):
    tables: list[BotOpenTable]


class BotTournament(Struct, frozen=True):
    id: str
    name: str
    format: str
    rules: dict[str, Any]
    starts_at: str
    alone: bool


class BotTournaments(BotAnswerBody, frozen=True):
    tournaments: list[BotTournament]


encoder: Final = msgspec.json.Encoder()
"""The one encoder of the server's messages (Structs and JSON trees alike)."""


def encode(message: object) -> bytes:
    """A message's JSON (compact, UTF-8)."""
    return encoder.encode(message)
