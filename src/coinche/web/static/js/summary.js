// The end of a deal: a real <dialog> (modal, focus moved in) with the contract, made or
// failed, points, belote, melds, the score, the server's explanation lines, the running
// score sheet, and the way on: "Donne suivante", the account link, or at the game's end
// where the server says it leads ("Nouvelle partie", back to the tournament...). Once
// another deal is dealt, the same summary of the last deal, reopened on demand, says who
// dealt on and has no way on (the table has gone on).

import { t, tn, esc, callHTML, fill } from './words.js';

function teamRow(label, pair, us, cls = '') {
  return `<tr class="${cls}"><th scope="row">${esc(label)}</th><td>${pair[us]}</td><td>${pair[1 - us]}</td></tr>`;
}

function multiplied(calls) {
  if (calls.some((c) => c.call === 'surcoinche')) return t('js.surcoinched');
  if (calls.some((c) => c.call === 'coinche')) return t('js.coinched');
  return '';
}

/** The deal's verdict from the reader's side: the taker's side reads "Contrat réussi" or
 * "Chuté", the defenders "Ils ont réussi leur contrat" or "Ils ont chuté", a watcher the
 * plain facts; its class colours the news for the reader (made: good, failed: bad, plain). */
export function verdictOf(state) {
  const result = state.game?.deal?.result;
  if (!result) return { text: '', cls: '' };
  if (result.made !== true && result.made !== false) return { text: t('js.void_deal'), cls: 'void' };
  if (state.table.watching) return { text: t(result.made ? 'js.made' : 'js.failed'), cls: 'plain' };
  const ours = result.contract?.taker % 2 === state.table.you % 2;
  const text = t(`js.${result.made ? 'made' : 'failed'}${ours ? '' : '_theirs'}`);
  return { text, cls: ours === result.made ? 'made' : 'failed' };
}

/** The dialog's markup for a state at the end of a deal or of the game; `wentOn`: who dealt
 * the next deal when it is the last deal's summary, reopened (null at the deal's end);
 * `accuracy`: with the reader's accuracy line (the site values each deal as it ends). */
