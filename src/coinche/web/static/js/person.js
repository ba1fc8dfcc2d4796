// A signed-in person's socket, on every page (`/ws/me`): the invitations waiting for them
// show in a banner with "Accepter" and "Refuser" (real forms: the server answers them), and
// every message is passed on to the page (`coinche:person` events; quick play's wait
// listens). While it is open the person shows as online to their friends.

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
    text.textContent = banner.dataset.text.replace('{name}', invitation.from);
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
    window.dispatchEvent(new CustomEvent('coinche:person', { detail: message }));
  });
  socket.addEventListener('close', (event) => {
    if (event.code === 4404) return; // not signed in (any more)
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
};
if (banner) connect();
