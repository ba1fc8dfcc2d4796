"""The bidding box from the keyboard alone: a value then a trump. The values are a radio
group (choosing one calls nothing), the trumps row holds the whole calls of the chosen
value; the arrow keys, Home and End move within the box and never call; Enter on a value
goes to the trumps, Enter on a trump calls. Passe stays a one-press button."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_driver import Table, bid_pattern, start_solo

FOCUSED = """() => {
  const el = document.activeElement;
  return {role: el.getAttribute('role') || el.tagName.toLowerCase(),
          name: el.getAttribute('aria-label') || el.textContent.trim(),
          checked: el.getAttribute('aria-checked'), inBox: !!el.closest('#bidding')};
}"""


def focused(page: Page) -> dict[str, object]:
    info: dict[str, object] = page.evaluate(FOCUSED)
    return info


def my_calls(table: Table) -> list[str]:
    return [text for text in table.live_log() if text.startswith("Sud (vous) :")]


def test_keyboard_bidding_selects_then_confirms(page: Page) -> None:
    table = start_solo(page, profile="classic", target=700)
    box = page.locator("#bidding")
    expect(box).to_be_visible()
    expect(table.pass_button()).to_be_focused()
    values = page.get_by_role("radiogroup", name="Valeur").get_by_role("radio")
    assert values.count() >= 1, "no value to choose"

    # Arrows on Passe stay there (the accident: three ArrowLeft from Coinche bid 140 trèfle).
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(table.pass_button()).to_be_focused()

    # Back with Shift+Tab to the values: one Tab stop, the chosen value.
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        if focused(page)["role"] == "radio":
            break
    here = focused(page)
    assert here["role"] == "radio" and here["checked"] == "true", here
    first = str(here["name"])

    # Every arrow, Home and End: the focus moves inside the box, nothing is called.
    keys = "ArrowRight ArrowRight End ArrowLeft Home ArrowDown ArrowRight ArrowRight ArrowLeft End Home ArrowDown"
    for key in [*keys.split(), "ArrowUp", "ArrowUp", "ArrowLeft"]:
        page.keyboard.press(key)
        assert focused(page)["inBox"], f"{key} left the bidding box: {focused(page)}"
    page.wait_for_timeout(300)
    assert my_calls(table) == [], f"an arrow key made a call: {my_calls(table)}"
    expect(box).to_be_visible()
    here = focused(page)
    assert here == {"role": "radio", "name": first, "checked": "true", "inBox": True}, here

    # End chooses the highest value: the trump buttons are its calls.
    page.keyboard.press("End")
    top = str(focused(page)["name"])
    expect(values.filter(has_text=re.compile(rf"^{top}$"))).to_have_attribute("aria-checked", "true")
    names = [Table.name_of(table.bid_buttons().nth(i)) for i in range(table.bid_buttons().count())]
    assert names and all(n.startswith(f"{top} ") for n in names), names

    # Home, then ArrowDown to the trumps: a whole call, not made yet.
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    trump = focused(page)
    assert trump["role"] == "button" and bid_pattern("fr").match(str(trump["name"])), trump
    assert str(trump["name"]).startswith(f"{first} "), trump
    page.keyboard.press("ArrowRight")
    chosen = str(focused(page)["name"])
    assert bid_pattern("fr").match(chosen), chosen
    page.wait_for_timeout(300)
    assert my_calls(table) == [], my_calls(table)

    # Enter on a value chooses it and goes to the trumps; Enter there calls.
    page.keyboard.press("ArrowUp")
    assert focused(page)["role"] == "radio"
    page.keyboard.press("Enter")
    on_trump = focused(page)
    assert on_trump["role"] == "button" and str(on_trump["name"]).startswith(f"{first} "), on_trump
    assert my_calls(table) == [], my_calls(table)
    call = str(on_trump["name"])
    page.keyboard.press("Enter")
    said = table.wait_for_live(f"Sud (vous) : {call}")
    assert said == f"Sud (vous) : {call}", said
    assert my_calls(table) == [f"Sud (vous) : {call}"], my_calls(table)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_pass_is_one_press_in_english(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="English", exact=True).click()
    page.wait_for_url(re.compile(r"/$"))
    table = start_solo(page, lang="en", profile="classic", target=700)
    expect(page.get_by_role("radiogroup", name="Value")).to_be_visible()
    expect(page.get_by_role("group", name="Trump")).to_be_visible()
    button = table.pass_button()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    table.wait_for_live("South (you): Pass")


HINT_AND_BOX = """() => {
  const a = document.getElementById('notice').getBoundingClientRect();
  const b = document.getElementById('bidding').getBoundingClientRect();
  const apart = a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5
    || a.right <= b.left + 0.5 || b.right <= a.left + 0.5;
  return {apart, inView: a.top >= 0 && a.bottom <= window.innerHeight,
          notice: [a.top, a.bottom], box: [b.top, b.bottom]};
}"""


def hint_beside_the_box(page: Page, lang: str) -> None:
    table = start_solo(page, lang=lang, profile="classic", target=700)
    expect(table.pass_button()).to_be_visible()
    table.press(page.get_by_role("button", name=table.words["hint"], exact=True))
    expect(table.notice()).to_be_visible()
    page.wait_for_timeout(300)
    where = page.evaluate(HINT_AND_BOX)
    assert where["apart"] and where["inView"], f"the hint covers the bidding box: {where}"


def test_the_hint_leaves_the_bidding_box_seen(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    hint_beside_the_box(page, "fr")


def test_the_hint_leaves_the_bidding_box_seen_on_a_phone(phone_page: Page) -> None:
    phone_page.goto("/")
    phone_page.get_by_role("link", name="English", exact=True).click()
    phone_page.wait_for_url(re.compile(r"/$"))
    hint_beside_the_box(phone_page, "en")
