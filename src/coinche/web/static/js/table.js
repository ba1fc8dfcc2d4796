// The solo table: one WebSocket (/ws/table/{id}), every `state` message drawn as it comes.
// The server is authoritative: this page shows what it sends, offers only the actions of
// `legal_actions`, and sends one of those records back as is. No rule of the game here.

import { t, esc, cardName, callName, callHTML, parseCall, trumpVisual, meldName, meldsName, positions } from './words.js';
import { cardFace, cardBack } from './cards.js';
import { say, sayNow } from './live.js';
import { BiddingBox } from './bidding.js';
import { summaryHTML } from './summary.js';

const root = document.getElementById('table');
const $ = (selector, el = root) => el.querySelector(selector);
const POSITIONS = ['north', 'west', 'east', 'south'];
const TRICK_HOLD_MS = 1000;
const COLLECT_MS = 280;
const THINKING_MS = 1500;

const els = {
  loading: $('#loading'),
  contract: $('#contract'),
  history: $('#history'),
  historyHead: $('#history thead tr'),
  historyBody: $('#history tbody'),
  score: $('#score'),
  level: $('#level'),
  trick: $('#trick'),
  lastTrick: $('#last-trick'),
  lastTrickButton: $('#last-trick-button'),
  hintButton: $('#hint-button'),
  summaryButton: $('#summary-button'),
  helpButton: $('#help-button'),
  help: $('#help'),
  hand: $('#hand'),
  beloteBox: $('#belote-box'),
  belote: $('#belote'),
  notice: $('#notice'),
  noticeText: $('#notice .notice-text'),
  summary: $('#summary'),
  declare: $('#declare'),
  declareChoices: $('#declare .declare-choices'),
};
const seatEls = Object.fromEntries(
  POSITIONS.map((p) => {
    const el = $(`#seat-${p}`);
    return [
      p,
      {
        root: el,
        name: $('.name', el),
        dealer: $('.dealer', el),
        count: $('.count', el),
        thinking: $('.thinking', el),
        fan: $('.fan', el),
        melds: $('.melds', el),
        bubble: $('.bubble', el),
      },
    ];
  }),
);

let state = null;
let pos = ['south', 'east', 'north', 'west'];
let socket = null;
let retry = 0;
let busy = false;
let hold = null;
let thinkingTimer = null;
let beloteBubble = null;
let focusKey = '';
let summaryKey = '';
let summaryTimer = null;
let declareKey = '';
let trickShown = { cards: [], leader: 0 };

const bidding = new BiddingBox($('#bidding'), (code) => act({ call: code }));

// ----- helpers over the state -----

const deal = () => state.game.deal;
const names = () => state.table.seat_names;
const us = () => state.table.you % 2;
const gameOver = (s = state) => s.game.winner !== null && s.game.winner !== undefined;
const playing = (s = state) => s.game.deal.phase !== 'done' && !s.awaiting_next_deal && !gameOver(s);

function legalOf(d) {
  const legal = d.legal_actions || [];
  const cards = new Map();
  for (const a of legal) {
    if (typeof a.card === 'string') {
      if (!cards.has(a.card)) cards.set(a.card, []);
      cards.get(a.card).push(a);
    }
  }
  return {
    all: legal,
    calls: legal.filter((a) => typeof a.call === 'string').map((a) => a.call),
    cards,
    declares: legal.filter((a) => typeof a.declare === 'number'),
    belote: legal.some((a) => a.belote === true),
  };
}

function bestBid(calls) {
  for (let i = calls.length - 1; i >= 0; i--) {
    const kind = parseCall(calls[i].call).kind;
    if (kind === 'bid' || kind === 'capot' || kind === 'generale') return { ...calls[i], index: i };
  }
  return null;
}

function multiplierWord(calls) {
  if (calls.some((c) => c.call === 'surcoinche')) return t('js.surcoinched');
  if (calls.some((c) => c.call === 'coinche')) return t('js.coinched');
  return '';
}

function actionWords(record) {
  if (typeof record.card === 'string') return cardName(record.card);
  if (typeof record.call === 'string') return callName(record.call);
  if (typeof record.declare === 'number') return declareName(record);
  return '';
}

function declareName(record) {
  const melds = record.melds || [];
  return melds.length ? t('js.declare', { melds: meldsName(melds) }) : t('js.declare_nothing');
}

