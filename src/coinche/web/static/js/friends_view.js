// What a friends' table shows besides the game (issue 17): the lobby before the start (the
// seats and who holds them, the invitation's link and code, the host's controls), who is
// here at each seat, the quick messages and their bubbles, leaving the table, and the
// warning of a player who lets the clock run. It shows what the server sends and sends the
// player's requests through the callbacks it was given; the server checks every one.

import { t, esc } from './words.js';
import { say } from './live.js';

const SAY_MS = 4000;
const MUTE_KEY = 'coinche.reactions.muted';
const NEWS_MS = 6000;
const ORDER = [0, 1, 2, 3];

export class FriendsView {
  /**
   * `root`: the page's #table; `table`: the `TableState`; `actions`: `say(phrase)`,
   * `react(emote)`, `sit(seat)`, `host(op, fields)`, `leave()`.
   */
  constructor(root, table, actions) {
    this.root = root;
    this.table = table;
    this.actions = actions;
    this.levels = (root.dataset.friends || '').split(' ').filter(Boolean);
    const $ = (selector) => root.querySelector(selector);
    this.els = {
      lobby: $('#lobby'),
      link: $('#invite-link'),
      code: $('#invite-code'),
      copy: $('#copy-link'),
      copyStatus: $('#copy-status'),
      seats: $('#lobby .lobby-seats'),
      inviteSeat: $('#invite-seat'),
      news: $('#lobby-news'),
      help: $('#lobby-help'),
      start: $('#start-game'),
      sayButton: $('#say-button'),
      phrases: $('#phrases'),
      mute: $('#mute-reactions'),
      leaveButton: $('#leave-button'),
      leaveDialog: $('#leave-dialog'),
      reportButton: $('#report-button'),
      reportDialog: $('#report-dialog'),
      reportPeople: $('#report-people'),
      idle: $('#idle'),
      idleText: $('#idle .notice-text'),
      idleCount: $('#idle .idle-count'),
    };
    this.sayTimers = new Map();
    this.idleTimer = null;
    this.idleKey = '';
    this.newsTimer = null;
    this.saidSeq = null;
    this.lobbyKey = '';
    this.leaving = false;
    this.playedForSeen = -1;
    this.els.mute.checked = this.muted();
    this.listen();
    const n = document.getElementById('notice');
    n.addEventListener('click', (e) => e.target.closest('.notice-close') && n.dataset.kind === 'played_for' && (this.playedForSeen = +n.dataset.until), true);
  }

  get state() {
    return this.table.state;
  }

  get friends() {
    return this.state && this.state.table.friends;
  }

  /** Whether the page is a friends' table's (the state says so). */
  get active() {
    return Boolean(this.friends);
  }

  posOf(seat) {
    return this.state.table.positions[seat];
  }

  // ----- a new state -----

  /** The state has changed (`prev`: the one before); `lobby`: the game has not started. */
  draw(prev, lobby) {
    if (!this.active) return;
    this.root.classList.toggle('lobby-mode', lobby);
    this.els.lobby.hidden = !lobby;
    const f = this.friends;
    this.els.leaveButton.hidden = !(f.started || !f.you_host);
    this.els.reportButton.hidden = !this.state.table.seats.some((e) => e.kind === 'human' && e.seat !== this.state.table.you);
    if (lobby) {
      this.root.classList.add('ready');
      document.getElementById('loading').hidden = true;
      this.drawLobby();
      this.sayNews(prev);
    } else {
      this.renderBadges();
      if (this.clock && typeof this.state.seq === 'number' && this.state.seq > this.clock.seq) this.clearClock();
      this.showSeatChange(prev);
      this.showPlayedFor();
      this.checkIdle();
    }
  }

  /** The computer's moves for this person, until closed or they act. */
  showPlayedFor() {
    const told = this.state.played_for_you;
    const n = document.getElementById('notice');
    if (!told || told.until <= this.playedForSeen || !(n.hidden || n.dataset.kind === 'played_for')) return;
    if (n.dataset.until !== String(told.until)) say(told.text);
    n.querySelector('.notice-text').textContent = told.text;
    Object.assign(n.dataset, { kind: 'played_for', until: told.until });
    n.hidden = false;
  }

