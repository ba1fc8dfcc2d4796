// The solo table: the entry point that wires the connection (connection.js: the WebSocket
// /ws/table/{id}, reconnections with `since`, requests kept until answered), the table's
// state (table_state.js: the last state, its seq, the player's pending requests) and the
// drawing (table_view.js). The server is authoritative: this page shows what it sends,
// offers only the actions of `legal_actions`, and sends one of those records back as is.

import { Connection } from './connection.js';
import { TableState } from './table_state.js';
import { TableView } from './table_view.js';
import { keepBottomInPlace } from './bottom_place.js';

const root = document.getElementById('table');
const table = new TableState();
let connection = null;

const view = new TableView(root, table, {
  /** One of `legal_actions`; nothing while the player's previous request waits. */
  act(record) {
    if (!record || !table.state || table.busy) return;
    table.mark(connection.request('action', { action: record }));
  },
  nextDeal() {
    if (table.busy) return false;
    table.mark(connection.request('next_deal'));
    return true;
  },
  hint() {
    if (table.hinting) return;
    table.mark(connection.request('hint'));
  },
});
keepBottomInPlace(root);

/** The coach's switch (kept per person) and box (coach.js, loaded with the first tip). */
const coachButton = document.getElementById('coach-button');
let coach = null;
coachButton?.addEventListener('click', () => {
  const on = coachButton.ariaPressed !== 'true';
  coachButton.ariaPressed = String(on);
  connection.request('coach', { on });
  coach?.then((box) => box.hide());
});

/** A friends' table's lobby, presence, quick messages and leaving (null at a solo table). */
const friends =
  root.dataset.friends === undefined
    ? null
    : new (await import('./friends_view.js')).FriendsView(root, table, {
        say(phrase) {
          table.mark(connection.request('say', { phrase }));
        },
        react(emote) {
          table.mark(connection.request('react', { emote }));
        },
        sit(seat) {
          table.mark(connection.request('sit', { seat }));
        },
        host(op, fields = {}) {
          table.mark(connection.request('host', { op, ...fields }));
        },
        leave() {
          table.mark(connection.request('leave'));
        },
      });

/** The sounds (your turn, a card, a trick): off unless switched on, the choice kept in
 * the browser; their module is loaded only once they are on. */
const soundButton = document.getElementById('sound-button');
let sounds = null;
const soundsOn = () => soundButton?.getAttribute('aria-pressed') === 'true';
const setSounds = async (on, pressed) => {
  soundButton.setAttribute('aria-pressed', String(on));
  if (!on) return;
  sounds = sounds || (await import('./sounds.js'));
  if (pressed) sounds.unlock();
};
if (soundButton) {
  let kept = false;
  try {
    kept = localStorage.getItem('coinche.sounds') === 'on';
  } catch {
    // no storage: off
  }
  setSounds(kept);
  soundButton.addEventListener('click', () => {
    const on = !soundsOn();
    try {
      localStorage.setItem('coinche.sounds', on ? 'on' : 'off');
    } catch {
      // a choice for this page only
    }
    setSounds(on, true);
  });
}

/** Leaves the page for the home page once the player has left the table (once: the
 * leave's answer and the closed connection both ask, and a second navigation would cut
 * the first short). */
let goingHome = false;
const goHome = () => {
  if (goingHome) return;
  goingHome = true;
  location.assign('/');
};

/** A watcher's page: the table as a fifth person sees it, no hand and nothing to do. */
const watching = root.dataset.watch !== undefined;
const watchers = document.getElementById('watchers');
const showWatchers = (count) => {
  if (!watchers || typeof count !== 'number') return;
  watchers.textContent = (count === 1 ? watchers.dataset.one : watchers.dataset.many).replace('{count}', String(count));
  watchers.hidden = count === 0;
};

const socketPath = watching ? '/ws/watch/' : '/ws/table/';
connection = new Connection(`${socketPath}${encodeURIComponent(root.dataset.tableId)}`, {
  lastSeq: () => table.seq,
  onMessage(message) {
    if (message.type === 'state' || message.type === 'step') {
      const prev = table.apply(message);
      coach?.then((box) => box.turn(table.seq));
      // before a friends' table starts there is no game: its lobby shows the seats
      const lobby = table.state.game === null;
      if (!lobby) view.draw(prev && prev.game ? prev : null);
      if (friends) friends.draw(prev, lobby);
      if (!lobby && sounds && soundsOn()) sounds.after(prev && prev.game ? prev : null, table.state);
    } else if (message.type === 'presence') {
      if (table.state && Array.isArray(message.seats)) {
        table.state.table.seats = message.seats;
        friends?.presence();
      }
      showWatchers(message.watchers);
    } else if (message.type === 'say') {
      friends?.showSay(message);
    } else if (message.type === 'react') {
      friends?.showReaction(message);
    } else if (message.type === 'notice') {
      friends?.showNotice(message);
    } else if (message.type === 'clock') {
      friends?.showClock(message);
    } else if (message.type === 'ack') {
      const request = table.acked(message.id, message.seq);
      if (request && request.type === 'leave') goHome();
    } else if (message.type === 'error') {
      const entry = table.answered(message.id);
      view.showError(message, entry && entry.request);
    } else if (message.type === 'coach') {
      coach ??= import('./coach.js').then((m) => new m.CoachBox(root, coachButton));
      coach.then((box) => box.show(message, table.seq));
    } else if (message.type === 'hint') {
      // a hint answers the table as it was asked of; once the table has moved on it is stale
      const entry = table.answered(message.id);
      if (entry && entry.seq === table.seq) view.showHint(message);
    }
  },
  onUp: () => view.online(),
  onDown: () => view.offline(),
  onRestart: () => view.restarting(),
  onFull: () => view.tooMany(),
  onGone: () => (friends && friends.leaving ? goHome() : view.gone()),
});
connection.connect();
