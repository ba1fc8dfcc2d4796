// The deal review: a step-through over every call and card, and the double-dummy
// analysis fetched (and polled) from the server. Every position comes from the page's
// data, computed by the engine: this script only draws it.

import { t, esc, cardName, callHTML } from './words.js';
import { cardFace } from './cards.js';

const root = document.getElementById('review');
const data = JSON.parse(document.getElementById('review-data').textContent);
const steps = data.steps;
const names = data.seat_names;
const base = data.base;
const $ = (id) => document.getElementById(id);
const els = {
  stepper: $('stepper'),
  counter: $('step-counter'),
  text: $('step-text'),
  mark: $('step-mark'),
  explanation: $('step-explanation'),
  board: $('board'),
  points: $('step-points'),
  values: $('step-values'),
  auction: $('step-auction'),
  analysis: $('analysis-body'),
  accuracy: $('accuracy-body'),
  live: $('live'),
};
const buttons = Object.fromEntries([...els.stepper.querySelectorAll('[data-go]')].map((b) => [b.dataset.go, b]));
let current = 0;
let analysis = null;
let analysisFailed = false;

function card(code, cls = '') {
  return `<span class="rcard ${cls}" role="img" aria-label="${esc(cardName(code))}">${cardFace(code)}</span>`;
}

function explanationHTML(e) {
  if (!e) return '';
  const detail = e.detail ? ` <span class="detail">${esc(t('review.detail'))} <span lang="${esc(e.lang)}">${esc(e.detail)}</span></span>` : '';
  return `<span lang="${esc(e.lang)}">${esc(e.text)}</span>${detail}`;
}

function boardHTML(step) {
  const seats = [0, 1, 2, 3].map((s) => {
    const hand = step.hands[s].map((c) => `<li>${card(c)}</li>`).join('');
    const mover = step.seat === s ? ' mover' : '';
    return (
      `<section class="board-seat pos-${data.positions[s]}${mover}" aria-label="${esc(t('review.hand_of', { seat: names[s] }))}">` +
      `<h3>${esc(names[s])}</h3><ul class="rhand">${hand}</ul></section>`
    );
  });
  const slots = step.trick
    .map((p) => {
      const win = step.trick_winner === p.seat ? ' winner' : '';
      return `<li class="slot pos-${data.positions[p.seat]}${win}"><span class="who">${esc(data.short_names[p.seat])}</span>${card(p.code)}</li>`;
    })
    .join('');
  const won = step.trick_winner !== null ? `<p class="trick-note">${esc(t('review.trick_won', { seat: names[step.trick_winner] }))}</p>` : '';
  const trick = `<section class="board-trick" aria-label="${esc(t('review.on_table'))}"><h3 class="visually-hidden">${esc(t('review.on_table'))}</h3><ul>${slots}</ul>${won}</section>`;
  return seats.join('') + trick;
}

function auctionHTML(step) {
  if (!step.calls) return '';
  const calls = [];
  let i = 0;
  for (const row of data.auction.rows) {
    for (const cell of row) {
      if (cell && i < step.calls) calls.push(`<li><span class="who">${esc(data.short_names[cell.seat])}</span> ${callHTML(cell.code)}</li>`);
      if (cell) i += 1;
    }
  }
  return `<h3>${esc(t('review.auction_so_far'))}</h3><ol class="calls">${calls.join('')}</ol>`;
}

