// The solo table: the entry point that wires the connection (connection.js: the WebSocket
// /ws/table/{id}, reconnections with `since`, requests kept until answered), the table's
// state (table_state.js: the last state, its seq, the player's pending requests) and the
// drawing (table_view.js). The server is authoritative: this page shows what it sends,
// offers only the actions of `legal_actions`, and sends one of those records back as is.

import { Connection } from './connection.js';
import { TableState } from './table_state.js';
import { TableView } from './table_view.js';

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

connection = new Connection(`/ws/table/${encodeURIComponent(root.dataset.tableId)}`, {
  lastSeq: () => table.seq,
  onMessage(message) {
    if (message.type === 'state') {
      view.draw(table.apply(message));
    } else if (message.type === 'ack') {
      table.acked(message.id, message.seq);
    } else if (message.type === 'error') {
      const entry = table.answered(message.id);
      view.showError(message, entry && entry.request);
    } else if (message.type === 'hint') {
      // a hint answers the table as it was asked of; once the table has moved on it is stale
      const entry = table.answered(message.id);
      if (entry && entry.seq === table.seq) view.showHint(message);
    }
  },
  onUp: () => view.online(),
  onDown: () => view.offline(),
  onGone: () => view.gone(),
});
connection.connect();
