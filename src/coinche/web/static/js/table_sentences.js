// The table's sentences for the live region and the keys that say the state on demand
// (1 to 6, listed in the help dialog): words only, from what the server sent. No DOM.

import { t, fill, cardName, callName, meldsName } from './words.js';
import { legalOf, bestBid, playing } from './table_state.js';

/** "coinchée" / "surcoinchée" when the calls hold one, else ''. */
export function multiplierWord(calls) {
  if (calls.some((c) => c.call === 'surcoinche')) return t('js.surcoinched');
  if (calls.some((c) => c.call === 'coinche')) return t('js.coinched');
  return '';
}

export function declareName(record) {
  const melds = record.melds || [];
  return melds.length ? t('js.declare', { melds: meldsName(melds) }) : t('js.declare_nothing');
}

export function actionWords(record) {
  if (typeof record.card === 'string') return cardName(record.card);
  if (typeof record.call === 'string') return callName(record.call);
  if (typeof record.declare === 'number') return declareName(record);
  return '';
}

/** A `hint` message in one sentence: the server's (it names the action), else the action. */
export function hintSentence(message) {
  if (message.text) return message.text;
  return t('js.hint_short', { action: actionWords(message.action || {}) });
}

/** What the game is played to, as the server says it for the table's kind, with the
 * deal's number: "Objectif 1001 · Donne 2", "Défi du jour · donne 2 sur 4",
 * "Tournoi · manche 1 · donne 1 sur 2" (a game of so many deals: which of them). */
export function goalText(s) {
  const g = s.game;
  const h = s.table.heading;
  const deal = h.deals ? t('js.deal_of', { number: g.deal_number, deals: h.deals }) : t('js.deal_number', { number: g.deal_number });
  return `${h.goal} · ${deal}`;
}

/** Whose turn it is, or that the deal or the game is over. */
export function turnSentence(s) {
  const d = s.game.deal;
  if (!playing(s)) return s.awaiting_next_deal ? t('js.turn.deal_over') : t('js.turn.game_over');
  const legal = legalOf(d);
  if (legal.calls.length) return t('js.your_call');
  if (legal.declares.length) return t('js.your_melds');
  if (legal.cards.size) return t('js.your_card');
  return t('js.turn.other', { seat: s.table.seat_names[d.to_move] });
}

function trickSentence(names, cards, leader) {
  return cards.map((code, i) => t('js.played_by', { seat: names[(leader + i) % 4], card: cardName(code) })).join(' ; ');
}

/** What key `key` says of state `s`; `shown` is the trick on the table as drawn (a
 * complete trick stays a moment after the state has moved on). Null for another key. */
export function readKey(key, s, shown) {
  const d = s.game.deal;
  const names = s.table.seat_names;
  const us = s.table.you % 2;
  switch (key) {
    case '1': {
      if (!d.hand.length) return t('js.read.no_hand');
      const legal = legalOf(d);
      let text = t('js.read.hand', { cards: d.hand.map(cardName).join(', ') });
      if (legal.cards.size && legal.cards.size < d.hand.length) {
        text += ` ${t('js.read.playable', { cards: [...legal.cards.keys()].map(cardName).join(', ') })}`;
      }
      return text;
    }
    case '2':
      if (!shown.cards.length) return t('js.read.no_trick');
      return t('js.read.trick', { cards: trickSentence(names, shown.cards, shown.leader) });
    case '3': {
      if (d.contract) {
        const c = d.contract;
        const mult = multiplierWord(d.calls);
        return t('js.read.contract', { call: callName(c.call), seat: names[c.taker] }) + (mult ? ` ${mult}.` : '');
      }
      const best = bestBid(d.calls);
      if (d.phase === 'auction' && best) return t('js.read.auction', { call: callName(best.call), seat: names[best.seat] });
      return d.phase === 'auction' ? t('js.no_bid') : t('js.void_deal');
    }
    case '4': {
      const g = s.game;
      let text = fill(s.table.heading.score, { us: g.totals[us], them: g.totals[1 - us], number: g.deal_number });
      if (d.phase !== 'auction') text += ` ${t('js.read.deal_points', { us: d.card_points[us], them: d.card_points[1 - us] })}`;
      return text;
    }
    case '5': {
      const last = d.tricks[d.tricks.length - 1];
      if (!last) return t('js.read.no_last_trick');
      const list = trickSentence(names, last.cards, last.leader);
      return `${t('js.read.last_trick', { cards: list })} ${t('js.trick_winner', { seat: names[last.winner], points: last.points })}`;
    }
    case '6':
      return turnSentence(s);
    default:
      return null;
  }
}
