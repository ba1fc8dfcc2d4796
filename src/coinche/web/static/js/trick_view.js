// The trick in the centre of the table: each card in front of the seat that played it; a
// complete trick stays `hold` ms (the server's trick pause, `data-trick-hold` of the table,
// TRICK_HOLD_MS by default) with its winning card marked, then slides to the winner's side
// (COLLECT_MS, shorter in proportion when the hold is); nothing cuts that short: the table
// view draws the next states once `onIdle` tells the hold is over. Also draws the "Dernier
// pli" panel's small trick.

import { t, cardName } from './words.js';
import { cardFace } from './cards.js';

export const POSITIONS = ['north', 'west', 'east', 'south'];
export const TRICK_HOLD_MS = 1000;
export const COLLECT_MS = 280;

/** The hold and the slide of a complete trick for a hold of `holdMs` (the server's setting;
 * tests shorten it): the slide keeps its proportion. */
export function trickTiming(holdMs) {
  const hold = Number.isFinite(holdMs) && holdMs >= 0 ? holdMs : TRICK_HOLD_MS;
  return { hold, collect: Math.round(COLLECT_MS * Math.min(1, hold / TRICK_HOLD_MS)) };
}

/** Draws `cards` (led by seat `leader`) in `container`'s slots; `pos[seat]` is where a seat
 * sits, `names[seat]` its name. A card already in its slot is left alone. */
export function showTrick(container, cards, leader, { pos, names, animate = false }) {
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
    div.setAttribute('aria-label', t('js.played_by', { seat: names[want.seat], card: cardName(want.code) }));
    div.innerHTML = cardFace(want.code);
    slot.replaceChildren(div);
  }
}

export class TrickView {
  constructor(el, timing = trickTiming(TRICK_HOLD_MS)) {
    this.el = el;
    this.timing = timing;
    this.hold = null;
    /** The trick as drawn: `{cards, leader}` (the key "2" reads it). */
    this.shown = { cards: [], leader: 0 };
  }

  /** A complete trick is still on show (or sliding away). */
  get holding() {
    return this.hold !== null;
  }

  cancelHold() {
    if (!this.hold) return;
    clearTimeout(this.hold.timer);
    this.el.classList.remove('collect', ...POSITIONS.map((p) => `to-${p}`));
    this.hold = null;
  }

  /** Draws the trick of state `s`; `trickDone`: this state completed a trick, which then
   * stays on show until `onIdle()` is called. */
  render(s, trickDone, onIdle = () => {}) {
    const d = s.game.deal;
    const seen = { pos: s.table.positions, names: s.table.seat_names };
    if (d.trick.length) {
      this.cancelHold();
      this.shown = { cards: d.trick, leader: d.trick_leader };
      showTrick(this.el, d.trick, d.trick_leader, { ...seen, animate: true });
    } else if (trickDone) {
      this.cancelHold();
      const last = d.tricks[d.tricks.length - 1];
      this.shown = { cards: last.cards, leader: last.leader, winner: last.winner };
      showTrick(this.el, last.cards, last.leader, { ...seen, animate: true });
      const winnerPos = seen.pos[last.winner];
      this.el.querySelector(`.slot-${winnerPos} .card`)?.classList.add('trick-winner');
      const hold = {
        timer: setTimeout(() => {
          this.el.classList.add('collect', `to-${winnerPos}`);
          hold.timer = setTimeout(() => {
            this.el.classList.remove('collect', `to-${winnerPos}`);
            showTrick(this.el, [], 0, seen);
            this.shown = { cards: [], leader: 0 };
            this.el.classList.add('empty');
            this.hold = null;
            onIdle();
          }, this.timing.collect);
        }, this.timing.hold),
      };
      this.hold = hold;
    } else if (!this.hold) {
      this.shown = { cards: [], leader: 0 };
      showTrick(this.el, [], 0, seen);
    }
    this.el.classList.toggle('empty', !this.shown.cards.length);
  }
}
