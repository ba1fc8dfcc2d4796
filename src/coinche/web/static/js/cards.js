// Cards drawn as SVG by the page: faces (index corners, pips, simple court cards) and
// backs. The suit shapes and the back are symbols of the page's sprite (table.html).

import { t, isRed } from './words.js';

const W = 100;
const H = 140;
const L = 31;
const M = 50;
const R = 69;
const PIPS = {
  7: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  9: [[L, 28], [R, 28], [L, 55], [R, 55], [M, 70], [L, 85], [R, 85], [L, 112], [R, 112]],
  T: [[L, 28], [R, 28], [M, 42], [L, 55], [R, 55], [L, 85], [R, 85], [M, 98], [L, 112], [R, 112]],
};

const cache = new Map();

function pip(suit, x, y, size, flip) {
  const h = size / 2;
  const tr = flip ? ` transform="rotate(180 ${x} ${y})"` : '';
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${tr}/>`;
}

function index(rank, suit, label) {
  const ten = label.length > 1;
  return (
    `<text x="13" y="${ten ? 26 : 27}" text-anchor="middle" font-size="${ten ? 20 : 25}"` +
    `${ten ? ' letter-spacing="-1.5"' : ''} font-weight="700">${label}</text>` +
    pip(suit, 13, 40, 17, false)
  );
}

function court(rank, suit, label, red) {
  const tint = red ? '#fbe4e1' : '#e4e9f0';
  const deco = red ? '#f2b8b0' : '#b9c4d3';
  return (
    `<rect x="24" y="17" width="52" height="106" rx="5" fill="${tint}" stroke="currentColor" stroke-width="1.5"/>` +
    `<path d="M24 48h52M24 92h52" stroke="${deco}" stroke-width="6"/>` +
    pip(suit, 50, 33, 20, false) +
    `<text x="50" y="86" text-anchor="middle" font-size="42" font-weight="700">${label}</text>` +
    pip(suit, 50, 107, 20, true)
  );
}

/** The SVG of a card's face (`code` like JH), as markup, decorative (aria-hidden): the
 * element that holds it carries the card's name. */
export function cardFace(code) {
  let svg = cache.get(code);
  if (svg) return svg;
  const rank = code[0];
  const suit = code[1];
  const red = isRed(suit);
  const label = t(`rank.short.${rank}`);
  let middle;
  if (rank === 'A') middle = pip(suit, 50, 70, 50, false);
  else if (PIPS[rank]) middle = PIPS[rank].map(([x, y]) => pip(suit, x, y, 19, y > 70)).join('');
  else middle = court(rank, suit, label, red);
  svg =
    `<svg class="card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">` +
    `<g fill="currentColor" color="${red ? '#c0132a' : '#16181d'}" font-family="Arial, Helvetica, 'Liberation Sans', sans-serif">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#8d8a80" stroke-width="1.2"/>` +
    index(rank, suit, label) +
    `<g transform="rotate(180 50 70)">${index(rank, suit, label)}</g>` +
    middle +
    `</g></svg>`;
  cache.set(code, svg);
  return svg;
}

/** The back of a card, as markup. */
export function cardBack() {
  return `<svg class="card-svg" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false"><use href="#card-back"/></svg>`;
}