  /** A seat change that made this state (in the lobby; the table says it during the game). */
  sayNews(prev) {
    const s = this.state;
    const fresh = typeof s.seq !== 'number' || this.saidSeq === null || s.seq > this.saidSeq;
    if (typeof s.seq === 'number') this.saidSeq = Math.max(s.seq, this.saidSeq ?? s.seq);
    if (!fresh || prev === null || !s.last || !s.last.text) return;
    say(s.last.text);
    this.showNews(s.last.text);
  }

  showNews(text) {
    const news = this.els.news;
    news.textContent = text;
    news.hidden = false;
    clearTimeout(this.newsTimer);
    this.newsTimer = setTimeout(() => {
      news.hidden = true;
    }, NEWS_MS);
  }

  /** During the game, a change of who holds a seat is shown a moment (the table's live
   * region says it with the other events). */
  showSeatChange(prev) {
    const s = this.state;
    if (prev === null || !s.last || !s.last.seat_change || !s.last.text) return;
    const notice = document.getElementById('notice');
    if (!notice.hidden && notice.dataset.kind !== 'seat') return;
    notice.querySelector('.notice-text').textContent = s.last.text;
    notice.dataset.kind = 'seat';
    notice.dataset.since = String(Date.now());
    notice.hidden = false;
  }

  /** The people one may report: every other person at the table, by the name shown. */
  fillReport() {
    const s = this.state;
    const people = s.table.seats.filter((e) => e.kind === 'human' && e.seat !== s.table.you);
    this.els.reportPeople.replaceChildren(
      ...people.map((entry, i) => {
        const choice = document.createElement('div');
        choice.className = 'choice';
        const input = Object.assign(document.createElement('input'), {
          type: 'radio',
          name: 'seat',
          value: String(entry.seat),
          id: `report-seat-${entry.seat}`,
          required: true,
          checked: i === 0,
        });
        const label = Object.assign(document.createElement('label'), { htmlFor: input.id, className: 'choice-name' });
        label.textContent = s.table.seat_names[entry.seat];
        choice.append(input, label);
        return choice;
      }),
    );
  }

  /** Who holds each seat changed (a `presence` event). */
  presence() {
    if (!this.active) return;
    if (this.state.game === null) this.drawLobby();
    else this.renderBadges();
  }

  // ----- the lobby -----

  holderName(entry) {
    if (entry.kind === 'bot') return t('js.friends.computer', { level: t(`level.${entry.level}`) });
    // A guest's name is any they gave: marked, so nobody passes for an account's owner.
    if (entry.guest) return t('js.friends.guest', { name: entry.name || '?' });
    return entry.name || '?';
  }

  drawLobby() {
    const s = this.state;
    const f = this.friends;
    const els = this.els;
    const you = s.table.you;
    const link = new URL(f.link, location.href).href;
    if (els.link.value !== link) els.link.value = link;
    els.code.textContent = f.code;
    els.start.hidden = !f.you_host;
    els.help.textContent = f.you_host ? t('js.friends.host_help') : t('js.friends.waiting');

    const seats = s.table.seats;
    const key = JSON.stringify([seats, f.you_host, f.lobby_positions]);
    if (key === this.lobbyKey) return;
    this.lobbyKey = key;
    const focused = document.activeElement && els.seats.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    // every person's lobby lists the seats in one order under one set of names
    const rows = ORDER.map((seat) => this.lobbyRow(seats[seat], seat, you, f));
    els.seats.innerHTML = rows.join('');
    if (focused) els.seats.querySelector(`[data-focus="${focused}"]`)?.focus();
    this.fillInviteSeats(seats);
  }

  /** The seats an invitation by name may offer: those a computer holds now (the server
   * checks again, and seats the person at the first free one if it was taken). */
  fillInviteSeats(seats) {
    const select = this.els.inviteSeat;
    if (!select) return;
    const chosen = select.value;
    const free = ORDER.filter((seat) => seats[seat].kind === 'bot');
    select.replaceChildren(
      ...free.map((seat) => {
        const option = document.createElement('option');
        option.value = String(seat);
        option.textContent = this.lobbyName(seat);
        option.selected = String(seat) === chosen;
        return option;
      }),
    );
    select.disabled = free.length === 0;
  }

