// The table page's drawing: everything that touches the DOM. It draws the `TableState`'s
// last state, says what happens in the live region, moves the focus to what the player is
// to do, and hands the player's choices (always one of the server's `legal_actions`, sent
// back as is) to the callbacks it was given. No socket, no rule of the game.

import { t, esc, callHTML, parseCall, trumpVisual, meldName, meldVisual, callName } from './words.js';
import { cardBack } from './cards.js';
import { say, sayNow } from './live.js';
import { BiddingBox } from './bidding.js';
import { legalOf, bestBid, gameOver, playing, turnKey } from './table_state.js';
import { multiplierWord, declareName, turnSentence, hintSentence, readKey, goalText } from './table_sentences.js';
import { TrickView, showTrick, POSITIONS, trickTiming } from './trick_view.js';
import { HandView } from './hand_view.js';

const THINKING_MS = 1500;
const BELOTE_BUBBLE_MS = 2500;
/** An error notice goes with the next change of the table once it is this old. */
const ERROR_NOTICE_MS = 5000;

function bigCall(code) {
  const c = parseCall(code);
  let visual;
  if (c.kind === 'bid') visual = `<span class="big-value">${c.value}</span>${trumpVisual(c.trump, 'big-trump')}`;
  else visual = `<span class="big-value small">${esc(t(`js.${c.kind}`))}</span>${trumpVisual(c.trump, 'big-trump')}`;
  return `<span class="big-call" aria-hidden="true">${visual}</span><span class="visually-hidden">${esc(callName(code))}</span>`;
}

/** Sets `el`'s markup only when it changed (keeps focus, selection and animations). */
function setHTML(el, html) {
  if (el.dataset.html === html) return false;
  el.innerHTML = html;
  el.dataset.html = html;
  return true;
}

export class TableView {
  /**
   * `root`: the page's #table; `table`: the `TableState` to draw; `actions`: the player's
   * choices, `act(record)` (one of `legal_actions`), `hint()`, `nextDeal()` (true when it
   * was sent).
   */
  constructor(root, table, actions) {
    this.root = root;
    this.table = table;
    this.actions = actions;
    const $ = (selector, el = root) => el.querySelector(selector);
    this.els = {
      loading: $('#loading'),
      contract: $('#contract'),
      history: $('#history'),
      historyHead: $('#history thead tr'),
      historyBody: $('#history tbody'),
      meaning: $('#call-meaning'),
      score: $('#score'),
      level: $('#level'),
      levelFollows: $('#level-follows'),
      lastTrick: $('#last-trick'),
      lastTrickGrid: $('#last-trick .mini-trick'),
      lastTrickWinner: $('#last-trick .last-trick-winner'),
      lastTrickButton: $('#last-trick-button'),
      hintButton: $('#hint-button'),
      summaryButton: $('#summary-button'),
      lastDealButton: $('#last-deal-button'), // at a table of several people only
      helpButton: $('#help-button'),
      help: $('#help'),
      beloteBox: $('#belote-box'),
      belote: $('#belote'),
      notice: $('#notice'),
      noticeText: $('#notice .notice-text'),
      noticeClose: $('#notice .notice-close'),
      summary: $('#summary'),
      declare: $('#declare'),
      declareChoices: $('#declare .declare-choices'),
    };
    this.seats = Object.fromEntries(
      POSITIONS.map((p) => {
        const el = $(`#seat-${p}`);
        const part = (name) => $(`.${name}`, el);
        const names = ['name', 'dealer', 'count', 'thinking', 'fan', 'melds', 'bubble'];
        return [p, { root: el, ...Object.fromEntries(names.map((name) => [name, part(name)])) }];
      }),
    );
    this.trick = new TrickView($('#trick'), trickTiming(Number(root.dataset.trickHold)));
    /** The summary shows the reader's accuracy (the site values each deal as it ends). */
    this.accuracy = 'accuracy' in root.dataset;
    this.hand = new HandView($('#hand'), (code) => this.playCard(code));
    this.bidding = new BiddingBox($('#bidding'), (code) => this.actions.act({ call: code }));
    this.thinkingTimer = null;
    this.beloteBubble = null;
    this.focusKey = '';
    this.summaryKey = '';
    /** The last deal's summary once another person dealt on: `{state, text}` (who did). */
    this.lastDeal = null;
    /** The turn when the last deal's summary was reopened: a new turn of the player's closes it. */
    this.foldedTurn = '';
    this.declareKey = '';
    this.isGone = false;
    /** The states whose trick and sentences wait for the trick on show to go:
     * `{s, trickDone, sentences}`, in table order. */
    this.timeline = [];
    /** The seq of the last state whose events were said (each is said once). */
    this.saidSeq = null;
    /** What waits for the table's timeline to be drawn (the summary). */
    this.whenIdle = null;
    this.listen();
  }

