"""The way back into a forgotten account, in Chromium (issue 52): an address given at
sign-up and confirmed from its mail, then "Mot de passe oublié", the mailed link, a new
password; in French on a laptop and in English on a phone, against a real SMTP server."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot

from mail_helpers import Inbox, body, smtp_server

WORDS = {
    "fr": {
        "signup": "/inscription",
        "name": "Nom",
        "password": "Mot de passe",
        "confirm": "Confirmer le mot de passe",
        "email": "E-mail (facultatif)",
        "create": "Créer mon compte",
        "confirm_button": "Confirmer l'adresse",
        "forgot": "Mot de passe oublié ?",
        "address": "Adresse électronique",
        "send": "Envoyer le lien",
        "sent": "Si cette adresse est celle d'un compte",
        "new": "Nouveau mot de passe",
        "new_confirm": "Confirmer le nouveau mot de passe",
        "change": "Changer le mot de passe",
        "logout": "Se déconnecter",
        "login": "/connexion",
        "to_account": "Aller à mon compte",
    },
    "en": {
        "signup": "/signup",
        "name": "Name",
        "password": "Password",
        "confirm": "Confirm the password",
        "email": "E-mail (optional)",
        "create": "Create my account",
        "confirm_button": "Confirm the address",
        "forgot": "Forgot your password?",
        "address": "E-mail address",
        "send": "Send the link",
        "sent": "If this address is an account's",
        "new": "New password",
        "new_confirm": "Confirm the new password",
        "change": "Change the password",
        "logout": "Log out",
        "login": "/login",
        "to_account": "Go to my account",
    },
}


@pytest.fixture
def mail_site(server_factory: Any, tmp_path: Path) -> Iterator[tuple[str, Inbox]]:
    with (
        smtp_server() as (inbox, port),
        server_factory(tmp_path, "--smtp-url", f"smtp://127.0.0.1:{port}") as base,
    ):
        yield base, inbox


def link_in(inbox: Inbox, count: int, pattern: str) -> str:
    found = re.search(pattern, body(inbox.wait_for(count)[count - 1]))
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("lang", "viewport"), [("fr", {"width": 1366, "height": 768}), ("en", {"width": 390, "height": 844})]
)
def test_a_forgotten_password_by_its_mailed_link(
    mail_site: tuple[str, Inbox], make_page: Callable[..., Page], lang: str, viewport: dict[str, int]
) -> None:
    base, inbox = mail_site
    words = WORDS[lang]
    page = make_page(base, viewport=viewport)
    if lang == "en":
        page.goto("/langue/en?next=/")
    page.goto(words["signup"])
    page.get_by_label(words["name"], exact=True).fill("Mireille")
    page.get_by_label(words["password"], exact=True).fill("first-password-1")
    page.get_by_label(words["confirm"], exact=True).fill("first-password-1")
    page.get_by_label(words["email"]).fill("mireille@example.org")
    page.get_by_role("button", name=words["create"]).click()
    expect(page.locator(".form-notice")).to_be_visible()
    path = "/confirmer-adresse/" if lang == "fr" else "/confirm-address/"
    token = link_in(inbox, 1, re.escape(path) + r"(\S+)")
    page.goto(path + token)
    page.get_by_role("button", name=words["confirm_button"]).click()
    expect(page.get_by_role("status")).to_contain_text("mireille@example.org")
    page.get_by_role("link", name=words["to_account"]).click()
    page.get_by_role("button", name=words["logout"]).click()

    # forgotten: the login page's link, the address, the mailed link, a new password
    page.goto(words["login"])
    page.get_by_role("link", name=words["forgot"]).click()
    page.get_by_label(words["address"], exact=True).fill("mireille@example.org")
    keep_screenshot(page, f"recovery-forgot-{lang}")
    assert_accessible(page)
    page.get_by_role("button", name=words["send"]).click()
    expect(page.get_by_role("status")).to_contain_text(words["sent"])
    reset_path = "/reinitialiser/" if lang == "fr" else "/reset-password/"
    token = link_in(inbox, 2, re.escape(reset_path) + r"(\S+)")
    page.goto(reset_path + token)
    page.get_by_label(words["new"], exact=True).fill("second-password-2")
    page.get_by_label(words["new_confirm"], exact=True).fill("second-password-2")
    assert_no_horizontal_scroll(page)
    assert_accessible(page)
    keep_screenshot(page, f"recovery-reset-{lang}")
    page.get_by_role("button", name=words["change"]).click()
    expect(page.locator(".account-link")).to_contain_text("Mireille")  # logged in, with the new password
    assert_no_horizontal_scroll(page)
    assert not page.js_errors  # type: ignore[attr-defined]
