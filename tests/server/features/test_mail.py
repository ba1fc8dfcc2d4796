"""The site's mail and the way back into an account (issue 52), against a real SMTP server
the test starts (aiosmtpd): the queue sends, survives a server that is away and tries
again, each message goes once; reset links are one-use, expire, void each other, end the
sessions; a flood of requests sends a few mails; an address is the account's once its link
is opened."""

from __future__ import annotations

import argparse
import html
import io
import re
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from friends_helpers import PASSWORD, Person, person
from server_helpers import Clock, MakeClient, another_visitor, call, player_of
from sqlalchemy import func, select

from coinche.cli import main
from coinche.cli.site import cmd_reset_link
from coinche.server.features.account_recovery import AccountRecovery, RecoveryStore
from coinche.server.features.accounts import Account, AccountError
from coinche.server.features.mail import ATTEMPTS, MailRow, MailStore, SmtpServer
from coinche.server.infra.rows.people import AccountRow, SessionRow
from coinche.server.infra.store import Store
from mail_helpers import Inbox, body, free_port, smtp_server

pytestmark = pytest.mark.both_databases


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


LINK = re.compile(r"https?://\S+/reinitialiser/(\S+)")


def recovery_of(client: Any) -> AccountRecovery:
    found: AccountRecovery = client.app.state.recovery
    return found


def account_of(client: Any, name: str) -> Account:
    with client.app.state.store.session() as s:
        row = s.execute(select(AccountRow).where(AccountRow.name == name)).scalar_one()
        return Account(row.id, row.name, row.player_id)


def confirmed(client: Any, inbox: Inbox, name: str, address: str) -> Account:
    """``name``'s account with ``address`` confirmed through its link."""
    account = account_of(client, name)
    before = len(inbox.messages)
    call(client, recovery_of(client).set_address, account, address, PASSWORD, "fr")
    mail = inbox.wait_for(before + 1)[-1]
    assert mail["To"] == address and "Confirmez" in str(mail["Subject"])
    token = re.search(r"/confirmer-adresse/(\S+)", body(mail))
    assert token is not None
    assert call(client, recovery_of(client).confirm_address, token.group(1)) == address
    return account