function turnSentence() {
  const d = deal();
  if (!playing()) return state.awaiting_next_deal ? t('js.turn.deal_over') : t('js.turn.game_over');
  const legal = legalOf(d);
  if (legal.calls.length) return t('js.your_call');
  if (legal.declares.length) return t('js.your_melds');
  if (legal.cards.size) return t('js.your_card');
  return t('js.turn.other', { seat: names()[d.to_move] });
}

function turnKey(s) {
  const d = s.game.deal;
  return `${s.game.deal_number}:${d.phase}:${d.calls.length}:${d.tricks.length}:${d.trick.length}:${(d.legal_actions || []).length}`;
}

// ----- the connection -----

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(`${scheme}//${location.host}/ws/table/${encodeURIComponent(root.dataset.tableId)}`);
  socket.addEventListener('open', () => {
    retry = 0;
    if (els.notice.dataset.kind === 'offline') clearNotice();
  });
  socket.addEventListener('message', (e) => {
    let message;
    try {
      message = JSON.parse(e.data);
    } catch {
      return;
    }
    if (message.type === 'state') onState(message);
    else if (message.type === 'error') onError(message);
    else if (message.type === 'hint') onHint(message);
  });
  socket.addEventListener('close', (e) => {
    socket = null;
    busy = false;
    if (e.code === 4404) {
      showNotice(t('js.table_gone'), 'error');
      return;
    }
    showNotice(t('js.reconnecting'), 'offline');
    setTimeout(connect, Math.min(8000, 400 * 2 ** retry++));
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showNotice(t('js.reconnecting'), 'offline');
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function act(record) {
  if (busy || !record) return;
  if (send({ type: 'action', action: record })) busy = true;
}

// ----- messages -----

function onError(message) {
  busy = false;
  const text = message.message || t('js.error');
  showNotice(text, 'error');
  say(text);
}

function onHint(message) {
  const action = message.action || {};
  const words = actionWords(action);
  const text = message.text ? t('js.hint', { action: words, reason: message.text }) : t('js.hint_short', { action: words });
  showNotice(text, 'hint');
  say(text);
  if (typeof action.card === 'string') {
    for (const b of els.hand.children) b.classList.toggle('hinted', b.dataset.card === action.card);
  } else if (typeof action.call === 'string') {
    bidding.mark(action.call);
  } else if (typeof action.declare === 'number') {
    for (const b of els.declareChoices.children) b.classList.toggle('hinted', Number(b.dataset.declare) === action.declare);
  }
}

function onState(s) {
  const prev = state;
  state = s;
  busy = false;
  pos = positions(s.table.direction, s.table.you);
  const d = s.game.deal;
  const sameDeal = prev !== null && prev.game.deal_number === s.game.deal_number;
  const trickDone = sameDeal && d.tricks.length > prev.game.deal.tricks.length;
  if (!sameDeal) {
    cancelHold();
    beloteBubble = null;
    els.history.open = window.matchMedia('(min-width: 700px)').matches;
  }
  root.classList.add('ready');
  root.classList.toggle('clockwise', s.table.direction === 'clockwise');
  els.loading.hidden = true;
  if (prev === null || s.last !== null) {
    // a hint lasts until something happens; an error until the player acts, or a while
    const kind = els.notice.dataset.kind;
    const age = Date.now() - Number(els.notice.dataset.since || 0);
    const acted = s.last !== null && s.last.seat === s.table.you;
    if (prev === null || kind === 'hint' || acted || age > 5000) clearNotice();
  }

  if (s.last && s.last.action && s.last.action.belote) {
    const b = d.belotes.filter((x) => x.seat === s.last.seat).pop();
    const shown = { seat: s.last.seat, word: t(`js.bubble.${b && b.at === 'rebelote' ? 'rebelote' : 'belote'}`) };
    beloteBubble = shown;
    setTimeout(() => {
      if (beloteBubble !== shown) return;
      beloteBubble = null;
      if (state) renderSeats();
    }, 2500);
  }

  renderSeats();
  renderCorners();
  renderHistory();
  renderTrick(trickDone);
  renderHand();
  renderPanels();
  renderTools();
  renderSummary(trickDone);
  announce(prev, sameDeal, trickDone);
  moveFocus();
  watchThinking(trickDone);
}

// ----- seats -----

function renderSeats() {
  const d = deal();
  const you = state.table.you;
  const showCalls = d.phase === 'auction' || (d.phase === 'play' && d.tricks.length === 0 && d.trick.length === 0);
  for (let seat = 0; seat < 4; seat++) {
    const el = seatEls[pos[seat]];
    el.root.dataset.seat = String(seat);
    el.name.textContent = names()[seat];
    el.dealer.hidden = d.dealer !== seat;
    el.root.classList.toggle('turn', playing() && d.to_move === seat);
    if (seat !== you) {
      const n = d.hand_sizes[seat];
      el.count.textContent = t(n === 1 ? 'js.card_left' : 'js.cards_left', { count: n });
      if (el.fan.childElementCount !== n) el.fan.innerHTML = Array.from({ length: n }, () => `<span class="mini-back">${cardBack()}</span>`).join('');
    }
    const melds = d.shown_melds[seat] || [];
    let items = melds.map((m) => `<li>${esc(meldName(m))} <span class="pts">${m.points}</span></li>`);
    if (seat === you && Array.isArray(d.declared) && d.declared.length && !melds.length) {
      items = d.declared.map((m) => `<li class="pending">${esc(t('js.declared', { meld: meldName(m) }))}</li>`);
    }
    const html = items.join('');
    if (el.melds.dataset.html !== html) {
      el.melds.innerHTML = html;
      el.melds.dataset.html = html;
    }
    el.melds.hidden = !html;

    let bubble = '';
    let kind = '';
    if (beloteBubble && beloteBubble.seat === seat) {
      bubble = esc(beloteBubble.word);
      kind = 'belote';
    } else if (showCalls) {
      const mine = d.calls.filter((c) => c.seat === seat).pop();
      if (mine) {
        bubble = callHTML(mine.call, { exclaim: true });
        kind = parseCall(mine.call).kind;
      }
    }
    if (el.bubble.dataset.html !== bubble) {
      el.bubble.dataset.html = bubble;
      el.bubble.innerHTML = bubble;
      el.bubble.className = `bubble bubble-${kind}`;
      if (bubble) {
        el.bubble.classList.remove('pop');
        void el.bubble.offsetWidth;
        el.bubble.classList.add('pop');
      }
    }
    el.bubble.hidden = !bubble;
  }
}

// ----- corners -----

function bigCall(code) {
  const c = parseCall(code);
  let visual;
  if (c.kind === 'bid') visual = `<span class="big-value">${c.value}</span>${trumpVisual(c.trump, 'big-trump')}`;
  else visual = `<span class="big-value small">${esc(t(`js.${c.kind}`))}</span>${trumpVisual(c.trump, 'big-trump')}`;
  return `<span class="big-call" aria-hidden="true">${visual}</span><span class="visually-hidden">${esc(callName(code))}</span>`;
}

function renderCorners() {
  const d = deal();
  const n = names();
  let html;
  if (d.contract) {
    const c = d.contract;
    const mult = multiplierWord(d.calls);
    html =
      `<p class="contract-main">${bigCall(c.call)}</p>` +
      `<p class="taker">${esc(t('js.taker', { seat: n[c.taker] }))}</p>` +
      (mult ? `<p class="badge">${esc(mult)} <span class="times">×${c.multiplier}</span></p>` : '');
  } else if (d.phase === 'auction') {
    const best = bestBid(d.calls);
    if (best) {
      const mult = multiplierWord(d.calls.slice(best.index));
      html =
        `<p class="contract-label">${esc(t('js.bid_to_beat'))}</p>` +
        `<p class="contract-main">${bigCall(best.call)}</p>` +
        `<p class="taker">${esc(n[best.seat])}</p>` +
        (mult ? `<p class="badge">${esc(mult)}</p>` : '');
    } else {
      html = `<p class="contract-label">${esc(t('js.no_bid'))}</p>`;
    }
  } else {
    html = `<p class="contract-label">${esc(t('js.void_deal'))}</p>`;
  }
  if (els.contract.dataset.html !== html) {
    els.contract.innerHTML = html;
    els.contract.dataset.html = html;
  }

  const g = state.game;
  const u = us();
  const points = d.card_points || [0, 0];
  const showPoints = d.phase !== 'auction' && d.contract !== null;
  els.score.innerHTML =
    `<dl class="totals">` +
    `<div class="team team-us"><dt>${esc(t('js.team.us'))}</dt><dd>${g.totals[u]}</dd></div>` +
    `<div class="team team-them"><dt>${esc(t('js.team.them'))}</dt><dd>${g.totals[1 - u]}</dd></div>` +
    `</dl>` +
    `<p class="target">${esc(t('js.target', { target: g.target }))} · ${esc(t('js.deal_number', { number: g.deal_number }))}</p>` +
    (showPoints
      ? `<p class="deal-points"><span aria-hidden="true">${esc(t('js.deal_points', { us: points[u], them: points[1 - u] }))}</span>` +
        `<span class="visually-hidden">${esc(t('js.read.deal_points', { us: points[u], them: points[1 - u] }))}</span></p>`
      : '');
  els.level.textContent = t('js.computer', { level: state.table.level_label });
}

function renderHistory() {
  const d = deal();
  const order = [1, 2, 3, 4].map((k) => (d.dealer + k) % 4);
  const head = order.map((seat) => `<th scope="col">${esc(t(`seat.short.${pos[seat]}`))}</th>`).join('');
  if (els.historyHead.dataset.html !== head) {
    els.historyHead.innerHTML = head;
    els.historyHead.dataset.html = head;
  }
  const rows = [];
  for (let i = 0; i < d.calls.length; i += 4) {
    const cells = d.calls.slice(i, i + 4).map((c) => `<td class="call-cell hist-${parseCall(c.call).kind}">${callHTML(c.call)}</td>`);
    while (cells.length < 4) cells.push('<td></td>');
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  if (!rows.length) rows.push('<tr><td></td><td></td><td></td><td></td></tr>');
  const body = rows.join('');
  if (els.historyBody.dataset.html !== body) {
    els.historyBody.innerHTML = body;
    els.historyBody.dataset.html = body;
    const box = els.historyBody.closest('.history-scroll');
    box.scrollTop = box.scrollHeight;
  }
  els.history.classList.toggle('empty', d.calls.length === 0);
}

// ----- the trick -----

function showTrick(container, cards, leader, animate) {
  const slots = {};
  for (const el of container.querySelectorAll('.slot')) slots[el.dataset.pos] = el;
  const bySlot = {};
  cards.forEach((code, i) => {
    bySlot[pos[(leader + i) % 4]] = { code, seat: (leader + i) % 4 };
  });
  for (const p of POSITIONS) {
    const slot = slots[p];
    const want = bySlot[p];
    const have = slot.firstElementChild;
    if (!want) {
      if (have) slot.replaceChildren();
      continue;
    }
    if (have && have.dataset.card === want.code) continue;
    const div = document.createElement('div');
    div.className = `card face${animate ? ' enter' : ''}`;
    div.dataset.card = want.code;
    div.setAttribute('role', 'img');
    div.setAttribute('aria-label', t('js.played_by', { seat: names()[want.seat], card: cardName(want.code) }));
    div.innerHTML = cardFace(want.code);
    slot.replaceChildren(div);
  }
}

function cancelHold() {
  if (!hold) return;
  clearTimeout(hold.timer);
  els.trick.classList.remove('collect', ...POSITIONS.map((p) => `to-${p}`));
  hold = null;
}

function renderTrick(trickDone) {
  const d = deal();
  if (d.trick.length) {
    cancelHold();
    trickShown = { cards: d.trick, leader: d.trick_leader };
    showTrick(els.trick, d.trick, d.trick_leader, true);
  } else if (trickDone) {
    cancelHold();
    const last = d.tricks[d.tricks.length - 1];
    trickShown = { cards: last.cards, leader: last.leader, winner: last.winner };
    showTrick(els.trick, last.cards, last.leader, true);
    const winnerPos = pos[last.winner];
    els.trick.querySelector(`.slot-${winnerPos} .card`)?.classList.add('trick-winner');
    hold = {
      timer: setTimeout(() => {
        els.trick.classList.add('collect', `to-${winnerPos}`);
        hold.timer = setTimeout(() => {
          els.trick.classList.remove('collect', `to-${winnerPos}`);
          showTrick(els.trick, [], 0, false);
          trickShown = { cards: [], leader: 0 };
          hold = null;
        }, COLLECT_MS);
      }, TRICK_HOLD_MS),
    };
  } else if (!hold) {
    trickShown = { cards: [], leader: 0 };
    showTrick(els.trick, [], 0, false);
  }
  els.trick.classList.toggle('empty', !trickShown.cards.length);
}

function renderLastTrick() {
  const d = deal();
  const last = d.tricks[d.tricks.length - 1];
  if (!last) {
    els.lastTrick.hidden = true;
    els.lastTrickButton.setAttribute('aria-expanded', 'false');
    return;
  }
  showTrick($('.mini-trick', els.lastTrick), last.cards, last.leader, false);
  $('.last-trick-winner', els.lastTrick).textContent = t('js.trick_winner', { seat: names()[last.winner], points: last.points });
}

// ----- the hand -----

function renderHand() {
  const d = deal();
  const legal = legalOf(d);
  const hand = d.hand;
  const box = els.hand;
  const active = document.activeElement;
  const focused = active && active.parentElement === box ? active.dataset.card : null;
  const existing = new Map([...box.children].map((b) => [b.dataset.card, b]));
  let lostFocus = false;
  for (const [code, b] of existing) {
    if (!hand.includes(code)) {
      if (code === focused) lostFocus = true;
      b.remove();
      existing.delete(code);
    }
  }
  const n = hand.length;
  hand.forEach((code, i) => {
    let b = existing.get(code);
    if (!b) {
      b = document.createElement('button');
      b.type = 'button';
      b.className = 'card face hand-card';
      b.dataset.card = code;
      b.setAttribute('aria-label', cardName(code));
      b.innerHTML = cardFace(code);
    }
    if (box.children[i] !== b) box.insertBefore(b, box.children[i] || null);
    b.disabled = !legal.cards.has(code);
    b.classList.remove('hinted');
    const o = i - (n - 1) / 2;
    b.style.setProperty('--r', `${(o * 1.8).toFixed(2)}deg`);
    b.style.setProperty('--y', `${(o * o * 0.9).toFixed(1)}px`);
    b.style.zIndex = String(i + 1);
  });
  box.style.setProperty('--n', String(n));
  box.style.setProperty('--cols', String(n > 4 ? Math.ceil(n / 2) : Math.max(n, 1)));
  box.classList.toggle('my-turn', legal.cards.size > 0);
  if (focused && !lostFocus) {
    const b = existing.get(focused);
    if (b && document.activeElement !== b && !b.disabled) b.focus({ preventScroll: true });
  }
  if (lostFocus || (focused && document.activeElement === document.body)) box.focus({ preventScroll: true });
}

function playCard(code) {
  if (!state || busy) return;
  const records = legalOf(deal()).cards.get(code);
  if (!records) return;
  const withBelote = records.find((r) => r.belote === true);
  const plain = records.find((r) => r.belote !== true);
  const announce = !els.beloteBox.hidden && els.belote.checked;
  act(announce && withBelote ? withBelote : plain || withBelote);
}

els.hand.addEventListener('click', (e) => {
  const b = e.target.closest('button.hand-card');
  if (b && !b.disabled) playCard(b.dataset.card);
});

els.hand.addEventListener('keydown', (e) => {
  const cards = [...els.hand.querySelectorAll('button.hand-card:not(:disabled)')];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  let next = null;
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = cards[(i + 1) % cards.length];
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = cards[(i - 1 + cards.length) % cards.length];
  else if (e.key === 'Home') next = cards[0];
  else if (e.key === 'End') next = cards[cards.length - 1];
  if (next) {
    e.preventDefault();
    next.focus();
  }
});

// ----- bidding and declaring -----

function renderPanels() {
  const d = deal();
  const legal = legalOf(d);
  const n = names();
  let info = '';
  const best = bestBid(d.calls);
  if (best) info = `${esc(t('js.bid_to_beat'))} <strong class="call-inline">${callHTML(best.call)}</strong> · ${esc(n[best.seat])}`;
  else info = esc(t('js.no_bid'));
  bidding.show(legal.calls, info);

  const key = JSON.stringify(legal.declares);
  if (key !== declareKey) {
    declareKey = key;
    els.declareChoices.replaceChildren(
      ...legal.declares.map((record) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = record.melds && record.melds.length ? 'primary' : 'secondary';
        b.dataset.declare = String(record.declare);
        const name = declareName(record);
        b.setAttribute('aria-label', name);
        const points = (record.melds || []).reduce((sum, m) => sum + (m.points || 0), 0);
        b.innerHTML = `<span aria-hidden="true">${esc(name)}${points ? ` <span class="pts">${points}</span>` : ''}</span>`;
        b.addEventListener('click', () => act(record));
        return b;
      }),
    );
  }
  els.declare.hidden = legal.declares.length === 0;
  root.classList.toggle('bidding-open', legal.calls.length > 0);
  root.classList.toggle('declaring', legal.declares.length > 0);
}

// ----- tools -----

function renderTools() {
  const d = deal();
  const legal = legalOf(d);
  els.hintButton.disabled = legal.all.length === 0;
  els.lastTrickButton.disabled = d.tricks.length === 0;
  if (!els.lastTrick.hidden) renderLastTrick();
  const offered = legal.belote;
  if (offered && els.beloteBox.hidden) els.belote.checked = true;
  els.beloteBox.hidden = !offered;
  els.summaryButton.hidden = !((state.awaiting_next_deal || gameOver()) && !els.summary.open);
}

els.hintButton.addEventListener('click', () => {
  if (state && !els.hintButton.disabled) send({ type: 'hint' });
});

els.lastTrickButton.addEventListener('click', () => {
  const open = els.lastTrick.hidden;
  els.lastTrick.hidden = !open;
  els.lastTrickButton.setAttribute('aria-expanded', String(open));
  if (open) {
    renderLastTrick();
    sayNow(readers[5]());
  }
});

els.helpButton.addEventListener('click', () => els.help.showModal());

els.summaryButton.addEventListener('click', () => openSummary());

$('.notice-close', els.notice).addEventListener('click', () => clearNotice());

function showNotice(text, kind) {
  els.noticeText.textContent = text;
  els.notice.dataset.kind = kind;
  els.notice.dataset.since = String(Date.now());
  els.notice.hidden = false;
}

function clearNotice() {
  els.notice.hidden = true;
  els.notice.dataset.kind = '';
  els.noticeText.textContent = '';
}

// ----- the end of a deal -----

function openSummary() {
  if (!state) return;
  els.summary.innerHTML = summaryHTML(state);
  if (!els.summary.open) els.summary.showModal();
  const first = els.summary.querySelector('.summary-actions .primary');
  (first || els.summary.querySelector('button'))?.focus();
  els.summaryButton.hidden = true;
}

function renderSummary(trickDone) {
  const over = gameOver();
  clearTimeout(summaryTimer);
  if (!state.awaiting_next_deal && !over) {
    summaryKey = '';
    if (els.summary.open) els.summary.close();
    return;
  }
  const key = `${state.game.deal_number}:${over}:${state.can_continue}`;
  if (key === summaryKey) return;
  summaryKey = key;
  const open = () => {
    openSummary();
    const result = deal().result;
    const verdict = result ? t(result.made === true ? 'js.made' : result.made === false ? 'js.failed' : 'js.void_deal') : '';
    say(over ? t('js.game_over') : `${t('js.deal_over', { number: state.game.deal_number })} ${verdict}`);
  };
  if (trickDone || hold) summaryTimer = setTimeout(open, TRICK_HOLD_MS + COLLECT_MS);
  else open();
}

els.summary.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-do]');
  if (!b) return;
  if (b.dataset.do === 'next') {
    if (send({ type: 'next_deal' })) b.disabled = true;
  } else if (b.dataset.do === 'close') {
    els.summary.close();
  }
});

