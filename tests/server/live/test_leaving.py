"""Leaving cannot be turned into a win (issue 27, item 2): giving up a friends' game is one
person's act (their seat goes to the computer, the game goes on and is rated at its end as
played), only a person who has gone is a leaver (not one the host moved out while there),
a person is rated only for the team whose seats they played at least half the deals in
themselves (a host's move to the other team changes nothing to it), and the rules are
written on the profile page. Each rule of docs/ratings.md has its test here."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import call, csrf_of, friends_of, parts_of, post_form
from starlette.testclient import TestClient
from test_daily import account
from test_player_stats import BOT, LEVELS, RULES, history_rows, play_to_end, profile
from test_ratings import close, hand_update

from coinche.server.features import friends
from coinche.server.features.player_stats import Profile, game_plans
from coinche.server.infra.rows.tables import TableRow
from coinche.server.table.kinds import FriendsTable
from coinche.server.table.live_table import LiveTable, TableError
from coinche.server.table.lobby import STAND_IN_LEVEL
from coinche.server.table.ratings import NEW_PLAYER
from coinche.server.table.spec import Seat

EXPERT = LEVELS.of(STAND_IN_LEVEL)
CONFIRMED = LEVELS.confirmed


def friends_table(client: TestClient, host: str, others: dict[int, str], late_joins: bool = False) -> str:
    """A friends' table of ``host`` (seat 0) with these persons seated, confirmed computers
    at the other seats; not started."""
    seats = [Seat("human", player=host, name="Host"), BOT, BOT, BOT]
    for seat, player in others.items():
        seats[seat] = Seat("human", player=player, name=f"P{seat}")
    parts = parts_of(client)
    spec = call(
        client,
        parts.tables.create_table,
        RULES,
        (seats[0], seats[1], seats[2], seats[3]),
        "confirmed",
        FriendsTable(friends.new_code(), host, joins_late=late_joins),
    )
    return spec.id


def start(client: TestClient, table_id: str, host: str) -> None:
    call(client, friends_of(client).start, table_id, host, "start")


def table_row(client: TestClient, table_id: str) -> Any:
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        row = s.get(TableRow, table_id)
        return (row.finished_at, row.result)


def fresh(client: TestClient, table_id: str) -> LiveTable:
    live = call(client, parts_of(client).tables.table, table_id, 0, True)
    assert live is not None
    return live


@pytest.mark.both_databases
def test_a_guest_of_the_other_team_giving_up_leaves_the_game_to_a_computer(client: TestClient) -> None:
    anne = account(client, "Anne")
    bruno = account(client, "Bruno")  # the client is Bruno's from here
    table_id = friends_table(client, anne, {1: bruno})
    start(client, table_id, anne)
    r = post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte")
    assert r.status_code == 303
    # The game goes on: Bruno's seat is the computer's for the rest of it, nothing is rated.
    live = fresh(client, table_id)
    assert not live.game.is_over and table_row(client, table_id) == (None, None)
    assert live.seats[1] == Seat("bot", level=STAND_IN_LEVEL, gone=bruno)
    assert profile(client, anne) == Profile() and profile(client, bruno) == Profile()
    # It is no longer among Bruno's games in progress (his list says given up); still Anne's.
    store = client.app.state.store  # type: ignore[attr-defined]
    assert store.open_games(bruno) == [] and store.open_games(anne) == [table_id]
    (entry,) = store.games_of(bruno)
    assert entry.finished_at is not None and entry.result == {"abandoned": True}
    assert 'action="/partie/' not in client.get("/compte").text  # no "give up" button left
    # A restart keeps it: the giving up is a step of the log.
    parts_of(client).registry.forget(table_id)
    assert fresh(client, table_id).seats[1].gone == bruno
    # The game ends normally for Anne: her real result, stored and rated as played.
    live = play_to_end(client, table_id, seed=3)
    winner = live.game.winner
    assert winner is not None
    finished, result = table_row(client, table_id)
    assert finished is not None and result["winner"] == winner and "abandoned" not in result
    a, b = profile(client, anne), profile(client, bruno)
    expected = hand_update([[NEW_PLAYER, CONFIRMED], [EXPERT, CONFIRMED]], winner)
    assert close(a.rating, expected[0][0]) and (a.games_played, a.games_won) == (1, int(winner == 0))
    # Bruno, who gave up, loses in the seat he left.
    lost = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, CONFIRMED]], 0)
    assert close(b.rating, lost[1][0]) and (b.games_played, b.games_won) == (1, 0)
    assert len(history_rows(client, bruno)) == 1
    # His lists say he gave it up, whoever won; Anne's say her real result.
    store = client.app.state.store  # type: ignore[attr-defined]
    assert [g.result for g in store.games_of(bruno)] == [{"abandoned": True}]
    assert [g.result for g in store.games_of(anne)] == [result]
    history = client.app.state.history  # type: ignore[attr-defined]
    assert [g.result for g in call(client, history.games, bruno)] == [{"abandoned": True}]
    assert [g.result for g in call(client, history.games, anne)] == [result]
    page = client.get(f"/historique/partie/{table_id}").text  # Bruno's cookies
    assert "Abandonnée" in page and "Gagnée" not in page and "Perdue" not in page


def test_giving_up_refuses_what_it_should(client: TestClient) -> None:
    anne = account(client, "Anne")
    chloe = account(client, "Chloe")
    bruno = account(client, "Bruno")  # the client is Bruno's
    table_id = friends_table(client, anne, {1: bruno})
    start(client, table_id, anne)
    path = f"/partie/{table_id}/abandonner"
    # Without the form's token, from another site: refused, nothing changed.
    r = client.post(path, data={"next": "/"}, follow_redirects=False)
    assert r.status_code == 403 and fresh(client, table_id).seats[1].player == bruno
    token = csrf_of(client, "/compte")
    r = client.post(path, data={"csrf": token}, headers={"origin": "https://evil.example"}, follow_redirects=False)
    assert r.status_code == 403 and fresh(client, table_id).seats[1].player == bruno
    # A wrong id, a hostile one: 404.
    for bad in ("nope", "x" * 300, "..%2F..%2Fcompte", "%00"):
        assert post_form(client, f"/partie/{bad}/abandonner", {}, "/compte").status_code == 404
    assert post_form(client, path, {}, "/compte").status_code == 303
    # Twice: the second is refused (he is no longer seated), nothing changes.
    seq = fresh(client, table_id).seq
    assert post_form(client, path, {}, "/compte").status_code == 404
    assert fresh(client, table_id).seq == seq
    # Someone else's game: Chloe is not at it.
    client.cookies.clear()
    r = post_form(client, "/connexion", {"name": "Chloe", "password": "correct horse"}, "/connexion")
    assert r.status_code == 303, r.text
    assert post_form(client, path, {}, "/compte").status_code == 404
    assert fresh(client, table_id).seq == seq and chloe not in fresh(client, table_id).human_players
    # A finished game: not in progress any more.
    live = play_to_end(client, table_id)
    assert live.game.is_over
    client.cookies.clear()
    r = post_form(client, "/connexion", {"name": "Anne", "password": "correct horse"}, "/connexion")
    assert post_form(client, path, {}, "/compte").status_code == 404
    # The parts refuses them too, with a reason, never a crash.
    parts = parts_of(client)
    for player in (anne, bruno, chloe):
        try:
            call(client, parts.tables.abandon, table_id, player)
        except TableError as e:
            assert e.code in ("over", "not_seated")
        else:
            raise AssertionError("a finished game was given up")


def test_the_host_freeing_a_friend_who_is_there_does_not_make_them_a_leaver(client: TestClient) -> None:
    anne, bruno, chloe = account(client, "Anne"), account(client, "Bruno"), account(client, "Chloe")
    table_id = friends_table(client, anne, {1: bruno, 2: chloe})  # Chloe is Anne's partner
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=4, passes=1, until=lambda live: live.game.awaiting_deal)
    assert fresh(client, table_id).seats[2].stand_in is None  # Chloe plays her seat herself
    call(client, friends_of(client).host_free, table_id, anne, 2)
    assert fresh(client, table_id).seats[2] == Seat("bot", level="confirmed")  # not gone
    live = play_to_end(client, table_id, seed=4, passes=1)
    winner = live.game.winner
    assert winner == 0 and len(live.game.deals) == 2  # her team won; she was dealt one of two deals
    assert all(chloe not in plan.left for plan in game_plans(live))
    # Chloe: the real result, in the seat she held; Anne: the real result, as seated at the end.
    c, a = profile(client, chloe), profile(client, anne)
    expected = hand_update([[NEW_PLAYER, NEW_PLAYER], [NEW_PLAYER, CONFIRMED]], winner)
    assert close(c.rating, expected[0][1]) and (c.games_played, c.games_won) == (1, int(winner == 0))
    expected = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, CONFIRMED]], winner)
    assert close(a.rating, expected[0][0]) and a.games_won == int(winner == 0)


def test_a_person_replaced_and_not_back_is_a_leaver_and_one_back_is_not(client: TestClient) -> None:
    anne, bruno, chloe, dan = (account(client, n) for n in ("Anne", "Bruno", "Chloe", "Dan"))
    table_id = friends_table(client, anne, {1: bruno, 2: chloe, 3: dan})
    parts = parts_of(client)
    start(client, table_id, anne)
    # Bruno and Dan drop out past the grace period (a computer stands in); Dan comes back.
    call(client, parts.tables.change_seat, table_id, 1, Seat("human", player=bruno, name="P1", stand_in=STAND_IN_LEVEL))
    call(client, parts.tables.change_seat, table_id, 3, Seat("human", player=dan, name="P3", stand_in=STAND_IN_LEVEL))
    call(client, parts.tables.change_seat, table_id, 3, Seat("human", player=dan, name="P3"))
    # Chloe drops out too, and the host frees her seat between deals: she has gone.
    call(client, parts.tables.change_seat, table_id, 2, Seat("human", player=chloe, name="P2", stand_in=STAND_IN_LEVEL))
    play_to_end(client, table_id, seed=6, passes=1, until=lambda live: live.game.awaiting_deal)
    call(client, friends_of(client).host_free, table_id, anne, 2)
    assert fresh(client, table_id).seats[2] == Seat("bot", level="confirmed", gone=chloe)
    live = play_to_end(client, table_id, seed=6, passes=1)
    winner = live.game.winner
    assert winner is not None
    assert {p for plan in game_plans(live) for p in plan.left} == {bruno, chloe}
    a, b, c, d = (profile(client, p) for p in (anne, bruno, chloe, dan))
    # Anne and Dan, who stayed: the real result, the leavers' seats as the computers held them.
    stayed = hand_update([[NEW_PLAYER, CONFIRMED], [EXPERT, NEW_PLAYER]], winner)
    assert close(a.rating, stayed[0][0]) and close(d.rating, stayed[1][1])
    assert (a.games_won, d.games_won) == (int(winner == 0), int(winner == 1))
    # Each leaver loses alone in the seat they left, the other leaver's seat a computer's.
    lost_b = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, NEW_PLAYER]], 0)
    lost_c = hand_update([[NEW_PLAYER, NEW_PLAYER], [EXPERT, NEW_PLAYER]], 1)
    assert close(b.rating, lost_b[1][0]) and close(c.rating, lost_c[0][1])
    assert (b.games_played, b.games_won, c.games_played, c.games_won) == (1, 0, 1, 0)


def test_a_late_friend_is_rated_only_for_half_the_deals_or_more(client: TestClient) -> None:
    anne, bruno, chloe = account(client, "Anne"), account(client, "Bruno"), account(client, "Chloe")
    table_id = friends_table(client, anne, {}, late_joins=True)
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=8, passes=1, until=lambda live: live.game.awaiting_deal)
    call(client, friends_of(client).take_seat, table_id, chloe, "Chloe", 2)  # dealt 2 of 3 deals
    second_over = lambda live: len(live.game.deals) == 2 and live.game.awaiting_deal  # noqa: E731
    play_to_end(client, table_id, seed=8, passes=2, until=second_over)
    call(client, friends_of(client).take_seat, table_id, bruno, "Bruno", 1)  # dealt 1 of 3 deals
    live = play_to_end(client, table_id, seed=8, passes=2)
    winner = live.game.winner
    assert winner is not None and len(live.game.deals) == 3
    b = profile(client, bruno)  # his deal counted (a deal played), not the game
    assert (b.rating, b.rated_games, b.games_played, b.history) == (NEW_PLAYER, 0, 0, [])
    assert b.deals_played == 1 and history_rows(client, bruno) == []
    expected = hand_update([[NEW_PLAYER, NEW_PLAYER], [NEW_PLAYER, CONFIRMED]], winner)
    a, c = profile(client, anne), profile(client, chloe)
    assert close(a.rating, expected[0][0]) and close(c.rating, expected[0][1])


def test_the_profile_page_says_the_rating_rules(client: TestClient) -> None:
    account(client, "Anne")
    fr = client.get("/joueur/Anne").text.split("<main")[1]
    en = client.get("/player/Anne").text.split("<main")[1]
    for text, words in (
        (fr, ("deux équipes de deux", "ordinateur", "abandonne", "moitié des donnes")),
        (en, ("two teams of two", "computer", "gives up", "half the deals")),
    ):
        assert 'id="rating-rules"' in text
        for word in words:
            assert word in text, word


@pytest.mark.both_databases
def test_a_leaver_who_takes_a_seat_again_has_the_game_in_progress_and_is_still_a_leaver(client: TestClient) -> None:
    anne, bruno = account(client, "Anne"), account(client, "Bruno")  # the client is Bruno's
    table_id = friends_table(client, anne, {1: bruno}, late_joins=True)
    store = client.app.state.store  # type: ignore[attr-defined]
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=2, passes=1, until=lambda live: live.game.awaiting_deal)
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte").status_code == 303
    assert store.open_games(bruno) == []
    call(client, friends_of(client).take_seat, table_id, bruno, "Bruno", 3)  # back, on the other seat
    assert store.open_games(bruno) == [table_id]
    live = play_to_end(client, table_id, seed=2, passes=1)
    assert live.game.winner is not None
    plans = game_plans(live)
    assert {p for plan in plans for p in plan.left} == {bruno}
    b = profile(client, bruno)
    assert (b.games_played, b.games_won) == (1, 0)


def test_alone_with_computers_leaving_or_giving_up_ends_the_game_as_lost(client: TestClient) -> None:
    anne = account(client, "Anne")  # the client is Anne's
    store = client.app.state.store  # type: ignore[attr-defined]
    lost = hand_update([[NEW_PLAYER, CONFIRMED], [CONFIRMED, CONFIRMED]], 1)[0][0]
    # Before the start, the host giving up her friends' table ends it, unrated.
    unstarted = friends_table(client, anne, {})
    assert post_form(client, f"/partie/{unstarted}/abandonner", {}, "/compte").status_code == 303
    assert table_row(client, unstarted)[1] == {"abandoned": True} and profile(client, anne) == Profile()
    # Started, alone with computers: leaving ("Quitter la table") gives the game up, a loss.
    table_id = friends_table(client, anne, {})
    start(client, table_id, anne)
    call(client, friends_of(client).leave, table_id, anne)
    assert table_row(client, table_id)[1] == {"abandoned": True} and store.open_games(anne) == []
    a = profile(client, anne)
    assert close(a.rating, lost) and (a.games_played, a.games_won) == (1, 0)
    # And the account page's "Abandonner" on another such table: the same.
    other = friends_table(client, anne, {})
    start(client, other, anne)
    assert post_form(client, f"/partie/{other}/abandonner", {}, "/compte").status_code == 303
    assert table_row(client, other)[1] == {"abandoned": True} and profile(client, anne).games_played == 2


def test_giving_up_before_the_start_leaves_the_lobby_and_ends_nothing_for_the_others(client: TestClient) -> None:
    anne, bruno = account(client, "Anne"), account(client, "Bruno")  # the client is Bruno's
    store = client.app.state.store  # type: ignore[attr-defined]
    table_id = friends_table(client, anne, {1: bruno})
    assert store.open_games(bruno) == [table_id]
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte").status_code == 303
    live = fresh(client, table_id)
    assert live.seats[1] == Seat("bot", level="confirmed") and table_row(client, table_id) == (None, None)
    assert store.open_games(bruno) == [] and store.games_of(bruno) == [] and store.open_games(anne) == [table_id]
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte").status_code == 404


def deals_over(count: int) -> Any:
    """``play_to_end``'s ``until``: the table waits for its deal ``count + 1``."""
    return lambda live: len(live.game.deals) == count and live.game.awaiting_deal


