"""Hints in plain words: one sentence a beginner understands, in the player's language,
that says what to do and why, the expert's own reason in its figures ("Annoncez 80 cœur :
avec V♥ A♦, votre équipe fait environ 93 points ; le contrat passe environ 6 fois sur 10.")
or, without one, from the player's view ("Jouez le valet d'atout : vous faites le pli."),
never scores expected, percentages or card codes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest
from babel.messages.pofile import read_po
from server_helpers import Human, MakeClient, create_solo, request

from coinche.bots.expert import ExpertBot
from coinche.engine.actions import PASS, card_of, is_card, make_bid
from coinche.engine.cards import HEARTS, JACK, card, card_str
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.messages import Message
from coinche.engine.play import tables, trick_winner
from coinche.engine.rules import RuleSet
from coinche.server.table import i18n
from coinche.server.table.hints import hint_sentence, hint_text

CODE = re.compile(r"(?<![0-9A-Za-z])((10|[789TJQKA])[SHDC]|\d{2,3}(SA|TA|[SHDC]))(?![0-9A-Za-z])")
JARGON = re.compile(r"[+-]\d|%|\battendus?\b|\bexpected\b|\bsampled?\b|\btirées\b")
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _hint_words(lang: str) -> set[str]:
    with (i18n.LOCALE / lang / "site.po").open("rb") as f:
        texts = [str(m.string) for m in read_po(f) if m.id and str(m.id).startswith("hint.")]
    return {w.lower() for t in texts for w in WORD.findall(re.sub(r"\{[a-z_]+\}", " ", t))}


def _all_words(lang: str) -> set[str]:
    words: set[str] = set()
    for path in (i18n.LOCALE / lang).glob("*.po"):
        with path.open("rb") as f:
            words |= {w.lower() for m in read_po(f) if m.id and m.string for w in WORD.findall(str(m.string))}
    return words


FRENCH_ONLY = _hint_words("fr") - _all_words("en")
ENGLISH_ONLY = _hint_words("en") - _all_words("fr")


def check_sentence(lang: str, text: str) -> None:
    assert text.endswith(".") and text.count(".") == 1, f"not one sentence: {text!r}"
    assert text[0].isupper(), text
    assert not CODE.search(text), f"a code in {text!r}"
    assert not JARGON.search(text), f"jargon in {text!r}"
    foreign = ENGLISH_ONLY if lang == "fr" else FRENCH_ONLY
    assert not {w.lower() for w in WORD.findall(text)} & foreign, f"{lang}: other language in {text!r}"


def positions(seed: int, deals: int) -> Iterator[View]:
    """Every decision of random deals under each profile, played by random legal actions."""
    rng = random.Random(seed)
    profiles = [RuleSet.profile(p) for p in ("classic", "federation", "house", "online")]
    for d in range(deals):
        deal = Deal(profiles[d % 4], rng.randrange(4), random_hands(rng))
        if d % 2 == 0:  # half the deals get a contract at once, for the card play
            deal.apply(make_bid(80, rng.randrange(4)))
        while not deal.is_over:
            view = deal.view(deal.to_move)
            yield view
            deal.apply(rng.choice(view.legal_actions))


def test_the_word_lists_are_meaningful() -> None:
    assert {"jouez", "passez", "pli", "partenaire"} <= FRENCH_ONLY
    assert {"play", "pass", "trick", "trumps"} <= ENGLISH_ONLY


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_hint_is_one_plain_sentence(lang: str) -> None:
    checked = 0
    for view in positions(seed=11, deals=40):
        for action in view.legal_actions:
            check_sentence(lang, hint_sentence(lang, view, action))
            checked += 1
    assert checked > 1000


def first(predicate: Callable[[View], bool], seed: int = 5) -> View:
    for view in positions(seed, 400):
        if predicate(view):
            return view
    raise AssertionError("no such position")


def test_a_pass_without_a_bid_says_the_hand_is_not_enough() -> None:
    deal = Deal(RuleSet.profile("classic"), 3, random_hands(random.Random(1)))
    view = deal.view(0)
    assert hint_sentence("fr", view, PASS) == "Passez : votre jeu ne suffit pas pour annoncer."
    assert hint_sentence("en", view, PASS) == "Pass: your hand is not strong enough to bid."
    bid = make_bid(80, HEARTS)
    assert hint_sentence("fr", view, bid) == "Annoncez 80 cœur : votre jeu est assez fort pour ce contrat."
    assert hint_sentence("en", view, bid) == "Bid 80 hearts: your hand is strong enough for this contract."
    deal.apply(bid)
    deal.apply(PASS)
    assert hint_sentence("fr", deal.view(2), PASS).startswith("Passez : votre partenaire a le contrat")


def _wins_last_with_trump_jack(view: View) -> bool:
    contract = view.contract
    if view.phase is not Phase.PLAY or contract is None or contract.trump >= 4 or len(view.trick) != 3:
        return False
    jack = card(contract.trump, JACK)
    cards = {card_of(a) for a in view.legal_actions if is_card(a)}
    tt = tables(contract.trump)
    return (
        jack in cards
        and len(cards) > 1
        and trick_winner([*view.trick, jack], tt) == 3
        and view.trick[0] >> 3 == contract.trump
    )


def test_the_jack_of_trumps_that_wins_the_trick() -> None:
    view = first(_wins_last_with_trump_jack)
    assert view.contract is not None
    jack = card(view.contract.trump, JACK)
    action = next(a for a in view.legal_actions if is_card(a) and card_of(a) == jack)
    assert hint_sentence("fr", view, action).startswith("Jouez le valet d'atout")
    assert hint_sentence("fr", view, action).endswith(" : vous faites le pli.")
    assert hint_sentence("en", view, action).startswith("Play the jack of trumps")
    assert card_str(jack) not in hint_sentence("fr", view, action)


def test_the_only_card() -> None:
    view = first(lambda v: v.phase is Phase.PLAY and len({a for a in v.legal_actions if is_card(a)}) == 1)
    action = next(a for a in view.legal_actions if is_card(a))
    text = hint_sentence("fr", view, action)
    assert text.startswith("Jouez ") and text.endswith(" : c'est la seule carte permise."), text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_hints_on_a_table_are_sentences(make_client: MakeClient, lang: str) -> None:
    client = make_client()
    client.cookies.set("lang", lang)
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        ws.send_json(request("hint"))
        hint = human.receive()
        assert hint["type"] == "hint" and hint["action"] in state["game"]["deal"]["legal_actions"], hint
        check_sentence(lang, hint["text"])


EXPERT_FIGURES = {
    "fr": re.compile(r"environ \d+ (points|fois sur 10)|des \d+ donnes essayées|il en faut au moins \d+"),
    "en": re.compile(r"about \d+ (points|times in 10)|of the \d+ deals tried|needs at least \d+"),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_hint_on_a_table_gives_the_experts_reason_in_the_players_language(make_client: MakeClient, lang: str) -> None:
    client = make_client()
    client.cookies.set("lang", lang)
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        human.until_my_move()
        ws.send_json(request("hint"))
        hint = human.receive()
        assert hint["type"] == "hint", hint
        assert EXPERT_FIGURES[lang].search(hint["text"]), hint["text"]
        check_sentence(lang, hint["text"])


def test_the_reason_of_a_hint_is_the_experts_own() -> None:
    for view in positions(seed=4, deals=6):
        if view.phase is not Phase.AUCTION or len(view.legal_actions) == 1:
            continue
        decision = ExpertBot(seed=1, explain=True).choose(view)
        reason = decision.private_reason
        assert reason is not None and reason.id == "bot.why_call"
        why = reason.args["why"]
        assert isinstance(why, Message)
        for lang in ("fr", "en"):
            text = hint_text(lang, view, decision.action, reason)
            assert text.endswith(i18n.render(lang, why) + "."), text
            check_sentence(lang, text)
