"""Reactions at a table of several people (issue 49, item 8): one of a fixed set of emotes,
shown to every seat (and watcher) as the sender's, limited like the quick messages,
refused with a clear message when unknown or at a table alone against the computer."""

from __future__ import annotations

from typing import Any

from friends_helpers import Player
from server_helpers import create_solo
from test_friends import seated_table, wait_for

from coinche.server.features.friends import EMOTES


def test_a_reaction_reaches_the_other_seats_as_the_senders(make_client: Any) -> None:
    client = make_client(say_limit="3 per minute")
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        assert p.answer(p.send("react", emote="clap"))["type"] == "ack"
        shown = wait_for(h, lambda m: m["type"] == "react")
        assert shown == {
            "type": "react",
            "seat": 2,
            "emote": "clap",
            "symbol": "👏",
            "said": "Nord (Paul, invité) applaudit.",
        }
        assert wait_for(p, lambda m: m["type"] == "react")["seat"] == 2  # the sender's page shows it too


def test_only_the_fixed_emotes_are_sent_on(make_client: Any) -> None:
    client = make_client(say_limit="3 per minute")
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        assert set(EMOTES) == {"clap", "smile", "wow", "please", "thumbs_up"}
        refused = p.answer(p.send("react", emote="<img src=x onerror=alert(1)>"))
        assert refused["code"] == "bad_emote" and refused["message"] == "Réaction inconnue."
        assert p.answer(p.send("react", emote="🖕"))["code"] == "bad_emote"
        assert p.answer(p.send("react", emote=["clap"]))["code"] == "malformed"
        assert p.answer(p.send("react", emote="x" * 200))["code"] == "malformed"
        assert p.answer(p.send("react", emote="wow"))["type"] == "ack"  # the socket still works
        assert wait_for(h, lambda m: m["type"] == "react")["emote"] == "wow"


def test_reactions_are_limited_like_quick_messages(make_client: Any) -> None:
    client = make_client(say_limit="3 per minute")
    host, (paul,), table_id, _code = seated_table(client, ("Paul", 2))
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        for _ in range(3):
            assert p.answer(p.send("react", emote="smile"))["type"] == "ack"
        refused = p.answer(p.send("react", emote="smile"))
        assert refused["code"] == "say_limit" and refused["message"] == "Trop de messages : attendez un peu."
        assert p.answer(p.send("say", phrase="bravo"))["type"] == "ack"  # a count of its own


def test_no_reaction_alone_against_the_computer(client: Any) -> None:
    table_id = create_solo(client, "classic", 1000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        me = Player(ws)
        me.next_state()
        refused = me.answer(me.send("react", emote="clap"))
        assert refused["code"] == "solo_table"
        assert refused["message"] == "Les réactions sont pour les tables de plusieurs personnes."
