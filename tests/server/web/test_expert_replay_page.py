"""The expert in the player's seat (issue 32, item 5): a finished deal played again by the
workers' ``compare`` job, the two deals side by side with the first difference and, at a
card, the solver's values of both cards; only for a player of the table."""

from __future__ import annotations

import html

from server_helpers import MakeClient, call, live_table
from test_review import play_one_deal

from coinche.server.web.review_pages import comparisons_of


def test_the_expert_plays_the_deal_again_in_the_players_seat(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    played = play_one_deal(client, level="confirmed")
    review = client.get(played.base)
    assert "Rejouer comme l'expert" in html.unescape(review.text)
    url = played.base + "/expert"
    first = client.get(url)
    assert first.status_code == 200
    live = live_table(client, played.table_id)
    seat = live.seat_of(live.human_players[0])
    assert seat is not None
    data = call(client, comparisons_of_client(client).wait, live, 1, seat)
    assert data is not None
    page = html.unescape(client.get(url).text)
    assert "Votre donne" in page and "L'expert à votre place" in page
    original = live.game.deals[0]
    if data["first"] is None:
        assert "exactement comme vous" in page
        assert data["log"] == list(original.log)
    else:
        assert "Première différence" in page and "(première différence)" in page
        assert data["log"][: data["first"]] == list(original.log[: data["first"]])
        assert data["log"][data["first"]] != original.log[data["first"]]
    assert 'http-equiv="refresh"' not in page
    english = client.get(url, headers={"accept-language": "en"})
    assert english.status_code == 200


def test_only_a_player_of_the_table_sees_the_comparison(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    played = play_one_deal(client, level="beginner")
    url = played.base + "/expert"
    client.cookies.clear()
    client.get("/")  # another guest
    assert client.get(url).status_code == 404
    assert client.get("/table/nosuchtable/donne/1/expert").status_code == 404
    assert client.get(played.base.replace("/1", "/2") + "/expert").status_code == 404


def comparisons_of_client(client: object) -> object:
    class Request:
        app = client.app  # type: ignore[attr-defined]

    return comparisons_of(Request())  # type: ignore[arg-type]
