"""A person's progress page (issue 50): their faults by kind, each linked to its deal, in
French and English; only their own."""

from __future__ import annotations

import html

from friends_helpers import Person
from server_helpers import Human, MakeClient, another_visitor, call, create_solo
from sqlalchemy import select
from starlette.testclient import TestClient

from coinche.server.features.progress import FaultRow
from coinche.server.table import i18n

MAX_DEALS = 8


def faults(client: TestClient) -> list[FaultRow]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        return list(s.scalars(select(FaultRow)))


def test_the_progress_page_counts_a_persons_faults_by_kind(make_client: MakeClient) -> None:
    client = make_client(free_deals=100, deal_accuracy=True)
    person = Person(another_visitor(client), "Progrès")
    person.sign_up()
    with person.acting() as c:
        table_id = create_solo(c, "classic", 3000, "beginner")
        with c.websocket_connect(f"/ws/table/{table_id}") as ws:
            human = Human(ws)
            state = None
            for n in range(1, MAX_DEALS + 1):
                human.max_deals = n
                state = human.play_game(state)
                call(c, c.app.state.accuracies.settle)  # type: ignore[attr-defined]
                if faults(c):
                    break
        found = faults(c)
        assert found, f"no fault in {MAX_DEALS} deals played at random"
        seats = c.app.state.parts.registry.get(table_id).seats  # type: ignore[attr-defined]
        player = next(s.player for s in seats if s.kind == "human")
        assert {f.player_id for f in found} == {player}
        for lang, path in (("fr", "/progres"), ("en", "/progress")):
            page = html.unescape(c.get(path).text)
            assert i18n.gettext(lang, "progress.title") in page
            for f in found:
                assert i18n.gettext(lang, f"progress.kind.{f.kind}") in page
                assert f'href="/table/{table_id}/donne/{f.deal}"' in page
    stranger = another_visitor(client)
    page = html.unescape(stranger.get("/progres").text)
    assert i18n.gettext("fr", "progress.none") in page and f"/table/{table_id}/donne/" not in page
