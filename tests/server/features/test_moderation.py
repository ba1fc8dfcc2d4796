"""The site's team (issue 51): a role given from the command line, the reports grouped by
person with what was said at the table and its moves, the team's actions (warn, suspend,
ban) told to the person where they are refused, kept in an audit log and undone; and
hostile input on every route (no role, no CSRF, another team member, forged fields)."""

from __future__ import annotations

import argparse
import html
import io
from datetime import timedelta
from typing import Any

import pytest
from friends_helpers import PASSWORD, Person, person
from server_helpers import Clock, another_visitor, call, player_of
from sqlalchemy import select
from starlette.testclient import TestClient
from test_friends import seated_table

from coinche.cli.site import cmd_role
from coinche.server.features.moderation import ModerationRow
from coinche.server.table.live_table import TableError


def give_role(client: TestClient, name: str, role: str) -> int:
    url = str(client.app.state.store.engine.url)  # type: ignore[attr-defined]
    return cmd_role(argparse.Namespace(db=url, name=name, role=role), io.StringIO())


def act(mod: Person, player: str, kind: str, reason: str, days: str = "") -> Any:
    form = {"kind": kind, "reason": reason, "days": days}
    return mod.post(f"/equipe/joueur/{player}", form, "/compte")


def undo(mod: Person, action_id: str, reason: str, player: str) -> Any:
    return mod.post(f"/equipe/action/{action_id}/annuler", {"reason": reason}, "/compte")


def actions(client: TestClient) -> list[ModerationRow]:
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        return list(s.scalars(select(ModerationRow).order_by(ModerationRow.created_at, ModerationRow.kind)))


def join_quick(p: Person) -> Any:
    return p.post("/partie-rapide", {"action": "join", "rules": "any"}, "/compte")


def test_a_role_from_the_command_line_opens_the_team_pages(client: TestClient) -> None:
    mod = person(client, "Modo")
    for path in ("/equipe", "/team", "/equipe/journal", "/team/log"):
        assert mod.get(path).status_code == 404, path  # not on the team: no such pages
    assert give_role(client, "modo", "moderator") == 0  # the name as typed any way
    assert give_role(client, "Nobody", "moderator") == 1
    for path in ("/equipe", "/team", "/equipe/journal", "/team/log"):
        assert mod.get(path).status_code == 200, path
    assert "Aucun signalement" in mod.get("/equipe").text
    assert "No report" in mod.get("/team").text
    assert 'href="/equipe"' in mod.get("/compte").text  # the way in, on the account page
    assert give_role(client, "Modo", "none") == 0  # taken away: at the next request
    assert mod.get("/equipe").status_code == 404
    assert 'href="/equipe"' not in mod.get("/compte").text
    guest = another_visitor(client)
    assert guest.get("/equipe").status_code == 404


def test_reports_grouped_by_person_with_what_was_said_and_the_moves(client: TestClient) -> None:
    host, [paul], table_id, _ = seated_table(client, ("Paul", 2))
    with paul.connect(table_id) as p:
        assert p.answer(p.send("say", phrase="sorry"))["type"] == "ack"
        assert p.answer(p.send("react", emote="wow"))["type"] == "ack"
    r = host.post(f"/table/{table_id}/signaler", {"seat": "2", "reason": "stalling"}, f"/table/{table_id}")
    assert r.status_code == 303
    mod = person(client, "Modo")
    give_role(client, "Modo", "moderator")
    listing = mod.get("/equipe").text
    assert "Paul" in listing and "Fait traîner la partie ×1" in html.unescape(listing)
    paul_player = liveplayer_of(client, table_id, 2)
    page = html.unescape(mod.get(f"/equipe/joueur/{paul_player}").text)
    assert "Hote — Fait traîner la partie" in page  # who reported, why
    assert f"Table {table_id}" in page
    assert "Désolé" in page and "😮" in page  # what Paul said there
    assert "change de joueur à cette place" in page  # the log's steps: Paul took his seat
    english = html.unescape(mod.get(f"/team/player/{paul_player}").text)
    assert "What was said" in english and "another player takes the seat" in english