  get state() {
    return this.table.state;
  }

  get deal() {
    return this.table.state.game.deal;
  }

  get names() {
    return this.table.state.table.seat_names;
  }

  /** Where seat `seat` sits, as the server placed it. */
  posOf(seat) {
    return this.table.state.table.positions[seat];
  }

  // ----- a new state -----

  /** Draws the table's state; `prev` is the state drawn before (null at first). */
  draw(prev) {
    const s = this.state;
    const d = s.game.deal;
    const els = this.els;
    const sameDeal = prev !== null && prev.game.deal_number === s.game.deal_number;
    const trickDone = sameDeal && d.tricks.length > prev.game.deal.tricks.length;
    if (!sameDeal) {
      this.trick.cancelHold();
      this.timeline = [];
      this.beloteBubble = null;
      els.history.open = window.matchMedia('(min-width: 700px) and (min-height: 501px)').matches;
    }
    this.root.classList.add('ready');
    this.root.classList.toggle('clockwise', s.table.direction === 'clockwise');
    els.loading.hidden = true;
    if (prev === null || s.last !== null || !sameDeal) {
      // a hint lasts until something happens; an error until the player acts, or a while
      const kind = els.notice.dataset.kind;
      const age = Date.now() - Number(els.notice.dataset.since || 0);
      const acted = s.last !== null && s.last.seat === s.table.you;
      if (kind !== 'offline' && (prev === null || kind === 'hint' || acted || age > ERROR_NOTICE_MS)) this.clearNotice();
    }

    if (s.last && s.last.action && s.last.action.belote) {
      const b = d.belotes.filter((x) => x.seat === s.last.seat).pop();
      const shown = { seat: s.last.seat, word: t(`js.bubble.${b && b.at === 'rebelote' ? 'rebelote' : 'belote'}`) };
      this.beloteBubble = shown;
      setTimeout(() => {
        if (this.beloteBubble !== shown) return;
        this.beloteBubble = null;
        this.renderSeats();
      }, BELOTE_BUBBLE_MS);
    }

    this.renderSeats();
    this.renderCorners();
    this.renderHistory();
    // The hand and the panels at once (the player may act); the trick and what the live
    // region says in table order, after the complete trick on show.
    this.timeline.push({ s, trickDone, sentences: this.sentences(prev, sameDeal, trickDone) });
    this.hand.render(d.hand, legalOf(d).cards);
    this.renderPanels();
    this.renderTools();
    this.moveFocus();
    this.flush();
    this.renderSummary();
    this.watchThinking(trickDone);
  }

  // ----- seats -----