function valuesHTML(step) {
  if (step.kind !== 'card') return `<p class="muted">${esc(t('review.values_none'))}</p>`;
  if (!analysis) return `<p class="muted">${esc(analysisFailed ? t('review.analysis_failed') : t('review.values_pending'))}</p>`;
  const pos = analysis.positions.find((p) => p.step === step.index);
  if (!pos) return '';
  const entries = Object.entries(pos.values).sort((a, b) => b[1] - a[1]);
  const best = entries.length ? entries[0][1] : 0;
  const rows = entries
    .map(([code, value]) => {
      const marks = [];
      if (value === best) marks.push(`<span class="mark-best">${esc(t('review.best'))}</span>`);
      if (code === pos.played) {
        marks.push(`<strong class="mark-played">${esc(t('review.played'))}</strong>`);
        if (value < best) marks.push(`<span class="mark-lost">${esc(t('review.lost', { points: best - value }))}</span>`);
      }
      const cls = [code === pos.played ? 'played' : '', value === best ? 'best' : ''].join(' ');
      const red = code[1] === 'H' || code[1] === 'D' ? 'red' : 'black';
      return (
        `<tr class="${cls}"><th scope="row"><span class="card-name ${red}">${esc(cardName(code))}</span></th>` +
        `<td class="num">${value}</td><td>${marks.join(' — ')}</td></tr>`
      );
    })
    .join('');
  const caption = esc(t('review.values', { seat: names[pos.seat] }));
  // On a phone a long card name may make the table wider than the screen: it scrolls in its
  // own box (which the keyboard reaches), never the page.
  return (
    `<div class="scroll" tabindex="0" role="region" aria-label="${caption}">` +
    `<table class="values-table"><caption>${caption}</caption>` +
    `<thead><tr><th scope="col">${esc(t('review.card'))}</th><th scope="col">${esc(t('review.value'))}</th><th scope="col"><span class="visually-hidden">${esc(t('review.played'))}</span></th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div><p class="muted">${esc(t('review.values_intro'))}</p>`
  );
}

/** What a call says (the rules' terms) and what the expert reads into it. */
function meaningHTML(m) {
  if (!m) return '';
  return `<div class="call-meaning"><p><strong>${esc(t('review.meaning'))} :</strong> ${esc(m.said)}</p>` +
    `<ul>${m.expert.map((line) => `<li>${esc(line)}</li>`).join('')}</ul></div>`;
}

function show(k, { announce = true } = {}) {
  current = Math.max(0, Math.min(steps.length - 1, k));
  const step = steps[current];
  const counter = t('review.step_of', { k: current + 1, n: steps.length });
  els.counter.textContent = counter;
  els.text.textContent = step.text;
  const marked = analysis?.accuracy?.costly.find((d) => d.step === step.index);
  els.mark.hidden = !marked;
  els.mark.textContent = marked ? `${marked.mark} ${marked.text}` : '';
  const decl = step.declaration ? `<p>${esc(step.declaration.text)}${step.declaration.explanation ? ` — ${explanationHTML(step.declaration.explanation)}` : ''}</p>` : '';
  els.explanation.innerHTML = decl + (step.explanation ? `<p><strong>${esc(t('review.explanation'))} :</strong> ${explanationHTML(step.explanation)}</p>` : '') + meaningHTML(step.meaning);
  els.board.innerHTML = boardHTML(step);
  els.points.textContent = step.kind === 'card' ? t('review.card_points', { a: step.points[0], b: step.points[1], team_a: data.teams[0], team_b: data.teams[1] }) : '';
  els.values.innerHTML = valuesHTML(step);
  els.auction.innerHTML = auctionHTML(step);
  buttons.first.setAttribute('aria-disabled', String(current === 0));
  buttons.previous.setAttribute('aria-disabled', String(current === 0));
  buttons.next.setAttribute('aria-disabled', String(current === steps.length - 1));
  buttons.last.setAttribute('aria-disabled', String(current === steps.length - 1));
  root.dataset.step = String(current);
  if (announce) els.live.textContent = t('review.step_said', { k: current + 1, n: steps.length, text: step.text });
}

const moves = {
  first: () => 0,
  previous: () => current - 1,
  next: () => current + 1,
  last: () => steps.length - 1,
};

for (const [go, button] of Object.entries(buttons)) button.addEventListener('click', () => show(moves[go]()));

const KEYS = { ArrowLeft: 'previous', ArrowRight: 'next', Home: 'first', End: 'last' };
document.addEventListener('keydown', (e) => {
  const go = KEYS[e.key];
  if (!go || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target.closest && e.target.closest('input, select, textarea, [contenteditable="true"], .scroll')) return;
  e.preventDefault();
  show(moves[go]());
});