def liveplayer_of(client: TestClient, table_id: str, seat: int) -> str:
    parts = client.app.state.parts  # type: ignore[attr-defined]
    live = call(client, parts.registry.table, table_id)
    player = live.seats[seat].player
    assert player is not None
    return str(player)


def test_a_suspension_refuses_quick_play_and_tournaments_is_told_and_undone(make_client: Any) -> None:
    clock = Clock()
    client = make_client(clock=clock)
    mod, zoe = person(client, "Modo"), person(client, "Zoe")
    give_role(client, "Modo", "moderator")
    zoe_player = player_of(client, "Zoe")
    assert act(mod, zoe_player, "warn", "Soyez courtois.").status_code == 303
    assert "Avertissement du 2026-12-07 : Soyez courtois." in html.unescape(zoe.get("/compte").text)
    r = act(mod, zoe_player, "suspend", "Abandons répétés <b>", "3")
    assert r.status_code == 303
    told = (
        "Vous êtes suspendu de la partie rapide et des tournois jusqu'au 2026-12-10 12:00 UTC. "
        "Raison : Abandons répétés <b>"
    )
    page = zoe.get("/partie-rapide").text
    assert told in html.unescape(page) and "Abandons répétés &lt;b&gt;" in page  # escaped
    r = join_quick(zoe)
    assert r.status_code == 403 and told in html.unescape(r.text)
    assert told in html.unescape(zoe.get("/compte").text)
    tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    with pytest.raises(TableError) as refused:
        call(client, tournaments.enter, "any", zoe_player, None, None)
    assert refused.value.code == "suspended"
    anna = person(client, "Anna")
    with pytest.raises(TableError) as refused:  # as a partner: refused, the why not told
        call(client, tournaments.enter, "any", player_of(client, "Anna"), zoe_player, None)
    assert refused.value.code == "partner_refused" and refused.value.message is None
    del anna
    # the audit log: who, what, why
    log = html.unescape(mod.get("/equipe/journal").text)
    assert "Suspension (partie rapide et tournois)" in log and "Modo" in log and "Abandons répétés" in log
    suspension = next(a for a in actions(client) if a.kind == "suspend")
    assert undo(mod, suspension.id, "Erreur de ma part", zoe_player).status_code == 303
    assert join_quick(zoe).status_code == 303  # free again
    assert zoe.post("/partie-rapide", {"action": "leave", "rules": "any"}, "/partie-rapide").status_code == 303
    assert undo(mod, suspension.id, "encore", zoe_player).status_code == 404  # once
    kinds = [(a.kind, a.undoes) for a in actions(client)]
    assert ("undo", suspension.id) in kinds
    # a suspension ends on the server's clock
    assert act(mod, zoe_player, "suspend", "Deux jours", "2").status_code == 303
    assert join_quick(zoe).status_code == 403
    clock.now += timedelta(days=2, seconds=1)
    assert join_quick(zoe).status_code == 303


def test_a_suspension_takes_the_person_out_of_the_wait(client: TestClient) -> None:
    mod, zoe = person(client, "Modo"), person(client, "Zoe")
    give_role(client, "Modo", "moderator")
    assert join_quick(zoe).status_code == 303
    quick = client.app.state.quick_play  # type: ignore[attr-defined]
    zoe_player = player_of(client, "Zoe")
    assert call(client, quick.status, zoe_player) is not None
    act(mod, zoe_player, "suspend", "Triche", "1")
    assert call(client, quick.status, zoe_player) is None


def test_a_ban_ends_every_session_and_refuses_the_log_in(client: TestClient) -> None:
    mod, zoe = person(client, "Modo"), person(client, "Zoe")
    give_role(client, "Modo", "moderator")
    zoe_player = player_of(client, "Zoe")
    assert "Connecté en tant que" in zoe.get("/compte").text
    assert act(mod, zoe_player, "ban", "Insultes répétées").status_code == 303  # no days: for good
    assert "Connecté en tant que" not in zoe.get("/compte").text  # her session ended
    r = zoe.post("/connexion", {"name": "Zoe", "password": PASSWORD}, "/connexion")
    assert r.status_code == 403 and "Ce compte est banni. Raison : Insultes répétées" in html.unescape(r.text)
    r = zoe.post("/connexion", {"name": "Zoe", "password": "wrong password"}, "/connexion")
    assert r.status_code == 400 and "banni" not in r.text  # only the password's owner is told
    ban = next(a for a in actions(client) if a.kind == "ban")
    assert undo(mod, ban.id, "Levée après appel", zoe_player).status_code == 303
    assert zoe.post("/connexion", {"name": "Zoe", "password": PASSWORD}, "/connexion").status_code == 303