  renderSeats() {
    const d = this.deal;
    const you = this.state.table.you;
    const live = playing(this.state);
    const showCalls = d.phase === 'auction' || (d.phase === 'play' && d.tricks.length === 0 && d.trick.length === 0);
    for (let seat = 0; seat < 4; seat++) {
      const el = this.seats[this.posOf(seat)];
      el.root.dataset.seat = String(seat);
      el.name.textContent = this.names[seat];
      el.dealer.hidden = d.dealer !== seat;
      el.root.classList.toggle('turn', live && d.to_move === seat);
      if (seat !== you) {
        const n = d.hand_sizes[seat];
        el.count.textContent = t(n === 1 ? 'js.card_left' : 'js.cards_left', { count: n });
        if (el.fan.childElementCount !== n) el.fan.innerHTML = Array.from({ length: n }, () => `<span class="mini-back">${cardBack()}</span>`).join('');
      }
      const melds = d.shown_melds[seat] || [];
      let items = melds.map(
        (m) => `<li><span class="meld-words">${esc(meldName(m))}</span><span class="meld-short" aria-hidden="true">${meldVisual(m)}</span> <span class="pts">${m.points}</span></li>`,
      );
      if (seat === you && Array.isArray(d.declared) && d.declared.length && !melds.length) {
        items = d.declared.map((m) => `<li class="pending">${esc(t('js.declared', { meld: meldName(m) }))}</li>`);
      }
      const html = items.join('');
      setHTML(el.melds, html);
      el.melds.hidden = !html;

      let bubble = '';
      let kind = '';
      if (this.beloteBubble && this.beloteBubble.seat === seat) {
        bubble = esc(this.beloteBubble.word);
        kind = 'belote';
      } else if (showCalls) {
        const mine = d.calls.filter((c) => c.seat === seat).pop();
        if (mine) {
          bubble = callHTML(mine.call, { exclaim: true });
          kind = parseCall(mine.call).kind;
        }
      }
      if (setHTML(el.bubble, bubble)) {
        el.bubble.className = `bubble bubble-${kind}`;
        if (bubble) {
          el.bubble.classList.remove('pop');
          void el.bubble.offsetWidth; // restarts the animation
          el.bubble.classList.add('pop');
        }
      }
      el.bubble.hidden = !bubble;
    }
  }

  // ----- corners -----

  renderCorners() {
    const d = this.deal;
    const n = this.names;
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
    setHTML(this.els.contract, html);

    const g = this.state.game;
    const u = this.state.table.you % 2;
    const points = d.card_points || [0, 0];
    const showPoints = d.phase !== 'auction' && d.contract !== null;
    this.els.score.innerHTML =
      `<dl class="totals">` +
      `<div class="team team-us"><dt>${esc(t('js.team.us'))}</dt><dd>${g.totals[u]}</dd></div>` +
      `<div class="team team-them"><dt>${esc(t('js.team.them'))}</dt><dd>${g.totals[1 - u]}</dd></div>` +
      `</dl>` +
      `<p class="target">${esc(goalText(this.state))}</p>` +
      (this.state.dealing
        ? `<p class="commitment" title="${esc(t('js.dealing.commitment_title', { hash: this.state.dealing.commitment }))}">` +
          `${esc(t('js.dealing.commitment', { number: this.state.dealing.number, short: this.state.dealing.commitment.slice(0, 8) }))}</p>`
        : '') +
      (showPoints
        ? `<p class="deal-points"><span aria-hidden="true">${esc(t('js.deal_points', { us: points[u], them: points[1 - u] }))}</span>` +
          `<span class="visually-hidden">${esc(t('js.read.deal_points', { us: points[u], them: points[1 - u] }))}</span></p>`
        : '');
    this.els.level.textContent = t('js.computer', { level: this.state.table.level_label });
    const follows = this.state.table.level_follows;
    this.els.levelFollows.hidden = !follows;
    if (follows) {
      this.els.levelFollows.querySelector('summary').textContent = follows.summary;
      this.els.levelFollows.querySelector('p').textContent = follows.why;
    }
  }

  renderHistory() {
    const d = this.deal;
    const els = this.els;
    const order = [1, 2, 3, 4].map((k) => (d.dealer + k) % 4);
    setHTML(els.historyHead, order.map((seat) => `<th scope="col">${esc(t(`seat.short.${this.posOf(seat)}`))}</th>`).join(''));
    const rows = [];
    for (let i = 0; i < d.calls.length; i += 4) {
      const cells = d.calls.slice(i, i + 4).map((c, k) => `<td class="call-cell hist-${parseCall(c.call).kind}">${this.callCell(c, i + k)}</td>`);
      while (cells.length < 4) cells.push('<td></td>');
      rows.push(`<tr>${cells.join('')}</tr>`);
    }
    if (!rows.length) rows.push('<tr><td></td><td></td><td></td><td></td></tr>');
    const focused = document.activeElement && document.activeElement.closest('#history button.call-ask');
    if (setHTML(els.historyBody, rows.join(''))) {
      if (focused) {  // a new call redraws the table: the player stays on the call they were on
        const again = els.historyBody.querySelector(`button.call-ask[data-index="${focused.dataset.index}"]`);
        if (again) again.focus();
      }
      const box = els.historyBody.closest('.history-scroll');
      box.scrollTop = box.scrollHeight;
    }
    els.history.classList.toggle('empty', d.calls.length === 0);
  }

