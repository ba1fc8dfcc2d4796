// The ARIA live region (#live, polite): each sentence in a paragraph of its own, added at
// once, when the table draws what it tells (a screen reader reads the additions in the
// order they come, each once). The region keeps the last few paragraphs only.

const region = document.getElementById('live');
const KEEP = 6;

function add(text) {
  const p = document.createElement('p');
  p.textContent = text;
  region.append(p);
  while (region.childElementCount > KEEP) region.firstElementChild.remove();
}

/** Say `text` now, after what was said before. */
export function say(text) {
  if (!text || !region) return;
  add(text);
}

/** Say `text` now, alone (answers to a key pressed on demand). */
export function sayNow(text) {
  if (!text || !region) return;
  region.replaceChildren();
  add(text);
}
