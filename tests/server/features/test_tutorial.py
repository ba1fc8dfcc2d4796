"""'Apprendre en jouant' (issue 32): the guided first deal. Its script is a real deal the
engine plays to the end (every action legal, the coinched contract made); every step's
page shows in French and English; the right move leads on, another legal move is
explained and changes nothing, anything else is refused with a 4xx; it uses no free deal."""

from __future__ import annotations

import html
import re

import pytest
from server_helpers import MakeClient, csrf_of
from starlette.testclient import TestClient

from coinche.engine.actions import action_str
from coinche.engine.deal import Deal
from coinche.engine.rules import RuleSet
from coinche.server.table import i18n, tutorial

PATHS = {"fr": "/apprendre", "en": "/learn"}
BUTTON = re.compile(r'<button type="submit" name="action" value="([^"]+)"')


def url(lang: str, step: int) -> str:
    return f"{PATHS[lang]}/{step}"


def test_the_script_is_a_legal_deal_to_its_end_and_the_contract_is_made() -> None:
    deal = Deal(RuleSet.profile("classic"), tutorial.DEALER, tutorial.HANDS)
    assert deal.rules == tutorial.RULES
    for scripted, action in zip(tutorial.SCRIPT, tutorial.ACTIONS, strict=True):
        assert action in deal.legal_actions(), scripted.text
        last = len(deal.tricks) == 7  # the last card: the only one left
        assert (deal.to_move == tutorial.PLAYER and not last) == (scripted.lesson is not None), scripted.text
        for other in scripted.wrong:  # each explained wrong move is a legal one of the step
            assert tutorial.parse_action(other) in deal.legal_actions(), other
        deal.apply(action)
    assert deal.is_over
    result = deal.result()
    assert result is not None and result.contract is not None
    assert result.contract.taker & 1 == tutorial.PLAYER & 1 and result.contract.multiplier == 2  # coinched, ours
    assert result.made
    # The player makes about ten moves: three calls and every card but the last, the only
    # one left (no decision: it is played for them).
    assert 10 <= len(tutorial.MOVES) <= 12
    assert sum(1 for i in tutorial.MOVES if tutorial.ACTIONS[i] < 64) == 7
    assert tutorial.MOVES[-1] < len(tutorial.ACTIONS) - 4


def test_every_step_has_words_in_both_languages() -> None:
    for step in range(1, tutorial.END + 1):
        key = tutorial.lesson(step)
        for lang in ("fr", "en"):
            for prefix in ("tutorial.step.", "tutorial.title.") if step < tutorial.END else ("tutorial.title.",):
                assert prefix + key in i18n.catalogue(lang), (lang, prefix + key)
    for lang in ("fr", "en"):  # the end says the deal in its own words
        assert {"tutorial.end.made", "tutorial.end.failed"} <= i18n.catalogue(lang).keys()
    for index in tutorial.MOVES:
        scripted = tutorial.SCRIPT[index]
        for key in (scripted.lesson, *scripted.wrong.values()):
            for lang in ("fr", "en"):
                assert f"tutorial.wrong.{key}" in i18n.catalogue(lang), (lang, key)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_step_shows_and_the_right_moves_play_the_deal_to_the_count(client: TestClient, lang: str) -> None:
    start = client.get(PATHS[lang])
    assert start.status_code == 200
    assert f"{url(lang, 2)}" in start.text  # the first step's link to the second
    token = csrf_of(client, url(lang, 2))
    step = 2
    while step <= tutorial.STEPS:
        r = client.get(url(lang, step))
        assert r.status_code == 200, (step, r.status_code)
        text = html.unescape(r.text)
        assert f"{step}/{tutorial.STEPS}" in text
        assert ("Étape" if lang == "fr" else "Step") + f" {step} " in text  # for screen readers
        assert 'role="status"' in r.text
        shown = BUTTON.findall(r.text)
        expected = tutorial.expected(step)
        assert expected is not None
        assert shown and action_str(expected) in shown
        assert shown.count(action_str(expected)) == 1
        assert " autofocus" in r.text  # the first button: keyboard users start there
        moved = client.post(
            url(lang, step), data={"csrf": token, "action": action_str(expected)}, follow_redirects=False
        )
        assert moved.status_code == 303, (step, moved.status_code)
        step += 1
        assert moved.headers["location"] == url(lang, step)
    end = client.get(url(lang, tutorial.END))
    assert end.status_code == 200
    text = html.unescape(end.text)
    result = tutorial.position(tutorial.END).result()
    assert result is not None and result.made
    # the engine's count in words: the takers' points of the deal's, the score
    points, total = result.card_points[0], sum(result.card_points)
    assert (f"{points} points sur {total}" if lang == "fr" else f"{points} of the {total} points") in text
    assert ("contrat réussi" if lang == "fr" else "contract made") in text
    assert f"{result.score[0]} {'à' if lang == 'fr' else 'to'} {result.score[1]}" in text
    # then a real deal against the computer, the coach on
    assert 'action="/solo"' in end.text and 'name="coach" value="1"' in end.text
    assert not BUTTON.findall(end.text)