  /** A call of the auction's table: a button that asks what it says (not for a watcher,
   * who has no seat to ask from). */
  callCell(c, index) {
    if (this.state.table.watching) return callHTML(c.call);
    const label = t('js.meaning.ask', { call: callName(c.call), seat: this.names[c.seat] });
    return `<button type="button" class="call-ask" data-index="${index}" aria-label="${esc(label)}">${callHTML(c.call)}</button>`;
  }

  /** What the calls say (call_meanings.js), loaded at the first question. */
  async meanings() {
    if (!this.callMeanings) {
      const { CallMeanings } = await import('./call_meanings.js');
      this.callMeanings ??= new CallMeanings(this.els.meaning, () => this.state, () => this.names);
    }
    return this.callMeanings;
  }

  renderLastTrick() {
    const d = this.deal;
    const last = d.tricks[d.tricks.length - 1];
    if (!last) {
      this.els.lastTrick.hidden = true;
      this.els.lastTrickButton.setAttribute('aria-expanded', 'false');
      return;
    }
    showTrick(this.els.lastTrickGrid, last.cards, last.leader, { pos: this.state.table.positions, names: this.names });
    this.els.lastTrickWinner.textContent = t('js.trick_winner', { seat: this.names[last.winner], points: last.points });
  }

  // ----- the player's choices -----

  playCard(code) {
    if (!this.state) return;
    const records = legalOf(this.deal).cards.get(code);
    if (!records) return;
    const withBelote = records.find((r) => r.belote === true);
    const plain = records.find((r) => r.belote !== true);
    const announce = !this.els.beloteBox.hidden && this.els.belote.checked;
    this.actions.act(announce && withBelote ? withBelote : plain || withBelote);
  }