  /** A seat's name in the lobby: the same on every person's page (the invitation's). */
  lobbyName(seat) {
    const pos = this.friends.lobby_positions?.[seat] ?? this.posOf(seat);
    return t(`seat.short.${pos}`);
  }

  lobbyRow(entry, seat, you, f) {
    const where = this.lobbyName(seat);
    const human = entry.kind === 'human';
    let holder = esc(this.holderName(entry));
    if (seat === you) holder = esc(t('js.friends.you', { name: entry.name || '?' }));
    if (seat === f.host_seat) holder += ` <span class="host-mark">(${esc(t('js.friends.host'))})</span>`;
    const badge = human && seat !== you ? this.badgeHTML(entry) : '';
    let controls = '';
    if (f.you_host) {
      const others = ORDER.filter((other) => other !== seat)
        .map((other) => `<option value="${other}">${esc(this.lobbyName(other))}</option>`)
        .join('');
      const name = human ? this.holderName(entry) : where;
      const moveId = `move-to-${seat}`;
      controls +=
        `<span class="lobby-control"><label class="visually-hidden" for="${moveId}">${esc(t('js.friends.move_to', { name }))}</label>` +
        `<select id="${moveId}" data-focus="move-to-${seat}">${others}</select>` +
        `<button type="button" class="secondary small" data-op="move" data-seat="${seat}" data-focus="move-${seat}" aria-label="${esc(t('js.friends.move_named', { name }))}">${esc(t('js.friends.move'))}</button></span>`;
      if (!human) {
        const levelId = `level-${seat}`;
        const options = this.levels
          .map((level) => `<option value="${level}"${level === entry.level ? ' selected' : ''}>${esc(t(`level.${level}`))}</option>`)
          .join('');
        controls +=
          `<span class="lobby-control"><label class="visually-hidden" for="${levelId}">${esc(t('js.friends.level_of', { seat: where }))}</label>` +
          `<select id="${levelId}" data-op="level" data-seat="${seat}" data-focus="level-${seat}">${options}</select></span>`;
      } else if (seat !== you) {
        controls += `<button type="button" class="secondary small" data-op="free" data-seat="${seat}" data-focus="free-${seat}" aria-label="${esc(t('js.friends.free_named', { name: entry.name || '?' }))}">${esc(t('js.friends.free'))}</button>`;
      }
    } else if (!human) {
      controls += `<button type="button" class="secondary small" data-op="sit" data-seat="${seat}" data-focus="sit-${seat}">${esc(t('js.friends.sit', { seat: where }))}</button>`;
    }
    return (
      `<li class="lobby-seat${seat === you ? ' is-you' : ''}" data-seat="${seat}">` +
      `<span class="lobby-position">${esc(where)}</span>` +
      `<span class="lobby-holder">${holder} ${badge} <span class="say" aria-hidden="true" hidden></span></span>` +
      (controls ? `<span class="lobby-controls">${controls}</span>` : '') +
      `</li>`
    );
  }

  // ----- presence -----

  badgeHTML(entry) {
    const p = entry.presence;
    if (!p || p === 'computer') return '';
    return `<span class="presence presence-${p}">${esc(t(`js.friends.presence.${p}`))}</span>`;
  }

  /** Each other person's plate says whether they are here, away, or replaced by the
   * computer; a computer's plate says its level. */
  renderBadges() {
    const s = this.state;
    for (const entry of s.table.seats) {
      this.drawAvatar(entry);
      const el = this.root.querySelector(`#seat-${this.posOf(entry.seat)} .presence`);
      if (!el) continue;
      let text = '';
      let kind = '';
      if (entry.seat !== s.table.you) {
        if (entry.kind === 'bot') {
          text = this.holderName(entry);
          kind = 'computer';
        } else if (entry.presence && entry.presence !== 'computer') {
          text = t(`js.friends.presence.${entry.presence}`);
          kind = entry.presence;
        }
      }
      el.textContent = text;
      el.className = `presence presence-${kind}`;
      el.hidden = !text;
    }
  }

