// The table as this page knows it: the last `state` the server sent (with the `step`s that
// came after it applied), the seq it includes, and the player's own requests still waiting
// for their answer (docs/protocol.md). No DOM, no socket, no rule of the game: a step says
// what changed, and the helpers below only read what the server sent.

import { parseCall } from './words.js';

export const gameOver = (s) => s.over === true || (s.game.winner !== null && s.game.winner !== undefined);
export const playing = (s) => s.game.deal.phase !== 'done' && !s.awaiting_next_deal && !gameOver(s);

/** The server's `legal_actions` of a deal view, sorted by kind (cards by code, since a
 * card may come twice: with and without its belote announcement). */
export function legalOf(d) {
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

/** The last bid (or capot, générale) of the calls made so far, with its index. */
export function bestBid(calls) {
  for (let i = calls.length - 1; i >= 0; i--) {
    const kind = parseCall(calls[i].call).kind;
    if (kind === 'bid' || kind === 'capot' || kind === 'generale') return { ...calls[i], index: i };
  }
  return null;
}

/** Changes when whose turn it is, or what the player may do, changes. */
export function turnKey(s) {
  const d = s.game.deal;
  return `${s.game.deal_number}:${d.phase}:${d.calls.length}:${d.tricks.length}:${d.trick.length}:${(d.legal_actions || []).length}`;
}

/** The state a `step` makes of the state of the step before it: a new object (the page
 * compares the two to animate), sharing what the step does not change. Each change of
 * `set` is `[path, value]`: the value at that path (a list's next index appends). */
export function applyStep(state, step) {
  const out = { ...state, type: 'state', seq: step.seq, full: false, last: step.last };
  for (const [path, value] of step.set) {
    let node = out;
    for (const key of path.slice(0, -1)) {
      const child = Array.isArray(node[key]) ? [...node[key]] : { ...node[key] };
      node[key] = child;
      node = child;
    }
    node[path[path.length - 1]] = value;
  }
  return out;
}

/** Requests that change the table: while one waits, the player may not send another. */
const CHANGES = new Set(['action', 'next_deal']);

export class TableState {
  constructor() {
    /** The last `state` message, null before the first. */
    this.state = null;
    /** The table's seq that state includes (null before the first, or from a server that
     * sends none). */
    this.seq = null;
    /** The player's requests by id: `{request, seq, doneAt}`; `seq` is the table's seq when
     * it was sent, `doneAt` the seq its `ack` named (it stays until that state is here). */
    this.pending = new Map();
  }

  /** Takes a `state` or a `step` message (in order: the connection drops old ones and
   * fills gaps, so a step follows the state it changes); returns the state it replaces. */
  apply(message) {
    const prev = this.state;
    this.state = message.type === 'step' ? applyStep(prev, message) : message;
    if (typeof message.seq === 'number') this.seq = message.seq;
    for (const [id, entry] of this.pending) {
      if (entry.doneAt !== undefined && (this.state.full || (this.seq !== null && entry.doneAt <= this.seq))) this.pending.delete(id);
    }
    return prev;
  }

  /** A request the page has just sent (it carries its `id`). */
  mark(request) {
    this.pending.set(request.id, { request, seq: this.seq });
  }

  /** The `ack` of one of the player's requests: the request is done once the state of
   * `seq` is here (the ack may come before it). Another seat's move never settles it. */
  acked(id, seq) {
    const entry = this.pending.get(id);
    if (!entry) return null;
    if (typeof seq === 'number' && this.seq !== null && seq > this.seq) entry.doneAt = seq;
    else this.pending.delete(id);
    return entry.request;
  }

  /** An `error` or a `hint` that answers one of the player's requests: it is settled; the
   * request and the table's seq when it was sent, or null when the id is not one of ours. */
  answered(id) {
    const entry = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!entry) return null;
    this.pending.delete(id);
    return entry;
  }

  /** An action or a next deal of the player's is waiting for its answer. */
  get busy() {
    for (const entry of this.pending.values()) if (CHANGES.has(entry.request.type)) return true;
    return false;
  }

  /** A hint asked and not answered yet. */
  get hinting() {
    for (const entry of this.pending.values()) if (entry.request.type === 'hint') return true;
    return false;
  }
}
