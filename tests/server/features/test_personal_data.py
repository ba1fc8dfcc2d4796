"""Your data (issue 52): the archive a person downloads from their account page holds
everything the site keeps about them and nothing of anyone else (no other person's
address, sessions, reports or ids, no game in progress, never a token or a hash); every
table of the database has its decision; deleting an account leaves nothing of the person
in any column of any table, and their games stay under "compte supprimé"."""

from __future__ import annotations

import html
import io
import json
import random
import re
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from server_helpers import MakeClient, another_visitor, call, create_solo, csrf_of, parts_of, post_form
from sqlalchemy import inspect, select
from starlette.testclient import TestClient

from coinche.engine.record import decode_record, parse_record, replay
from coinche.engine.rules import RuleSet
from coinche.server.features.account_recovery import AccountTokenRow
from coinche.server.features.accounts import Account, token_hash
from coinche.server.features.clubs import ClubBanRow, ClubPostRow, ClubRequestRow, ClubRow, ClubStore
from coinche.server.features.coach.rows import CoachSettingRow
from coinche.server.features.mail import MailRow
from coinche.server.features.mistakes import MistakeRow
from coinche.server.features.moderation import ModerationRow, RoleRow
from coinche.server.features.personal_data import FILES, NOT_PERSONAL, TABLES, Holding
from coinche.server.features.progress import FaultRow
from coinche.server.features.seasons import SeasonDivisionRow, SeasonFinalRow, SeasonPlayerRow
from coinche.server.features.tournaments.rows import (
    TournamentEntryRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
)
from coinche.server.infra.db import Base
from coinche.server.infra.rows.accuracy import DealAccuracyRow
from coinche.server.infra.rows.challenge import (
    ChallengeAttemptRow,
    ChallengeDayRow,
    ChallengeResultRow,
    ChallengeStandingRow,
)
from coinche.server.infra.rows.lobby import OpenTableRow, QuickWaitRow
from coinche.server.infra.rows.people import (
    AccountRow,
    BlockRow,
    BotTokenRow,
    FollowRow,
    InvitationRow,
    OnlineRow,
    PlayerRow,
    ReportRow,
    SaidRow,
    SessionRow,
)
from coinche.server.infra.rows.processes import RateLimitHitRow
from coinche.server.infra.rows.puzzles import (
    BiddingPuzzleRow,
    BiddingPuzzleTryRow,
    PuzzlePlayerRow,
    PuzzleRow,
    PuzzleTryRow,
)
from coinche.server.infra.rows.tables import (
    TablePlayerRow,
    TablePresenceRow,
    TableRow,
    UploadAnalysisRow,
    UploadedRecordRow,
)
from coinche.server.live.parts import TableParts
from coinche.server.table.kinds import QuickPlayTable
from coinche.server.table.live_table import LiveTable
from coinche.server.table.names import login_key, name_key, search_key
from coinche.server.table.spec import Seat

PASSWORD = "correct horse"
ZOE = "Zoé_Marchal"
ZOE_MAIL = "Zoe.Marchal@example.org"
ZOE_WAITING = "zoe.nouvelle@example.net"
ZOE_BOT = "Zoébot"
MARKER = "zz-only-zoe-wrote-this"
"""A string only the person's own free text holds (a club's description, an upload)."""
BOB_MAIL = "bastien@example.com"
AT = datetime(2026, 12, 1, 12, tzinfo=UTC)
FAR = datetime.now(UTC) + timedelta(days=1)
"""Her quick play wait's end: not during the test (the site's wave would seat her with
computers while she deletes her account, a race of its own: see the closing note)."""


@dataclass
class Someone:
    client: TestClient
    name: str
    player: str
    account: str


def sign_up(client: TestClient, name: str) -> Someone:
    """A new visitor on ``client``'s application who signs up as ``name``."""
    browser = another_visitor(client)
    form = {"name": name, "password": PASSWORD, "confirm": PASSWORD}
    r = post_form(browser, "/inscription", form, page="/inscription")
    assert r.status_code == 303, r.text
    with store_of(client).session() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name == name))
        assert row is not None
        return Someone(browser, name, row.player_id, row.id)


def store_of(client: TestClient) -> Any:
    return client.app.state.store  # type: ignore[attr-defined]


