// The table's bottom (the coach's box, South's plate and the tools, the hand) and its
// notices (the notice, a friends' table's clock warning).
//
// The bottom is measured as tall as it really is: its rows depend on what it holds this
// moment (a friends' table's tools, the dealer's chip, the coach's tip, a phone's width)
// and no fixed guess fits them all. The trick, the side seats and the panels stand above
// what is measured, so nothing lies under the bottom and the bidding box never covers
// South's plate.
//
// The notices stand just above the bottom bar, or, while a panel reaches down to that
// place (the bidding box, the declarations), just above that panel. A notice never lies on
// a button the player needs nor on the hand's cards, whatever its length and the screen's
// size.

const GAP = 8;

/** Keeps the bottom's lengths and the notices' place on `root` (the table) up to date, for
 * its stylesheet, in that order (a panel stands where the bottom's height puts it):
 * - `--bar-room`: the bottom's height less the hand's (the bar and whatever stands above it
 *   in the bottom). The table's `--bottom-h` adds the whole hand's height to it, so the
 *   trick does not move while a phone's hand waits in one row during the auction.
 * - `--bottom-now`: the bottom's height now, where the phone's bidding box stands.
 * - `--notice-lift`: how far the notices rise above their place over the bottom bar to
 *   clear the open panels (the CSS adds it to their `bottom`).
 * Measured in layout boxes (`offsetTop`), which no animation moves; recomputed whenever
 * the bottom, the hand, a panel or a notice changes size, which is also when a panel
 * opens or closes. */
export function keepBottomInPlace(root) {
  const bottom = root.querySelector('.bottom');
  if (!bottom) return;
  const hand = bottom.querySelector('.hand');
  const sheets = [...root.querySelectorAll('.sheet')];
  const notices = [...bottom.querySelectorAll(':scope > .notice')];
  const measure = () => {
    if (!bottom.offsetHeight || !hand) return; // not laid out (a hidden page): the stylesheet's guesses hold
    root.style.setProperty('--bar-room', `${bottom.offsetHeight - hand.offsetHeight}px`);
    root.style.setProperty('--bottom-now', `${bottom.offsetHeight}px`);
  };
  const lift = () => {
    const top = bottom.offsetTop;
    const room = notices.reduce((sum, n) => sum + (n.offsetHeight ? n.offsetHeight + GAP : 0), GAP);
    let up = 0;
    for (const sheet of sheets) {
      if (!sheet.offsetHeight) continue; // hidden
      if (sheet.offsetTop + sheet.offsetHeight <= top - room) continue; // wholly above: the place is free
      up = Math.max(up, top - sheet.offsetTop);
    }
    // never past the table's top edge
    up = Math.max(0, Math.min(up, top - room));
    root.style.setProperty('--notice-lift', `${Math.round(up)}px`);
  };
  const place = () => {
    measure();
    lift();
  };
  const observer = new ResizeObserver(place);
  for (const el of [bottom, hand, ...sheets, ...notices]) if (el) observer.observe(el);
  place();
}
