// The bidding box: one real button per legal call the server listed (never more). A bid is
// a value then a trump: a row of values (a radio group: choosing one calls nothing), then a
// row of trumps whose buttons are the whole calls of the chosen value ("90 cœur"), then
// capot and générale by trump, then large Passe / Coinche / Surcoinche.
//
// Keyboard: each row of the grid (values, trumps, capot, générale) is one Tab stop with a
// roving tabindex; ArrowLeft / ArrowRight move along a row, Home / End go to its ends,
// ArrowUp / ArrowDown go to the row above or below; in the values row, moving chooses the
// value. Arrows never call: Enter or Space on a value chooses it and goes to the trumps;
// Enter or Space on a trump (or capot, générale) calls. Passe, Coinche, Surcoinche are
// one-press buttons, each a Tab stop of its own.

import { t, parseCall, callName, callVisual, TRUMPS } from './words.js';

function callButton(code, cls) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `call ${cls}`;
  b.dataset.call = code;
  name(b, code);
  return b;
}

function name(b, code) {
  b.dataset.call = code;
  b.setAttribute('aria-label', callName(code));
  b.innerHTML = `<span aria-hidden="true">${callVisual(code)}</span>`;
}

/** The enabled button of `row` nearest to index `i` (or null). */
function nearest(row, i) {
  let best = null;
  let bestD = Infinity;
  row.forEach((b, j) => {
    if (b.disabled) return;
    const d = Math.abs(j - i);
    if (d < bestD) [best, bestD] = [b, d];
  });
  return best;
}

export class BiddingBox {
  constructor(section, onCall) {
    this.section = section;
    this.body = section.querySelector('.bid-body');
    this.current = section.querySelector('.bid-current');
    this.onCall = onCall;
    this.key = '';
    /** The rows of the grid, each an array of buttons: values, trumps, capot, générale. */
    this.rows = [];
    this.bids = [];
    this.value = null;
    this.body.addEventListener('click', (e) => this.click(e));
    this.body.addEventListener('keydown', (e) => this.keydown(e));
  }

  /** Shows the box for the legal `calls`, or hides it when there are none; `infoHTML` is
   * the sentence above the grid (the bid to beat). */
  show(calls, infoHTML) {
    const key = calls.join(' ');
    if (!calls.length) {
      this.section.hidden = true;
      this.key = '';
      return;
    }
    if (key !== this.key) {
      this.build(calls);
      this.key = key;
    }
    this.current.innerHTML = infoHTML;
    for (const b of this.body.querySelectorAll('.hinted')) b.classList.remove('hinted');
    this.section.hidden = false;
  }

  build(calls) {
    const body = this.body;
    const parsed = calls.map((code) => ({ code, ...parseCall(code) }));
    this.bids = parsed.filter((c) => c.kind === 'bid');
    const columns = TRUMPS.filter((tr) => parsed.some((c) => c.trump === tr));
    const values = [...new Set(this.bids.map((c) => c.value))].sort((a, b) => a - b);
    this.columns = columns;
    this.rows = [];
    body.replaceChildren();

    const main = document.createElement('div');
    main.className = 'bid-main';
    main.style.setProperty('--cols', String(Math.max(columns.length, 1)));
    if (values.length) {
      const valueRow = document.createElement('div');
      valueRow.className = 'bid-values';
      valueRow.setAttribute('role', 'radiogroup');
      valueRow.setAttribute('aria-label', t('js.bid.value'));
      const row = values.map((v) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'bid-value-choice';
        b.setAttribute('role', 'radio');
        b.dataset.value = String(v);
        b.textContent = String(v);
        valueRow.append(b);
        return b;
      });
      this.rows.push(row);
      main.append(valueRow);

      const trumpRow = document.createElement('div');
      trumpRow.className = 'bid-trumps';
      trumpRow.setAttribute('role', 'group');
      trumpRow.setAttribute('aria-label', t('js.bid.trump'));
      this.trumpButtons = columns.map((tr) => {
        const b = callButton(`${values[0]}${tr}`, 'bid');
        b.dataset.trump = tr;
        trumpRow.append(b);
        return b;
      });
      this.rows.push(this.trumpButtons);
      main.append(trumpRow);
    } else {
      this.trumpButtons = [];
    }
    for (const kind of ['capot', 'generale']) {
      const slams = columns.map((tr) => parsed.find((c) => c.kind === kind && c.trump === tr)).filter(Boolean);
      if (!slams.length) continue;
      const line = document.createElement('div');
      line.className = `slam-line slam-${kind}`;
      line.setAttribute('role', 'group');
      line.setAttribute('aria-label', t(`js.${kind}`));
      line.dataset.label = t(`js.${kind}`);
      this.rows.push(slams.map((c) => line.appendChild(callButton(c.code, 'bid slam'))));
      main.append(line);
    }
    if (main.childElementCount) body.append(main);

