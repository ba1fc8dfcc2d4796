"""What a seat's state says of its table's kind (docs/protocol.md): the heading (the
objective, the score sheet's caption, the score read aloud) and where the game's end
leads, in the page's language, so that the page shows them without knowing the kinds."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from coinche.engine.actions import PASS
from coinche.engine.rules import PROFILES
from coinche.server.table.kinds import (
    SOLO,
    DailyChallengeTable,
    FriendsTable,
    LadderTable,
    QuickPlayTable,
    TableKind,
    TournamentTable,
)
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step, TableSpec
from coinche.server.web.messages import encode
from coinche.server.web.seat_state import seat_state
from coinche.server.web.steps import apply_step, step_message

BOT = Seat("bot", level="confirmed")
PEOPLE = (Seat("human", player="p0"), Seat("human", player="p1"), BOT, BOT)
RULES = PROFILES["classic"]


def table(kind: TableKind, steps: int = 0) -> LiveTable:
    """A table of ``kind`` after ``steps`` moves, every call a pass (each deal void)."""
    spec = TableSpec("t1", RULES, 7, 0, PEOPLE, "confirmed", kind=kind)
    live = LiveTable.build(spec, [])
    if not live.started:
        live.apply(Step(live.seq, "deal", 0))
    for _ in range(steps):
        game = live.game
        if game.is_over:
            break
        if game.awaiting_deal:
            live.apply(Step(live.seq, "deal", 0))
            continue
        live.apply(Step(live.seq, "action", game.to_move, PASS))
    return live


TOURNAMENT = TournamentTable(tournament="T9", round=2, deals=1, closes=datetime(2099, 1, 1, tzinfo=UTC))
CHALLENGE = DailyChallengeTable(day="2026-12-03")
FRIENDS = FriendsTable(code="ABCD", host_player="p0")
TARGET = RULES.target

HEADINGS = [
    (SOLO, "fr", f"Objectif {TARGET}", f"Feuille de marque (objectif {TARGET})", TARGET, None),
    (FRIENDS, "en", f"Target {TARGET}", f"Score sheet (target {TARGET})", TARGET, None),
    (QuickPlayTable(), "fr", f"Objectif {TARGET}", f"Feuille de marque (objectif {TARGET})", TARGET, None),
    (TOURNAMENT, "fr", "Tournoi · manche 2", "Feuille de marque de la manche", None, 1),
    (TOURNAMENT, "en", "Tournament · round 2", "The round's score sheet", None, 1),
    (CHALLENGE, "fr", "Défi du jour", "Feuille de marque du défi", None, 4),
    (CHALLENGE, "en", "Daily challenge", "The challenge's score sheet", None, 4),
    (LadderTable(match="M1", deals=2), "fr", "Échelle des moteurs", "Feuille de marque du match d'échelle", None, 2),
    (LadderTable(match="M1", deals=2), "en", "Engine ladder", "The ladder match's score sheet", None, 2),
]


@pytest.mark.parametrize(("kind", "lang", "goal", "sheet", "target", "deals"), HEADINGS)
def test_the_state_says_what_the_game_is_played_to(
    kind: TableKind, lang: str, goal: str, sheet: str, target: int | None, deals: int | None
) -> None:
    heading = seat_state(table(kind), 0, lang, None, True).message["table"]["heading"]
    assert heading["goal"] == goal
    assert heading["sheet"] == sheet
    assert heading["target"] == target  # none to reach in a game of so many deals
    assert heading["deals"] == deals
    places = ("{us}", "{them}", "{number}") if deals else ("{us}", "{them}")
    for place in places:  # the page fills in the score (and which deal of so many)
        assert place in heading["score"]


AFTER_GAMES = [
    (SOLO, "fr", "new_game", "/", "Nouvelle partie"),
    (FRIENDS, "en", "new_game", "/", "New game"),
    (QuickPlayTable(), "fr", "new_game", "/", "Nouvelle partie"),
    (TOURNAMENT, "fr", "tournament", "/tournoi/T9#round-2", "Résultats de la manche"),
    (TOURNAMENT, "en", "tournament", "/tournament/T9#round-2", "The round's results"),
    (CHALLENGE, "fr", "challenge_ranking", "/defi", "Classement du jour"),
    (CHALLENGE, "en", "challenge_ranking", "/challenge", "Today's ranking"),
]


@pytest.mark.parametrize(("kind", "lang", "to", "url", "text"), AFTER_GAMES)
def test_the_state_says_where_the_game_s_end_leads(kind: TableKind, lang: str, to: str, url: str, text: str) -> None:
    after = seat_state(table(kind), 0, lang, None, True).message["after_game"]
    assert after == {"to": to, "url": url, "text": text, "line": None}  # no end line before the end


def test_a_round_s_end_says_the_round_s_result_and_leads_to_it() -> None:
    live = table(TOURNAMENT, 4)  # four passes: the round's one deal, level at 0-0
    assert live.game.is_over
    after = seat_state(live, 1, "fr", None, True).message["after_game"]
    assert after["line"] == "Manche 2 terminée : 0 à 0, à égalité : une demi-victoire chacun."
    assert after["url"] == "/tournoi/T9#round-2"  # the round's tables on the tournament's page
    assert after["text"] == "Résultats de la manche"


@pytest.mark.parametrize(
    ("seat", "lang", "line"),
    [
        (0, "fr", "Manche 2 terminée : 20 à 142, votre camp la perd."),
        (1, "fr", "Manche 2 terminée : 142 à 20, votre camp la gagne."),
        (1, "en", "Round 2 over: 142 to 20, your side wins it."),
    ],
)
def test_a_round_s_end_gives_each_side_its_score_first(seat: int, lang: str, line: str) -> None:
    live = table(TOURNAMENT, 4)
    live.game.totals[:] = [20, 142]  # the round's one deal as if played: north-south's, east-west's
    assert seat_state(live, seat, lang, None, True).message["after_game"]["line"] == line


def test_a_challenge_s_end_leads_to_the_day_s_ranking() -> None:
    live = table(CHALLENGE, 40)  # four void deals
    assert live.game.is_over
    after = seat_state(live, 0, "en", None, True).message["after_game"]
    assert after == {
        "to": "challenge_ranking",
        "url": "/challenge",
        "text": "Today's ranking",
        "line": "Challenge over: see today's ranking",
    }


def test_a_step_carries_the_end_s_line_to_a_client() -> None:
    before = seat_state(table(TOURNAMENT, 3), 0, "en", None, False).message
    after = seat_state(table(TOURNAMENT, 4), 0, "en", None, False).message
    step = json.loads(encode(step_message(before, after)))  # over the wire
    assert apply_step(dict(before), step)["after_game"] == after["after_game"]


def test_every_seated_person_deals_the_next_deal_but_a_host_the_first() -> None:
    assert FRIENDS.deal_refusal("p1", started=False) == "not_host"
    assert FRIENDS.deal_refusal("p0", started=False) is None
    for kind in (SOLO, FRIENDS, QuickPlayTable(), TOURNAMENT, CHALLENGE):
        assert kind.deal_refusal("p1", started=True) is None


@pytest.mark.parametrize("kind", [SOLO, FRIENDS, QuickPlayTable(), TOURNAMENT])
def test_only_the_challenge_s_deals_are_compared(kind: TableKind) -> None:
    assert seat_state(table(kind), 0, "fr", None, True).message["table"]["heading"]["compare"] is None


@pytest.mark.parametrize(
    ("lang", "url", "text"),
    [
        ("fr", "/defi/2026-12-03/donne/{number}", "Comparer avec les autres joueurs"),
        ("en", "/challenge/2026-12-03/deal/{number}", "Compare with the other players"),
    ],
)
def test_a_challenge_s_deal_is_compared_on_its_day_s_page(lang: str, url: str, text: str) -> None:
    heading = seat_state(table(CHALLENGE), 0, lang, None, True).message["table"]["heading"]
    assert heading["compare"] == {"url": url, "text": text}  # the page fills in the deal's number