def add(client: TestClient, *rows: Base) -> None:
    with store_of(client).session() as s, s.begin():
        s.add_all(rows)


async def play(parts: TableParts, table_id: str, players: list[str], moves: int | None = None) -> LiveTable:
    """The people of ``players`` (by seat) play the table: legal moves drawn from a seeded
    generator, each next deal asked for; to the game's end, or ``moves`` moves."""
    rng = random.Random(7)
    done = 0
    while True:
        live = await parts.tables.table(table_id, fresh=True)
        assert live is not None
        if live.game.is_over or (moves is not None and done >= moves):
            return live
        if live.game.awaiting_deal:
            await parts.tables.next_deal(table_id, players[0], f"deal-{done}")
            continue
        seat = live.game.to_move
        action = rng.choice(live.game.legal_actions())
        await parts.tables.act(table_id, players[seat], action, f"move-{done}")
        done += 1


def people_table(client: TestClient, people: list[Someone], target: int = 300) -> str:
    """A quick play table of these four people (names in their seats), made and stored."""
    parts = parts_of(client)
    seats = [Seat("human", player=p.player, name=p.name) for p in people]
    spec = call(
        client,
        parts.tables.create_table,
        RuleSet.profile("classic", target=target),
        seats,
        "beginner",
        QuickPlayTable(),
    )
    return spec.id


def friends_table(host: Someone) -> tuple[str, str]:
    """A friends' table ``host`` made (not started): its id and code."""
    form = {"profile": "classic", "target": "1000", "level_1": "beginner", "level_2": "beginner", "level_3": "beginner"}
    r = post_form(host.client, "/amis", form, page="/amis")
    assert r.status_code == 303, r.text
    table_id = r.headers["location"].removeprefix("/table/")
    with store_of(host.client).session() as s:
        code = s.get(TableRow, table_id).code
    return table_id, code


@pytest.fixture
def four(make_client: MakeClient) -> list[Someone]:
    client = make_client(free_deals=100)
    return [sign_up(client, name) for name in (ZOE, "Bastien", "Capucine", "Dorian")]