    const big = parsed.filter((c) => c.kind === 'pass' || c.kind === 'coinche' || c.kind === 'surcoinche');
    if (big.length) {
      const bar = document.createElement('div');
      bar.className = 'bid-big';
      for (const c of big) bar.append(callButton(c.code, `big call-${c.kind}`));
      body.append(bar);
    }
    for (const row of this.rows) for (const b of row) b.tabIndex = -1;
    for (const row of this.rows.slice(1)) {
      const first = row.find((b) => !b.disabled);
      if (first) first.tabIndex = 0;
    }
    this.value = null;
    if (values.length) this.choose(values[0]);
  }

  /** Chooses bid value `v`: the trumps row becomes the calls of that value. */
  choose(v) {
    this.value = v;
    for (const b of this.rows[0]) {
      const on = Number(b.dataset.value) === v;
      b.setAttribute('aria-checked', String(on));
      b.tabIndex = on ? 0 : -1;
    }
    for (const b of this.trumpButtons) {
      const code = `${v}${b.dataset.trump}`;
      const legal = this.bids.some((c) => c.code === code);
      name(b, code);
      b.disabled = !legal;
    }
    const row = this.trumpButtons;
    if (row.length && !row.some((b) => b.tabIndex === 0 && !b.disabled)) {
      const keep = row.findIndex((b) => b.tabIndex === 0);
      for (const b of row) b.tabIndex = -1;
      const next = nearest(row, Math.max(keep, 0));
      if (next) next.tabIndex = 0;
    }
  }

  /** Moves the focus (and the row's tab stop) to `b`. */
  go(b) {
    if (!b) return;
    const row = this.rows.find((r) => r.includes(b));
    if (row) for (const x of row) x.tabIndex = x === b ? 0 : -1;
    if (row === this.rows[0] && this.trumpButtons.length) this.choose(Number(b.dataset.value));
    b.focus();
  }

  click(e) {
    const value = e.target.closest('button.bid-value-choice');
    if (value) {
      this.go(value);
      // from the keyboard (no pointer: detail 0), the value chosen, on to the trumps
      if (e.detail === 0) {
        const row = this.trumpButtons;
        this.go(row.find((b) => b.tabIndex === 0 && !b.disabled) || nearest(row, 0));
      }
      return;
    }
    const b = e.target.closest('button.call');
    if (b && this.body.contains(b) && !b.disabled) this.onCall(b.dataset.call);
  }

  keydown(e) {
    const here = e.target;
    const r = this.rows.findIndex((row) => row.includes(here));
    if (r < 0) return;
    const row = this.rows[r];
    const i = row.indexOf(here);
    const enabled = row.filter((b) => !b.disabled);
    const k = enabled.indexOf(here);
    let next = null;
    if (e.key === 'ArrowRight') next = enabled[Math.min(k + 1, enabled.length - 1)];
    else if (e.key === 'ArrowLeft') next = enabled[Math.max(k - 1, 0)];
    else if (e.key === 'Home') next = enabled[0];
    else if (e.key === 'End') next = enabled[enabled.length - 1];
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      for (let j = r + step; j >= 0 && j < this.rows.length && !next; j += step) {
        const other = this.rows[j];
        const stop = other.find((b) => b.tabIndex === 0 && !b.disabled);
        // same column where the rows share their columns (trumps, capot, générale)
        next = j > 0 && r > 0 ? nearest(other, i) : stop || nearest(other, 0);
      }
      next = next || here;
    } else {
      return;
    }
    e.preventDefault();
    if (next) this.go(next);
  }

  focus() {
    const pass = this.body.querySelector('button[data-call="pass"]');
    (pass || this.body.querySelector('button:not(:disabled)'))?.focus({ preventScroll: true });
  }

  /** Marks the call a hint names (its value chosen first, for a bid). */
  mark(code) {
    const c = parseCall(code);
    if (c.kind === 'bid' && this.rows.length && this.value !== c.value) this.choose(c.value);
    for (const b of this.body.querySelectorAll('button.call')) b.classList.toggle('hinted', b.dataset.call === code);
    const b = this.body.querySelector(`button[data-call="${CSS.escape(code)}"]`);
    b?.scrollIntoView({ block: 'nearest' });
  }
}
