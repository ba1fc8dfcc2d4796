// The bidding box: one real button per legal call the server listed (never more), laid
// out as a grid of values (rows) by trumps (columns), then capot and générale by trump,
// then large Passe / Coinche / Surcoinche. Tab walks every button; the arrow keys move
// in two dimensions; Home / End go to the ends of a row.

import { t, parseCall, callName, callVisual, TRUMPS } from './words.js';

function button(code, cls) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `call ${cls}`;
  b.dataset.call = code;
  b.setAttribute('aria-label', callName(code));
  b.innerHTML = `<span aria-hidden="true">${callVisual(code)}</span>`;
  return b;
}

/** Builds the box's body for `calls` (codes of record notation); `onCall(code)` on a press.
 * Returns the buttons by row, for the arrow keys. */
function build(body, calls, onCall) {
  const parsed = calls.map((code) => ({ code, ...parseCall(code) }));
  const bids = parsed.filter((c) => c.kind === 'bid');
  const columns = TRUMPS.filter((tr) => parsed.some((c) => c.trump === tr));
  const values = [...new Set(bids.map((c) => c.value))].sort((a, b) => a - b);
  const rows = [];
  body.replaceChildren();

  const main = document.createElement('div');
  main.className = 'bid-main';
  if (columns.length) {
    const grid = document.createElement('div');
    grid.className = 'bid-grid';
    main.style.setProperty('--cols', String(columns.length));
    for (const v of values) {
      const row = [];
      for (const tr of columns) {
        const c = bids.find((x) => x.value === v && x.trump === tr);
        if (c) {
          const b = button(c.code, 'bid');
          row.push(b);
          grid.append(b);
        } else {
          row.push(null);
          grid.append(Object.assign(document.createElement('span'), { className: 'bid-gap' }));
        }
      }
      rows.push(row);
    }
    if (values.length) main.append(grid);
    for (const kind of ['capot', 'generale']) {
      const slams = columns.map((tr) => parsed.find((c) => c.kind === kind && c.trump === tr)).filter(Boolean);
      if (!slams.length) continue;
      const line = document.createElement('div');
      line.className = `slam-line slam-${kind}`;
      line.dataset.label = t(`js.${kind}`);
      rows.push(slams.map((c) => line.appendChild(button(c.code, 'bid slam'))));
      main.append(line);
    }
  }
  if (main.childElementCount) body.append(main);

  const big = parsed.filter((c) => c.kind === 'pass' || c.kind === 'coinche' || c.kind === 'surcoinche');
  if (big.length) {
    const bar = document.createElement('div');
    bar.className = 'bid-big';
    const row = big.map((c) => {
      const b = button(c.code, `big call-${c.kind}`);
      bar.append(b);
      return b;
    });
    rows.push(row);
    body.append(bar);
  }

  body.onclick = (e) => {
    const b = e.target.closest('button.call');
    if (b && body.contains(b)) onCall(b.dataset.call);
  };
  const buttons = rows.flat().filter(Boolean);
  body.onkeydown = (e) => move(e, buttons);
  return rows;
}

const centre = (el) => {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, h: r.height };
};

/** Arrow keys by what is seen: the nearest button in that direction (the box is laid out
 * differently on a desktop and on a phone); Home / End: the ends of the visual row. */
function move(e, buttons) {
  const here = e.target;
  if (!buttons.includes(here)) return;
  const c = centre(here);
  const others = buttons.filter((b) => b !== here && b.isConnected);
  let next = null;
  if (e.key === 'Home' || e.key === 'End') {
    const row = others.filter((b) => Math.abs(centre(b).y - c.y) < c.h / 2);
    row.push(here);
    row.sort((a, b) => centre(a).x - centre(b).x);
    next = e.key === 'Home' ? row[0] : row[row.length - 1];
  } else {
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[e.key];
    if (!dir) return;
    let best = Infinity;
    for (const b of others) {
      const o = centre(b);
      const along = (o.x - c.x) * dir[0] + (o.y - c.y) * dir[1];
      if (along <= 2) continue;
      const across = Math.abs((o.x - c.x) * dir[1]) + Math.abs((o.y - c.y) * dir[0]);
      const score = along + across * 2.5;
      if (score < best) [best, next] = [score, b];
    }
  }
  e.preventDefault();
  if (next && next !== here) next.focus();
}

export class BiddingBox {
  constructor(section, onCall) {
    this.section = section;
    this.body = section.querySelector('.bid-body');
    this.current = section.querySelector('.bid-current');
    this.onCall = onCall;
    this.key = '';
  }

  /** Shows the box for the legal `calls`, or hides it when there are none; `info` is the
   * sentence above the grid (the bid to beat). */
  show(calls, infoHTML) {
    const key = calls.join(' ');
    if (!calls.length) {
      this.section.hidden = true;
      this.key = '';
      return;
    }
    if (key !== this.key) {
      build(this.body, calls, this.onCall);
      this.key = key;
    }
    this.current.innerHTML = infoHTML;
    for (const b of this.body.querySelectorAll('.hinted')) b.classList.remove('hinted');
    this.section.hidden = false;
  }

  focus() {
    const pass = this.body.querySelector('button[data-call="pass"]');
    (pass || this.body.querySelector('button'))?.focus({ preventScroll: true });
  }

  mark(code) {
    for (const b of this.body.querySelectorAll('button.call')) b.classList.toggle('hinted', b.dataset.call === code);
    const b = this.body.querySelector(`button[data-call="${CSS.escape(code)}"]`);
    b?.scrollIntoView({ block: 'nearest' });
  }
}