  renderPanels() {
    const d = this.deal;
    const els = this.els;
    const legal = legalOf(d);
    const best = bestBid(d.calls);
    const info = best
      ? `${esc(t('js.bid_to_beat'))} <strong class="call-inline">${callHTML(best.call)}</strong> · ${esc(this.names[best.seat])}`
      : esc(t('js.no_bid'));
    this.bidding.show(legal.calls, info);

    const key = JSON.stringify(legal.declares);
    if (key !== this.declareKey) {
      this.declareKey = key;
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
          b.addEventListener('click', () => this.actions.act(record));
          return b;
        }),
      );
    }
    if (legal.declares.length === 0 && els.declare.contains(document.activeElement)) {
      // the declaration made: the focus goes to the hand before its panel hides
      if (legal.cards.size) this.hand.focusFirst();
      else this.hand.box.focus({ preventScroll: true });
    }
    els.declare.hidden = legal.declares.length === 0;
    this.root.classList.toggle('bidding-open', legal.calls.length > 0);
    this.root.classList.toggle('declaring', legal.declares.length > 0);
  }

  // ----- tools -----

  renderTools() {
    const d = this.deal;
    const els = this.els;
    const legal = legalOf(d);
    // the daily challenge is played without help (the server refuses it too)
    els.hintButton.hidden = this.state.table.hints === false;
    els.hintButton.disabled = legal.all.length === 0;
    els.lastTrickButton.disabled = d.tricks.length === 0;
    if (!els.lastTrick.hidden) this.renderLastTrick();
    const offered = legal.belote;
    if (offered && els.beloteBox.hidden) els.belote.checked = true;
    els.beloteBox.hidden = !offered;
    els.summaryButton.hidden = !((this.state.awaiting_next_deal || gameOver(this.state)) && !els.summary.open);
  }

  /** The answer to the player's hint: said, shown, and the control it names marked. */
  showHint(message) {
    const action = message.action || {};
    const text = hintSentence(message);
    this.showNotice(text, 'hint');
    say(text);
    if (typeof action.card === 'string') {
      this.hand.mark(action.card);
    } else if (typeof action.call === 'string') {
      this.bidding.mark(action.call);
    } else if (typeof action.declare === 'number') {
      for (const b of this.els.declareChoices.children) b.classList.toggle('hinted', Number(b.dataset.declare) === action.declare);
    }
  }

  /** The server refused something (`request`: the player's own request it answers, if any). */
  showError(message, request) {
    const text = message.message || t('js.error');
    this.showNotice(text, 'error');
    say(text);
    if (request && request.type === 'next_deal') {
      const next = this.els.summary.querySelector('button[data-do="next"]');
      if (next) next.disabled = false;
    }
  }

  // ----- the notice -----

  showNotice(text, kind) {
    const els = this.els;
    els.noticeText.textContent = text;
    els.notice.dataset.kind = kind;
    els.notice.dataset.since = String(Date.now());
    els.notice.hidden = false;
  }

  clearNotice() {
    const els = this.els;
    els.notice.hidden = true;
    els.notice.dataset.kind = '';
    els.noticeText.textContent = '';
  }

  /** The connection dropped: another attempt is on its way. */
  offline() {
    if (!this.isGone) this.showNotice(t('js.reconnecting'), 'offline');
  }

  /** The server restarts: the page is connecting again at once (another process answers);
   * said discreetly, as no connection was lost. */
  restarting() {
    if (!this.isGone) this.showNotice(t('js.restarting'), 'offline');
  }

  /** Too many tabs or devices on the table (1013): said once; the page tries again. */
  tooMany() {
    const text = t('js.too_many_connections');
    if (this.isGone || (!this.els.notice.hidden && this.els.noticeText.textContent === text)) return;
    this.showNotice(text, 'offline');
    say(text);
  }

  /** The connection is back. */
  online() {
    if (this.els.notice.dataset.kind === 'offline') this.clearNotice();
  }

  /** The server closed with 4404: the table does not exist (any more) for this visitor. */
  gone() {
    const text = t('js.table_gone');
    this.isGone = true;
    this.showNotice(text, 'error');
    say(text);
  }

  // ----- the end of a deal -----

  /** The summary of a state (summary.js: loaded at the end of the first deal, not with
   * the page). */
  async summaryHTML(state, wentOn = null) {
    const { summaryHTML } = await import('./summary.js');
    return summaryHTML(state, wentOn, this.accuracy);
  }

  /** The summary's accuracy line, filled in when the server has it. */
  async fillAccuracy() {
    const { fillAccuracy } = await import('./summary.js');
    fillAccuracy(this.els.summary);
  }

  async openSummary() {
    if (!this.state) return;
    const els = this.els;
    const key = this.summaryKey;
    const html = await this.summaryHTML(this.state);
    if (key !== this.summaryKey || !this.state) return; // the table went on while it loaded
    if (els.summary.open && !els.summary.matches(':modal')) els.summary.close(); // the last deal's
    els.summary.classList.remove('folded');
    els.summary.innerHTML = html;
    if (!els.summary.open) els.summary.showModal();
    this.fillAccuracy();
    // The way on has the focus, but the dialog opens at its top: the result first (its
    // buttons stay in sight at the bottom, see table.css).
    const first = els.summary.querySelector('.summary-actions .primary');
    (first || els.summary.querySelector('button'))?.focus({ preventScroll: true });
    els.summary.scrollTop = 0;
    els.summaryButton.hidden = true;
  }

  renderSummary() {
    const s = this.state;
    const els = this.els;
    const over = gameOver(s);
    if (!s.awaiting_next_deal && !over) {
      if (this.summaryKey) this.dealtOn(s.dealt_by);
      // the last deal's summary, reopened, never stays in front of the player's turn
      const folded = els.summary.open && els.summary.classList.contains('folded');
      if (folded && legalOf(this.deal).all.length && turnKey(s) !== this.foldedTurn) this.closeSummary();
      this.renderLastDeal();
      return;
    }
    this.renderLastDeal();
    const key = `${s.game.deal_number}:${over}:${s.can_continue}`;
    if (key === this.summaryKey) return;
    this.summaryKey = key;
    this.summaryState = s;
    this.whenIdle = null;
    const open = async () => {
      this.openSummary();
      const { verdictOf } = await import('./summary.js'); // the verdict from the reader's side
      const verdict = verdictOf(s).text;
      say(over ? t('js.game_over') : `${t('js.deal_over', { number: s.game.deal_number })} ${verdict}`);
    };
    if (this.trick.holding || this.timeline.length) this.whenIdle = open;
    else open();
  }

  /** A new deal after the summed-up one: its summary closes on every page and, at a table of
   * several people (`by`: who dealt on, null solo), folds into the last deal's button; the
   * others are told who dealt on. */
  dealtOn(by) {
    const s = this.state;
    if (by && this.summaryState && this.els.lastDealButton) this.lastDeal = { state: this.summaryState, text: by.text };
    if (by && (by.seat !== s.table.you || s.table.watching)) {
      this.showNotice(by.text, 'dealt');
      say(by.text);
    }
    this.summaryKey = '';
    this.whenIdle = null;
    if (this.els.summary.open) this.closeSummary();
  }

  /** The summary closed by the table, the focus on to what the player is to do (the focus
   * the dialog gives back may sit nowhere useful: the hand, when the player speaks first). */
  closeSummary() {
    this.els.summary.close();
    this.focusKey = '';
    this.moveFocus();
  }

  renderLastDeal() {
    const s = this.state;
    if (this.els.lastDealButton) this.els.lastDealButton.hidden = !this.lastDeal || s.awaiting_next_deal || gameOver(s);
  }

  /** The last deal's summary, reopened: not modal, as the table goes on behind it. */
  async openLastDeal() {
    const last = this.lastDeal;
    if (!last) return;
    const sum = this.els.summary;
    const html = await this.summaryHTML(last.state, last.text);
    if (last !== this.lastDeal || this.summaryKey) return; // the table went on while it loaded
    sum.classList.add('folded');
    sum.innerHTML = html;
    this.foldedTurn = turnKey(this.state);
    if (!sum.open) sum.show();
    this.fillAccuracy();
    sum.scrollTop = 0;
    sum.querySelector('[data-do="close"]').focus({ preventScroll: true });
  }

  /** The last deal's summary closed by the player: back to its button. */
  closeLastDeal() {
    this.els.summary.close();
    if (this.els.lastDealButton?.hidden === false) this.els.lastDealButton.focus();
  }

  // ----- the live region, focus, thinking -----

  /** What the live region says of state `s` (after `prev`): each event once, even when a
   * state comes again (a reconnection). */
  sentences(prev, sameDeal, trickDone) {
    const s = this.state;
    const d = s.game.deal;
    const out = [];
    const fresh = typeof s.seq !== 'number' || this.saidSeq === null || s.seq > this.saidSeq;
    if (typeof s.seq === 'number') this.saidSeq = Math.max(s.seq, this.saidSeq ?? s.seq);
    if (!fresh) return out;
    if (prev !== null && !sameDeal) out.push(t('js.new_deal', { seat: this.names[d.dealer] }));
    if (prev !== null && s.last && s.last.text) out.push(s.last.text);
    if (trickDone) {
      const last = d.tricks[d.tricks.length - 1];
      out.push(t('js.trick_won', { seat: this.names[last.winner], points: last.points }));
    }
    if (prev === null || turnKey(prev) !== turnKey(s)) {
      if (legalOf(d).all.length) out.push(turnSentence(s));
      else if (prev === null && playing(s)) out.push(turnSentence(s));
    }
    return out;
  }

  /** Draws the waiting states' tricks and says their sentences, in order, up to the next
   * complete trick (the rest comes when it has gone). */
  flush() {
    while (this.timeline.length && !this.trick.holding) {
      const { s, trickDone, sentences } = this.timeline.shift();
      this.trick.render(s, trickDone, () => this.flush());
      for (const text of sentences) say(text);
    }
    if (!this.trick.holding && !this.timeline.length && this.whenIdle) {
      const open = this.whenIdle;
      this.whenIdle = null;
      open();
    }
  }

  /** The focus is nowhere the player can act from: on the page's body, or on a control
   * that has just been hidden or disabled (the declaration's button once used). */
  focusLost() {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return true;
    return Boolean(el.closest('[hidden]')) || el.disabled === true;
  }

  moveFocus() {
    const els = this.els;
    const legal = legalOf(this.deal);
    if (els.summary.open || els.help.open) return;
    if (!legal.all.length) {
      // not the player's turn: a focus left on a hidden panel waits in the hand
      if (this.focusLost()) this.hand.box.focus({ preventScroll: true });
      return;
    }
    const kind = legal.calls.length ? 'call' : legal.declares.length ? 'declare' : 'card';
    const key = `${turnKey(this.state)}:${kind}`;
    if (key === this.focusKey && !this.focusLost()) return;
    this.focusKey = key;
    // a playable card the player already went to (the cards are enabled before the turn's
    // animations end): the focus stays on it, so that Enter plays that card, not the first
    const el = document.activeElement;
    if (kind === 'card' && el && el.closest('#hand') && el.tagName === 'BUTTON' && !el.disabled) return;
    if (legal.calls.length) this.bidding.focus();
    else if (legal.declares.length) els.declareChoices.querySelector('button')?.focus({ preventScroll: true });
    else this.hand.focusFirst();
  }

  watchThinking(trickDone) {
    clearTimeout(this.thinkingTimer);
    for (const p of POSITIONS) {
      this.seats[p].thinking.hidden = true;
      this.seats[p].root.classList.remove('is-thinking');
    }
    if (!playing(this.state)) return;
    const mover = this.deal.to_move;
    const seat = this.state.table.seats[mover];
    if (!seat || seat.kind === 'human') return;
    this.thinkingTimer = setTimeout(
      () => {
        const el = this.seats[this.posOf(mover)];
        el.thinking.hidden = false;
        el.root.classList.add('is-thinking');
        say(t('js.thinking', { seat: this.names[mover] }));
      },
      THINKING_MS + (trickDone ? this.trick.timing.hold + this.trick.timing.collect : 0),
    );
  }

  // ----- the page's own controls and keys -----

  listen() {
    const els = this.els;
    els.hintButton.addEventListener('click', () => {
      if (this.state && !els.hintButton.disabled) this.actions.hint();
    });
    els.lastTrickButton.addEventListener('click', () => {
      const open = els.lastTrick.hidden;
      els.lastTrick.hidden = !open;
      els.lastTrickButton.setAttribute('aria-expanded', String(open));
      if (open) {
        this.renderLastTrick();
        sayNow(readKey('5', this.state, this.trick.shown));
      }
    });
    els.helpButton.addEventListener('click', () => els.help.showModal());
    els.summaryButton.addEventListener('click', () => this.openSummary());
    els.lastDealButton?.addEventListener('click', () => this.openLastDeal());
    els.noticeClose.addEventListener('click', () => this.clearNotice());
    els.summary.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-do]');
      if (!b) return;
      if (b.dataset.do === 'next') {
        if (this.actions.nextDeal()) b.disabled = true;
      } else if (b.dataset.do === 'close') {
        if (els.summary.classList.contains('folded')) this.closeLastDeal();
        else els.summary.close();
      }
    });
    els.summary.addEventListener('close', () => {
      if (els.summary.open) return; // opened again meanwhile (the deal's end after the last deal's)
      if (this.state) els.summaryButton.hidden = !(this.state.awaiting_next_deal || gameOver(this.state));
      if (!els.summaryButton.hidden) els.summaryButton.focus();
    });
    document.addEventListener('keydown', (e) => this.onKey(e));
    els.historyBody.addEventListener('click', (e) => {
      const button = e.target.closest('button.call-ask');
      if (button) this.meanings().then((m) => m.ask(Number(button.dataset.index)));
    });
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const els = this.els;
    const target = e.target;
    const tag = target && target.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && target.type !== 'checkbox')) return;
    if (e.key === '?') {
      e.preventDefault();
      if (els.help.open) els.help.close();
      else els.help.showModal();
      return;
    }
    if (e.key === 'Escape' && els.summary.open && els.summary.classList.contains('folded')) {
      this.closeLastDeal(); // not modal: Escape is the page's to handle
      return;
    }
    if (e.key === 'Escape' && !els.lastTrick.hidden) {
      els.lastTrick.hidden = true;
      els.lastTrickButton.setAttribute('aria-expanded', 'false');
      return;
    }
    if (!this.state || !this.state.game) return;
    if (e.key === '7' && !this.state.table.watching) {
      e.preventDefault();
      this.meanings().then((m) => m.askLast());
      return;
    }
    const text = readKey(e.key, this.state, this.trick.shown);
    if (text !== null) {
      e.preventDefault();
      sayNow(text);
    }
  }
}