export function summaryHTML(state, wentOn = null, accuracy = true) {
  const { table, game } = state;
  const deal = game.deal;
  const result = deal.result;
  const us = table.you % 2;
  const names = table.seat_names;
  const won = game.winner !== null && game.winner !== undefined;
  const over = won || state.over === true; // a game of so many deals ends after them, nobody winning it
  const heading = table.heading; // what the game is played to (the server's words for the table's kind)
  const after = state.after_game; // where the game's end leads, and how it ended when nobody won
  const parts = [];

  const { text: verdict, cls: verdictClass } = verdictOf(state);
  const title = over ? t('js.game_over') : t('js.deal_over', { number: game.deal_number });
  parts.push(`<h2 id="summary-title">${esc(title)}</h2>`);
  if (wentOn) parts.push(`<p class="went-on">${esc(wentOn)}</p>`);
  if (won) {
    const ours = game.winner === us;
    parts.push(`<p class="winner ${ours ? 'won' : 'lost'}">${esc(t(ours ? 'js.we_won' : 'js.they_won'))}</p>`);
  } else if (over && after.line) {
    parts.push(`<p class="game-end"><a href="${esc(after.url)}">${esc(after.line)}</a></p>`);
  }
  if (verdict) parts.push(`<p class="verdict ${verdictClass}">${esc(verdict)}</p>`);

  const contract = result?.contract;
  if (contract) {
    const who = names[contract.taker];
    const mult = multiplied(deal.calls);
    parts.push(
      `<p class="summary-contract">${esc(t('js.contract'))} <strong class="call-inline">${callHTML(contract.call)}</strong>` +
        ` · ${esc(t('js.taker', { seat: who }))}${mult ? ` · <strong>${esc(mult)}</strong>` : ''}</p>`,
    );
    if (result.sweep) parts.push(`<p class="sweep">${esc(t(`js.sweep.${result.sweep}`))}</p>`);
  }

  if (result) {
    parts.push(
      `<table class="deal-table"><caption class="visually-hidden">${esc(t('js.this_deal'))}</caption>` +
        `<thead><tr><td></td><th scope="col">${esc(t('js.team.us'))}</th><th scope="col">${esc(t('js.team.them'))}</th></tr></thead><tbody>` +
        teamRow(t('js.card_points'), result.card_points, us) +
        teamRow(t('js.belote'), result.belote, us) +
        (deal.shown_melds.some((m) => m.length) || result.melds.some(Boolean) ? teamRow(t('js.melds'), result.melds, us) : '') +
        teamRow(t('js.deal_score'), result.score, us, 'total') +
        '</tbody></table>',
    );
  }

  if (state.result_lines?.length) {
    parts.push(
      `<details class="explain"><summary>${esc(t('js.explain'))}</summary><ul>` +
        state.result_lines.map((line) => `<li>${esc(line)}</li>`).join('') +
        '</ul></details>',
    );
  }

  const review = (n) => `/table/${encodeURIComponent(table.id)}/donne/${n}`;
  if (result) {
    parts.push(
      `<p class="review-line"><a class="review-link" href="${review(game.deal_number)}">${esc(t('js.review_deal'))}</a></p>`,
    );
    if (accuracy && !table.watching) {
      // how well the reader played it: computed by the workers after the deal, filled in
      // when it comes (fillAccuracy)
      parts.push(
        `<p class="accuracy-line" data-url="${review(game.deal_number)}/precision" aria-live="polite">` +
          `${esc(t('js.accuracy.pending'))}</p>`,
      );
    }
    if (heading.compare) {
      // a deal other tables played: how everyone who played these cards did
      const compare = fill(heading.compare.url, { number: game.deal_number });
      parts.push(`<p class="compare-line"><a class="button primary" href="${esc(compare)}">${esc(heading.compare.text)}</a></p>`);
    }
  }
  const rows = game.history
    .map(
      (score, i) =>
        `<tr><th scope="row"><a href="${review(i + 1)}" aria-label="${esc(t('js.review_deal_number', { number: i + 1 }))}">${i + 1}</a></th>` +
        `<td>${score[us]}</td><td>${score[1 - us]}</td></tr>`,
    )
    .join('');
  parts.push(
    `<table class="score-sheet"><caption>${esc(heading.sheet)}</caption>` +
      `<thead><tr><th scope="col">${esc(t('js.deal'))}</th><th scope="col">${esc(t('js.team.us'))}</th><th scope="col">${esc(t('js.team.them'))}</th></tr></thead>` +
      `<tbody>${rows}</tbody><tfoot><tr><th scope="row">${esc(t('js.total'))}</th><td>${game.totals[us]}</td><td>${game.totals[1 - us]}</td></tr></tfoot></table>`,
  );

  // a game of a fixed number of deals has no target to reach (null): no target line
  if (game.history.length) parts.push(scoreChartSVG(game.history, heading.target, us));

  const actions = [];
  if (wentOn !== null) {
    // the last deal's summary, reopened: the table has gone on, no way on but back to it
  } else if (over) actions.push(`<a class="button primary" href="${esc(after.url)}">${esc(after.text)}</a>`);
  else if (state.can_continue) actions.push(`<button type="button" class="primary" data-do="next">${esc(t('js.next_deal'))}</button>`);
  else if (state.free_deals_over) {
    // a guest's free deals played (never an account's, nor a watcher's: the server says)
    actions.push(`<p class="limit">${esc(t('js.no_free_deal'))}</p>`);
    const signup = `${t('js.signup_url')}?next=${encodeURIComponent(`/table/${state.table.id}`)}`;
    actions.push(`<a class="button primary" href="${esc(signup)}">${esc(t('js.create_account'))}</a>`);
  }
  actions.push(`<button type="button" class="secondary" data-do="close">${esc(t('js.see_table'))}</button>`);
  parts.push(`<div class="summary-actions">${actions.join('')}</div>`);
  return parts.join('');
}

// ----- the reader's accuracy -----

const ACCURACY_TRIES = 120;

/** The sentence of one seat's accuracy ("Cartes : 6 sur 7 gardent la valeur (86 %), 12
 * points perdus · Annonces : 2 sur 2 (100 %)"). */
export function accuracyText(a) {
  const cards = a.cards
    ? t('js.accuracy.cards', { kept: a.cards_kept, count: a.cards, share: Math.round(a.card_share), lost: a.card_loss })
    : t('js.accuracy.no_card');
  const calls = a.calls
    ? t('js.accuracy.calls', { kept: a.calls_kept, count: a.calls, share: Math.round(a.call_share), lost: Math.round(a.call_loss) })
    : t('js.accuracy.no_call');
  return `${cards} · ${calls}`;
}

