// A part of a page kept live (the open tables' list, a tournament's standings): its socket
// only says "changed"; the part's HTML is fetched again from the server, which renders it
// (this page never builds a row itself). The part names both: `data-source` (the HTML)
// and `data-socket` (the socket's path).

const part = document.querySelector('[data-socket]');
let retry = 500;

const reload = async () => {
  try {
    const response = await fetch(part.dataset.source, { credentials: 'same-origin' });
    if (!response.ok) return;
    const html = await response.text();
    const focused = document.activeElement && part.contains(document.activeElement);
    part.innerHTML = html;
    if (focused) part.querySelector('button, a')?.focus();
  } catch {
    // offline a moment: the next change reloads it
  }
};

const connect = () => {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}${part.dataset.socket}`);
  socket.addEventListener('open', () => {
    // what changed between the page's rendering (or a cut) and this socket's start
    reload();
    retry = 500;
  });
  socket.addEventListener('message', reload);
  socket.addEventListener('close', () => {
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
};
if (part) connect();