  /** An account's picture over its plate (drawn by the server from the name; a guest and
   * a computer have none). */
  drawAvatar(entry) {
    const plate = this.root.querySelector(`#seat-${this.posOf(entry.seat)} .plate`);
    if (!plate) return;
    const name = entry.kind === 'human' && !entry.guest && typeof entry.name === 'string' ? entry.name : '';
    let img = plate.querySelector(':scope > .plate-avatar');
    if (!name) {
      img?.remove();
      return;
    }
    const src = `/avatar/${encodeURIComponent(name)}.svg`;
    if (!img) {
      img = document.createElement('img');
      img.className = 'plate-avatar';
      img.alt = '';
      img.width = 24;
      img.height = 24;
      plate.prepend(img);
    }
    if (img.getAttribute('src') !== src) img.setAttribute('src', src);
  }

  // ----- quick messages -----

  /** A `say` event: a bubble beside the speaker's seat for a few seconds, and the live
   * region says it. */
  showSay(message) {
    if (!this.active || typeof message.seat !== 'number') return;
    say(message.said || message.text);
    const lobby = this.state.game === null;
    const el = lobby
      ? this.els.seats.querySelector(`.lobby-seat[data-seat="${message.seat}"] .say`)
      : this.root.querySelector(`#seat-${this.posOf(message.seat)} .say`);
    if (!el) return;
    el.textContent = message.text;
    el.hidden = false;
    el.classList.remove('pop');
    void el.offsetWidth; // restarts the animation
    el.classList.add('pop');
    clearTimeout(this.sayTimers.get(message.seat));
    this.sayTimers.set(
      message.seat,
      setTimeout(() => {
        el.hidden = true;
      }, SAY_MS),
    );
  }

  /** Whether this person hid the reactions (a choice kept in the browser). */
  muted() {
    try {
      return localStorage.getItem(MUTE_KEY) === '1';
    } catch {
      return Boolean(this.els.mute.checked);
    }
  }

  setMuted(on) {
    try {
      if (on) localStorage.setItem(MUTE_KEY, '1');
      else localStorage.removeItem(MUTE_KEY);
    } catch {
      // kept for this page only (the box stays as set)
    }
  }

  /** A `react` event: the emote over the sender's plate for a few seconds (its module
   * loaded at the first one), unless this person hid the reactions. */
  async showReaction(message) {
    if (!this.active || typeof message.seat !== 'number' || typeof message.symbol !== 'string') return;
    if (this.els.mute.checked) return;
    say(message.said);
    const lobby = this.state.game === null;
    const plate = lobby
      ? this.els.seats.querySelector(`.lobby-seat[data-seat="${message.seat}"] .lobby-holder`)
      : this.root.querySelector(`#seat-${this.posOf(message.seat)} .plate`);
    if (!plate) return;
    const { showReaction } = await import('./reactions.js');
    showReaction(plate, message.seat, message.symbol);
  }

  togglePhrases(open) {
    const els = this.els;
    els.phrases.hidden = !open;
    els.sayButton.setAttribute('aria-expanded', String(open));
    if (open) els.phrases.querySelector('button')?.focus();
  }

  // ----- the idle warning -----

  /** A `notice` event: the player is warned that the computer plays for them soon (a
   * warning said at once, with a countdown); another player's is said politely. */
  showNotice(message) {
    if (message.kind !== 'idle_warning' || !this.state) return;
    if (message.seat !== this.state.table.you) {
      say(message.text);
      return;
    }
    const els = this.els;
    const summary = document.getElementById('summary'); // held open, it hides this
    if (summary.open && !this.state.awaiting_next_deal) summary.close();
    let left = Number(message.seconds) || 0;
    this.idleKey = this.turnKey();
    els.idleText.textContent = message.text;
    els.idleCount.textContent = t('js.friends.idle_count', { seconds: left });
    els.idle.hidden = false;
    this.root.classList.add('idle-warned');
    clearInterval(this.idleTimer);
    this.idleTimer = setInterval(() => {
      left -= 1;
      if (left < 0) {
        this.clearIdle();
        return;
      }
      els.idleCount.textContent = t('js.friends.idle_count', { seconds: left });
    }, 1000);
  }

  // ----- the clock everyone sees -----

