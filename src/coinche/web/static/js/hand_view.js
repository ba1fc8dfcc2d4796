// The player's hand: one real button per card, named in words, the legal ones (from the
// server's `legal_actions`) enabled; fanned; the arrow keys, Home and End move along the
// playable cards, Enter or Space plays. Focus stays on the card it was on, or goes to the
// hand when that card leaves it.

import { cardName } from './words.js';
import { cardFace } from './cards.js';

export class HandView {
  /** `box`: the hand's element; `onCard(code)`: a playable card was pressed. */
  constructor(box, onCard) {
    this.box = box;
    box.addEventListener('click', (e) => {
      const b = e.target.closest('button.hand-card');
      if (b && !b.disabled) onCard(b.dataset.card);
    });
    box.addEventListener('keydown', (e) => {
      const cards = this.playable();
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
  }

  playable() {
    return [...this.box.querySelectorAll('button.hand-card:not(:disabled)')];
  }

  focusFirst() {
    this.playable()[0]?.focus({ preventScroll: true });
  }

  /** Marks the card a hint names (and only it). */
  mark(code) {
    for (const b of this.box.children) b.classList.toggle('hinted', b.dataset.card === code);
  }

  /** Draws `hand` (card codes), `legalCards` (a Map by code) enabled. */
  render(hand, legalCards) {
    const box = this.box;
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
      b.disabled = !legalCards.has(code);
      b.classList.remove('hinted');
      const o = i - (n - 1) / 2;
      b.style.setProperty('--r', `${(o * 1.8).toFixed(2)}deg`);
      b.style.setProperty('--y', `${(o * o * 0.9).toFixed(1)}px`);
      b.style.zIndex = String(i + 1);
    });
    box.style.setProperty('--n', String(n));
    box.style.setProperty('--cols', String(n > 4 ? Math.ceil(n / 2) : Math.max(n, 1)));
    box.classList.toggle('my-turn', legalCards.size > 0);
    if (focused && !lostFocus) {
      const b = existing.get(focused);
      if (b && document.activeElement !== b && !b.disabled) b.focus({ preventScroll: true });
    }
    if (lostFocus || (focused && document.activeElement === document.body)) box.focus({ preventScroll: true });
  }
}