def test_the_host_moving_to_the_winning_team_at_the_end_is_rated_on_the_team_he_played_for(client: TestClient) -> None:
    anne, bruno = account(client, "Anne"), account(client, "Bruno")
    table_id = friends_table(client, anne, {1: bruno})
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=3, passes=2, until=deals_over(2))
    # Two deals of three played on team 0; before the last one, Anne moves herself to
    # Bruno's seat (the two exchange their seats), on the team that wins.
    call(client, friends_of(client).host_move, table_id, anne, 0, 1)
    assert fresh(client, table_id).seats[1].player == anne
    live = play_to_end(client, table_id, seed=3, passes=2)
    assert live.game.winner == 1 and len(live.game.deals) == 3
    # Each is rated for the seat held two deals of three, as the table was then.
    expected = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, CONFIRMED]], 1)
    a, b = profile(client, anne), profile(client, bruno)
    assert close(a.rating, expected[0][0]) and a.rating.mu < NEW_PLAYER.mu
    assert (a.games_played, a.games_won) == (1, 0)
    assert close(b.rating, expected[1][0]) and (b.games_played, b.games_won) == (1, 1)


def test_the_host_moving_a_friend_to_the_other_team_at_the_end_does_not_change_their_side(client: TestClient) -> None:
    anne, bruno = account(client, "Anne"), account(client, "Bruno")
    table_id = friends_table(client, anne, {1: bruno})
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=1, passes=2, until=deals_over(2))
    call(client, friends_of(client).host_move, table_id, anne, 1, 2)  # Bruno becomes Anne's partner
    assert fresh(client, table_id).seats[2].player == bruno
    live = play_to_end(client, table_id, seed=1, passes=2)
    winner = live.game.winner
    assert winner is not None and len(live.game.deals) == 3
    # Bruno: in the seat he held for two deals of three, the computer back in Anne's team.
    b = profile(client, bruno)
    expected = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, CONFIRMED]], winner)
    assert close(b.rating, expected[1][0]) and (b.games_played, b.games_won) == (1, int(winner == 1))
    # Anne, who did not move: as seated at the end, Bruno her partner.
    a = profile(client, anne)
    expected = hand_update([[NEW_PLAYER, NEW_PLAYER], [CONFIRMED, CONFIRMED]], winner)
    assert close(a.rating, expected[0][0]) and (a.games_played, a.games_won) == (1, int(winner == 0))