def fill(client: TestClient, zoe: Someone, bob: Someone, carol: Someone, finished: str) -> None:
    """Rows of ``zoe``'s in every table that holds something of a person (and some of
    other people's, which her archive must not show)."""
    z, b = zoe.player, bob.player
    store = store_of(client)
    clubs = ClubStore(store)
    shared = clubs.create(z, "Les Belotiers", "Un club de quartier", True, AT)
    clubs.add_member(shared, b, AT)
    clubs.add_member(shared, carol.player, AT + timedelta(hours=1))
    clubs.set_role(shared, carol.player, "moderator")
    alone = clubs.create(z, "Chez Zoé", f"Le club de {ZOE}, {MARKER}", False, AT)
    del alone
    theirs = clubs.create(b, "Le Cercle", "Le club de Bastien", False, AT)
    with store.session() as s, s.begin():
        me = s.get(AccountRow, zoe.account)
        me.email = ZOE_MAIL
        other = s.get(AccountRow, bob.account)
        other.email = BOB_MAIL
        s.add(
            AccountRow(
                id="zoebot0000000001",
                name=ZOE_BOT,
                name_key=name_key(ZOE_BOT),
                name_search=search_key(ZOE_BOT),
                name_skeleton="skeleton-of-zoebot",
                email=None,
                password_hash="!",
                player_id=player_made(s, "zoebotplayer0001"),
                created_at=AT,
                bot_owner_id=zoe.account,
            )
        )
    puzzle = PuzzleRow(
        id="puzzle0001",
        table_id=finished,
        deal=99,  # not a deal the site's own puzzle finder may take from the finished game meanwhile
        rules={},
        dealer=0,
        hands=[0, 0, 0, 0],
        log=[],
        seat=0,
        goal="make",
        solution="AS",
        values=[],
        line=[],
        themes=[],
        swing=10,
        mu=25.0,
        sigma=8.0,
    )
    bidding = BiddingPuzzleRow(
        id="bidding0001",
        table_id=finished,
        deal=99,
        rules={},
        dealer=0,
        hands=[0, 0, 0, 0],
        calls=[],
        seat=0,
        call="pass",
        played="80H",
        values=[],
        margin=1.0,
    )
    day = ChallengeDayRow(day="2026-12-01", profile="classic", seed="0" * 64, commitment="1" * 64)
    tournament = TournamentRow(
        id="tourn0001",
        name="La Coupe",
        organiser_id=z,
        profile="classic",
        options={},
        format="swiss",
        rounds=3,
        deals=4,
        minutes_per_deal=3.0,
        break_seconds=30,
        opens_at=AT,
        starts_at=AT,
        alone=True,
        computer_partner=False,
        level="beginner",
        secret=b"\0" * 32,
        commitment="2" * 64,
        state="finished",
        round=3,
        created_at=AT,
    )
    add(client, puzzle, bidding, day, tournament)
    add(
        client,
        AccountTokenRow(
            token_hash="a" * 64,
            account_id=zoe.account,
            kind="address",
            email=ZOE_WAITING,
            created_at=AT,
            expires_at=datetime.now(UTC) + timedelta(hours=1),
        ),
        AccountTokenRow(
            token_hash="b" * 64,
            account_id=zoe.account,
            kind="reset",
            email=ZOE_MAIL,
            created_at=AT,
            expires_at=AT + timedelta(minutes=30),
        ),
        BotTokenRow(id="bottoken01", bot_id="zoebot0000000001", hash="c" * 64, created_at=AT),
        MailRow(
            id="mail0001",
            to_address=ZOE_MAIL,
            subject="Coinche : changer votre mot de passe",
            body=f"Bonjour {ZOE}, https://coinche.example/reinitialiser/secret-link",
            created_at=AT,
            next_try_at=AT,
            attempts=1,
        ),
        MailRow(
            id="mail0002",
            to_address=ZOE_WAITING,
            subject="Coinche : Confirmez votre adresse",
            body=f"Bonjour {ZOE}",
            created_at=AT,
            next_try_at=AT,
            attempts=0,
        ),
        MailRow(
            id="mail0003",
            to_address=BOB_MAIL,
            subject="Pour Bastien seulement",
            body="Bonjour Bastien",
            created_at=AT,
            next_try_at=AT,
            attempts=0,
        ),
        RoleRow(account_id=zoe.account, role="moderator", given_at=AT),
        CoachSettingRow(player_id=z, on=True),
        OnlineRow(player_id=z, seen_at=AT),
        RateLimitHitRow(key=f"5/3600s:report:{z}", at=datetime.now(UTC)),
        RateLimitHitRow(key=f"10/60s:login-name:{login_key(ZOE)}", at=datetime.now(UTC)),
        RateLimitHitRow(key=f"3/3600s:address:{zoe.account}", at=datetime.now(UTC)),
        FollowRow(player_id=z, followed_id=b, created_at=AT),
        FollowRow(player_id=b, followed_id=z, created_at=AT),
        FollowRow(player_id=b, followed_id=carol.player, created_at=AT),
        BlockRow(player_id=z, blocked_id=carol.player, created_at=AT),
        BlockRow(player_id=carol.player, blocked_id=z, created_at=AT),
        InvitationRow(id="inv0001", from_id=z, to_id=b, table_id=finished, seat=1, created_at=AT),
        InvitationRow(id="inv0002", from_id=carol.player, to_id=z, table_id=finished, seat=1, created_at=AT),
        ReportRow(
            id="rep0001",
            reporter_id=z,
            reported_id=carol.player,
            reported_name="Capucine",
            table_id=finished,
            reason="stalling",
            created_at=AT,
        ),
        ReportRow(
            id="rep0002",
            reporter_id=b,
            reported_id=z,
            reported_name=ZOE,
            table_id=finished,
            reason="name",
            created_at=AT,
        ),
        ModerationRow(
            id="mod0001",
            kind="warn",
            player_id=z,
            moderator_id=carol.account,
            reason="Restez courtois à la table.",
            created_at=AT,
        ),
        SaidRow(id="said0001", table_id=finished, seat=0, player_id=z, kind="say", what="well_played", created_at=AT),
        QuickWaitRow(player_id=z, rules=None, mu=25.0, sigma=8.0, since=AT, deadline=FAR, table_id=None),
        TablePresenceRow(table_id=finished, player_id=z, process="proc-1", connections=1, seen_at=AT),
        UploadedRecordRow(id="upload0001", owner=z, record=json.dumps({"note": MARKER, "deals": []}), created_at=AT),
        DealAccuracyRow(
            table_id=finished,
            deal=1,
            seat=0,
            player_id=z,
            profile="classic",
            cards=8,
            cards_kept=7,
            card_loss=10,
            calls=2,
            calls_kept=2,
            call_loss=0.0,
        ),
        FaultRow(table_id=finished, deal=1, step=3, kind="trump_partner", player_id=z, profile="classic"),
        MistakeRow(
            id="mistake0001",
            player_id=z,
            table_id=finished,
            deal=1,
            step=5,
            profile="classic",
            rules={},
            dealer=0,
            hands=[1, 2, 3, 4],
            log=[],
            seat=0,
            kind="card",
            played="7H",
            cost=12.0,
            values=[["AS", 30]],
            line=[],
        ),
        PuzzleTryRow(player_id=z, puzzle_id="puzzle0001", card="AS", solved=True, at=AT),
        PuzzlePlayerRow(player_id=z, mu=26.0, sigma=7.0, tries=1, solved=1, streak=1, best_streak=1),
        BiddingPuzzleTryRow(player_id=z, puzzle_id="bidding0001", call="pass", solved=True, at=AT),
        SeasonPlayerRow(season="2025-01", profile="classic", player_id=z, division=3, joined_at=AT),
        SeasonFinalRow(season="2026-11", profile="classic", player_id=z, division=3, final_rank=2, move="up"),
        SeasonDivisionRow(profile="classic", player_id=z, division=2, from_season="2026-11"),
        ChallengeAttemptRow(day="2026-12-01", player_id=z, table_id=finished, guest=False, started_at=AT),
        ChallengeResultRow(
            day="2026-12-01", deal=1, player_id=z, score=40, contract="80H", taker=0, made=True, deal_score=[120, 40]
        ),
        ChallengeStandingRow(
            day="2026-12-01", player_id=z, position=0, rank=1, average=61.5, finished=1, percents=[61.5]
        ),
        TournamentEntryRow(
            id="entry0001", tournament_id="tourn0001", first_id=z, second_id=None, second_ok=False, created_at=AT
        ),
        TournamentPlayerRow(tournament_id="tourn0001", player_id=z, entry_id="entry0001"),
        TournamentTableRow(
            table_id="ttable0001",
            tournament_id="tourn0001",
            round=1,
            number=1,
            ns_entry="entry0001",
            ew_entry=None,
            seats=[{"kind": "human", "player": z, "level": None, "name": ZOE}, {"kind": "bot", "level": "beginner"}],
            claimed_at=AT,
        ),
        OpenTableRow(
            table_id=finished,
            code="ABCDEF",
            profile="classic",
            target=300,
            seats=[
                {"kind": "human", "name": ZOE, "rating": 1000},
                {"kind": "human", "name": "Bastien", "rating": 1000},
                {"kind": "human", "name": "Capucine", "rating": 1000},
                {"kind": "human", "name": "Dorian", "rating": 1000},
            ],
            free_seats=0,
            opened_at=AT,
            seq=0,
        ),
        ClubRequestRow(club_id=theirs, player_id=z, kind="ask", by_id=z, created_at=AT),
        ClubBanRow(club_id=theirs, player_id=z, by_id=b, created_at=AT),
        ClubPostRow(id="post0001", club_id=shared, player_id=z, phrase="hello", created_at=AT),
    )
    add(client, UploadAnalysisRow(upload_id="upload0001", deal=1, data={"note": MARKER}))


