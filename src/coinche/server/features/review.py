"""The review of a finished deal, and nothing of HTTP: the four hands as dealt, every call
and card with the position after it, the computers' reasons, and the double-dummy analysis.

Everything shown is computed here by the engine: the page draws it and never works out
a rule. Only a deal that is over is reviewed (the deal in progress would show hidden
cards). The analysis (``job_kinds.analyse``) runs in the worker pool, once per deal: ``Reviews``
keeps the computation in flight, so concurrent requests share it, and stores its result
in the database, where every later request (and a restarted server) reads it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...bots.accuracy import accuracy_by_seat, costly
from ...bots.analysis import is_step
from ...engine.actions import Action, call_str, card_of, is_announce, is_card
from ...engine.cards import SUIT_CHARS, TRUMP_NAMES, CardSet, card_str, sorted_cards
from ...engine.deal import Deal
from ...engine.game import Game
from ...engine.melds import Meld
from ...engine.scoring import Contract
from ...engine.wire import WireError, message_from_json
from ..compute.bot_pool import Priority
from ..compute.job_kinds import analysis_job
from ..compute.work import Work
from ..infra.database import Database
from ..infra.store import Store
from ..table import i18n
from ..table.fair_deals import dealing_info
from ..table.live_table import LiveTable
from ..table.seating import seat_names, seat_positions
from .call_meanings import meaning_json

log = logging.getLogger("coinche.review")

"""Where each seat sits seen from the player, as on the table (display only)."""


# ----- which deal -----


def finished_deal(live: LiveTable, n: int) -> Deal | None:
    """Deal ``n`` (1-based) of the table if it is over, else None."""
    deals = live.game.deals
    if not 1 <= n <= len(deals) or not deals[n - 1].is_over:
        return None
    return deals[n - 1]


def first_step(game: Game, n: int) -> int:
    """The index in the table's stored log of deal ``n``'s first action."""
    return sum(len(d.log) for d in game.deals[: n - 1])


def contract_call(contract: Contract | None) -> str | None:
    """A contract as the results keep it: its call, `` x2`` or `` x4`` when coinched or
    surcoinched (``100H x2``); None for a deal all passed."""
    if contract is None:
        return None
    return contract.call + (f" x{contract.multiplier}" if contract.multiplier > 1 else "")


def deal_result(live: LiveTable, number: int) -> dict[str, Any]:
    """What ``challenge_results`` keeps of the table's finished deal ``number``."""
    deal = live.game.deals[number - 1]
    res = deal.result()
    assert res is not None
    contract = res.contract
    call = contract_call(contract)
    return {
        "score": res.score[0] - res.score[1],
        "contract": call,
        "taker": None if contract is None else contract.taker,
        "made": res.made,
        "deal_score": [res.score[0], res.score[1]],
    }


AnalysisKey = tuple[str, str, int]
"""Whose deal an analysis is: (``table`` or ``upload``, its id, the deal number, 1-based)."""


def current_analysis(data: dict[str, Any] | None) -> bool:
    """A stored analysis has every part this version computes: one stored before the
    calls' costs (``calls``) is computed again, once, and stored over the old one."""
    return data is not None and "calls" in data


FINISHED_KEPT = 64
"""Analyses a process keeps in memory once computed (the database keeps them all)."""


