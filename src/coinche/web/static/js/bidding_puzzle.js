// A bidding puzzle's answer, given with the table's own bidding box (bidding.js): the box
// offers the calls the page lists (the server's, never computed here), and a call pressed
// in it sends the page's form, as the buttons shown without scripts do.

import { BiddingBox } from './bidding.js';

const section = document.getElementById('bidding');
const form = section?.closest('form');
if (section && form) {
  let sent = false;
  const box = new BiddingBox(section, (call) => {
    if (sent) return;
    sent = true;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'call';
    input.value = call;
    form.append(input);
    form.submit();
  });
  box.show((section.dataset.calls || '').split(' ').filter(Boolean), '');
}
