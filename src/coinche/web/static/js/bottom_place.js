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
  const above = [...root.querySelectorAll('.seat:not(.seat-south) :is(.plate, .bubble)')];
  const measure = () => {
    if (!bottom.offsetHeight || !hand) return; // not laid out (a hidden page): the stylesheet's guesses hold
    root.style.setProperty('--bar-room', `${bottom.offsetHeight - hand.offsetHeight}px`);
    root.style.setProperty('--bottom-now', `${bottom.offsetHeight}px`);
  };
  const lift = () => {
    const top = bottom.offsetTop;
    const room = notices.reduce((sum, n) => sum + (n.offsetHeight ? n.offsetHeight + GAP : 0), GAP);
    let up = 0;
    let open = null;
    for (const sheet of sheets) {
      if (!sheet.offsetHeight) continue; // hidden
      if (sheet.offsetTop + sheet.offsetHeight <= top - room) continue; // wholly above: the place is free
      if (top - sheet.offsetTop > up) [up, open] = [top - sheet.offsetTop, sheet];
    }
    // never past the table's top edge
    up = Math.max(0, Math.min(up, top - room));
    root.style.setProperty('--notice-lift', `${Math.round(up)}px`);
    if (open) clearSeats(open, up);
  };
  // Risen above a tall panel (a phone's bidding box), a notice may reach the seats above
  // it: it comes down over the panel's head (its title, never a button) as far as it must
  // to clear the seats' plates and calls, and no further.
  const clearSeats = (sheet, up) => {
    const shown = notices.filter((n) => n.offsetHeight);
    if (!shown.length) return;
    const firstButton = sheet.querySelector('button:not([hidden])');
    const floor = firstButton ? yIn(firstButton) - 2 : yIn(sheet);
    const highest = Math.min(...shown.map(yIn));
    const lowest = Math.max(...shown.map((n) => yIn(n) + n.offsetHeight));
    // side by side on the screen (a notice is centred by a transform, which offsets miss)
    const spans = shown.map((n) => n.getBoundingClientRect());
    const [left, right] = [Math.min(...spans.map((r) => r.left)), Math.max(...spans.map((r) => r.right))];
    let ceiling = -Infinity;
    for (const el of above) {
      const r = el.getBoundingClientRect();
      if (!el.offsetHeight || r.left >= right || r.right <= left) continue;
      ceiling = Math.max(ceiling, yIn(el) + el.offsetHeight);
    }
    const down = Math.min(ceiling + 2 - highest, floor - lowest);
    if (down > 0) root.style.setProperty('--notice-lift', `${Math.round(Math.max(0, up - down))}px`);
  };
  // where an element lies in the table's layout (offsets: no animation moves them)
  const yIn = (el) => {
    let y = 0;
    for (let e = el; e && e !== root; e = e.offsetParent) y += e.offsetTop;
    return y;
  };

  const place = () => {
    measure();
    lift();
  };
  const observer = new ResizeObserver(place);
  for (const el of [bottom, hand, ...sheets, ...notices, ...above]) if (el) observer.observe(el);
  place();
}
