// The list of open tables, kept live: the socket only says "changed"; the list's HTML is
// fetched again from the server, which renders it (this page never builds a row itself).

const list = document.getElementById('open-tables-list');
let retry = 500;

const reload = async () => {
  try {
    const response = await fetch(list.dataset.source, { credentials: 'same-origin' });
    if (!response.ok) return;
    const html = await response.text();
    const focused = document.activeElement && list.contains(document.activeElement);
    list.innerHTML = html;
    if (focused) list.querySelector('button, a')?.focus();
  } catch {
    // offline a moment: the next change reloads it
  }
};

const connect = () => {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws/open-tables`);
  socket.addEventListener('open', () => {
    if (retry > 500) reload(); // back after a cut: what changed meanwhile
    retry = 500;
  });
  socket.addEventListener('message', reload);
  socket.addEventListener('close', () => {
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
};
connect();