@dataclass
class Reviews:
    """The analyses of a server: computed once per deal in the pool, cached in the database
    (a table's deal in ``analyses``, an uploaded record's in ``upload_analyses``)."""

    store: Store
    db: Database
    work: Work
    running: dict[AnalysisKey, asyncio.Task[dict[str, Any] | None]] = field(default_factory=dict)
    finished: dict[AnalysisKey, dict[str, Any]] = field(default_factory=dict)
    """The analyses computed here lately, kept in memory from before their task ends: a
    request that read the database just before one was saved finds it here, rather than
    starting it again (a page and its analysis asked together did it twice, once in a
    while)."""

    async def cached(self, table_id: str, n: int) -> dict[str, Any] | None:
        return await self._load(("table", table_id, n))

    async def keep_upload(self, owner: str, record: str, kept: int, days: int) -> str:
        """Keep a checked record for its owner (``Store.save_upload``, which bounds what
        uploads store); its new id."""
        return await self.db(self.store.save_upload, owner, record, kept, days)

    async def upload(self, upload_id: str) -> tuple[str, str] | None:
        """(owner, record text) of an uploaded record, None if there is none."""
        return await self.db(self.store.load_upload, upload_id)

    async def _load(self, key: AnalysisKey) -> dict[str, Any] | None:
        store = self.store
        load = store.load_analysis if key[0] == "table" else store.load_upload_analysis
        data = await self.db(load, key[1], key[2])
        return data if current_analysis(data) else None

    async def analysis(self, live: LiveTable, n: int) -> dict[str, Any] | None:
        """The analysis of the table's finished deal ``n`` if ready; else None, its
        computation started (once: a request while it runs shares it)."""
        deal = finished_deal(live, n)
        assert deal is not None, "only a finished deal is analysed"
        return await self.analysis_of(("table", live.id, n), deal)

    async def analysis_of(self, key: AnalysisKey, deal: Deal) -> dict[str, Any] | None:
        """The analysis of ``deal`` (finished), whoever's it is (``key``), if ready; else
        None, its computation started once."""
        data = self.finished.get(key) or await self._load(key)
        if data is not None:
            return data
        data = self.finished.get(key)  # computed here while the database was read
        if data is not None:
            return data
        if key not in self.running:
            self.running[key] = asyncio.get_running_loop().create_task(self._compute(key, deal))
        return None

    async def wait(self, live: LiveTable, n: int) -> dict[str, Any] | None:
        """The analysis, computed now if need be (None if it failed): for tests and benches."""
        deal = finished_deal(live, n)
        assert deal is not None, "only a finished deal is analysed"
        return await self.wait_of(("table", live.id, n), deal)

    async def wait_of(self, key: AnalysisKey, deal: Deal) -> dict[str, Any] | None:
        data = await self.analysis_of(key, deal)
        if data is not None:
            return data
        return await asyncio.shield(self.running[key])

    async def _compute(self, key: AnalysisKey, deal: Deal) -> dict[str, Any] | None:
        try:
            data = await self.work.run(analysis_job(deal), priority=Priority.ANALYSIS)
            store = self.store
            save = store.save_analysis if key[0] == "table" else store.save_upload_analysis
            await self.db(save, key[1], key[2], data)
            self.finished[key] = data  # before the task leaves ``running`` (see ``finished``)
            while len(self.finished) > FINISHED_KEPT:
                self.finished.pop(next(iter(self.finished)))
            return data
        except Exception:  # a failed analysis is computed again on the next request
            log.exception("%s %s deal %s: the analysis failed", *key)
            return None
        finally:
            self.running.pop(key, None)


# ----- what the page shows -----


def meld_name(lang: str, meld: Meld) -> str:
    """ "Tierce à l'As de cœur", "Carré de valets" / "Tierce to the Ace of hearts"."""
    kind, top = meld.name.split(" ")
    if kind == "carre":
        return i18n.gettext(lang, f"meld.carre.{top[0]}")
    return i18n.gettext(
        lang,
        "meld.run",
        kind=i18n.gettext(lang, f"meld.{kind}"),
        top=i18n.gettext(lang, f"meld.to.{top[0]}"),
        suit=i18n.gettext(lang, f"suit.of.{top[1]}"),
    )


def contract_code(c: Contract) -> str:
    """The call that makes the contract, in record notation (``100H``, ``capotS``)."""
    trump = TRUMP_NAMES[c.trump]
    return f"{c.value}{trump}" if c.kind == "bid" else f"{c.kind}{trump}"