def player_made(s: Any, player: str) -> str:
    """A player row (a bot's) made in the session ``s``; its id."""
    s.add(PlayerRow(id=player, deals_played=0))
    s.flush()
    return player


def archive_of(person: Someone, lang: str = "fr") -> zipfile.ZipFile:
    r = post_form(person.client, "/compte/donnees", {"lang": lang}, page="/compte")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/zip"
    assert r.headers["cache-control"] == "no-store"
    word = "data" if lang == "en" else "donnees"
    assert re.fullmatch(
        rf'attachment; filename="coinche-{word}-\d{{4}}-\d{{2}}-\d{{2}}\.zip"', r.headers["content-disposition"]
    )
    return zipfile.ZipFile(io.BytesIO(r.content))


# ----- every table has its decision -----


def test_every_table_of_the_database_is_declared(four: list[Someone]) -> None:
    """A new table (a migration's, or a row class's) must say what it holds of a person,
    in which file of the archive, and what deleting an account does to it."""
    engine = store_of(four[0].client).engine
    tables = set(inspect(engine).get_table_names()) - {"alembic_version"}
    assert tables == set(TABLES), (tables - set(TABLES), set(TABLES) - tables)
    assert set(Base.metadata.tables) <= set(TABLES)
    for name, holding in TABLES.items():
        assert isinstance(holding, Holding)
        assert holding.archive is None or holding.archive in FILES, name
        assert holding.deletion in ("erased", "names removed", "kept", NOT_PERSONAL), name


