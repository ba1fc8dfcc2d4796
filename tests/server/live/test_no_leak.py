"""A client never learns another seat's unplayed card (issue 7): every message of whole
games, at every computer level and for every profile, checked against the engine.

Each state's deal view must be exactly the engine's view of the player's seat at some step
of the deal (``Deal.view``, rebuilt step by step from the live deal's log), and no message
(state, hint, error) may name, in any notation (``JH``, ``Valet de cœur``, ``V♥``), a card
of another seat that is neither played nor in a shown meld at that step.
"""

from __future__ import annotations

import copy
import random

import pytest
from server_helpers import Human, MakeClient, check_no_leak, create_solo, hidden_cards, live_table

from coinche.server.table import i18n

GAMES = [
    ("classic", 700, False),
    ("federation", 2000, False),
    ("house", 2010, False),
    ("online", 501, False),
    ("online", 501, True),
]
"""Each profile at its shortest target; ``online`` also with the SA/TA option."""


def play_and_check(
    make_client: MakeClient,
    level: str,
    games: list[tuple[str, int, bool]],
    seed: int,
    max_deals: int | None = None,
    hint_every: int = 0,
) -> None:
    client = make_client(free_deals=10_000, bot_workers=2, hints_per_minute=100_000)
    rng = random.Random(seed)
    for n, (profile, target, sa_ta) in enumerate(games):
        client.cookies.set("lang", "en" if n % 2 else "fr")
        table_id = create_solo(client, profile, target, level, sa_ta)
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            human = Human(ws, rng=rng if n % 2 == 0 else None, max_deals=max_deals, hint_every=hint_every)
            last = human.play_game()
            game = live_table(client, table_id).game
            if max_deals is None:
                assert last["game"]["winner"] is not None and game.is_over
            assert last["game"]["deal_number"] == len(game.deals)
            states = check_no_leak(human.messages, game.deals, seat=0)
            # Every step reached the player: a state each, or, where the socket read the table
            # back whole (a resync: a loaded machine, the expert thinking long), one state for
            # the steps it covered; the last one is the table's last step.
            seqs = [m["seq"] for m in human.messages if m["type"] == "state"]
            assert seqs == sorted(set(seqs)) and seqs[-1] == live_table(client, table_id).seq, seqs[-5:]
            assert states > len(game.deals)


@pytest.mark.parametrize("level", ["beginner", "confirmed", "adaptive"])
def test_whole_games_never_show_another_seats_card(make_client: MakeClient, level: str) -> None:
    play_and_check(make_client, level, GAMES, seed=len(level))


def test_expert_deals_never_show_another_seats_card(make_client: MakeClient) -> None:
    """The expert thinks longer: the first deal of each profile."""
    play_and_check(make_client, "expert", GAMES[:4], seed=7, max_deals=1)


def test_hints_never_show_another_seats_card(make_client: MakeClient) -> None:
    """The hint (the expert on the player's own view) on every turn of a short game."""
    play_and_check(make_client, "confirmed", [("online", 501, False)], seed=3, hint_every=1)


def test_the_check_catches_a_leak(make_client: MakeClient) -> None:
    """The check itself: a state naming another seat's unplayed card (in any notation),
    a view that is not the engine's, another seat's declaration choice, all fail it."""
    client = make_client()
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        human.until_my_move()
    deals = live_table(client, table_id).game.deals
    messages = human.messages
    assert check_no_leak(messages, deals, seat=0) == len(messages)
    last = messages[-1]
    deal = deals[-1]
    other = next(iter(hidden_cards(deal, 0)))
    assert other not in last["game"]["deal"]["hand"]
    for text in (other, i18n.card_name("fr", other), i18n.card_name("en", other).upper(), i18n.card_short("fr", other)):
        bad = copy.deepcopy(last)
        bad["result_lines"] = [f"pour info : {text}"]
        with pytest.raises(AssertionError, match="may not know"):
            check_no_leak([*messages[:-1], bad], deals, seat=0)
    bad = copy.deepcopy(last)
    bad["game"]["deal"]["hand"][0] = other
    with pytest.raises(AssertionError, match="no view"):
        check_no_leak([*messages[:-1], bad], deals, seat=0)
    bad = copy.deepcopy(last)
    bad["last"] = {"seat": 1, "action": {"declare": 1}, "text": ""}
    with pytest.raises(AssertionError, match="declaration choice"):
        check_no_leak([*messages[:-1], bad], deals, seat=0)
