"""The profile page's words and chart: plural forms from the catalogue, percentages the
language's way, a chart with labelled axes and a caption that says the direction."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from starlette.testclient import TestClient
from test_daily import account
from test_player_stats import BOT, new_table, person, play_to_end

from coinche.server.table import i18n
from coinche.server.web.profile_pages import chart_caption, chart_of


def history(*ratings: int) -> list[tuple[datetime, int]]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [(start + timedelta(hours=i), r) for i, r in enumerate(ratings)]


def test_the_caption_says_which_way_the_rating_went() -> None:
    down = chart_of(history(960, 924))
    assert down is not None
    assert chart_caption("fr", down).startswith("En baisse : de 1000 au départ à 924 après 2 parties classées")
    assert chart_caption("en", down).startswith("Down: from 1000 at the start to 924 after 2 rated games")
    up = chart_of(history(1012))
    assert up is not None
    assert chart_caption("fr", up).startswith("En hausse : de 1000 au départ à 1012 après 1 partie classée")
    assert chart_caption("en", up).startswith("Up: from 1000 at the start to 1012 after 1 rated game ")


def test_the_chart_has_both_axes_ticked() -> None:
    chart = chart_of(history(990, 1010, 1030, 970, 980))
    assert chart is not None
    assert [v for _, v in chart.y_ticks] == [970, 1000, 1030]
    assert [n for _, n in chart.x_ticks] == [0, 2, 5]
    left, top, right, bottom = chart.box
    ys = [y for y, _ in chart.y_ticks]
    assert ys == sorted(ys, reverse=True) and ys[0] == bottom and ys[-1] == top
    assert chart.x_ticks[0][0] == left and chart.x_ticks[-1][0] == right


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_profile_page_words(client: TestClient, lang: str) -> None:
    anne = account(client, "Anne")
    play_to_end(client, new_table(client, (person(anne), BOT, BOT, BOT)), seed=5)
    main = client.get("/joueur/Anne" if lang == "fr" else "/player/Anne").text.split("<main")[1]
    assert "1 parties" not in main and "1 rated games" not in main
    caption = re.search(r"<figcaption>(.*?)</figcaption>", main)
    assert caption is not None
    assert ("1 partie classée" if lang == "fr" else "1 rated game ") in caption.group(1), caption.group(1)
    assert i18n.gettext(lang, "player.axis_games") in main and i18n.gettext(lang, "player.axis_rating") in main
    assert main.count('class="tick"') >= 4
    percents = re.findall(r"\((\d+[^)]*%)\)", main)
    assert percents, "no percentage on the page"
    for shown in percents:
        assert re.fullmatch(r"\d+\u00a0%" if lang == "fr" else r"\d+%", shown), shown