# ----- the archive -----


def test_the_archive_holds_the_persons_data_and_nobody_elses(four: list[Someone]) -> None:
    zoe, bob, carol, dan = four
    client = zoe.client
    parts = parts_of(client)
    finished = people_table(client, four)
    live = call(client, play, parts, finished, [p.player for p in four])
    assert live.game.is_over
    going = people_table(client, [bob, zoe, dan, carol])
    in_progress = call(client, play, parts, going, [p.player for p in (bob, zoe, dan, carol)], 6)
    assert not in_progress.game.is_over
    fill(client, zoe, bob, carol, finished)
    with store_of(client).session() as s, s.begin():  # Dorian has her address too
        s.get(AccountRow, dan.account).email = ZOE_MAIL.upper()
        s.add(
            MailRow(
                id="mail0004",
                to_address=ZOE_MAIL,
                subject="Pour Dorian seulement",
                body="Bonjour Dorian",
                created_at=AT,
                next_try_at=AT,
                attempts=0,
            )
        )

    archive = archive_of(zoe, "en")
    assert set(archive.namelist()) == {"README.txt", *FILES}
    texts = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    assert texts["README.txt"].startswith(f"Coinche: the data of the account “{ZOE}”")
    assert "games.jsonl: your finished games" in texts["README.txt"]
    data = {name: json.loads(text) for name, text in texts.items() if name.endswith(".json")}

    # The games: the finished one as its record, replayed by the engine; not the one going on.
    lines = texts["games.jsonl"].splitlines()
    assert len(lines) == 1
    game = json.loads(lines[0])
    assert game["table"] == finished and game["seat"] == 0
    assert game["seats"] == ["you", "person", "person", "person"]
    assert game["result"]["winner"] in (0, 1) and game["finished_at"]
    assert "seed" not in game and all("dealing" in d for d in game["deals"])
    replayed = replay(parse_record(decode_record(lines[0].encode())))
    assert len(replayed.deals) == len(live.game.deals) and all(d.is_over for d in replayed.deals)
    everything = "\n".join(texts.values())
    assert going not in everything  # nothing of a game in progress, its hands least of all

    account = data["account.json"]
    assert account["name"] == ZOE and account["email"] == ZOE_MAIL and account["email_confirmed"]
    assert account["addresses_waiting"] == [ZOE_WAITING]
    assert {link["kind"] for link in account["links"]} == {"address", "reset"}
    assert len(account["sessions"]) == 1 and set(account["sessions"][0]) == {"created_at", "expires_at"}
    assert account["team_role"] == "moderator" and account["coach"] is True and account["last_seen"]
    assert account["quick_play_waiting"] is not None
    assert [b["name"] for b in data["bots.json"]] == [ZOE_BOT]
    assert len(data["bots.json"][0]["tokens"]) == 1
    ratings = data["ratings.json"]
    assert ratings["site"]["rated_games"] == 1 and ratings["profiles"][0]["profile"] == "classic"
    assert [h["table_id"] for h in ratings["history"]] == [finished]
    assert data["puzzles.json"]["card_play"][0]["card"] == "AS" and data["puzzles.json"]["bidding"]
    assert data["puzzles.json"]["rating"]["best_streak"] == 1
    assert data["seasons.json"]["finals"][0]["move"] == "up" and data["seasons.json"]["divisions"]
    assert data["seasons.json"]["seasons"][0]["division"] == 3
    daily = data["daily.json"]
    assert daily["attempts"] and daily["results"][0]["score"] == 40 and daily["standings"][0]["rank"] == 1
    assert data["tournaments.json"]["entered"][0]["name"] == "La Coupe"
    assert data["tournaments.json"]["organised"][0]["id"] == "tourn0001"
    clubs = data["clubs.json"]
    assert {c["name"] for c in clubs["memberships"]} == {"Les Belotiers", "Chez Zoé"}
    assert clubs["requests"][0]["name"] == "Le Cercle" and clubs["bans"][0]["name"] == "Le Cercle"
    assert clubs["posts"][0]["phrase"] == "hello" and len(clubs["owned"]) == 2
    people = data["people.json"]
    assert [f["name"] for f in people["following"]] == ["Bastien"]  # whom she follows, not her followers
    assert [b["name"] for b in people["blocked"]] == ["Capucine"]  # not who blocked her
    assert people["invitations_sent"][0]["to"] == "Bastien"
    assert people["invitations_received"][0]["from"] == "Capucine"
    moderation = data["moderation.json"]
    assert [r["reported_name"] for r in moderation["reports_made"]] == ["Capucine"]
    assert moderation["team_actions"] == [
        {"kind": "warn", "reason": "Restez courtois à la table.", "at": AT.isoformat(), "until": None, "undone": False}
    ]
    assert data["messages.json"][0]["what"] == "well_played"
    progress = data["progress.json"]
    assert progress["accuracy"][0]["cards_kept"] == 7 and progress["faults"][0]["kind"] == "trump_partner"
    assert progress["mistakes"][0]["played"] == "7H" and "hands" not in progress["mistakes"][0]
    assert json.loads(data["uploads.json"][0]["record"])["note"] == MARKER
    assert {m["to_address"] for m in data["mail.json"]} == {ZOE_MAIL, ZOE_WAITING}
    assert "secret-link" not in everything  # a mail's body holds a link: never in the archive

    # Nobody else's private data, no token or hash of anyone's.
    with store_of(client).session() as s:
        hashes = [*s.scalars(select(SessionRow.id)), *s.scalars(select(AccountRow.password_hash))]
        hashes += [*s.scalars(select(BotTokenRow.hash)), *s.scalars(select(AccountTokenRow.token_hash))]
    for secret in [BOB_MAIL, "Pour Bastien", "Pour Dorian", *[h for h in hashes if len(h) > 1]]:
        assert secret not in everything, secret
    for other in (bob, carol, dan):
        assert other.player not in everything and other.account not in everything
    assert "rep0002" not in everything and "mod0001" not in everything  # who reported, who acted