def test_an_address_confirmed_then_a_reset_link_used_once(make_client: MakeClient, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    clock = Clock()
    client = make_client(clock=clock, smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=0.05)
    ana = person(client, "Ana")
    account = confirmed(client, inbox, "Ana", "ana@example.org")
    other = person(client, "Bob")
    recovery = recovery_of(client)

    # an address nobody has gets the same answer and no mail; Ana's gets its link
    call(client, _ask, recovery, "nobody@example.org")
    call(client, _ask, recovery, "ANA@example.org")
    mail = inbox.wait_for(2)[-1]
    assert mail["To"] == "ana@example.org" and len(inbox.messages) == 2
    token = LINK.search(body(mail))
    assert token is not None and "Ana" in body(mail)
    second = call(client, recovery.reset_link, "Ana")
    assert second is not None

    # the link sets the password, ends every session, voids the other link
    signed_in = re.compile(r'class="account-link"[^>]*><span>Ana</span>')
    assert signed_in.search(ana.get("/compte").text)
    found, session = call(client, recovery.reset, token.group(1), "new-password-22", "new-password-22")
    assert found == account and session
    assert not signed_in.search(ana.get("/compte").text)  # every session ended
    with pytest.raises(AccountError) as refused:
        call(client, recovery.reset, token.group(1), "again-password-3", "again-password-3")
    assert refused.value.code == "link_invalid"
    with pytest.raises(AccountError):
        call(client, recovery.reset, second.token, "again-password-3", "again-password-3")
    assert re.search(r"<span>Bob</span>", other.get("/compte").text)  # another account's sessions go on
    with client.app.state.store.session() as s:
        assert s.scalar(select(func.count()).select_from(SessionRow).where(SessionRow.account_id == account.id)) == 1


def _ask(recovery: AccountRecovery, address: str) -> Any:
    async def ask() -> None:
        recovery.ask_reset(address, "fr")

    return ask()


def test_links_expire_and_a_flood_sends_a_few_mails(make_client: MakeClient, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    clock = Clock()
    client = make_client(clock=clock, smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=0.05)
    person(client, "Cleo")
    confirmed(client, inbox, "Cleo", "cleo@example.org")
    recovery = recovery_of(client)
    link = call(client, recovery.reset_link, "Cleo")
    assert link is not None
    clock.now += timedelta(minutes=31)
    with pytest.raises(AccountError):
        call(client, recovery.reset, link.token, "new-password-22", "new-password-22")
    clock.now += timedelta(minutes=30)  # the operator's link of an hour ago counts no more
    for _ in range(12):
        call(client, _ask, recovery, "cleo@example.org")
    time.sleep(0.5)
    inbox.wait_for(1 + 3)
    time.sleep(0.3)
    assert len(inbox.messages) == 1 + 3  # the confirmation, then three links in the hour
    for hostile in ("", "no address", "a@b", "<script>@x.org", "x" * 300 + "@example.org"):
        with pytest.raises(AccountError):
            recovery.ask_reset(hostile, "fr")
    with pytest.raises(AccountError) as refused:
        call(client, recovery.reset, "not-a-token" * 20, "new-password-22", "new-password-22")
    assert refused.value.code == "link_invalid"
    assert player_of(client, "Cleo")


def test_the_queue_waits_for_a_server_that_is_away_and_sends_each_message_once(
    make_client: MakeClient, database_url: str
) -> None:
    port = free_port()  # nothing listens there yet
    clock = Clock()
    client = make_client(clock=clock, smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=3600)
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    call(client, mailer.send_soon, "dan@example.org", "Bonjour", "Un message.")  # the sender tries at once

    def tried() -> MailRow:
        with client.app.state.store.session() as s:  # type: ignore[attr-defined]
            return s.execute(select(MailRow)).scalar_one()

    deadline = time.monotonic() + 20
    while tried().attempts == 0:
        assert time.monotonic() < deadline, "the sender never tried"
        time.sleep(0.02)
    row = tried()
    assert row.attempts == 1 and row.sent_at is None and row.last_error and row.claimed_until is None
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        assert call(client, mailer.send_due) == 0  # not due yet
        clock.now += timedelta(minutes=1)
        # two senders at once (another process's store on the same database): one sends it
        other = MailStore(Store(database_url))
        assert [len(other.claim(clock.now)) for _ in range(1)] == [1]
        assert call(client, mailer.send_due) == 0  # leased to the other
        clock.now += timedelta(minutes=3)  # the other died holding it: the lease ends
        assert call(client, mailer.send_due) == 1
        assert inbox.wait_for(1)[0]["Subject"] == "Bonjour"
        clock.now += timedelta(hours=3)
        assert call(client, mailer.send_due) == 0  # sent: never again
        other.store.close()
    finally:
        controller.stop()
    assert len(inbox.messages) == 1 and ATTEMPTS > 1


def test_without_smtp_nothing_is_sent_and_an_address_cannot_be_set(make_client: MakeClient) -> None:
    client = make_client()
    person(client, "Eve")
    recovery = recovery_of(client)
    assert not recovery.mail_goes_out
    with pytest.raises(AccountError) as refused:
        call(client, recovery.set_address, account_of(client, "Eve"), "eve@example.org", PASSWORD, "fr")
    assert refused.value.code == "no_mail"
    link = call(client, recovery.reset_link, "Eve")
    assert link is not None and link.name == "Eve"
    assert call(client, recovery.reset_link, "Personne") is None
    assert isinstance(RecoveryStore, type)


def test_the_operators_reset_link_from_the_command_line(make_client: MakeClient, database_url: str) -> None:
    client = make_client()
    person(client, "Fanny")
    out = io.StringIO()
    args = argparse.Namespace(db=database_url, public_url="https://coinche.example", lang="en", name="fanny")
    assert cmd_reset_link(args, out) == 0
    link = out.getvalue().strip()
    assert link.startswith("https://coinche.example/reset-password/")
    token = link.rsplit("/", 1)[1]
    found, _ = call(client, recovery_of(client).reset, token, "new-password-22", "new-password-22")
    assert found.name == "Fanny"
    nobody = argparse.Namespace(db=database_url, public_url="https://x.org", lang="fr", name="Nobody")
    assert cmd_reset_link(nobody, out) == 1
    bad = argparse.Namespace(db=database_url, public_url="javascript:alert(1)", lang="fr", name="Fanny")
    assert cmd_reset_link(bad, out) == 2


@pytest.mark.parametrize(
    "url", ["http://mail.example", "smtp://", "smtp://host:99999", "ftp://host", "smtp://host:port"]
)
def test_a_bad_smtp_url_is_refused_before_the_start(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--smtp-url", url, "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "--smtp-url" in err and "Traceback" not in err
    assert SmtpServer.parse("smtps://me%40x.org:p%3Ass@mail.example").password == "p:ss"


def test_the_pages_of_the_way_back_in_french_and_english(make_client: MakeClient, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    client = make_client(smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=0.05)
    gil = person(client, "Gil")
    # the address, from the account page: the password first, then the link, then a button
    r = gil.post("/compte/adresse", {"email": "gil@example.org", "password": "wrong password"}, "/compte")
    assert r.status_code == 400 and not inbox.messages
    r = gil.post("/compte/adresse", {"email": "gil@example.org", "password": PASSWORD}, "/compte")
    assert r.status_code == 303 and r.headers["location"] == "/compte?done=address"
    page = html.unescape(gil.get("/compte").text)
    assert "Un lien de confirmation attend à gil@example.org" in page
    token = re.search(r"/confirmer-adresse/(\S+)", body(inbox.wait_for(1)[0]))
    assert token is not None
    visitor = person(client, "Hal")  # the link opened anywhere: the button confirms, not the link
    assert "Confirmer l'adresse" in html.unescape(visitor.get(f"/confirmer-adresse/{token[1]}").text)
    assert "Pas encore" not in html.unescape(gil.get("/compte").text)
    r = visitor.post(f"/confirmer-adresse/{token[1]}", {}, f"/confirmer-adresse/{token[1]}")
    assert r.status_code == 200 and "gil@example.org est l'adresse de votre compte" in html.unescape(r.text)
    assert "L'adresse de votre compte est gil@example.org" in html.unescape(gil.get("/compte").text)
    assert "gil@example.org" not in html.unescape(visitor.get("/compte").text)  # nobody else sees it
    r = visitor.post(f"/confirmer-adresse/{token[1]}", {}, f"/confirmer-adresse/{token[1]}")
    assert r.status_code == 400  # once

    # forgotten: the same answer for an address nobody has
    stranger = person(client, "Ivy")
    answers = [
        stranger.post("/mot-de-passe-oublie", {"email": address}, "/mot-de-passe-oublie")
        for address in ("nobody@example.org", "gil@example.org")
    ]
    assert [a.status_code for a in answers] == [200, 200]
    said = [html.unescape(a.text) for a in answers]
    assert "Si cette adresse est celle d'un compte" in said[0]
    assert said[0].replace("nobody@example.org", "") == said[1].replace("gil@example.org", "")
    link = LINK.search(body(inbox.wait_for(2)[1]))
    assert link is not None
    assert "Choisir un nouveau mot de passe" in html.unescape(stranger.get(f"/reinitialiser/{link[1]}").text)
    r = stranger.post(f"/reinitialiser/{link[1]}", {"password": "abcdefgh1", "confirm": "abcdefgh2"}, "/")
    assert r.status_code == 400
    r = stranger.post(f"/reinitialiser/{link[1]}", {"password": "new-password-33", "confirm": "new-password-33"}, "/")
    assert r.status_code == 303 and r.headers["location"] == "/compte?done=password"
    assert re.search(r"<span>Gil</span>", html.unescape(stranger.get("/compte").text))  # logged in as Gil here
    assert not re.search(r"<span>Gil</span>", html.unescape(gil.get("/compte").text))  # and nowhere else
    r = stranger.post(f"/reinitialiser/{link[1]}", {"password": "again-password-4", "confirm": "again-password-4"}, "/")
    assert r.status_code == 400 and "plus valable" in html.unescape(r.text)
    assert stranger.get(f"/reinitialiser/{link[1]}").status_code == 400

    # English, and hostile links
    assert "Forgotten password" in html.unescape(stranger.get("/forgot-password").text)
    assert "Forgot your password?" in html.unescape(stranger.get("/login").text)
    for bad in ("x", "x" * 500, "%00", "..%2F..%2Fetc", "<script>"):
        r = stranger.get(f"/reset-password/{bad}")
        assert r.status_code in (400, 404) and "<script>" not in r.text
    r = stranger.post("/forgot-password", {"email": "<b>not an address"}, "/forgot-password")
    assert r.status_code == 400 and "<b>not" not in r.text  # escaped


def test_the_answer_takes_as_long_for_an_address_nobody_has(make_client: MakeClient, smtp: tuple[Inbox, int]) -> None:
    """The work happens after the answer: its time says nothing of the address."""
    inbox, port = smtp
    client = make_client(smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=0.05)
    person(client, "Joël")
    confirmed(client, inbox, "Joël", "jo@example.org")
    asker = person(client, "Kim")
    times: dict[str, list[float]] = {"jo@example.org": [], "nobody@example.org": []}
    with asker.acting() as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/mot-de-passe-oublie").text)
        assert token is not None
        for _ in range(12):
            for address, seen in times.items():
                started = time.perf_counter()
                r = c.post("/mot-de-passe-oublie", data={"csrf": token[1], "email": address})
                seen.append(time.perf_counter() - started)
                assert r.status_code == 200
    known, unknown = (sorted(t)[len(t) // 2] for t in times.values())
    assert abs(known - unknown) < max(0.02, 0.5 * unknown), (known, unknown)


def test_an_address_given_at_sign_up_waits_for_its_link(make_client: MakeClient, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    client = make_client(smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=0.05)
    lea = Person(another_visitor(client), "Léa")
    assert 'id="email"' in lea.get("/inscription").text
    form = {"name": "Léa", "password": PASSWORD, "confirm": PASSWORD, "email": "lea@example.org"}
    r = lea.post("/inscription", form, "/inscription")
    assert r.status_code == 303 and r.headers["location"] == "/compte?done=address"
    assert inbox.wait_for(1)[0]["To"] == "lea@example.org"
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        assert s.scalar(select(AccountRow.email).where(AccountRow.name == "Léa")) is None  # not before its link
    assert "Un lien de confirmation attend à lea@example.org" in html.unescape(lea.get("/compte").text)
