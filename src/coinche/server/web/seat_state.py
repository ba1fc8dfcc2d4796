"""The ``state`` message (docs/protocol.md): what one seat sees of its table at a step,
built from that seat's view only, with the words of the page in the seat's language (who
sits where, what the last move was, what a computer played for the person). A watcher's is
the same message seen from a chair, with no hand and no choice.

Nothing here does I/O: the feed (``feed.py``) renders a seat's state once a step, and
``steps.py`` turns two states into the ``step`` that tells what changed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ...bots.adaptive import KNOB_LEVELS, level_span
from ...engine.actions import DECLARE_BASE, Action, call_str, card_of, is_announce, is_card, is_declaration
from ...engine.cards import card_str
from ...engine.deal import DealResult, View
from ...engine.game import GameView
from ...engine.wire import action_to_json, game_view_to_json, seat_view_to_json
from ..table import i18n
from ..table.fair_deals import current_dealing_json
from ..table.kinds import FriendsTable, TournamentTable, challenge_day
from ..table.live_table import LiveTable
from ..table.seating import people_names, seat_positions
from ..table.spec import Seat
from .kind_words import after_game_json, heading_json
from .messages import (
    AfterGameJson,
    DealtByJson,
    FriendsJson,
    LastJson,
    LevelFollowsJson,
    PlayedForJson,
    SeatJson,
    StateMessage,
    StepMessage,
    TableJson,
    TournamentJson,
)
from .pages import ADDRESSES
from .steps import Diffs

PLAYED_FOR_SCAN = 2000
"""How far back the log is read for the moves a computer made for a person (about thirty
deals of a person away; the walk stops at the person's own last move, usually a few steps)."""
PLAYED_FOR_SHOWN = 16
"""The latest moves the sentence names; older ones are counted."""


def level_label(lang: str, live: LiveTable) -> str:
    level = live.adaptive_level
    if level is None:
        return i18n.gettext(lang, f"level.{live.spec.level}")
    return adaptive_label(lang, level)


def level_follows(lang: str, live: LiveTable) -> LevelFollowsJson | None:
    """What an adaptive computer's level follows, at a table that follows the par: a
    summary (the last deal's score against its par, once there is one) and why (None at
    other tables)."""
    if live.adaptive_level is None or not live.spec.adaptive_par:
        return None
    last = live.against_par[max(live.against_par)] if live.against_par else None
    if last is not None:
        diff = f"+{last}" if last > 0 else f"\u2212{-last}" if last < 0 else "0"
        summary = i18n.gettext(lang, "level.last_par", diff=diff)
    else:
        summary = i18n.gettext(lang, "level.follows_summary")
    return {"summary": summary, "why": i18n.gettext(lang, "level.follows_par")}


def adaptive_label(lang: str, level: float) -> str:
    """The adaptive computer's knob in words: the level it plays, or the two it mixes
    ("Adaptatif, surtout Débutant", "Adaptatif, entre Confirmé et Expert")."""
    names = [i18n.gettext(lang, f"level.{KNOB_LEVELS[i]}") for i in level_span(level)]
    if len(names) == 1:
        shown = i18n.gettext(lang, "level.at", level=names[0])
    else:
        # the knob's place between the two levels it mixes: the share of the upper one
        upper = level * 2 - level_span(level)[0]
        if upper < MOSTLY:
            shown = i18n.gettext(lang, "level.mostly", level=names[0])
        elif upper > 1 - MOSTLY:
            shown = i18n.gettext(lang, "level.mostly", level=names[1])
        else:
            shown = i18n.gettext(lang, "level.between", low=names[0], high=names[1])
    return i18n.gettext(lang, "level.adaptive_label", names=shown)


MOSTLY = 0.25
"""Below this share of its decisions, the other level of the adaptive computer's mix is not
named: "surtout Débutant" rather than a percentage nobody can read."""


def seat_sentence(
    lang: str, names: list[str], step_seat: int, before: Seat | None, after: Seat, names_before: list[str]
) -> str:
    """What the live region says of a change of seat (``before``: its holder until then,
    ``names_before``: the seats' names with that holder)."""
    who = names[step_seat]
    if after.kind == "human" and after.stand_in is not None:
        return i18n.gettext(lang, "live.replaced", seat=who)
    if after.kind == "human" and before is not None and before.stand_in is not None and before.player == after.player:
        return i18n.gettext(lang, "live.back", seat=who)
    if after.kind == "human":
        return i18n.gettext(lang, "live.sits", seat=who)
    level = i18n.gettext(lang, f"level.{after.level}")
    if before is not None and before.kind == "human":
        return i18n.gettext(lang, "live.left", seat=names_before[step_seat], level=level)
    return i18n.gettext(lang, "live.computer", seat=who, level=level)


def action_sentence(lang: str, names: list[str], seat: int, action: Action) -> str:
    """What the live region says of an action: ``Est joue le Dix de pique``."""
    who = names[seat]
    if is_card(action):
        key = "live.card_belote" if is_announce(action) else "live.card"
        return i18n.gettext(lang, key, seat=who, card=i18n.card_with_article(lang, card_str(card_of(action))))
    if is_declaration(action):
        return ""
    return i18n.gettext(lang, "live.call", seat=who, call=i18n.call_name(lang, call_str(action)))


def last_action(
    lang: str, live: LiveTable, viewer: int, view: View | None, names: list[str], watching: bool = False
) -> LastJson | None:
    """The step that made this state, as ``viewer`` may see it (``watching``: a watcher in
    its chair, who is none of the seats): an action, or a change of who holds a seat
    (None after a deal step)."""
    step = live.last
    if step is None:
        return None
    if step.kind == "seat" and step.seat_data is not None:
        before = live.replaced
        people = named_people(live, lang)
        if before is not None and before.kind == "human":
            people[step.seat] = _person(lang, before)
        names_before = people_names(lang, live.spec.rules.direction, viewer, people)
        text = seat_sentence(lang, names, step.seat, before, step.seat_data, names_before)
        return {"seat": step.seat, "seat_change": True, "text": text}
    if step.kind == "swap" and step.other_seat is not None:
        text = i18n.gettext(lang, "live.swap", seat=names[step.seat], other=names[step.other_seat])
        return {"seat": step.seat, "seat_change": True, "text": text}
    if step.kind != "action" or step.action is None or view is None:
        return None
    action = step.action
    record: dict[str, Any]  # the engine's record of the action (docs/wire.md)
    if is_declaration(action):
        # Which choice another seat took would tell that it holds melds (a seat without
        # any has one choice only): only the seat itself learns it; melds show when shown.
        record = {"declare": action - DECLARE_BASE if step.seat == view.seat and not watching else None}
    else:
        record = action_to_json(action, view)
    text = action_sentence(lang, names, step.seat, action)
    if step.played_by == "idle" and text:
        text = i18n.gettext(lang, "live.idle_move", seat=names[step.seat], move=text)
    out: LastJson = {"seat": step.seat, "action": record, "text": text}
    if step.played_by is not None:
        out["played_by"] = step.played_by
    return out


def friends_json(live: LiveTable, seat: int) -> FriendsJson | None:
    """What a table of several people shows its players besides the game: a friends'
    table's code and who hosts it (a quick play table has neither: ``quick``)."""
    spec = live.spec
    kind = spec.kind
    if not kind.several_people:
        return None
    if not isinstance(kind, FriendsTable):
        return {"quick": True, "code": None, "link": None, "host_seat": None, "you_host": False, "started": True}
    return {
        "code": kind.code,
        "link": f"/rejoindre/{kind.code}",
        "host_seat": live.seat_of(kind.host_player),
        "you_host": live.seats[seat].player == kind.host_player,
        # the lobby names the seats as the invitation does, alike for everyone (at the
        # table each person sees themselves at the bottom: the lobby says so)
        "lobby_positions": seat_positions(spec.rules.direction, 0),
        "started": live.started,
        "late_joins": kind.late_joins,
    }


def seats_json(live: LiveTable, presence: Sequence[str] | None) -> list[SeatJson]:
    """Who holds each seat: a computer and its level, or a person (their name at a
    friends' table, whether they are here, away or replaced)."""
    out: list[SeatJson] = []
    for i, holder in enumerate(live.seats):
        entry: SeatJson = {"seat": i, "kind": holder.kind}
        if holder.kind == "bot":
            entry["level"] = holder.level
        else:
            if holder.name is not None:
                entry["name"] = holder.name
            if holder.guest:
                entry["guest"] = True
            if holder.stand_in is not None:
                entry["stand_in"] = holder.stand_in
        if presence is not None:
            entry["presence"] = presence[i]
        out.append(entry)
    return out


def watched_seat_name(lang: str, direction: str, chair: int, seat: int, person: str | None) -> str:
    """How a watcher's page (from ``chair``) names a seat: "Sud (Paul)", "Nord"."""
    position = i18n.gettext(lang, f"seat.short.{seat_positions(direction, chair)[seat]}")
    return position if person is None else i18n.gettext(lang, "seat.person", seat=position, name=person)


def named_people(live: LiveTable, lang: str) -> list[str | None]:
    """The name of the person at each seat ("Paul, invité" for a guest's), None for a computer."""
    return [_person(lang, h) if h.kind == "human" else None for h in live.seats]


def _person(lang: str, holder: Seat) -> str | None:
    """A person's name as the table says it: a guest's marked as such."""
    if holder.name is None or not holder.guest:
        return holder.name
    return i18n.gettext(lang, "seat.guest_name", name=holder.name)


def tournament_json(lang: str, live: LiveTable) -> TournamentJson | None:
    """A tournament round's table: the tournament, the round, the round's number of deals
    (the game ends after them, no target counts), the tournament's page in ``lang`` (the
    way on at the end) and, once the round is over, the team ahead on points (None: level,
    a tie); None at any other table."""
    kind = live.spec.kind
    if not isinstance(kind, TournamentTable):
        return None
    return {
        "id": kind.tournament,
        "round": kind.round,
        "deals": kind.deals,
        "url": f"{ADDRESSES[lang]['tournament']}/{kind.tournament}",
        "ahead": kind.winner(live.game) if live.started else None,
    }


def dealt_by_json(lang: str, live: LiveTable, seat: int | None, names: list[str]) -> DealtByJson | None:
    """Who dealt the deal in progress (their request did): a friends' table tells the others
    who went on, in the last deal's summary too; ``seat`` the reader's (None: a watcher's,
    to whom every seat is named)."""
    who = live.dealt_by
    if who is None or not live.spec.kind.several_people or not live.started:
        return None
    text = (
        i18n.gettext(lang, "live.dealt_by_you") if who == seat else i18n.gettext(lang, "live.dealt_by", seat=names[who])
    )
    return {"seat": who, "text": text}


def _move_words(lang: str, action: Action) -> str:
    """A move in a list: ``80♣``, ``Passe``, ``V♥``."""
    if is_card(action):
        return i18n.card_short(lang, card_str(card_of(action)))
    if is_declaration(action):
        return i18n.gettext(lang, "live.played_declaration")
    return i18n.call_name(lang, call_str(action))


def played_for_json(lang: str, live: LiveTable, seat: int) -> PlayedForJson | None:
    """The moves a computer made for the person at ``seat`` since their own last one (they
    were away, or let their time run out): told when they are back, until they act. ``until``
    is the last such step, so a page closes the notice of those moves once."""
    holder = live.seats[seat]
    if holder.kind != "human":
        return None
    found = []
    for step in itertools.islice(reversed(live.steps), PLAYED_FOR_SCAN):
        if step.kind == "action" and step.seat == seat:
            if step.played_by is None:
                break
            found.append(step)
        elif step.kind == "swap" and seat in (step.seat, step.other_seat):
            break
        elif (
            step.kind == "seat"
            and step.seat == seat
            and step.seat_data is not None
            and step.seat_data.player != holder.player
        ):
            break  # someone else held the seat before: those moves were not made for them
    if not found:
        return None
    found.reverse()
    moves = ", ".join(_move_words(lang, step.action) for step in found[-PLAYED_FOR_SHOWN:] if step.action is not None)
    if len(found) > PLAYED_FOR_SHOWN:
        moves = i18n.gettext(lang, "live.played_more", moves=moves, more=len(found) - PLAYED_FOR_SHOWN)
    key = "live.played_for_away" if any(step.played_by == "away" for step in found) else "live.played_for_idle"
    return {
        "count": len(found),
        "since": found[0].seq,
        "until": found[-1].seq,
        "text": i18n.gettext(lang, key, moves=moves),
    }


@dataclass(frozen=True)
class SeatState:
    """A seat's ``state`` message and what it was built from: the next step's state of the
    seat is built like it (the parts that did not change are its own objects), and what
    changed between the two is found fast (``changes``)."""

    message: StateMessage
    view: GameView | None
    table_inputs: tuple[Any, ...]
    names: list[str]
    """The seats' names as the seat says them."""


class StepParts:
    """What the states of one step have alike, built once for all its audiences (every
    seat and the watchers, in each language): the game's JSON but for each seat's own
    parts (``seat_view_to_json``), and the words of the step in each language. The states
    of a step so share these objects (what did not change is passed over at once by
    ``steps.changes``)."""

    def __init__(self, live: LiveTable) -> None:
        self.table_id = live.id
        self.seq = live.seq
        self.view: GameView | None = None
        """The game's view of the first audience rendered at this step."""
        self.game: dict[str, Any] | None = None
        """Its JSON."""
        self.words: dict[tuple[str, str], Any] = {}
        """Each language's parts of the state that do not depend on the seat."""
        self.diffs: Diffs = {}
        """The pairs of parts the step's audiences compared to make their steps."""

    def fits(self, live: LiveTable) -> bool:
        return live.id == self.table_id and live.seq == self.seq


def seat_state(
    live: LiveTable,
    seat: int,
    lang: str,
    free_left: int | None,
    full: bool,
    presence: Sequence[str] | None = None,
    like: SeatState | None = None,
    watching: bool = False,
    parts: StepParts | None = None,
) -> SeatState:
    """The ``state`` message of ``seat`` at ``live.seq``: only that seat's view. Before a
    friends' table starts, ``game`` is null: the page shows the seats and the host's
    controls. ``like``: the seat's state of an earlier step, in the same language.
    ``watching``: a watcher's, seen from ``seat``'s chair (``Game.view``: no hand, no
    choice; every seat named, none "you"). ``parts``: what the step's other audiences
    built of it, shared (the same message as without)."""
    if parts is not None and not parts.fits(live):
        raise ValueError(f"the parts of step {parts.seq} of table {parts.table_id} used at step {live.seq}")
    game = live.game
    direction = live.spec.rules.direction
    started = live.started
    view = None
    if started:
        view = game.view(seat, watching, parts.view if parts is not None else None)
        if parts is not None and parts.view is None:
            parts.view = view
    deal_view = view.deal if view is not None else None
    result = deal_view.result if deal_view is not None else None
    table_inputs = (
        tuple(live.seats),
        tuple(presence) if presence is not None else None,
        live.adaptive_level,
        len(live.against_par),
        free_left,
        started,
    )
    table: TableJson
    if like is not None and like.table_inputs == table_inputs and like.message["table"]["id"] == live.id:
        table, names = like.message["table"], like.names
    else:
        people = named_people(live, lang)
        names = people_names(lang, direction, seat, people)
        if watching:  # a watcher is nobody's partner: each seat by its position and person
            names = [watched_seat_name(lang, direction, seat, i, person) for i, person in enumerate(people)]
        table = {
            "id": live.id,
            "profile": live.spec.rules.name,
            "options": live.spec.rules.options(),
            "direction": direction,
            "you": seat,
            "positions": seat_positions(direction, seat),
            "seats": seats_json(live, presence),
            "seat_names": names,
            "level": live.spec.level,
            "level_label": level_label(lang, live),
            "level_follows": level_follows(lang, live),
            "free_deals_left": free_left,
            "friends": None if watching else friends_json(live, seat),
            "hints": live.spec.kind.allows_hints and not watching,
            "watching": watching,
            "heading": heading_json(lang, live.spec.kind, live.spec.rules.target),
        }
    game_like = None
    if like is not None and like.view is not None and like.message["game"] is not None:
        game_like = (like.view, like.message["game"])
    message: StateMessage = {
        "type": "state",
        "seq": live.seq,
        "full": full,
        "table": table,
        "game": _game_json(view, game_like, parts) if view is not None else None,
        "dealing": _dealing(live, like),
        "last": None if full else last_action(lang, live, seat, deal_view, names, watching),
        "awaiting_next_deal": started and game.awaiting_deal and not game.is_over,
        "over": started and game.is_over,
        "challenge": challenge_day(live.spec.kind),
        "max_deals": live.spec.kind.max_deals,
        "tournament": _shared(parts, lang, "tournament", lambda: tournament_json(lang, live)),
        "after_game": _after_game(lang, live, seat, like),
        "result_lines": _shared(parts, lang, "result_lines", lambda: _result_lines(lang, result)),
        "can_continue": can_continue(live.spec.kind.uses_free_deals, free_left) and not watching,
        "free_deals_over": free_deals_over(live.spec.kind.uses_free_deals, free_left) and not watching,
        "dealt_by": _dealt_by(lang, live, None if watching else seat, names, like),
        "played_for_you": played_for_json(lang, live, seat) if started and not watching else None,
    }
    return SeatState(message, view, table_inputs, names)


def _after_game(lang: str, live: LiveTable, seat: int, like: SeatState | None) -> AfterGameJson:
    """``after_game_json``, the seat's of the step before while the game's end is as it was
    (it says nothing else that changes)."""
    over = live.started and live.game.is_over
    if like is not None and like.message["over"] == over and like.message["table"]["id"] == live.id:
        return like.message["after_game"]
    return after_game_json(lang, live, seat)


def _result_lines(lang: str, result: DealResult | None) -> list[str]:
    return [i18n.render(lang, m) for m in result.lines] if result is not None else []


def _shared(parts: StepParts | None, lang: str, key: str, make: Callable[[], Any]) -> Any:
    """A part of the state alike for every seat in ``lang``: made once a step."""
    if parts is None:
        return make()
    words = parts.words
    made = words.get((lang, key), words)
    if made is words:
        made = words[lang, key] = make()
    return made


def _game_json(view: GameView, like: tuple[GameView, dict[str, Any]] | None, parts: StepParts | None) -> Any:
    """The game's JSON of the seat's view (``game_view_to_json``): built from another
    audience's of the same step when there is one (only the seat's own parts are its own)."""
    alike = parts.game if parts is not None else None
    if alike is None:
        made = game_view_to_json(view, like)
        if parts is not None:
            parts.game = made
        return made
    deal_like = None
    if like is not None and like[0].deal_number == view.deal_number:
        deal_like = (like[0].deal, like[1]["deal"])
    return {**alike, "deal": seat_view_to_json(view.deal, alike["deal"], deal_like)}


def _dealt_by(
    lang: str, live: LiveTable, seat: int | None, names: list[str], like: SeatState | None
) -> DealtByJson | None:
    """``dealt_by_json``, the seat's of the step before when nothing it says changed."""
    if like is not None and like.names is names:
        before = like.message["dealt_by"]
        if before is not None and before["seat"] == live.dealt_by and live.started:
            return before
    return dealt_by_json(lang, live, seat, names)


def _dealing(live: LiveTable, like: SeatState | None) -> dict[str, Any] | None:  # fair_deals' JSON
    """The deal in progress's commitment (``current_dealing_json``), once per deal."""
    if not live.started:
        return None
    if like is not None and like.view is not None and like.view.deal_number == len(live.game.deals):
        return like.message["dealing"]
    return current_dealing_json(live.spec, live.game)


def state_message(
    live: LiveTable, seat: int, lang: str, free_left: int | None, full: bool, presence: Sequence[str] | None = None
) -> StateMessage:
    """The ``state`` message of ``seat`` at ``live.seq`` (``seat_state``)."""
    return seat_state(live, seat, lang, free_left, full, presence).message


def can_continue(uses_free_deals: bool, free_left: int | None) -> bool:
    """Whether the player may ask for the next deal: a table that counts no free deals, a
    player with no limit (an account), or free deals left."""
    return not free_deals_over(uses_free_deals, free_left)


def free_deals_over(uses_free_deals: bool, free_left: int | None) -> bool:
    """Whether the player is a guest who has played their free deals at a table that counts
    them: the only state whose summary offers the sign-up page. Never an account's (no
    limit: ``free_left`` None), nor a watcher's (``seat_state``: nobody's count)."""
    return uses_free_deals and free_left is not None and free_left <= 0


def with_free_deals(message: StateMessage, free_left: int | None) -> StateMessage:
    """A state of a table that counts free deals, rendered for the seat, with the player's
    own count (a copy: the state may be shared)."""
    table: TableJson = {**message["table"], "free_deals_left": free_left}
    out: StateMessage = {**message, "table": table}
    out["can_continue"] = can_continue(True, free_left)
    out["free_deals_over"] = free_deals_over(True, free_left)
    return out


def with_free_deals_set(step: StepMessage, free_left: int | None) -> StepMessage:
    """A step of a table that counts free deals, with the player's own count set (a copy:
    the step may be shared; set every time, as a few bytes of one person's table)."""
    own = (
        [["table", "free_deals_left"], free_left],
        [["can_continue"], can_continue(True, free_left)],
        [["free_deals_over"], free_deals_over(True, free_left)],
    )
    return msgspec.structs.replace(step, set=[*step.set, *own])