  /** A `clock` message: the person to play has `seconds` left before the computer plays
   * for them; their plate counts down until the table moves on. */
  showClock(message) {
    this.clearClock();
    const pos = this.posOf(message.seat);
    const plate = this.root.querySelector(`#seat-${pos} .plate`);
    if (!plate) return;
    const clock = document.createElement('span');
    clock.className = 'clock';
    clock.setAttribute('role', 'timer');
    clock.setAttribute('aria-label', t('js.friends.clock_label'));
    plate.append(clock);
    const end = Date.now() + Number(message.seconds) * 1000;
    const draw = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
      clock.classList.toggle('clock-low', left <= 15);
    };
    draw();
    this.clock = { seq: message.seq, element: clock, timer: setInterval(draw, 500) };
  }

  clearClock() {
    if (!this.clock) return;
    clearInterval(this.clock.timer);
    this.clock.element.remove();
    this.clock = null;
  }

  turnKey() {
    const g = this.state && this.state.game;
    if (!g) return '';
    const d = g.deal;
    return `${g.deal_number}:${d.calls.length}:${d.tricks.length}:${d.trick.length}:${(d.legal_actions || []).length}`;
  }

  /** The warning goes once the player has acted (or the computer for them). */
  checkIdle() {
    if (this.els.idle.hidden) return;
    if (this.turnKey() !== this.idleKey) this.clearIdle();
  }

  clearIdle() {
    clearInterval(this.idleTimer);
    this.idleTimer = null;
    this.els.idle.hidden = true;
    this.root.classList.remove('idle-warned');
  }

  // ----- the page's controls -----

  async copyLink() {
    const els = this.els;
    try {
      await navigator.clipboard.writeText(els.link.value);
      els.copyStatus.textContent = t('js.friends.copied');
    } catch {
      els.link.focus();
      els.link.select();
      els.copyStatus.textContent = t('js.friends.copy_failed');
    }
  }

  listen() {
    const els = this.els;
    els.copy.addEventListener('click', () => this.copyLink());
    els.link.addEventListener('focus', () => els.link.select());
    els.start.addEventListener('click', () => this.actions.host('start'));
    els.seats.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-op]');
      if (!b) return;
      const seat = Number(b.dataset.seat);
      if (b.dataset.op === 'sit') this.actions.sit(seat);
      else if (b.dataset.op === 'free') this.actions.host('free', { seat });
      else if (b.dataset.op === 'move') {
        const to = Number(els.seats.querySelector(`#move-to-${seat}`).value);
        this.actions.host('move', { seat, to });
      }
    });
    els.seats.addEventListener('change', (e) => {
      const select = e.target.closest('select[data-op="level"]');
      if (select) this.actions.host('level', { seat: Number(select.dataset.seat), level: select.value });
    });
    els.sayButton.addEventListener('click', () => this.togglePhrases(els.phrases.hidden));
    els.mute.addEventListener('change', () => this.setMuted(els.mute.checked));
    els.phrases.addEventListener('click', (e) => {
      const emote = e.target.closest('button[data-emote]');
      if (emote) {
        this.actions.react(emote.dataset.emote);
        this.togglePhrases(false);
        els.sayButton.focus();
        return;
      }
      const b = e.target.closest('button[data-phrase]');
      if (!b) return;
      this.actions.say(b.dataset.phrase);
      this.togglePhrases(false);
      els.sayButton.focus();
    });
    els.phrases.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      this.togglePhrases(false);
      els.sayButton.focus();
    });
    document.addEventListener('click', (e) => {
      if (!els.phrases.hidden && !els.phrases.contains(e.target) && !els.sayButton.contains(e.target)) this.togglePhrases(false);
    });
    els.reportButton.addEventListener('click', () => {
      this.fillReport();
      els.reportDialog.showModal();
    });
    els.leaveButton.addEventListener('click', () => {
      els.leaveDialog.returnValue = '';
      els.leaveDialog.showModal();
    });
    els.leaveDialog.addEventListener('close', () => {
      if (els.leaveDialog.returnValue !== 'leave') {
        els.leaveButton.focus();
        return;
      }
      this.leaving = true;
      this.actions.leave();
    });
  }
}
