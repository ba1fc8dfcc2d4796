// The ARIA live region (#live, polite): one sentence at a time, each in its own paragraph
// and its own moment, so that a screen reader says every call and card in turn.

const region = document.getElementById('live');
const GAP_MS = 450;
const queue = [];
let timer = null;
let quietAt = 0;

function pump() {
  if (timer !== null || queue.length === 0) return;
  const wait = Math.max(0, quietAt - performance.now());
  timer = setTimeout(() => {
    timer = null;
    const text = queue.shift();
    if (text) {
      const p = document.createElement('p');
      p.textContent = text;
      region.replaceChildren(p);
      quietAt = performance.now() + GAP_MS;
    }
    pump();
  }, wait);
}

/** Say `text` after what is already waiting. */
export function say(text) {
  if (!text || !region) return;
  if (queue[queue.length - 1] === text) return;
  queue.push(text);
  pump();
}

/** Say `text` now, dropping what was waiting (answers to a key pressed on demand). */
export function sayNow(text) {
  if (!text || !region) return;
  queue.length = 0;
  if (timer !== null) {
    clearTimeout(timer);
    timer = null;
  }
  quietAt = 0;
  queue.push(text);
  pump();
}