def _card(lang: str, code: str) -> dict[str, str]:
    return {"code": code, "name": i18n.card_name(lang, code), "red": "red" if code[1] in "HD" else "black"}


def _cards(lang: str, mask: CardSet, trump: int | None) -> list[dict[str, str]]:
    return [_card(lang, card_str(c)) for c in sorted_cards(mask, trump)]


def explanation_text(lang: str, data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored explanation as the review shows it: the reason in ``lang`` when it is a
    translatable message (else the English text, ``lang`` "en"), and the private detail
    that may name the computer's cards when it says more, in ``lang`` too. A row stored
    before the private reason was translatable keeps its English detail for English
    readers only (a French page shows the translated reason alone)."""
    if not data:
        return None
    public, private, reason = data.get("public"), data.get("private"), data.get("reason")
    text = _message_text(lang, reason)
    text_lang = lang
    if text is None:
        text_lang = "en"
        text = private if isinstance(private, str) else public if isinstance(public, str) else None
        if text is None:
            return None
        detail = None
    elif "private_reason" in data:
        detail = _message_text(lang, _untagged(reason, data["private_reason"]))
        if detail == text:
            detail = None
    else:
        detail = private if lang == "en" and isinstance(private, str) and private != public else None
    return {"text": text, "lang": text_lang, "detail": detail}


def _untagged(reason: Any, private: Any) -> Any:
    """The private reason without the tag the public one already shows: the adaptive
    computer's "[Adaptatif : Confirmé]" is said once, before the public reason."""
    tagged = [m for m in (reason, private) if isinstance(m, dict) and m.get("id") == "bot.adaptive"]
    if len(tagged) != 2 or not all(isinstance(m.get("params"), dict) for m in tagged):
        return private
    inner = tagged[1]["params"].get("reason")
    same_tag = all(tagged[0]["params"].get(k) == tagged[1]["params"].get(k) for k in ("levels", "percent"))
    return inner if same_tag and inner is not None else private


def _message_text(lang: str, data: Any) -> str | None:
    """A stored message in ``lang``; None when there is none or it cannot be read."""
    if not isinstance(data, dict):
        return None
    try:
        return i18n.render(lang, message_from_json(data))
    except (WireError, KeyError, TypeError, ValueError):
        return None


def _sentence(lang: str, names: Sequence[str], seat: int, action: Action) -> str:
    """What the step says: "Est joue le Dix de pique", "Nord (partenaire) : Passe"."""
    if is_card(action):
        key = "live.card_belote" if is_announce(action) else "live.card"
        return i18n.gettext(lang, key, seat=names[seat], card=i18n.card_with_article(lang, card_str(card_of(action))))
    return i18n.gettext(lang, "live.call", seat=names[seat], call=i18n.call_name(lang, call_str(action)))


def build_review(
    live: LiveTable, n: int, viewer: int, lang: str, explanations: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """Everything the review page of the table's finished deal ``n`` shows, as JSON-able
    data: ``explanations`` are the stored ones by step of the table's log."""
    deal = finished_deal(live, n)
    assert deal is not None, "only a finished deal is reviewed"
    offset = first_step(live.game, n)
    dealing = dealing_info(live.spec, live.game, n)
    review = review_deal(
        deal,
        n,
        lang,
        names=seat_names(lang, deal.rules.direction, viewer),
        viewer=viewer,
        explanations={i - offset: e for i, e in explanations.items()},
        base=f"/table/{live.id}/donne/{n}",
        back=f"/table/{live.id}",
    )
    review["table_id"] = live.id
    review["dealing"] = dealing.to_json() if dealing is not None else None
    return review


def review_deal(
    deal: Deal,
    n: int,
    lang: str,
    *,
    names: list[str],
    viewer: int,
    explanations: dict[int, dict[str, Any]],
    base: str,
    back: str,
) -> dict[str, Any]:
    """Everything the review page of a finished deal shows, as JSON-able data, whether the
    deal comes from a table's log or from an uploaded record: ``names`` of the seats as
    ``viewer`` sees them, ``explanations`` by index in the deal's log, ``base`` the
    address of the page (its analysis and record are under it), ``back`` where its
    first link leads."""
    result = deal.result()
    assert result is not None, "only a finished deal is reviewed"
    c = deal.contract
    trump = c.trump if c is not None else None

    # The auction, as a table by seat: columns from the dealer's left.
    first = (deal.dealer + 1) & 3
    columns = [(first + k) & 3 for k in range(4)]
    calls = list(deal.auction.calls)
    rows: list[list[dict[str, Any] | None]] = []
    for i in range(0, len(calls), 4):
        row: list[dict[str, Any] | None] = []
        for k in range(4):
            if i + k < len(calls):
                code = call_str(calls[i + k])
                row.append({"seat": columns[k], "code": code, "name": i18n.call_name(lang, code), "step": i + k + 1})
            else:
                row.append(None)
        rows.append(row)

    # The steps: the deal as dealt, then after each call and card.
    steps: list[dict[str, Any]] = []
    explained: list[dict[str, Any]] = []
    step_deal = Deal(deal.rules, deal.dealer, deal.dealt)

    def position(kind: str, seat: int | None, action: Action | None, index: int) -> dict[str, Any]:
        d = step_deal
        if d.trick:
            trick = [{"seat": (d.trick_leader + i) & 3, "code": card_str(x)} for i, x in enumerate(d.trick)]
            winner = None
        elif kind == "card" and d.tricks:
            last = d.tricks[-1]
            trick = [{"seat": (last.leader + i) & 3, "code": card_str(x)} for i, x in enumerate(last.cards)]
            winner = last.winner
        else:
            trick, winner = [], None
        step: dict[str, Any] = {
            "index": len(steps),
            "kind": kind,
            "seat": seat,
            "code": None,
            "text": i18n.gettext(lang, "review.step_start"),
            "calls": len(d.auction.calls),
            "hands": [[card_str(x) for x in sorted_cards(h, trump)] for h in d.hands],
            "trick": trick,
            "trick_winner": winner,
            "points": list(d.card_points),
            "explanation": None,
        }
        if seat is not None and action is not None:
            step["code"] = card_str(card_of(action)) if kind == "card" else call_str(action)
            step["text"] = _sentence(lang, names, seat, action)
            step["explanation"] = explanation_text(lang, explanations.get(index))
            if kind == "call":
                step["meaning"] = meaning_json(lang, deal.rules, deal.dealer, calls, len(d.auction.calls) - 1)
        return step

    steps.append(position("start", None, None, -1))
    declared: dict[str, Any] | None = None
    for index, entry in enumerate(deal.log):
        seat = step_deal.to_move
        step_deal.replay_entry(entry)
        if not is_step(entry):
            # A meld declaration shows with the seat's card that follows it.
            ms = step_deal.declared[seat] or ()
            said = (
                i18n.gettext(lang, "live.declare", seat=names[seat], melds=", ".join(meld_name(lang, m) for m in ms))
                if ms
                else i18n.gettext(lang, "live.declare_nothing", seat=names[seat])
            )
            declared = {"text": said, "explanation": explanation_text(lang, explanations.get(index))}
            if declared["explanation"] is not None:
                explained.append({"step": len(steps), "seat": seat, "name": names[seat], "action": said})
                explained[-1].update(declared["explanation"])
            continue
        if not isinstance(entry, int):
            continue
        kind = "card" if is_card(entry) else "call"
        step = position(kind, seat, entry, index)
        step["declaration"], declared = declared, None
        steps.append(step)
        if step["explanation"] is not None:
            explained.append(
                {
                    "step": step["index"],
                    "seat": seat,
                    "name": names[seat],
                    "action": step["text"],
                    **step["explanation"],
                }
            )

    tricks = [
        {
            "number": k + 1,
            "leader": t.leader,
            "cards": [{"seat": (t.leader + i) & 3, **_card(lang, card_str(x))} for i, x in enumerate(t.cards)],
            "winner": t.winner,
            "points": t.points,
        }
        for k, t in enumerate(deal.tricks)
    ]
    melds = [
        {"seat": s, "names": [meld_name(lang, m) for m in ms], "points": sum(m.points for m in ms)}
        for s, ms in enumerate(deal.declared)
        if ms
    ]
    belotes = [
        {
            "seat": b.seat,
            "suit": SUIT_CHARS[b.suit],
            "text": i18n.gettext(
                lang,
                "review.belote_counts" if b.counts else "review.belote_void",
                seat=names[b.seat],
                suit=i18n.gettext(lang, f"suit.{SUIT_CHARS[b.suit]}"),
            ),
        }
        for b in deal.belotes
    ]
    contract = None
    if c is not None:
        contract = i18n.gettext(
            lang,
            "review.contract_by",
            call=i18n.call_name(lang, contract_code(c)),
            seat=names[c.taker],
        )
        if c.multiplier == 2:
            contract += i18n.gettext(lang, "review.coinched")
        elif c.multiplier > 2:
            contract += i18n.gettext(lang, "review.surcoinched")
    return {
        "table_id": None,
        "base": base,
        "back": back,
        "deal": n,
        "viewer": viewer,
        "lang": lang,
        "profile": deal.rules.name,
        "seat_names": names,
        "positions": seat_positions(deal.rules.direction, viewer),
        "dealer": deal.dealer,
        "contract": contract,
        "trump": TRUMP_NAMES[trump] if trump is not None else None,
        "hands": [_cards(lang, h, trump) for h in deal.dealt],
        "auction": {"columns": columns, "rows": rows},
        "tricks": tricks,
        "melds": melds,
        "belotes": belotes,
        "lines": [i18n.render(lang, m) for m in result.lines],
        "score": list(result.score),
        "explanations": explained,
        "steps": steps,
        "dealing": None,
    }


def accuracy_view(lang: str, names: Sequence[str], data: dict[str, Any]) -> dict[str, Any]:
    """How well each seat played (``bots.accuracy``), and each decision costly enough to
    be marked, said in words: "Sud : le Valet de pique, 22 points perdus (le meilleur :
    l'As de pique)"."""
    seats = [{"seat": s, "name": names[s], **a.to_json()} for s, a in enumerate(accuracy_by_seat(data))]
    marked = []
    for d in costly(data):
        if d["kind"] == "card":
            played = i18n.card_with_article(lang, d["played"])
            best = i18n.or_list(lang, [i18n.card_with_article(lang, c) for c in d["best"]])
            text = i18n.gettext(
                lang, "review.costly_card", seat=names[d["seat"]], played=played, best=best, points=d["cost"]
            )
        else:
            text = i18n.gettext(
                lang,
                "review.costly_call",
                seat=names[d["seat"]],
                played=i18n.call_name(lang, d["played"]),
                best=i18n.call_name(lang, d["best"][0]),
                points=round(d["cost"]),
            )
        marked.append({**d, "text": text})
    return {"seats": seats, "costly": marked}


def analysis_view(lang: str, names: Sequence[str], data: dict[str, Any]) -> list[dict[str, Any]]:
    """The analysis table's rows in words: trump, both teams' points, each seat's best contract."""
    out = []
    for row in data["trumps"]:
        trump = row["trump"]
        best = []
        for b, sweep in zip(row["best_bid"], row["sweep"], strict=True):
            if sweep:
                best.append(i18n.call_name(lang, f"{sweep}{trump}"))
            elif b is not None:
                best.append(i18n.call_name(lang, f"{b}{trump}"))
            else:
                best.append(i18n.gettext(lang, "review.none"))
        out.append(
            {"trump": trump, "name": i18n.gettext(lang, f"trump.{trump}"), "points": row["points"], "best": best}
        )
    return out