def test_the_readme_speaks_the_persons_language(four: list[Someone]) -> None:
    """In French; a game given up before its first deal ended has no record: it is told in
    account.json."""
    zoe = four[0]
    table_id = create_solo(zoe.client, "classic", 1000, "beginner")
    assert post_form(zoe.client, f"/partie/{table_id}/abandonner", {}, page="/compte").status_code == 303
    archive = archive_of(zoe, "fr")
    texts = archive.read("README.txt").decode("utf-8")
    assert texts.startswith(f"Coinche : les données du compte « {ZOE} »")
    assert "Parties terminées : 0" in texts and "N'y sont pas" in texts
    assert archive.read("games.jsonl") == b""
    early = json.loads(archive.read("account.json"))["games_without_a_finished_deal"]
    assert [(g["table"], g["result"], g["seats"]) for g in early] == [
        (table_id, {"abandoned": True}, ["you", "computer", "computer", "computer"])
    ]


def test_the_account_page_offers_the_download_in_both_languages(four: list[Someone]) -> None:
    zoe = four[0]
    fr = zoe.client.get("/compte").text
    assert "Vos données" in fr and 'action="/compte/donnees"' in fr and 'name="lang" value="fr"' in fr
    en = zoe.client.get("/account").text
    assert "Download my data" in en and 'name="lang" value="en"' in en


# ----- hostile requests -----


