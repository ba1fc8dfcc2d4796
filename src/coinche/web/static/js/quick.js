// Quick play's wait: the countdown to the moment the computer takes the free seats, and
// the seat found. The person's socket (`/ws/me`) says where they stand whenever it changes;
// this page only shows it and goes to the table. It never decides anything itself.

const wait = document.getElementById('quick-wait');
const seconds = document.getElementById('quick-seconds');
const news = document.getElementById('quick-news');
const words = JSON.parse(document.getElementById('quick-words').textContent);

let deadline = Date.now() + Number(wait.dataset.secondsLeft || 0) * 1000;
let leaving = false;

const tick = () => {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  seconds.textContent = String(left);
};
setInterval(tick, 250);
tick();

const shown = (message) => {
  if (message.type !== 'quick') return;
  if (message.table) {
    leaving = true;
    news.textContent = words.found;
    location.assign(message.table);
  } else if (message.waiting) {
    deadline = Date.now() + Number(message.seconds_left || 0) * 1000;
    tick();
  } else {
    leaving = true; // no longer waiting (stopped in another tab): the page says so
    location.reload();
  }
};

// the person's socket (person.js, on every page) passes on what it hears
window.addEventListener('coinche:person', (event) => shown(event.detail));

document.querySelector('#quick-wait form').addEventListener('submit', () => {
  leaving = true;
});
