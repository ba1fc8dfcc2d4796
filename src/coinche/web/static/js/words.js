// The table's words: the catalogue the page carries (keys js.*, rank.*, suit.*, call.*,
// trump.*, meld.*, seat.*, level.*), cards, calls and melds in words, and the small
// drawn pieces (suit symbols) that go with them. Nothing here knows a rule of the game.

const catalogue = JSON.parse(document.getElementById('catalogue')?.textContent || '{}');

/** `template`'s `{param}` placeholders filled in (words the server sent with places left). */
export function fill(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** The text of `key`, its `{param}` placeholders filled in. */
export function t(key, params) {
  return fill(catalogue[key] ?? key, params);
}

export const SUITS = ['S', 'H', 'D', 'C'];
export const TRUMPS = ['S', 'H', 'D', 'C', 'SA', 'TA'];
const SUIT_CHARS = { S: '♠', H: '♥', D: '♦', C: '♣' };

export const isRed = (suit) => suit === 'H' || suit === 'D';

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A suit drawn as a small SVG (a symbol of the page's sprite), in its colour. */
export function suitIcon(suit, cls = '') {
  return `<svg class="suit-icon ${isRed(suit) ? 'red' : 'black'} ${cls}" viewBox="0 0 100 100" aria-hidden="true" focusable="false"><use href="#suit-${suit}"/></svg>`;
}

export const suitChar = (suit) => SUIT_CHARS[suit] || '';

/** "Valet de cœur" / "Jack of hearts" for JH. */
export function cardName(code) {
  return t('js.card.name', { rank: t(`rank.${code[0]}`), suit: t(`suit.of.${code[1]}`) });
}

/** A call of record notation taken apart: kind, value (bids), trump. */
export function parseCall(code) {
  if (code === 'pass' || code === 'coinche' || code === 'surcoinche') return { kind: code };
  let m = /^(\d+)(SA|TA|S|H|D|C)$/.exec(code);
  if (m) return { kind: 'bid', value: Number(m[1]), trump: m[2] };
  m = /^(capot|generale)(SA|TA|S|H|D|C)$/.exec(code);
  if (m) return { kind: m[1], trump: m[2] };
  return { kind: 'unknown' };
}

/** "90 cœur", "Capot pique", "Passe" for a call of record notation. */
export function callName(code) {
  const c = parseCall(code);
  if (c.kind === 'pass' || c.kind === 'coinche' || c.kind === 'surcoinche') return t(`call.${c.kind}`);
  if (c.kind === 'unknown') return code;
  const trump = t(`trump.${c.trump}`);
  if (c.kind === 'bid') return t('call.bid', { value: c.value, trump });
  return t(`call.${c.kind}`, { trump });
}

/** The drawn form of a trump: a suit symbol, or "SA" / "TA" written. */
export function trumpVisual(trump, cls = '') {
  if (SUITS.includes(trump)) return suitIcon(trump, cls);
  return `<span class="trump-text ${cls}">${esc(t(`js.trump.short.${trump}`))}</span>`;
}

/** The visible form of a call (HTML): "90 ♥", "Capot ♠", "Passe", "Coinche !". */
export function callVisual(code, { exclaim = false } = {}) {
  const c = parseCall(code);
  if (c.kind === 'pass') return esc(t('call.pass'));
  if (c.kind === 'coinche' || c.kind === 'surcoinche') return esc(t(exclaim ? `js.bubble.${c.kind}` : `call.${c.kind}`));
  if (c.kind === 'bid') return `<span class="bid-value">${c.value}</span> ${trumpVisual(c.trump)}`;
  if (c.kind === 'capot' || c.kind === 'generale') return `<span class="slam-word">${esc(t(`js.${c.kind}`))}</span> ${trumpVisual(c.trump)}`;
  return esc(code);
}

/** The visible call with its words for assistive technology. */
export function callHTML(code, opts) {
  return `<span aria-hidden="true">${callVisual(code, opts)}</span><span class="visually-hidden">${esc(callName(code))}</span>`;
}

/** One meld in words: "Tierce à l'As de cœur", "Carré de valets". */
export function meldName(meld) {
  const [kind, top] = String(meld.name || '').split(' ');
  if (!top) return meld.name;
  if (kind === 'carre') return t(`meld.carre.${top[0]}`);
  return t('meld.run', { kind: t(`meld.${kind}`), top: t(`meld.to.${top[0]}`), suit: t(`suit.of.${top[1]}`) });
}

/** One meld drawn short (HTML, for the eyes; the words go beside it for everyone else):
 * a run by its top card, "D♥", a carré by its rank, "4×V". On a phone a side seat's
 * column is too narrow for the words: three melds in words reached south's own. */
export function meldVisual(meld) {
  const [kind, top] = String(meld.name || '').split(' ');
  if (!top) return esc(meld.name);
  const rank = esc(t(`rank.short.${top[0]}`));
  if (kind === 'carre') return `4×${rank}`;
  return `${rank}${suitIcon(top[1])}`;
}

export function meldsName(melds) {
  const names = melds.map(meldName);
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')}${t('meld.and')}${names[names.length - 1]}`;
}

const pluralRule = new Intl.PluralRules(document.documentElement.lang || 'fr');

/** The plural entry `key` for `count` ("1 donne", "2 donnes"; French puts 0 in the
 * singular): its singular under `key`, its plural under `key#plural` (the server's
 * catalogue), `{count}` and `params` filled in. */
export function tn(key, count, params) {
  const form = pluralRule.select(count) === 'one' ? key : `${key}#plural`;
  return fill(catalogue[form] ?? catalogue[key] ?? key, { count, ...params });
}