function analysisTableHTML(result) {
  const head =
    `<th scope="col">${esc(t('review.trump'))}</th><th scope="col">${esc(data.teams[0])}</th><th scope="col">${esc(data.teams[1])}</th>` +
    [0, 1, 2, 3].map((s) => `<th scope="col"><span class="visually-hidden">${esc(t('review.best_of', { seat: names[s] }))}</span><span aria-hidden="true">${esc(data.short_names[s])}</span></th>`).join('');
  const rows = result.rows
    .map((r) => `<tr data-trump="${esc(r.trump)}"><th scope="row">${esc(r.name)}</th><td class="num">${r.points[0]}</td><td class="num">${r.points[1]}</td>${r.best.map((b) => `<td>${esc(b)}</td>`).join('')}</tr>`)
    .join('');
  return (
    `<div class="scroll" tabindex="0" role="region" aria-labelledby="analysis-caption"><table class="dd-table">` +
    `<caption id="analysis-caption">${esc(t('review.analysis_caption'))}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
  );
}

/** Each seat's accuracy and the moves that cost, each a button to its step (the server
 * says them: ``accuracy_view``). */
function accuracyHTML(acc) {
  const pct = (share) => (share === null ? '—' : `${Math.round(share)} %`);
  const rows = acc.seats
    .map(
      (a) =>
        `<tr><th scope="row">${esc(a.name)}</th>` +
        `<td class="num">${a.cards ? `${a.cards_kept}/${a.cards} · ${pct(a.card_share)}` : '—'}</td>` +
        `<td class="num">${a.cards ? a.card_loss : '—'}</td>` +
        `<td class="num">${a.calls ? `${a.calls_kept}/${a.calls} · ${pct(a.call_share)}` : '—'}</td>` +
        `<td class="num">${a.calls ? Math.round(a.call_loss) : '—'}</td></tr>`,
    )
    .join('');
  const table =
    `<div class="scroll" tabindex="0" role="region" aria-labelledby="accuracy-caption"><table class="accuracy-table">` +
    `<caption id="accuracy-caption">${esc(t('review.accuracy_caption'))}</caption><thead><tr>` +
    `<th scope="col">${esc(t('review.accuracy_player'))}</th><th scope="col">${esc(t('review.accuracy_cards'))}</th>` +
    `<th scope="col">${esc(t('review.accuracy_card_loss'))}</th><th scope="col">${esc(t('review.accuracy_calls'))}</th>` +
    `<th scope="col">${esc(t('review.accuracy_call_loss'))}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const costly = acc.costly.length
    ? `<ol class="costly">${acc.costly
        .map(
          (d) =>
            `<li><span class="mark" title="${esc(t(`review.mark.${d.mark}`))}">${esc(d.mark)}</span> ` +
            `<span class="visually-hidden">${esc(t(`review.mark.${d.mark}`))} : </span>${esc(d.text)} ` +
            `<button type="button" class="link" data-step="${d.step}">${esc(t('review.go_step'))}</button></li>`,
        )
        .join('')}</ol>`
    : `<p>${esc(t('review.costly_none'))}</p>`;
  return `${table}<h3>${esc(t('review.costly'))}</h3>${costly}`;
}

els.accuracy.addEventListener('click', (e) => {
  const button = e.target.closest('button[data-step]');
  if (!button) return;
  show(Number(button.dataset.step));
  els.text.scrollIntoView({ block: 'center' });
  els.text.focus?.({ preventScroll: true });
});

async function fetchAnalysis() {
  let wait = 250;
  for (let tries = 0; tries < 120; tries += 1) {
    try {
      const r = await fetch(`${base}/analyse`, { headers: { Accept: 'application/json' } });
      if (r.status === 200) {
        analysis = await r.json();
        if (!els.analysis.querySelector('.dd-table')) els.analysis.innerHTML = analysisTableHTML(analysis);
        if (analysis.accuracy) els.accuracy.innerHTML = accuracyHTML(analysis.accuracy);
        root.dataset.analysis = 'ready';
        show(current, { announce: false });
        return;
      }
      if (r.status !== 202) break;
    } catch {
      // the network dropped: try again
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(2000, wait * 1.5);
  }
  analysisFailed = true;
  root.dataset.analysis = 'failed';
  els.accuracy.textContent = t('review.analysis_failed');
  const pending = document.getElementById('analysis-pending');
  if (pending) pending.textContent = t('review.analysis_failed');
  show(current, { announce: false });
}

els.stepper.hidden = false;
show(0, { announce: false });
fetchAnalysis();
