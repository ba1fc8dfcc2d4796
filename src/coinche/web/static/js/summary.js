// The end of a deal: a real <dialog> (modal, focus moved in) with the contract, made or
// failed, points, belote, melds, the score, the server's explanation lines, the running
// score sheet, and the way on: "Donne suivante", the account link, or "Nouvelle partie".

import { t, esc, callHTML } from './words.js';

function teamRow(label, pair, us, cls = '') {
  return `<tr class="${cls}"><th scope="row">${esc(label)}</th><td>${pair[us]}</td><td>${pair[1 - us]}</td></tr>`;
}

function multiplied(calls) {
  if (calls.some((c) => c.call === 'surcoinche')) return t('js.surcoinched');
  if (calls.some((c) => c.call === 'coinche')) return t('js.coinched');
  return '';
}

/** The dialog's markup for a state at the end of a deal or of the game. */
export function summaryHTML(state) {
  const { table, game } = state;
  const deal = game.deal;
  const result = deal.result;
  const us = table.you % 2;
  const names = table.seat_names;
  const over = game.winner !== null && game.winner !== undefined;
  const parts = [];

  let verdict = '';
  let verdictClass = '';
  if (result) {
    if (result.made === true) [verdict, verdictClass] = [t('js.made'), 'made'];
    else if (result.made === false) [verdict, verdictClass] = [t('js.failed'), 'failed'];
    else [verdict, verdictClass] = [t('js.void_deal'), 'void'];
  }
  const title = over ? t('js.game_over') : t('js.deal_over', { number: game.deal_number });
  parts.push(`<h2 id="summary-title">${esc(title)}</h2>`);
  if (over) {
    const won = game.winner === us;
    parts.push(`<p class="winner ${won ? 'won' : 'lost'}">${esc(t(won ? 'js.we_won' : 'js.they_won'))}</p>`);
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

  const rows = game.history
    .map((score, i) => `<tr><th scope="row">${i + 1}</th><td>${score[us]}</td><td>${score[1 - us]}</td></tr>`)
    .join('');
  parts.push(
    `<table class="score-sheet"><caption>${esc(t('js.score_sheet', { target: game.target }))}</caption>` +
      `<thead><tr><th scope="col">${esc(t('js.deal'))}</th><th scope="col">${esc(t('js.team.us'))}</th><th scope="col">${esc(t('js.team.them'))}</th></tr></thead>` +
      `<tbody>${rows}</tbody><tfoot><tr><th scope="row">${esc(t('js.total'))}</th><td>${game.totals[us]}</td><td>${game.totals[1 - us]}</td></tr></tfoot></table>`,
  );

  const actions = [];
  if (over) actions.push(`<a class="button primary" href="/">${esc(t('js.new_game'))}</a>`);
  else if (state.can_continue) actions.push(`<button type="button" class="primary" data-do="next">${esc(t('js.next_deal'))}</button>`);
  else {
    actions.push(`<p class="limit">${esc(t('js.no_free_deal'))}</p>`);
    actions.push(`<a class="button primary" href="/compte">${esc(t('js.create_account'))}</a>`);
  }
  actions.push(`<button type="button" class="secondary" data-do="close">${esc(t('js.see_table'))}</button>`);
  parts.push(`<div class="summary-actions">${actions.join('')}</div>`);
  return parts.join('');
}