def test_deals_a_computer_played_for_a_person_are_not_theirs(client: TestClient) -> None:
    anne, bruno = account(client, "Anne"), account(client, "Bruno")
    table_id = friends_table(client, anne, {1: bruno})
    parts = parts_of(client)
    start(client, table_id, anne)
    play_to_end(client, table_id, seed=2, passes=2, until=deals_over(1))
    # Bruno is away from the end of the first deal until the third is dealt, then back.
    call(client, parts.tables.change_seat, table_id, 1, Seat("human", player=bruno, name="P1", stand_in=STAND_IN_LEVEL))
    play_to_end(client, table_id, seed=2, passes=2, until=lambda live: len(live.game.deals) == 3)
    call(client, parts.tables.change_seat, table_id, 1, Seat("human", player=bruno, name="P1"))
    live = play_to_end(client, table_id, seed=2, passes=2)
    winner = live.game.winner
    assert winner is not None and len(live.game.deals) == 3
    assert all(bruno not in plan.left for plan in game_plans(live))  # back: not a leaver
    b = profile(client, bruno)  # played one deal of three himself: not rated
    assert (b.rating, b.rated_games, b.games_played, b.history) == (NEW_PLAYER, 0, 0, [])
    expected = hand_update([[NEW_PLAYER, CONFIRMED], [NEW_PLAYER, CONFIRMED]], winner)
    assert close(profile(client, anne).rating, expected[0][0])


def test_nobody_moved_everybody_is_rated_as_seated(client: TestClient) -> None:
    anne, bruno, chloe = account(client, "Anne"), account(client, "Bruno"), account(client, "Chloe")
    table_id = friends_table(client, anne, {1: bruno, 2: chloe})
    start(client, table_id, anne)
    live = play_to_end(client, table_id, seed=3, passes=2)
    winner = live.game.winner
    assert winner is not None and len(live.game.deals) == 3
    expected = hand_update([[NEW_PLAYER, NEW_PLAYER], [NEW_PLAYER, CONFIRMED]], winner)
    a, b, c = (profile(client, p) for p in (anne, bruno, chloe))
    assert close(a.rating, expected[0][0]) and close(c.rating, expected[0][1]) and close(b.rating, expected[1][0])
    assert (a.games_won, b.games_won, c.games_won) == (int(winner == 0), int(winner == 1), int(winner == 0))
