"""A password-reset mail's time from the request to the SMTP server: ``--accounts``
accounts with a confirmed address each ask "Mot de passe oublié" three times (the limit an
hour), against a real SMTP server on the loopback (aiosmtpd); the time from the POST to
the message's arrival at p50 and max. Also the answer's time for an address that is an
account's and one that is nobody's (they must not differ: nothing tells them apart).

    python bench/bench_mail.py --accounts 5
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "server")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", type=int, default=5)
    parser.add_argument("--answers", type=int, default=40, help="answers timed for each kind of address")
    args = parser.parse_args()

    from friends_helpers import person
    from server_helpers import call, settings_for
    from sqlalchemy import select
    from starlette.testclient import TestClient

    from coinche.server.features.accounts import Account
    from coinche.server.infra.rows.people import AccountRow
    from coinche.server.web.app import create_app
    from mail_helpers import Inbox, body, smtp_server

    arrived: list[float] = []
    came = threading.Condition()

    class TimedInbox(Inbox):
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            with came:
                arrived.append(time.perf_counter())
                came.notify_all()
            return await super().handle_DATA(server, session, envelope)

    def wait(count: int) -> float:
        with came:
            assert came.wait_for(lambda: len(arrived) >= count, timeout=60), "no mail"
            return arrived[count - 1]

    inbox = TimedInbox()
    with smtp_server() as (plain, port), tempfile.TemporaryDirectory() as folder:
        plain.handle_DATA = inbox.handle_DATA  # type: ignore[method-assign]
        settings = settings_for(Path(folder), None, smtp_url=f"smtp://127.0.0.1:{port}", mail_check_seconds=15)
        with TestClient(create_app(settings)) as client:
            recovery = client.app.state.recovery  # type: ignore[attr-defined]
            addresses = []
            for n in range(args.accounts):
                name = f"Mesure{n}"
                person(client, name)
                with client.app.state.store.session() as s:  # type: ignore[attr-defined]
                    row = s.execute(select(AccountRow).where(AccountRow.name == name)).scalar_one()
                    account = Account(row.id, row.name, row.player_id)
                address = f"m{n}@example.org"
                call(client, recovery.set_address, account, address, "correct horse", "fr")
                wait(len(arrived) + 1)
                link = re.search(r"/confirmer-adresse/(\S+)", body(inbox.messages[-1]))
                assert link is not None
                call(client, recovery.confirm_address, link[1])
                addresses.append(address)
            asker = person(client, "Demandeur")
            waits: list[float] = []
            with asker.acting() as c:
                found = re.search(r'name="csrf" value="([^"]+)"', c.get("/mot-de-passe-oublie").text)
                assert found is not None
                csrf = found[1]
                for _ in range(3):
                    for address in addresses:
                        count = len(arrived) + 1
                        started = time.perf_counter()
                        r = c.post("/mot-de-passe-oublie", data={"csrf": csrf, "email": address})
                        assert r.status_code == 200, r.status_code
                        waits.append(wait(count) - started)
                answers: dict[str, list[float]] = {"an account's": [], "nobody's": []}
                for _ in range(args.answers):
                    for kind, address in (("an account's", addresses[0]), ("nobody's", "nobody@example.org")):
                        started = time.perf_counter()
                        c.post("/mot-de-passe-oublie", data={"csrf": csrf, "email": address})
                        answers[kind].append(time.perf_counter() - started)
    print(
        f"request to the SMTP server, {len(waits)} mails: p50 {statistics.median(waits) * 1000:.1f} ms, "
        f"max {max(waits) * 1000:.1f} ms"
    )
    for kind, seen in answers.items():
        print(f"the page's answer for {kind} address: p50 {statistics.median(seen) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
