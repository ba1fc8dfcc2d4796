// The table's sounds (loaded only once the person switched them on): short tones made
// with the Web Audio API, no audio file. `after(prev, state)` plays what a new state
// brings: the person's turn, a card played, a trick gathered (read from the states the
// server sent, no rule of the game here).

let audio = null;

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  return audio;
}

/** Tones in a row: each `[frequency in Hz, seconds]`, soft attack and release. */
function play(notes, type = 'sine', volume = 0.12) {
  const ctx = context();
  if (!ctx) return;
  let at = ctx.currentTime + 0.01;
  for (const [frequency, seconds] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(volume, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + seconds + 0.02);
    at += seconds * 0.8;
  }
}

export const yourTurn = () => play([[660, 0.12], [880, 0.18]]);
export const cardPlayed = () => play([[320, 0.06]], 'triangle', 0.1);
export const trickGathered = () => play([[520, 0.08], [390, 0.12]], 'triangle', 0.09);

/** The browser lets a page start its sound only after a gesture: the switch's press. */
export const unlock = () => context();

/** The sounds of the change from `prev` to `state` (two states of the table). */
export function after(prev, state) {
  const d = state && state.game && state.game.deal;
  if (!d) return;
  const p = prev && prev.game && prev.game.deal;
  const sameDeal = p && prev.game.deal_number === state.game.deal_number;
  const cards = (x) => x.tricks.length * 4 + x.trick.length;
  if (sameDeal && d.tricks.length > p.tricks.length) trickGathered();
  else if (sameDeal && cards(d) > cards(p)) cardPlayed();
  const mine = (x) => Boolean(x && x.legal_actions && x.legal_actions.length);
  if (mine(d) && !(sameDeal && mine(p) && p.phase === d.phase && cards(p) === cards(d) && p.calls.length === d.calls.length)) yourTurn();
}
