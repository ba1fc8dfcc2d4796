"""Deals anyone can check (docs/dealing.md): each seat sees the deal's commitment before
the auction; once the deal is over its review and record reveal a seed that gives back the
commitment and the hands played; the seed of a deal in progress is never sent; a record
with a changed card fails the verification page."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from server_helpers import Human, create_solo, csrf_of, live_table
from starlette.testclient import TestClient

from coinche.engine.cards import parse_cards
from coinche.engine.dealing import commitment, deal_seed, hands_from_seed


def play_first_deal(client: TestClient) -> tuple[str, Human, dict[str, Any]]:
    """A solo table whose first deal is over; its first state."""
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        first = human.next_state()
        human.play_game(first)
    return table_id, human, first


def test_the_commitment_comes_before_the_auction_and_the_seed_after_the_deal(client: TestClient) -> None:
    table_id, _human, first = play_first_deal(client)
    assert first["game"]["deal"]["phase"] == "auction" and first["game"]["deal"]["calls"] == []
    dealing = first["dealing"]
    assert dealing["version"] == 2 and dealing["number"] == 1 and "seed" not in dealing
    shown = dealing["commitment"]

    record = client.get(f"/table/{table_id}/donne/1/record.json").json()
    revealed = record["dealing"]
    assert revealed["table"] == table_id and revealed["number"] == 1 and revealed["commitment"] == shown
    seed = bytes.fromhex(revealed["seed"])
    assert commitment(seed, table_id, 1) == shown
    assert hands_from_seed(seed, record["dealer"]) == tuple(parse_cards(h) for h in record["hands"])
    assert tuple(parse_cards(h) for h in record["hands"]) == live_table(client, table_id).game.deals[0].dealt

    page = html.unescape(client.get(f"/table/{table_id}/donne/1").text)
    assert shown in page and revealed["seed"] in page and 'href="/verifier"' in page


def test_no_message_page_or_record_holds_the_seed_of_a_deal_in_progress(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        first = human.next_state()
        secret = live_table(client, table_id).spec.secret
        assert secret is not None and len(secret) == 32
        seeds = [deal_seed(secret, table_id, n).hex() for n in (1, 2, 3)]
        state = human.play_game(first)
        ws.send_json({"type": "next_deal", "id": "n2"})
        state = human.until_my_move()
        assert state["game"]["deal_number"] == 2 and not state["awaiting_next_deal"]
    sent = json.dumps(human.messages)
    assert secret.hex() not in sent
    for seed in seeds:  # not even the finished deal's: only its review and record reveal it
        assert seed not in sent
    states = [m for m in human.messages if m["type"] == "state" and m["game"]["deal_number"] == 2]
    assert states and all(m["dealing"]["number"] == 2 for m in states)
    assert all(m["dealing"]["commitment"] == commitment(bytes.fromhex(seeds[1]), table_id, 2) for m in states)
    for path in ("/table/{}", "/table/{}/donne/2", "/table/{}/donne/2/record.json", "/table/{}/donne/1/record.json"):
        text = client.get(path.format(table_id)).text
        assert seeds[1] not in text and seeds[2] not in text and secret.hex() not in text


def verify_page(client: TestClient, path: str, record: str, as_file: bool = False) -> Any:
    fields = {"csrf": csrf_of(client, path)}
    if as_file:
        return client.post(path, data={**fields, "record": ""}, files={"file": ("r.json", record, "application/json")})
    return client.post(path, data={**fields, "record": record}, files={"file": ("", b"", "application/octet-stream")})


def test_the_verification_page_checks_a_record_and_finds_a_changed_card(client: TestClient) -> None:
    table_id, _human, _first = play_first_deal(client)
    record = client.get(f"/table/{table_id}/donne/1/record.json").json()
    r = verify_page(client, "/verifier", json.dumps(record))
    text = html.unescape(r.text)
    assert r.status_code == 200
    assert "engagement vérifié" in text and "mains vérifiées" in text and "Toutes les donnes" in text

    r = verify_page(client, "/verify", json.dumps(record), as_file=True)
    assert r.status_code == 200 and "commitment checked" in r.text and "hands checked" in r.text

    hands = [h.split() for h in record["hands"]]
    hands[1][0], hands[3][0] = hands[3][0], hands[1][0]
    changed = {**record, "hands": [" ".join(h) for h in hands]}
    text = html.unescape(verify_page(client, "/verifier", json.dumps(changed)).text)
    assert "engagement vérifié" in text and "mains vérifiées" not in text
    assert "Est : la main de l'enregistrement a" in text and "seat" not in text
    assert "ne correspond pas" in text


def test_the_verification_page_refuses_bad_input_plainly(client: TestClient) -> None:
    r = verify_page(client, "/verifier", "{not json")
    text = html.unescape(r.text)
    assert r.status_code == 400 and "pas du JSON valide" in text and "ligne 1, colonne 2" in text
    assert "Traceback" not in r.text and "Expecting" not in text and "char 1" not in text
    r = verify_page(client, "/verifier", "")
    assert r.status_code == 400 and "Collez un enregistrement" in html.unescape(r.text)
    r = verify_page(client, "/verify", " " * 10 + "x" * (300 * 1024))
    assert r.status_code == 413 and "too large" in r.text
    r = verify_page(client, "/verifier", "x" * (700 * 1024))  # more than the form's body
    assert r.status_code == 413 and "trop grand" in html.unescape(r.text)
    old = {
        "rules": "classic",
        "dealer": 0,
        "hands": [
            "AS KS QS JS TS 9S 8S 7S",
            "AH KH QH JH TH 9H 8H 7H",
            "AD KD QD JD TD 9D 8D 7D",
            "AC KC QC JC TC 9C 8C 7C",
        ],
    }
    text = html.unescape(verify_page(client, "/verifier", json.dumps(old)).text)
    assert "pas vérifiable" in text


def test_the_verification_page_and_the_algorithm(client: TestClient) -> None:
    r = client.get("/verifier")
    assert r.status_code == 200 and 'enctype="multipart/form-data"' in r.text and 'href="/dealing.md"' in r.text
    assert client.get("/verify").status_code == 200
    doc = client.get("/dealing.md")
    assert doc.status_code == 200 and "coinche-deal-v2" in doc.text


def play_deals(client: TestClient, deals: int) -> str:
    """A solo table whose first ``deals`` deals are over; its id."""
    table_id = create_solo(client, "classic", 2000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws, max_deals=deals).play_game()
    return table_id


def test_the_french_page_names_seats_and_counts_deals_as_players_do(client: TestClient) -> None:
    table_id = play_deals(client, 2)
    record = client.get(f"/table/{table_id}/donne/2/record.json").json()
    text = html.unescape(verify_page(client, "/verifier", json.dumps(record)).text)
    assert "Donne 2" in text and "Donne 1" not in text
    assert "✓" in text and "conforme" in text and "✗" not in text

    hands = [h.split() for h in record["hands"]]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    changed = {**record, "hands": [" ".join(h) for h in hands]}
    r = verify_page(client, "/verifier", json.dumps(changed))
    text = html.unescape(r.text)
    assert r.status_code == 200 and "Donne 2" in text
    assert "✗" in text and "ne correspond pas" in text and "✓ conforme" not in text
    assert "Sud : la main de l'enregistrement a" in text and "Nord : la main de l'enregistrement a" in text
    assert "hand of seat" not in text and "seat 0" not in text and "differs" not in text

    english = html.unescape(verify_page(client, "/verify", json.dumps(changed)).text)
    assert "Deal 2" in english and "South: the record's hand has" in english and "✗" in english


def test_a_record_with_nothing_checkable_says_so(client: TestClient) -> None:
    table_id, _human, _first = play_first_deal(client)
    record = client.get(f"/table/{table_id}/donne/1/record.json").json()
    del record["dealing"]
    for path, says, never in (
        ("/verifier", "Aucune donne de cet enregistrement n'est vérifiable", "conformes"),
        ("/verify", "No deal of this record can be checked", "matches"),
    ):
        r = verify_page(client, path, json.dumps(record))
        text = html.unescape(r.text)
        assert r.status_code == 200 and says in text and never not in text


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b'{"rules": "classic",\n "dealer": 0,,}', "ligne 2, colonne 14"),
        (b"\xff\xfe{}", "pas du texte UTF-8"),
        (b"[1, 2", "ligne 1, colonne 6"),
    ],
)
def test_a_malformed_upload_gets_a_plain_sentence(client: TestClient, raw: bytes, says: str) -> None:
    fields = {"csrf": csrf_of(client, "/verifier"), "record": ""}
    r = client.post("/verifier", data=fields, files={"file": ("r.json", raw, "application/json")})
    text = html.unescape(r.text)
    assert r.status_code == 400 and says in text, text
    assert "Expecting" not in text and "char " not in text and "Traceback" not in text