def test_hostile_input_on_the_team_routes(client: TestClient) -> None:
    mod, admin, other_mod, zoe = (person(client, n) for n in ("Modo", "Chef", "Modo2", "Zoe"))
    give_role(client, "Modo", "moderator")
    give_role(client, "Modo2", "moderator")
    give_role(client, "Chef", "admin")
    zoe_player, mod_player = player_of(client, "Zoe"), player_of(client, "Modo")
    # not on the team: nothing, with or without a form's token
    for path, form in (
        (f"/equipe/joueur/{mod_player}", {"kind": "ban", "reason": "x"}),
        ("/equipe/action/x/annuler", {"reason": "x"}),
    ):
        assert zoe.post(path, form, "/compte").status_code == 404
    with mod.acting() as c:  # no CSRF token
        assert c.post(f"/equipe/joueur/{zoe_player}", data={"kind": "warn", "reason": "x"}).status_code == 403
        # another site's form
        r = c.post(
            f"/equipe/joueur/{zoe_player}",
            data={"kind": "warn", "reason": "x"},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403
    # a moderator acts on no team member, nor on themselves; an admin acts on a moderator
    assert act(mod, mod_player, "warn", "moi").status_code == 400
    assert act(mod, player_of(client, "Modo2"), "warn", "collègue").status_code == 400
    assert act(mod, player_of(client, "Chef"), "ban", "chef").status_code == 400
    assert act(admin, player_of(client, "Modo2"), "warn", "Soyez plus rapide.").status_code == 303
    assert act(other_mod, player_of(client, "Chef"), "warn", "x").status_code == 400
    # bad kinds, times, reasons, forged fields
    for form in (
        {"kind": "delete", "reason": "x", "days": ""},
        {"kind": "warn", "reason": "", "days": ""},
        {"kind": "warn", "reason": "   ", "days": ""},
        {"kind": "warn", "reason": "x" * 501, "days": ""},
        {"kind": "warn", "reason": "x", "days": "3"},
        {"kind": "suspend", "reason": "x", "days": ""},
        {"kind": "suspend", "reason": "x", "days": "0"},
        {"kind": "suspend", "reason": "x", "days": "-3"},
        {"kind": "suspend", "reason": "x", "days": "99999999"},
        {"kind": "ban", "reason": "x", "days": "1e3"},
    ):
        assert mod.post(f"/equipe/joueur/{zoe_player}", form, f"/equipe/joueur/{zoe_player}").status_code == 400, form
    forged = {"kind": "warn", "reason": "x", "days": "", "role": "admin"}
    assert mod.post(f"/equipe/joueur/{zoe_player}", forged, f"/equipe/joueur/{zoe_player}").status_code == 400
    assert (
        give_role(client, "Zoe", "admin") == 0 and give_role(client, "Zoe", "none") == 0
    )  # only the command gives one
    assert mod.get("/equipe/joueur/nobody-at-all").status_code == 404
    assert mod.get("/equipe/joueur/" + "x" * 5000).status_code == 404
    assert undo(mod, "made-up", "x", zoe_player).status_code == 404
    assert undo(mod, "made-up", "", zoe_player).status_code == 400
    # the reason is shown escaped on every page
    assert act(mod, zoe_player, "warn", "<script>alert(1)</script>").status_code == 303
    for page in (
        mod.get(f"/equipe/joueur/{zoe_player}").text,
        mod.get("/equipe/journal").text,
        zoe.get("/compte").text,
    ):
        assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert len([a for a in actions(client) if a.kind == "warn"]) == 2
