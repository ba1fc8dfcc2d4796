// The coach's box: the tip the server sends at the person's turn (a `coach` message, their
// seat's only), shown above their hand and said to the live region. Loaded with its
// stylesheet when the first tip comes. The box stands in the bottom of the table, which
// grows by its height (bottom_place.js measures it): the trick, the seats and the bidding
// box move up and nothing lies under it.

import { say } from './live.js';

export class CoachBox {
  constructor(root, toggle) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/static/css/coach.css';
    document.head.append(link);
    this.seq = null;
    const box = (this.box = document.createElement('section'));
    box.className = 'coach';
    box.id = 'coach';
    box.hidden = true;
    box.setAttribute('aria-labelledby', 'coach-title');
    box.innerHTML =
      '<h2 id="coach-title" class="coach-title"></h2>' +
      '<div class="coach-body" tabindex="0"><p class="coach-trick"></p><p class="coach-text"></p></div>' +
      '<button type="button" class="coach-close">×</button>';
    box.querySelector('h2').textContent = toggle.textContent.trim();
    const close = box.querySelector('button');
    close.setAttribute('aria-label', toggle.dataset.close);
    close.addEventListener('click', () => this.hide());
    root.querySelector('.bottom-bar').before(box);
  }

  /** The tip of the turn at `message.seq`: shown and said, unless the table is at `seq`
   * past it already (the person played before it came). */
  show(message, seq) {
    if (message.seq !== seq) return;
    this.seq = seq;
    for (const part of ['trick', 'text']) {
      const el = this.box.querySelector(`.coach-${part}`);
      el.textContent = message[part] || '';
      el.hidden = !message[part];
    }
    this.box.hidden = false;
    say([message.trick, message.text].filter(Boolean).join(' '));
  }

  /** The table is at `seq`: the box goes once the turn of its tip is over. */
  turn(seq) {
    if (this.seq !== null && this.seq !== seq) this.hide();
  }

  /** The person closed the box, or switched the coach off: the box goes. */
  hide() {
    this.seq = null;
    this.box.hidden = true;
  }
}