/** Fill the summary's accuracy line in `root` once the server has it (202 until then:
 * asked again each second while the line is on the page). */
export async function fillAccuracy(root) {
  const line = root.querySelector('.accuracy-line[data-url]');
  if (!line) return;
  const url = line.dataset.url;
  line.removeAttribute('data-url');
  for (let i = 0; i < ACCURACY_TRIES && line.isConnected; i += 1) {
    let response;
    try {
      response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    } catch {
      response = null;
    }
    if (response && response.status === 200) {
      const data = await response.json();
      const mine = data.seats.find((s) => s.seat === data.you);
      if (!mine) break;
      line.innerHTML = `<strong>${esc(t('js.accuracy.title'))}</strong> ${esc(accuracyText(mine))}`;
      line.classList.add('ready');
      return;
    }
    if (response && response.status !== 202) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (line.isConnected) line.textContent = t('js.accuracy.none');
}

// ----- the score chart -----

const CHART = { width: 320, height: 150, left: 40, right: 12, top: 12, bottom: 26 };

/** Running totals after each deal: [[us, them] at the start, after deal 1, ...]. */
function runningTotals(history, us) {
  const out = [[0, 0]];
  for (const score of history) {
    const [a, b] = out[out.length - 1];
    out.push([a + score[us], b + score[1 - us]]);
  }
  return out;
}

/** Both teams' totals after each deal up to the target (null: a game without one, the
 * daily challenge), drawn as an SVG line chart (the score sheet's table above holds the
 * same figures for a screen reader). */
export function scoreChartSVG(history, target, us) {
  const { width, height, left, right, top, bottom } = CHART;
  const totals = runningTotals(history, us);
  const high = Math.max(target ?? 0, ...totals.flat());
  const low = Math.min(0, ...totals.flat());
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (i) => left + (plotW * i) / Math.max(1, totals.length - 1);
  const y = (v) => top + plotH - (plotH * (v - low)) / (high - low || 1);
  const line = (team) => totals.map((pair, i) => `${x(i).toFixed(1)},${y(pair[team]).toFixed(1)}`).join(' ');
  const dots = (team) =>
    totals
      .slice(1)
      .map((pair, i) => `<circle cx="${x(i + 1).toFixed(1)}" cy="${y(pair[team]).toFixed(1)}" r="2.6"/>`)
      .join('');
  const last = totals[totals.length - 1];
  const ticks = totals
    .map((_, i) => i)
    .filter((i) => i > 0 && (totals.length <= 12 || i % Math.ceil(totals.length / 10) === 0))
    .map((i) => `<text x="${x(i).toFixed(1)}" y="${height - 8}" text-anchor="middle">${i}</text>`)
    .join('');
  const title = t('js.chart_title');
  const desc =
    target === null
      ? tn('js.chart_desc_no_target', history.length, { us: last[0], them: last[1] })
      : tn('js.chart_desc', history.length, { us: last[0], them: last[1], target });
  const targetLine =
    target === null
      ? ''
      : `<line class="target" x1="${left}" y1="${y(target).toFixed(1)}" x2="${width - right}" y2="${y(target).toFixed(1)}"/>` +
        `<text class="target-label" x="${left - 4}" y="${(y(target) + 4).toFixed(1)}" text-anchor="end">${target}</text>`;
  return (
    `<figure class="score-chart"><svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc">` +
    `<title id="chart-title">${esc(title)}</title><desc id="chart-desc">${esc(desc)}</desc>` +
    `<line class="axis" x1="${left}" y1="${y(low)}" x2="${width - right}" y2="${y(low)}"/>` +
    targetLine +
    `<text x="${left - 4}" y="${(y(low) + 4).toFixed(1)}" text-anchor="end">${low}</text>` +
    ticks +
    `<polyline class="team-us" points="${line(0)}"/><g class="team-us">${dots(0)}</g>` +
    `<polyline class="team-them" points="${line(1)}"/><g class="team-them">${dots(1)}</g>` +
    `</svg><figcaption><span class="key key-us">${esc(t('js.team.us'))} ${last[0]}</span>` +
    `<span class="key key-them">${esc(t('js.team.them'))} ${last[1]}</span>` +
    (target === null ? '' : `<span class="key key-target">${esc(t('js.chart_target', { target }))}</span>`) +
    `</figcaption></figure>`
  );
}
