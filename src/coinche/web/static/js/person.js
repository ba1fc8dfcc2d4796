// A signed-in person's socket, on every page (`/ws/me`): the invitations waiting for them
// show in a banner with "Accepter" (which seats them at the seat offered, in one press) and
// "Refuser" (real forms: the server answers them), and
// every message is passed on to the page (`coinche:person` events; quick play's wait
// listens), and a tournament's round under way takes its entrant to their table. While it is open the person shows as online to their friends.

const banner = document.getElementById('invitations');
let retry = 1000;

const showInvitations = (list) => {
  banner.replaceChildren();
  for (const invitation of list) {
    const item = document.createElement('form');
    item.method = 'post';
    item.action = `/invitations/${encodeURIComponent(invitation.id)}`;
    item.className = 'invitation';
    const text = document.createElement('p');
    const words = invitation.seat ? banner.dataset.textSeat.replace('{seat}', invitation.seat) : banner.dataset.text;
    text.textContent = words.replace('{name}', invitation.from);
    const csrf = document.createElement('input');
    Object.assign(csrf, { type: 'hidden', name: 'csrf', value: banner.dataset.csrf });
    item.append(text, csrf);
    for (const [value, label, style] of [
      ['accept', banner.dataset.accept, 'primary'],
      ['decline', banner.dataset.decline, 'secondary'],
    ]) {
      const button = document.createElement('button');
      Object.assign(button, { type: 'submit', name: 'action', value, className: `${style} small` });
      button.textContent = label;
      item.append(button);
    }
    banner.append(item);
  }
  banner.hidden = list.length === 0;
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
    if (message.type === 'invitations' && Array.isArray(message.list)) showInvitations(message.list);
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
