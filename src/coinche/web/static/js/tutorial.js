// The guided first deal with the table's own controls: the table's bidding box and hand
// (bidding.js, hand_view.js) take the place of the page's plain buttons. The moves shown
// are the server's (the page's JSON); a move is posted in the step's form and the server
// judges it, as it does without script.

import { BiddingBox } from './bidding.js';
import { HandView } from './hand_view.js';

const form = document.getElementById('moves');
const moves = JSON.parse(document.getElementById('tutorial-moves')?.textContent || 'null');

if (form && moves) {
  const send = (code) => {
    if (form.dataset.sent) return; // one move a page: the answer is the next page
    form.dataset.sent = 'true';
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'action';
    input.value = code;
    form.append(input);
    form.submit();
  };
  form.querySelector('.tutorial-fallback')?.remove();
  const bidding = new BiddingBox(document.getElementById('bidding'), send);
  const box = document.getElementById('hand');
  const hand = new HandView(box, send);
  box.hidden = false;
  hand.render(moves.hand, new Map(moves.legal.map((code) => [code, true])));
  bidding.show(moves.calls, '');
  document.body.classList.toggle('tutorial-bidding', moves.calls.length > 0);
  const why = document.getElementById('why');
  if (why) why.focus({ preventScroll: true });
  else if (moves.calls.length) bidding.focus();
  else hand.focusFirst();
}
