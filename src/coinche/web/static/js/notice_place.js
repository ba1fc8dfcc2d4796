// Where the table's notices stand (the notice, a friends' table's clock warning): just above
// the bottom bar, or, while a panel reaches down to that place (the bidding box, the
// declarations), just above that panel. A notice never lies on a button the player needs
// nor on the hand's cards, whatever its length and the screen's size.

const GAP = 8;

/** Keeps `--notice-lift` on `root` (the table) up to date: how far the notices rise above
 * their place over the bottom bar to clear the open panels (the CSS adds it to their
 * `bottom`). Measured in layout boxes (`offsetTop`), which a panel's entry animation does
 * not move; recomputed whenever a panel, a notice or the bottom changes size, which is
 * also when a panel opens or closes. */
export function keepNoticesClear(root) {
  const bottom = root.querySelector('.bottom');
  if (!bottom) return;
  const sheets = [...root.querySelectorAll('.sheet')];
  const notices = [...bottom.querySelectorAll(':scope > .notice')];
  const place = () => {
    const top = bottom.offsetTop;
    const room = notices.reduce((sum, n) => sum + (n.offsetHeight ? n.offsetHeight + GAP : 0), GAP);
    let lift = 0;
    for (const sheet of sheets) {
      if (!sheet.offsetHeight) continue; // hidden
      if (sheet.offsetTop + sheet.offsetHeight <= top - room) continue; // wholly above: the place is free
      lift = Math.max(lift, top - sheet.offsetTop);
    }
    // never past the table's top edge
    lift = Math.max(0, Math.min(lift, top - room));
    root.style.setProperty('--notice-lift', `${Math.round(lift)}px`);
  };
  const observer = new ResizeObserver(place);
  for (const el of [bottom, ...sheets, ...notices]) observer.observe(el);
  place();
}