els.summary.addEventListener('close', () => {
  if (state) els.summaryButton.hidden = !(state.awaiting_next_deal || gameOver());
  if (!els.summaryButton.hidden) els.summaryButton.focus();
});

// ----- the live region, focus, thinking -----

function announce(prev, sameDeal, trickDone) {
  const d = deal();
  if (prev !== null && !sameDeal) say(t('js.new_deal', { seat: names()[d.dealer] }));
  if (prev !== null && state.last && state.last.text) say(state.last.text);
  if (trickDone) {
    const last = d.tricks[d.tricks.length - 1];
    say(t('js.trick_won', { seat: names()[last.winner], points: last.points }));
  }
  if (prev === null || turnKey(prev) !== turnKey(state)) {
    const legal = legalOf(d);
    if (legal.all.length) say(turnSentence());
    else if (prev === null && playing()) say(turnSentence());
  }
}

function moveFocus() {
  const legal = legalOf(deal());
  if (!legal.all.length || els.summary.open || els.help.open) return;
  const key = turnKey(state);
  if (key === focusKey) return;
  focusKey = key;
  if (legal.calls.length) bidding.focus();
  else if (legal.declares.length) els.declareChoices.querySelector('button')?.focus({ preventScroll: true });
  else els.hand.querySelector('button.hand-card:not(:disabled)')?.focus({ preventScroll: true });
}