def test_a_guest_a_foreign_token_or_a_get_gets_nothing(four: list[Someone]) -> None:
    zoe = four[0]
    guest = another_visitor(zoe.client)
    r = post_form(guest, "/compte/donnees", {}, page="/")
    assert r.status_code == 403 and r.headers["content-type"].startswith("text/html")
    theirs = csrf_of(guest)
    for token in ("", "x" * 32, theirs):
        r = zoe.client.post("/compte/donnees", data={"csrf": token}, follow_redirects=False)
        assert r.status_code == 403, token
    mine = csrf_of(zoe.client, "/compte")
    r = zoe.client.post("/compte/donnees", data={"csrf": mine}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    assert zoe.client.get("/compte/donnees").status_code == 405


def test_another_accounts_data_is_never_reachable(four: list[Someone]) -> None:
    """The archive is the session's account's: no field of the form names another."""
    zoe, bob = four[0], four[1]
    form = {"lang": "en", "account": bob.account, "player": bob.player, "name": bob.name}
    r = post_form(zoe.client, "/compte/donnees", form, page="/compte")
    assert r.status_code == 200
    account = json.loads(zipfile.ZipFile(io.BytesIO(r.content)).read("account.json"))
    assert account["name"] == ZOE
    r = post_form(zoe.client, "/compte/donnees", {"lang": "<script>"}, page="/compte")
    assert r.status_code == 200  # an unknown language: the visitor's


def test_a_flood_of_downloads_is_refused(make_client: MakeClient) -> None:
    client = make_client(data_limit="2/hour")
    zoe = sign_up(client, ZOE)
    for _ in range(2):
        archive_of(zoe)
    r = post_form(zoe.client, "/compte/donnees", {"lang": "fr"}, page="/compte")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 60
    assert "Trop d'essais : réessayez dans" in html.unescape(r.text) and "Vos données" in r.text
    other = sign_up(client, "Bastien")  # another account has its own count
    archive_of(other)


# ----- deletion -----


def rows_holding(client: TestClient, words: list[str]) -> list[tuple[str, str, str]]:
    """Every (table, column, word) where a text or JSON column of any row holds one of
    ``words`` (any case)."""
    folded = [w.casefold() for w in words]
    found = []
    engine = store_of(client).engine
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            for row in conn.execute(select(table)).mappings():
                for column, value in row.items():
                    if isinstance(value, str):
                        text = value
                    elif isinstance(value, (dict, list)):
                        text = json.dumps(value, ensure_ascii=False)
                    else:
                        continue
                    text = text.casefold()
                    found += [(table.name, column, w) for w in folded if w in text]
    return found


@pytest.mark.both_databases
def test_deleting_an_account_leaves_nothing_of_the_person(four: list[Someone]) -> None:
    zoe, bob, carol, dan = four
    client = zoe.client
    parts = parts_of(client)
    finished = people_table(client, four)
    call(client, play, parts, finished, [p.player for p in four])
    going = people_table(client, [bob, zoe, dan, carol])
    call(client, play, parts, going, [p.player for p in (bob, zoe, dan, carol)], 6)
    lobby = friends_table(bob)
    r = post_form(zoe.client, f"/rejoindre/{lobby[1]}", {"name": ZOE, "seat": "2"}, page=f"/rejoindre/{lobby[1]}")
    assert r.status_code == 303, r.text  # a seat step of the log names her
    fill(client, zoe, bob, carol, finished)
    with store_of(client).session() as s:
        empty = [
            name
            for name, holding in TABLES.items()
            if holding.deletion != NOT_PERSONAL and not s.execute(select(Base.metadata.tables[name]).limit(1)).first()
        ]
    assert empty == [], "every table that holds something of a person is filled here"
    personal = [ZOE, name_key(ZOE), search_key(ZOE), ZOE_MAIL, ZOE_WAITING, ZOE_BOT, MARKER, zoe.account]
    assert {t for t, _, _ in rows_holding(client, personal)} >= {"accounts", "tables", "actions", "mail_queue"}

    r = post_form(client, "/compte/supprimer", {"password": PASSWORD}, page="/compte")
    assert r.status_code == 200, r.text

    assert rows_holding(client, personal) == []
    # Her games stay, under "compte supprimé"; the one going on goes on with a computer.
    with store_of(client).session() as s:
        seated = set(s.scalars(select(TablePlayerRow.table_id).where(TablePlayerRow.player_id == zoe.player)))
        assert {finished, going} <= seated
        shared = s.scalar(select(ClubRow).where(ClubRow.name == "Les Belotiers"))
        assert shared is not None and shared.owner_id == carol.player  # its moderator took it on
        assert s.scalar(select(ClubRow).where(ClubRow.name == "Chez Zoé")) is None
        assert s.get(AccountRow, bob.account).email == BOB_MAIL  # nobody else's data went
        assert s.get(FollowRow, (bob.player, carol.player)) is not None
        assert s.get(MailRow, "mail0003") is not None
        assert s.get(ModerationRow, "mod0001") is not None  # the team's log
        assert s.get(ReportRow, "rep0001") is not None  # a report she made, about someone else
    game = bob.client.get(f"/historique/partie/{finished}")
    assert game.status_code == 200 and "compte supprimé" in game.text
    live = call(client, parts.tables.table, going, 0, True)
    assert live is not None and live.seats[1].kind == "bot" and live.seats[1].gone == zoe.player
    live = call(client, parts.tables.table, lobby[0], 0, True)
    assert live is not None and live.seats[2].kind == "bot"  # her seat went back to a computer
    assert bob.client.get(f"/joueur/{ZOE}").status_code == 404
    assert post_form(zoe.client, "/compte/donnees", {}, page="/").status_code == 403


def test_a_reset_link_of_the_deleted_account_opens_nothing(four: list[Someone]) -> None:
    zoe = four[0]
    token = "reset-token-of-zoe"
    add(
        zoe.client,
        AccountTokenRow(
            token_hash=token_hash(token),
            account_id=zoe.account,
            kind="reset",
            email=None,
            created_at=datetime.now(UTC),
            expires_at=datetime.now(UTC) + timedelta(minutes=30),
        ),
    )
    assert zoe.client.get(f"/reinitialiser/{token}").status_code == 200
    assert post_form(zoe.client, "/compte/supprimer", {"password": PASSWORD}, page="/compte").status_code == 200
    assert zoe.client.get(f"/reinitialiser/{token}").status_code == 400


def test_a_bot_deleted_or_gone_with_its_owner_leaves_its_games_and_their_names(four: list[Someone]) -> None:
    """A bot is an account: deleted from its owner's page, or with its owner's account, its
    games in progress are given up first (a computer takes its seat), then its name leaves
    the tables, as a person's does."""
    zoe, bob, carol, dan = four
    client = zoe.client
    parts = parts_of(client)
    bots = client.app.state.bot_accounts  # type: ignore[attr-defined]
    owner = Account(zoe.account, zoe.name, zoe.player)
    made = [call(client, bots.create, owner, base) for base in ("Robotine", "Automate")]
    going = {}
    for bot in made:
        people = [Someone(client, bot.name, bot.player, bot.id), bob, carol, dan]
        going[bot.id] = people_table(client, people)
        call(client, play, parts, going[bot.id], [p.player for p in people], 6)
    names = [bot.name for bot in made]
    assert {t for t, _, _ in rows_holding(client, names)} >= {"accounts", "tables"}

    first, second = made
    r = post_form(zoe.client, "/robots", {"action": "delete", "value": first.id}, page="/robots")
    assert r.status_code == 303, r.text
    assert rows_holding(client, [first.name]) == []
    live = call(client, parts.tables.table, going[first.id], 0, True)
    assert live is not None and not live.game.is_over
    assert live.seats[0].kind == "bot" and live.seats[0].gone == first.player
    assert rows_holding(client, [second.name])  # the other bot is untouched
    # Another account's bot cannot be deleted by naming it.
    r = post_form(bob.client, "/robots", {"action": "delete", "value": second.id}, page="/robots")
    assert r.status_code == 303 and rows_holding(client, [second.name])

    r = post_form(client, "/compte/supprimer", {"password": PASSWORD}, page="/compte")
    assert r.status_code == 200, r.text
    assert rows_holding(client, names) == []
    live = call(client, parts.tables.table, going[second.id], 0, True)
    assert live is not None and live.seats[0].kind == "bot" and live.seats[0].gone == second.player