def test_a_wrong_legal_move_is_explained_and_changes_nothing(client: TestClient) -> None:
    token = csrf_of(client, "/apprendre/2")
    # The opening: a pass is legal, not the move here.
    r = client.post("/apprendre/2", data={"csrf": token, "action": "pass"}, follow_redirects=False)
    assert r.status_code == 200
    text = html.unescape(r.text)
    assert i18n.gettext("fr", "tutorial.wrong.open_pass") in text
    assert f"2/{tutorial.STEPS}" in text and "80H" in BUTTON.findall(r.text)
    # Following suit: the Ten of spades gives East points.
    r = client.post("/apprendre/5", data={"csrf": token, "action": "TS"}, follow_redirects=False)
    assert r.status_code == 200
    assert i18n.gettext("fr", "tutorial.wrong.follow") in html.unescape(r.text)
    # Partner holds the trick: trumping is legal, and explained.
    r = client.post("/learn/9", data={"csrf": token, "action": "QH"}, follow_redirects=False)
    assert r.status_code == 200
    assert i18n.gettext("en", "tutorial.wrong.discard_trump") in html.unescape(r.text)
    # A legal bid the page does not offer is still answered.
    r = client.post("/apprendre/2", data={"csrf": token, "action": "150C"}, follow_redirects=False)
    assert r.status_code == 200 and i18n.gettext("fr", "tutorial.wrong.open") in html.unescape(r.text)
    # The step is still the same one.
    assert tutorial.answer(2, "80H")[0] is tutorial.Answer.RIGHT


def test_hostile_input_is_refused_never_a_crash(make_client: MakeClient) -> None:
    client = make_client(raise_server_exceptions=False)
    token = csrf_of(client, "/apprendre/2")
    for action in ("", "XX", "8H", "JH", "80H " * 100, "surcoinche", "coinche", "AS", "declare#0", "\x00", "🂡"):
        r = client.post("/apprendre/5", data={"csrf": token, "action": action}, follow_redirects=False)
        assert r.status_code == 400, (action, r.status_code)
        assert "pas possible ici" in html.unescape(r.text)
    r = client.post("/apprendre/5", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 400
    for step in (1, tutorial.END):  # nothing to play on the steps to read
        r = client.post(url("fr", step), data={"csrf": token, "action": "pass"}, follow_redirects=False)
        assert r.status_code == 400
    for bad in ("0", "14", "-1", "abc", "2.5", "99999999999999999999", "%C2%B2", "1e3", " 3"):
        assert client.get(f"/apprendre/{bad}").status_code == 404, bad
        r = client.post(f"/learn/{bad}", data={"csrf": token, "action": "pass"}, follow_redirects=False)
        assert r.status_code == 404, bad
    r = client.post("/apprendre/2", data={"action": "80H"}, follow_redirects=False)
    assert r.status_code == 403
    r = client.post("/apprendre/2", data={"csrf": "x" * 32, "action": "80H"}, follow_redirects=False)
    assert r.status_code == 403


def test_the_guided_deal_uses_no_free_deal(client: TestClient) -> None:
    home = html.unescape(client.get("/").text)
    assert "Donnes gratuites restantes : 3" in home
    assert 'href="/apprendre"' in home and "Apprendre en jouant" in home
    token = csrf_of(client, "/apprendre/2")
    for step in range(2, tutorial.END):
        action = tutorial.expected(step)
        assert action is not None
        r = client.post(url("fr", step), data={"csrf": token, "action": action_str(action)}, follow_redirects=False)
        assert r.status_code == 303
    assert client.get(url("fr", tutorial.END)).status_code == 200
    assert "Donnes gratuites restantes : 3" in html.unescape(client.get("/").text)
    english = client.get("/langue/en?next=/").text
    assert 'href="/learn"' in english or "Learn by playing" in html.unescape(client.get("/").text)
