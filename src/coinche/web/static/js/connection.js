// The table's WebSocket (docs/protocol.md): connecting, and connecting again after a drop
// with a growing wait and `?since=<the last seq the page has>` so that only the missing
// steps come; the stream kept in order (a step already had is dropped, a gap, or a step
// with no state before it, makes a new connection with `since`); requests numbered with this page's own prefix, each kept until
// its `ack`, `error` or `hint` comes and sent again, with the same id, after a reconnection.
// A restarting server says so and closes (4012): the page connects again at once.

// A test may shorten the waits with `window.coincheTestWaits = {first, max}` set before the
// page loads (a browser test's init script); no page of the site sets it.
const TEST_WAITS = globalThis.coincheTestWaits ?? {};
const FIRST_WAIT_MS = TEST_WAITS.first ?? 400;
const MAX_WAIT_MS = TEST_WAITS.max ?? 8000;
/** The server's close code for a table that does not exist or has no seat for the visitor. */
export const TABLE_GONE = 4404;
/** The page's own close code when it leaves a connection that skipped steps. */
const GAP = 4000;
/** Too many connections of the player to the table: try again later. */
const TOO_MANY = 1013;
/** The server's close code when it restarts: connect again at once. */
const RESTARTING = 4012;
/** Then short waits, if the next process is not up yet, before it counts as a drop. */
const RESTART_TRIES = 6;

/** A random prefix for this page load's request ids (letters and digits, as the protocol
 * allows): two pages of the same seat never share an id. */
function randomPrefix() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Connection {
  /**
   * `path`: the socket's path (`/ws/table/{id}`). `lastSeq()`: the last seq the page has
   * (null before the first state). `onMessage(message)`: every message, in order.
   * `onUp()`, `onDown()`: the connection opened, or dropped (another attempt will follow);
   * `onGone()`: the server closed with 4404 (no other attempt); `onRestart()`: it restarts;
   * `onFull()`: 1013 (tries again later).
   */
  constructor(
    path,
    { lastSeq, onMessage, onUp = () => {}, onDown = () => {}, onGone = () => {}, onRestart = onDown, onFull = onDown },
  ) {
    this.path = path;
    this.lastSeq = lastSeq;
    this.onMessage = onMessage;
    this.onUp = onUp;
    this.onDown = onDown;
    this.onGone = onGone;
    this.onRestart = onRestart;
    this.onFull = onFull;
    this.restarting = 0; // tries left after a restart
    this.told = false; // the server said `restarting`
    this.socket = null;
    this.attempts = 0;
    this.timer = null;
    this.gone = false;
    this.prefix = randomPrefix();
    this.counter = 0;
    /** Requests sent and not answered yet, by id, in the order they were made. */
    this.outbox = new Map();
    window.addEventListener('online', () => {
      if (this.timer === null) return;
      clearTimeout(this.timer);
      this.timer = null;
      this.connect();
    });
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const seq = this.lastSeq();
    const query = typeof seq === 'number' ? `?since=${seq}` : '';
    return `${scheme}//${location.host}${this.path}${query}`;
  }

  connect() {
    if (this.gone) return;
    const ws = new WebSocket(this.url());
    this.socket = ws;
    this.told = false;
    ws.addEventListener('open', () => {
      if (ws !== this.socket) return;
      for (const message of this.outbox.values()) ws.send(JSON.stringify(message));
      this.onUp();
    });
    ws.addEventListener('message', (e) => {
      if (ws === this.socket) this.receive(e.data);
    });
    ws.addEventListener('close', (e) => {
      if (ws !== this.socket) return;
      this.socket = null;
      if (e.code === TABLE_GONE) {
        this.gone = true;
        this.outbox.clear();
        this.onGone();
        return;
      }
      if (e.code === TOO_MANY) {
        this.onFull();
        return this.later(Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** this.attempts++));
      }
      if (e.code === RESTARTING || this.told || this.restarting) {
        this.onRestart();
        if (!this.restarting) {
          this.restarting = RESTART_TRIES;
          this.connect();
          return;
        }
        if (--this.restarting) return this.later(2 * FIRST_WAIT_MS);
      }
      this.onDown();
      this.later(Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** this.attempts++));
    });
  }

  /** Connects again in about `wait` ms. */
  later(wait) {
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.connect();
      },
      wait * (0.8 + 0.4 * Math.random()),
    );
  }

  /** Sends a request of `type` with `fields`, under a new id; returns the message sent (or
   * to be sent once the connection is back). */
  request(type, fields = {}) {
    const id = `${this.prefix}-${type[0]}${++this.counter}`;
    const message = { type, id, ...fields };
    this.outbox.set(id, message);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    return message;
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!message || typeof message !== 'object') return;
    this.attempts = 0; // the server answers: the next drop starts waiting afresh
    if (message.type === 'restarting') return void (this.told = true); // its close follows
    this.restarting = 0;
    if ((message.type === 'state' && !message.full) || message.type === 'step') {
      const have = this.lastSeq();
      if (typeof message.seq !== 'number') return;
      if (typeof have === 'number' && message.seq <= have) return; // a step the page already has
      if (typeof have === 'number' ? message.seq > have + 1 : message.type === 'step') {
        this.resume(); // steps are missing before this one: ask for them
        return;
      }
    }
    if ((message.type === 'ack' || message.type === 'error' || message.type === 'hint') && typeof message.id === 'string') {
      this.outbox.delete(message.id);
    }
    this.onMessage(message);
  }

  /** Leaves this connection for a new one at once, with `since`. */
  resume() {
    const ws = this.socket;
    this.socket = null;
    if (ws) ws.close(GAP, 'gap');
    this.connect();
  }
}
