// What a call says: the player taps a call of the auction's table (or presses 7 for the
// last one) and the server answers what it says in the table's rules and what the expert
// reads into it (GET /table/{id}/donne/{n}/encheres). The page only shows the answer: it
// reads no call itself. A person's call is read once the deal is over. Loaded at the first
// question (most players never ask).

import { t, esc, callName } from './words.js';
import { sayNow } from './live.js';

export class CallMeanings {
  /** `panel`: the box the answer shows in; `state()`: the table's last state; `names()`:
   * the seats' names as the player says them. */
  constructor(panel, state, names) {
    this.panel = panel;
    this.state = state;
    this.names = names;
    this.text = panel.querySelector('.call-meaning-text');
    panel.querySelector('.call-meaning-close').addEventListener('click', () => this.close());
  }

  close() {
    this.panel.hidden = true;
  }

  /** Reads the last call of the deal in progress. */
  askLast() {
    const s = this.state();
    if (!s || !s.game || !s.game.deal.calls.length) {
      sayNow(t('js.meaning.none'));
      return;
    }
    this.ask(s.game.deal.calls.length - 1);
  }

  /** Reads call `index` of the deal in progress. */
  async ask(index) {
    const s = this.state();
    if (!s || !s.game) return;
    const url = `/table/${encodeURIComponent(s.table.id)}/donne/${s.game.deal_number}/encheres`;
    let data;
    try {
      const answer = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!answer.ok) throw new Error(String(answer.status));
      data = await answer.json();
    } catch {
      this.show(`<p>${esc(t('js.meaning.failed'))}</p>`, t('js.meaning.failed'));
      return;
    }
    const m = data.calls && data.calls[index];
    if (!m) return;
    const who = `${callName(m.call)} (${this.names()[m.seat]})`;
    if (m.later) {
      this.show(`<p><strong>${esc(who)}</strong></p><p>${esc(m.later)}</p>`, `${who}. ${m.later}`);
      return;
    }
    const lines = m.expert.map((line) => `<li>${esc(line)}</li>`).join('');
    this.show(
      `<p><strong>${esc(who)}</strong></p><p>${esc(m.said)}</p><p>${esc(data.heading)}</p><ul>${lines}</ul>`,
      `${who}. ${m.said}. ${data.heading} ${m.expert.join('. ')}`,
    );
  }

  show(html, spoken) {
    this.text.innerHTML = html;
    this.panel.hidden = false;
    // the panel stands in the auction's history, folded on a small screen (the key 7 asks
    // from anywhere): the answer asked for is shown
    const history = this.panel.closest('details');
    if (history) history.open = true;
    sayNow(spoken);
  }
}
