// Reactions at a table of several people (loaded when the first one is shown): the
// emote as a badge over the sender's name plate for a few seconds. The emotes are the
// server's fixed set; the page shows the symbol the server sent, as text.

const SHOWN_MS = 3500;
const timers = new Map();

/** Shows `symbol` over `plate` (an element of the page), then takes it away. */
export function showReaction(plate, seat, symbol) {
  let badge = plate.querySelector(':scope > .reaction');
  if (!badge) {
    badge = document.createElement('span');
    badge.className = 'reaction';
    badge.setAttribute('aria-hidden', 'true');
    plate.append(badge);
  }
  badge.textContent = symbol;
  badge.hidden = false;
  badge.classList.remove('pop');
  void badge.offsetWidth; // restarts the animation
  badge.classList.add('pop');
  clearTimeout(timers.get(seat));
  timers.set(
    seat,
    setTimeout(() => {
      badge.hidden = true;
    }, SHOWN_MS),
  );
}
