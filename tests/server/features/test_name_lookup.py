"""An account found by the name a person typed, whatever its case and accents ("zoe" and
"ZOÉ" find "Zoé"), in every place a person is looked up by name for people: following,
blocking, an invitation to a table, a tournament partner. Two accounts alike but for
their accents: the exact name is asked for, never guessed. Hostile names are refused
cleanly."""

from __future__ import annotations

import pytest
from friends_helpers import Person, person
from server_helpers import MakeClient
from starlette.testclient import TestClient
from test_tournaments import Clock, act, enter, organise

from coinche.server.features.accounts import find_person
from coinche.server.table.names import search_key

pytestmark = pytest.mark.both_databases


def follow(p: Person, name: str) -> object:
    return p.post("/mes-amis", {"action": "follow", "name": name}, "/mes-amis")


def test_the_search_key_drops_case_and_accents() -> None:
    for typed in ("Zoé", "zoe", "ZOÉ", "ZOE", "zoé", " Zoe\u0301 ", "Ｚｏé"):
        assert search_key(typed) == "zoe", typed
    assert search_key("Straße") == search_key("STRASSE")
    assert search_key("Ørjan") != search_key("Orjan")  # a letter of its own, not an accent


def test_zoe_and_ZOE_find_Zoe_to_follow_and_invite(client: TestClient) -> None:
    ana, zoe = person(client, "Ana"), person(client, "Zoé")
    for typed in ("zoe", "ZOÉ", "ZOE", "Zoé"):
        r = follow(ana, typed)
        assert r.status_code == 200 and "Vous suivez Zoé." in r.text, typed  # type: ignore[attr-defined]
    table_id, _ = ana.make_table()
    r = ana.post("/inviter", {"table_id": table_id, "name": "zoe"}, f"/table/{table_id}")
    assert r.status_code == 303
    assert "Invitation envoyée." in ana.get(f"/table/{table_id}").text
    assert "Ana vous invite" in zoe.get("/mes-amis").text
    r = zoe.post("/mes-amis", {"action": "block", "name": "ana"}, "/mes-amis")
    assert r.status_code == 200 and "Débloquer Ana" in zoe.get("/mes-amis").text  # type: ignore[attr-defined]


def test_a_tournament_partner_is_found_without_accents(make_client: MakeClient) -> None:
    client = make_client(clock=Clock())
    org, zoe = person(client, "Organisatrice"), person(client, "Zoé")
    tournament_id = organise(org, alone="")
    assert enter(org, tournament_id, partner="zoe").status_code == 303
    assert 'name="entry"' in zoe.get(f"/tournoi/{tournament_id}").text  # the proposal reached Zoé
    assert act(zoe, tournament_id, "accept").status_code == 303


def test_two_accounts_alike_but_for_accents_ask_for_the_exact_name(client: TestClient) -> None:
    ana = person(client, "Ana")
    person(client, "Zoé")
    person(client, "Zoè")
    r = follow(ana, "zoe")
    assert r.status_code == 400  # type: ignore[attr-defined]
    assert "Plusieurs comptes" in r.text and "nom exact" in r.text  # type: ignore[attr-defined]
    assert "Vous suivez" not in ana.get("/mes-amis").text
    r = follow(ana, "ZOÈ")  # the exact name (any case) is never ambiguous
    assert r.status_code == 200 and "Vous suivez Zoè." in r.text  # type: ignore[attr-defined]
    table_id, _ = ana.make_table()
    ana.post("/inviter", {"table_id": table_id, "name": "zoe"}, f"/table/{table_id}")
    page = ana.get(f"/table/{table_id}").text
    assert "Plusieurs comptes" in page and "Invitation envoyée" not in page


def test_hostile_names_are_refused_cleanly(client: TestClient) -> None:
    ana = person(client, "Ana")
    person(client, "Zoé")
    store = client.app.state.store  # type: ignore[attr-defined]
    for typed in ("", "   ", "z" * 5000, "zo\x00e", "zoe\x07", "zo\ud800e", "\u202ezoe", "%", "_", "*"):
        assert find_person(store, typed) == [], repr(typed)
        if "\ud800" in typed:
            continue  # no browser sends a lone surrogate
        r = follow(ana, typed)
        assert r.status_code == 400 and "Aucun compte" in r.text, repr(typed)  # type: ignore[attr-defined]
    assert [name for _, name in find_person(store, "  zoe  ")] == ["Zoé"]
