// A signed-in person's socket, on every page (`/ws/me`): the invitations to a table and
// the partner requests for a tournament waiting for them show in a banner with "Accepter"
// (an invitation's seats them at the seat offered, in one press) and "Refuser" (real
// forms: the server answers them), and
// every message is passed on to the page (`coinche:person` events; quick play's wait
// listens), and a tournament's round under way takes its entrant to their table. While it is open the person shows as online to their friends.

const banner = document.getElementById('invitations');
let retry = 1000;

let invitations = [];
let partners = [];

// One request to answer: its words, "Accepter" and "Refuser" posted to `action` with `fields`.
const answerForm = (action, words, fields) => {
  const item = document.createElement('form');
  item.method = 'post';
  item.action = action;
  item.className = 'invitation';
  const text = document.createElement('p');
  text.textContent = words;
  item.append(text);
  for (const [name, value] of Object.entries({ csrf: banner.dataset.csrf, ...fields })) {
    const input = document.createElement('input');
    Object.assign(input, { type: 'hidden', name, value });
    item.append(input);
  }
  for (const [value, label, style] of [
    ['accept', banner.dataset.accept, 'primary'],
    ['decline', banner.dataset.decline, 'secondary'],
  ]) {
    const button = document.createElement('button');
    Object.assign(button, { type: 'submit', name: 'action', value, className: `${style} small` });
    button.textContent = label;
    item.append(button);
  }
  return item;
};

// The table invitations, then the partner requests (answered on the tournament's page).
const showBanner = () => {
  banner.replaceChildren();
  for (const invitation of invitations) {
    const words = invitation.seat ? banner.dataset.textSeat.replace('{seat}', invitation.seat) : banner.dataset.text;
    const text = words.replace('{name}', invitation.from);
    banner.append(answerForm(`/invitations/${encodeURIComponent(invitation.id)}`, text, {}));
  }
  for (const request of partners) {
    if (typeof request.url === 'string' && request.url.startsWith('/')) {
      banner.append(answerForm(request.url, request.text, { entry: request.entry }));
    }
  }
  banner.hidden = banner.childElementCount === 0;
};

// A tournament's round started: its entrant is taken to their table from any page, once
// per table (they may come back to the standings meanwhile).
const goToTournamentTable = (table) => {
  if (typeof table !== 'string' || !table.startsWith('/table/')) return;
  if (location.pathname === table) return;
  const key = `coinche-taken:${table}`;
  if (sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, '1');
  location.assign(table);
};

const connect = () => {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me`);
  socket.addEventListener('open', () => {
    retry = 1000;
  });
  socket.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'invitations' && Array.isArray(message.list)) {
      invitations = message.list;
      showBanner();
    }
    if (message.type === 'partners' && Array.isArray(message.list)) {
      partners = message.list;
      showBanner();
    }
    if (message.type === 'tournament') goToTournamentTable(message.table);
    window.dispatchEvent(new CustomEvent('coinche:person', { detail: message }));
  });
  socket.addEventListener('close', (event) => {
    if (event.code === 4404) return; // not signed in (any more)
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
};
if (banner) connect();