function watchThinking(trickDone) {
  clearTimeout(thinkingTimer);
  for (const p of POSITIONS) {
    seatEls[p].thinking.hidden = true;
    seatEls[p].root.classList.remove('is-thinking');
  }
  if (!playing()) return;
  const mover = deal().to_move;
  const seat = state.table.seats[mover];
  if (!seat || seat.kind === 'human') return;
  thinkingTimer = setTimeout(
    () => {
      const el = seatEls[pos[mover]];
      el.thinking.hidden = false;
      el.root.classList.add('is-thinking');
      say(t('js.thinking', { seat: names()[mover] }));
    },
    THINKING_MS + (trickDone ? TRICK_HOLD_MS + COLLECT_MS : 0),
  );
}

// ----- keys that say the state on demand -----

const readers = {
  1() {
    const d = deal();
    if (!d.hand.length) return t('js.read.no_hand');
    const legal = legalOf(d);
    let text = t('js.read.hand', { cards: d.hand.map(cardName).join(', ') });
    if (legal.cards.size && legal.cards.size < d.hand.length) {
      text += ` ${t('js.read.playable', { cards: [...legal.cards.keys()].map(cardName).join(', ') })}`;
    }
    return text;
  },
  2() {
    const { cards, leader } = trickShown;
    if (!cards.length) return t('js.read.no_trick');
    const list = cards.map((code, i) => t('js.played_by', { seat: names()[(leader + i) % 4], card: cardName(code) }));
    return t('js.read.trick', { cards: list.join(' ; ') });
  },
  3() {
    const d = deal();
    if (d.contract) {
      const c = d.contract;
      const mult = multiplierWord(d.calls);
      return t('js.read.contract', { call: callName(c.call), seat: names()[c.taker] }) + (mult ? ` ${mult}.` : '');
    }
    const best = bestBid(d.calls);
    if (d.phase === 'auction' && best) return t('js.read.auction', { call: callName(best.call), seat: names()[best.seat] });
    return d.phase === 'auction' ? t('js.no_bid') : t('js.void_deal');
  },
  4() {
    const g = state.game;
    const d = deal();
    const u = us();
    let text = t('js.read.score', { us: g.totals[u], them: g.totals[1 - u], target: g.target });
    if (d.phase !== 'auction') text += ` ${t('js.read.deal_points', { us: d.card_points[u], them: d.card_points[1 - u] })}`;
    return text;
  },
  5() {
    const d = deal();
    const last = d.tricks[d.tricks.length - 1];
    if (!last) return t('js.read.no_last_trick');
    const list = last.cards.map((code, i) => t('js.played_by', { seat: names()[(last.leader + i) % 4], card: cardName(code) }));
    return `${t('js.read.last_trick', { cards: list.join(' ; ') })} ${t('js.trick_winner', { seat: names()[last.winner], points: last.points })}`;
  },
  6() {
    return turnSentence();
  },
};

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  const tag = target && target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && target.type !== 'checkbox')) return;
  if (e.key === '?') {
    e.preventDefault();
    if (els.help.open) els.help.close();
    else els.help.showModal();
    return;
  }
  if (e.key === 'Escape' && !els.lastTrick.hidden) {
    els.lastTrick.hidden = true;
    els.lastTrickButton.setAttribute('aria-expanded', 'false');
    return;
  }
  const reader = readers[e.key];
  if (reader && state) {
    e.preventDefault();
    sayNow(reader());
  }
});

connect();
