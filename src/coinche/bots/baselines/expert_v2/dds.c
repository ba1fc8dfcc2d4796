/*
 * expert-v2's copy of the double-dummy solver: src/coinche/bots/solver/dds.c as it was at
 * commit 023e446, frozen with the baseline (only the module's name differs). Its values are
 * those of the current solver; its speed and its count of nodes, the meter of expert-v2's
 * work budget, are those of the solver expert-v2 was tuned and timed with.
 *
 * _dds: a double-dummy solver for coinche (belote coinchee).
 *
 * Given the four hands face up, the trump mode and the trick in progress, it finds how many
 * card points a team takes when both sides play perfectly. It is the fast twin of the
 * pure-Python module reference.py and must give exactly the same answers.
 *
 * Conventions (those of coinche.engine):
 *   card     0..31 = suit * 8 + rank, rank 0..7 = 7 8 9 T J Q K A
 *   card set a 32-bit mask, bit c set when card c is in the set
 *   trump    0..3 a suit, 4 = SA (no trump), 5 = TA (all trump)
 *   seats    0..3 in playing order; team = seat & 1
 *
 * The search
 *   - Alpha-beta (fail-soft) on single card plays. The value of a node is the number of
 *     points the counted team ("team") still wins: the cards of the trick in progress,
 *     every card still held, the last-trick bonus and, when earned, the sweep bonus.
 *   - A transposition table at trick starts, keyed by the four remaining hands (exactly),
 *     the leader and who may still earn the sweep bonus. It stores a lower and an upper
 *     bound of the points still to win from there (so it does not depend on the points
 *     already won) and the best lead found.
 *   - The exact value comes from null-window tests "value >= b?" that share the table,
 *     bisecting the range of possible values (MTD-style; plain MTD(f) creeps one point per
 *     test on card points). A threshold question (can_reach) is a single such test.
 *   - Quick bounds at trick starts: the team cannot win more than the points left, and in
 *     a suit contract the trumps above all of the other team's trumps are sure points.
 *   - Equivalent cards: two cards of one suit in one hand, worth the same points, with
 *     no card of that suit between them still held by someone else or lying in the
 *     trick, give the same value: only one is searched.
 *   - Move ordering: the table's best lead, two killer leads per depth and seat, then a
 *     static heuristic (sure winners and their points, feeding the partner's safe trick,
 *     cheapest discards).
 *   - can_sweep is a separate, boolean search on tricks (points do not matter there).
 *
 * The transposition table (2^17 buckets of two entries, 8 MB) belongs to the module state;
 * it is allocated on first use and emptied for each public call by bumping a generation
 * number. The GIL is held throughout, so the table is never used by two searches at once.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_TRUMP 4
#define ALL_TRUMP 5

#define TT_BUCKET_BITS 17                /* 2^17 buckets of 64 bytes: 8 MB */
#define TT_BUCKETS (1u << TT_BUCKET_BITS)
#define TT_WAYS 2                        /* entries per bucket: one cache line */

#define MAX_BONUS 1000
#define INF 30000

static const uint32_t SUIT_MASK[4] = {0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u};

/* Strength of each rank (7 8 9 T J Q K A) inside its suit, 0 weakest .. 7 strongest. */
static const uint8_t PLAIN_STRENGTH[8] = {0, 1, 2, 6, 3, 4, 5, 7};
static const uint8_t TRUMP_STRENGTH[8] = {0, 1, 6, 4, 7, 2, 3, 5};

/* Card points by rank (RULES.md section 1). */
static const uint8_t TRUMP_POINTS[8] = {0, 0, 14, 10, 20, 3, 4, 11};
static const uint8_t PLAIN_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 11};
static const uint8_t SA_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 19};
static const uint8_t TA_POINTS[8] = {0, 0, 9, 5, 14, 1, 3, 6};
static const uint8_t TA_POINTS_FFB[8] = {0, 0, 9, 5, 13, 2, 3, 6};

/* Bits set in x (portable: without -mpopcnt, __builtin_popcount is a library call). */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* The lowest card of a non-empty set. */
static inline int lowest_card(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int c = 0;
    while (!(x & 1u)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}


/* ------------------------------------------------------------------------------------ */
/* Transposition table                                                                  */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t hands[4]; /* the four hands at the trick start: the exact key */
    int16_t lower;     /* the value is >= lower */
    int16_t upper;     /* the value is <= upper */
    uint8_t meta;      /* leader | (sweep eligibility + 1) << 2 | search kind << 4 */
    uint8_t best;      /* best lead found, 0xFF if none */
    uint16_t gen;      /* generation that wrote the entry; other generations are empty */
} TTEntry;

/* A bucket fills one 64-byte cache line, so a probe costs at most one cache miss. */
typedef struct {
    TTEntry e[TT_WAYS];
    uint8_t pad[64 - TT_WAYS * sizeof(TTEntry)];
} TTBucket;

/* The module state: the transposition table and its generation counter. */
typedef struct {
    void *memory;     /* the allocation (the table starts at the next 64-byte boundary) */
    TTBucket *table;  /* NULL until the first search */
    uint16_t gen;     /* generation of the current call; entries of other ones are empty */
    uint64_t last_nodes; /* trick starts visited by the last call (diagnostics) */
} ModuleState;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static inline uint32_t tt_index(const uint32_t *hands, int meta) {
    uint64_t a = (uint64_t)hands[0] | (uint64_t)hands[1] << 32;
    uint64_t b = (uint64_t)hands[2] | (uint64_t)hands[3] << 32;
    return (uint32_t)mix64(a ^ mix64(b + (uint64_t)meta * 0x9e3779b97f4a7c15ULL)) & (TT_BUCKETS - 1);
}

/* ------------------------------------------------------------------------------------ */
/* Cards, tricks and legality                                                           */
/* ------------------------------------------------------------------------------------ */

/* The trick being played, passed down the recursion by value. */
typedef struct {
    int leader;     /* seat that led it */
    int n;          /* cards played so far (0..4) */
    int led;        /* suit led (when n > 0) */
    int win_card;   /* card winning it so far (when n > 0) */
    int win_idx;    /* its index in the trick: the winning seat is leader + win_idx */
    int points;     /* card points in it */
    int elig;       /* who may still earn the sweep bonus: -1 nobody, 0/1 that team, 2 either */
    uint32_t cards; /* the cards in it */
} Trick;

typedef struct {
    /* the rules of the position */
    int trump;
    int undertrump_forced;
    int last_bonus;
    int sweep_bonus;
    uint8_t points[32];  /* card points */
    uint8_t power[32];   /* strength inside the suit, +8 for the trumps of a suit contract */
    uint32_t above[32];  /* cards of the same suit that beat the card */
    uint8_t order[4][8]; /* each suit's cards, weakest first */
    uint32_t trump_mask; /* cards that can cut: the trump suit, none at SA/TA */
    uint32_t zero_mask;  /* cards worth no points */
    /* the search */
    uint32_t hand[4];    /* cards still held */
    int remaining;       /* their card points */
    int team;            /* the team whose points are counted: the maximizer */
    int sweep_seat;      /* can_sweep: the seat that must win every trick, -1: any seat of team */
    TTBucket *tt;
    uint16_t gen;
    uint64_t nodes;      /* trick starts visited */
    int killers[9][4][2]; /* by cards left and seat: the last two leads that caused a cutoff */
} Solver;

/* Fill the card tables of a trump mode (as the engine's cards.py and play.tables do). */
static void set_rules(Solver *s, int trump, int ffb_ta) {
    s->trump = trump;
    s->trump_mask = trump < NO_TRUMP ? SUIT_MASK[trump] : 0;
    s->zero_mask = 0;
    for (int c = 0; c < 32; c++) {
        int suit = c >> 3, rank = c & 7;
        const uint8_t *pts;
        if (trump == NO_TRUMP)
            pts = SA_POINTS;
        else if (trump == ALL_TRUMP)
            pts = ffb_ta ? TA_POINTS_FFB : TA_POINTS;
        else
            pts = suit == trump ? TRUMP_POINTS : PLAIN_POINTS;
        s->points[c] = pts[rank];
        if (!pts[rank]) s->zero_mask |= 1u << c;
        int strength = (trump == ALL_TRUMP || suit == trump) ? TRUMP_STRENGTH[rank] : PLAIN_STRENGTH[rank];
        s->power[c] = (uint8_t)(strength + ((s->trump_mask >> c & 1) ? 8 : 0));
        s->order[suit][strength] = (uint8_t)c;
    }
    for (int c = 0; c < 32; c++) {
        uint32_t m = 0;
        for (int r = 0; r < 8; r++) {
            int d = (c & ~7) | r;
            if (s->power[d] > s->power[c]) m |= 1u << d;
        }
        s->above[c] = m;
    }
}

/* Does card c beat the card w currently winning the trick? */
static inline int beats(const Solver *s, int c, int w) {
    if ((c >> 3) == (w >> 3)) return s->power[c] > s->power[w];
    return (s->trump_mask >> c & 1) && !(s->trump_mask >> w & 1);
}

/* The legal cards of `seat`, holding `hand`, on trick t: exactly the engine's legal_mask. */
static uint32_t legal_mask(const Solver *s, uint32_t hand, const Trick *t, int seat) {
    if (t->n == 0) return hand;
    int w = t->win_card;
    uint32_t follow = hand & SUIT_MASK[t->led];
    uint32_t over;
    if (s->trump == NO_TRUMP) return follow ? follow : hand;
    if (s->trump == ALL_TRUMP) { /* follow suit, beating the highest card of it if able */
        if (!follow) return hand;
        over = follow & s->above[w];
        return over ? over : follow;
    }
    uint32_t trumps = hand & s->trump_mask;
    if (t->led == s->trump) { /* trump led: overtrump if able, even over the partner */
        if (!trumps) return hand;
        over = trumps & s->above[w];
        return over ? over : trumps;
    }
    if (follow) return follow;
    int partner_winning = ((t->leader + t->win_idx) & 1) == (seat & 1);
    if (partner_winning || !trumps) return hand;
    if (s->trump_mask >> w & 1) { /* an opponent has cut: overtrump, else undertrump */
        over = trumps & s->above[w];
        if (over) return over;
        return s->undertrump_forced ? trumps : hand;
    }
    return trumps; /* must cut */
}

/* Add card c, played by the next seat, to trick t. */
static inline void trick_add(const Solver *s, Trick *t, int c) {
    if (t->n == 0) {
        t->led = c >> 3;
        t->win_card = c;
        t->win_idx = 0;
    } else if (beats(s, c, t->win_card)) {
        t->win_card = c;
        t->win_idx = t->n;
    }
    t->n++;
    t->points += s->points[c];
    t->cards |= 1u << c;
}

/* Keep one card of each class of equivalent cards of `legal` (cards of one hand). Two cards
 * of a suit are equivalent when no card still in play (`in_play`: held by anyone, or in the
 * trick) of another seat lies between them in that suit's order and, if `by_points`, they are
 * worth the same points: exchanging them changes neither who wins any trick nor the points.
 * (Cards worth the same points are the zero-point ones, the lowest of their suit.) */
static uint32_t drop_equivalents(const Solver *s, uint32_t legal, uint32_t in_play, int by_points) {
    uint32_t cand = by_points ? legal & s->zero_mask : legal;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t sm = cand & SUIT_MASK[suit];
        if (!(sm & (sm - 1))) continue; /* fewer than two candidates in this suit */
        int prev = -1;                  /* the previous card in play, if one of the candidates */
        for (int k = 0; k < 8; k++) {
            int c = s->order[suit][k];
            uint32_t b = 1u << c;
            if (!(in_play & b)) continue; /* already won: separates nothing */
            if ((sm & b) && prev >= 0 && (!by_points || s->points[prev] == s->points[c])) legal &= ~b;
            prev = (sm & b) ? c : -1;
        }
    }
    return legal;
}

/* ------------------------------------------------------------------------------------ */
/* Move ordering                                                                        */
/* ------------------------------------------------------------------------------------ */

/* The strongest card of `mask` in `suit`, -1 if none. */
static inline int top_card(const Solver *s, uint32_t mask, int suit) {
    if (!(mask & SUIT_MASK[suit])) return -1;
    for (int k = 7; k >= 0; k--)
        if (mask >> s->order[suit][k] & 1) return s->order[suit][k];
    return -1;
}

/* Could the seat holding `hand`, playing later in a trick of suit `led`, beat card x (then
 * winning it)? An estimate used only to order moves. */
static inline int can_beat(const Solver *s, uint32_t hand, int led, int x) {
    uint32_t follow = hand & SUIT_MASK[led];
    if (follow) return (x >> 3) == led && (follow & s->above[x]) != 0;
    uint32_t trumps = hand & s->trump_mask;
    if (!trumps) return 0;
    if (s->trump_mask >> x & 1) return (trumps & s->above[x]) != 0;
    return 1;
}

/* Sort the legal cards of the seat to move, most promising first, into moves[]; returns
 * their number. The table's best lead comes first, then the killer leads (the two last
 * leads that refuted a trick start with as many cards left, by this seat), then by a static
 * score:
 *   leading:    a sure winner (no higher card outside, no ruff), richest first; then a low
 *               card to the partner's master; then the others, lowest first;
 *   following:  a win the left-hand opponent cannot take back, richest first; the partner's
 *               safe trick, fed with points (non-master cards first); a win that may be
 *               overtaken, cheapest first; else the cheapest discard. */
static int order_moves(const Solver *s, const Trick *t, int seat, uint32_t legal, int tt_move, const int *killers,
                       int *moves) {
    uint32_t lho = s->hand[(seat + 1) & 3], partner = s->hand[(seat + 2) & 3], rho = s->hand[(seat + 3) & 3];
    uint32_t others = lho | partner | rho, opp = lho | rho;
    int scores[8];
    int n = 0;
    int partner_wins = 0, lho_to_play = 0, partner_safe = 0;
    if (t->n > 0) {
        partner_wins = ((t->leader + t->win_idx) & 1) == (seat & 1);
        lho_to_play = t->n < 3; /* the left-hand opponent still plays after this seat */
        partner_safe = partner_wins && (!lho_to_play || !can_beat(s, lho, t->led, t->win_card));
    }
    while (legal) {
        int c = lowest_card(legal);
        legal &= legal - 1;
        int suit = c >> 3, pts = s->points[c], sc;
        if (c == tt_move) {
            sc = 1 << 20;
        } else if (killers && c == killers[0]) {
            sc = 1 << 19;
        } else if (killers && c == killers[1]) {
            sc = 1 << 18;
        } else if (t->n == 0) {
            uint32_t sm = SUIT_MASK[suit];
            int ruff = s->trump < NO_TRUMP && suit != s->trump &&
                       ((!(lho & sm) && (lho & s->trump_mask)) || (!(rho & sm) && (rho & s->trump_mask)));
            int pc;
            if (!(s->above[c] & opp) && !ruff)
                sc = 4000 + 16 * pts;
            else if (!ruff && !(s->above[c] & partner) && (pc = top_card(s, partner, suit)) >= 0 &&
                     !(s->above[pc] & opp))
                sc = 3000 - 16 * pts;
            else
                sc = 1000 - 8 * s->power[c] - pts;
        } else if (beats(s, c, t->win_card)) {
            if (!lho_to_play || !can_beat(s, lho, t->led, c))
                sc = 4000 + 16 * pts - s->power[c];
            else
                sc = 2000 - 16 * pts - s->power[c];
        } else if (partner_safe) {
            sc = 3000 + 16 * pts - ((s->above[c] & others) ? 0 : 160);
        } else {
            sc = 1000 - 16 * pts - s->power[c];
        }
        int i = n++; /* insertion sort, descending */
        while (i > 0 && scores[i - 1] < sc) {
            scores[i] = scores[i - 1];
            moves[i] = moves[i - 1];
            i--;
        }
        scores[i] = sc;
        moves[i] = c;
    }
    return n;
}

/* ------------------------------------------------------------------------------------ */
/* Transposition table access                                                           */
/* ------------------------------------------------------------------------------------ */

static inline int tt_meta(int leader, int elig, int kind) { return leader | (elig + 1) << 2 | kind << 4; }

static inline int tt_match(const TTEntry *e, const Solver *s, int meta) {
    return e->gen == s->gen && e->meta == meta && e->hands[0] == s->hand[0] && e->hands[1] == s->hand[1] &&
           e->hands[2] == s->hand[2] && e->hands[3] == s->hand[3];
}

/* The entry of the current trick start (the hands of s), NULL if none. */
static TTEntry *tt_probe(Solver *s, int meta) {
    TTEntry *b = s->tt[tt_index(s->hand, meta)].e;
    for (int i = 0; i < TT_WAYS; i++)
        if (tt_match(b + i, s, meta)) return b + i;
    return NULL;
}

/* Record lower <= value <= upper for the current trick start, merged with what is known.
 * Replaces, in order of preference: the same position, an empty (stale) entry, the entry
 * with the fewest cards left (the cheapest to search again). */
static void tt_store(Solver *s, int meta, int lower, int upper, int best) {
    TTEntry *b = s->tt[tt_index(s->hand, meta)].e;
    TTEntry *victim = NULL;
    int victim_cards = 99;
    for (int i = 0; i < TT_WAYS; i++) {
        TTEntry *e = b + i;
        if (tt_match(e, s, meta)) {
            if (e->lower > lower) lower = e->lower;
            if (e->upper < upper) upper = e->upper;
            victim = e;
            break;
        }
        int cards = e->gen != s->gen ? -1 : popcount32(e->hands[0]);
        if (cards < victim_cards) {
            victim = e;
            victim_cards = cards;
        }
    }
    memcpy(victim->hands, s->hand, sizeof victim->hands);
    victim->lower = (int16_t)lower;
    victim->upper = (int16_t)upper;
    victim->meta = (uint8_t)meta;
    victim->best = (uint8_t)(best < 0 ? 0xFF : best);
    victim->gen = s->gen;
}

/* ------------------------------------------------------------------------------------ */
/* The points search                                                                    */
/* ------------------------------------------------------------------------------------ */

static inline int mask_points(const Solver *s, uint32_t m) {
    int p = 0;
    for (; m; m &= m - 1) p += s->points[lowest_card(m)];
    return p;
}

/* The strongest trump of a non-empty set of trumps. */
static inline int top_trump(const Solver *s, uint32_t trumps) {
    return top_card(s, trumps, s->trump);
}

/* Quick bounds in a suit contract: a trump above every trump of the other team wins its trick
 * wherever it is played, so its points are sure for its team (and the other team cannot win
 * every trick). Narrows [*lo, *hi], the range of the counted team's value. */
static void sure_bounds(const Solver *s, int elig, int *lo, int *hi) {
    int team = s->team;
    uint32_t tm = s->trump_mask;
    uint32_t mine = (s->hand[team] | s->hand[team + 2]) & tm;
    uint32_t theirs = (s->hand[team ^ 1] | s->hand[(team ^ 1) + 2]) & tm;
    if (!mine && !theirs) return;
    uint32_t sure_mine = theirs ? mine & s->above[top_trump(s, theirs)] : mine;
    uint32_t sure_theirs = mine ? theirs & s->above[top_trump(s, mine)] : theirs;
    *lo += mask_points(s, sure_mine);
    if (sure_theirs) {
        *hi -= mask_points(s, sure_theirs);
        if (elig == 2 || elig == team) *hi -= s->sweep_bonus;
    }
}

static int search_start(Solver *s, int leader, int elig, int alpha, int beta);

/* Score the complete trick t, then search the rest of the deal. */
static int finish_trick(Solver *s, const Trick *t, int alpha, int beta) {
    int winner = (t->leader + t->win_idx) & 3, wteam = winner & 1;
    int elig = (t->elig == 2 || t->elig == wteam) ? wteam : -1;
    if (!s->hand[winner]) { /* that was the last trick */
        if (wteam != s->team) return 0;
        return t->points + s->last_bonus + (elig >= 0 ? s->sweep_bonus : 0);
    }
    int gain = wteam == s->team ? t->points : 0;
    return gain + search_start(s, winner, elig, alpha - gain, beta - gain);
}

/* Value of trick t in progress (0..3 cards played) by fail-soft alpha-beta: the best value
 * for the seat to move, or a bound beyond (alpha, beta). Writes the best card to *best_card
 * when given. */
static int search_play(Solver *s, const Trick *t, int alpha, int beta, int tt_move, int *best_card) {
    int seat = (t->leader + t->n) & 3;
    uint32_t hand = s->hand[seat];
    uint32_t legal = legal_mask(s, hand, t, seat);
    if (legal & (legal - 1) & s->zero_mask) {
        uint32_t in_play = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | t->cards;
        legal = drop_equivalents(s, legal, in_play, 1);
    }
    int moves[8];
    int nm = order_moves(s, t, seat, legal, tt_move, t->n == 0 ? s->killers[popcount32(hand)][seat] : NULL, moves);
    int maximizing = (seat & 1) == s->team;
    int best = maximizing ? -INF : INF, bc = -1;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        Trick child = *t;
        trick_add(s, &child, c);
        s->hand[seat] ^= 1u << c;
        s->remaining -= s->points[c];
        int v = child.n == 4 ? finish_trick(s, &child, alpha, beta) : search_play(s, &child, alpha, beta, -1, NULL);
        s->hand[seat] ^= 1u << c;
        s->remaining += s->points[c];
        if (maximizing ? v > best : v < best) {
            best = v;
            bc = c;
            if (maximizing ? v > alpha : v < beta) {
                if (maximizing)
                    alpha = v;
                else
                    beta = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (best_card) *best_card = bc;
    return best;
}

/* The last trick: every seat holds one card. */
static int last_trick(Solver *s, int leader, int elig) {
    Trick t = {leader, 0, 0, 0, 0, 0, elig, 0};
    for (int i = 0; i < 4; i++) trick_add(s, &t, lowest_card(s->hand[(leader + i) & 3]));
    int wteam = (leader + t.win_idx) & 1;
    if (wteam != s->team) return 0;
    return t.points + s->last_bonus + ((elig == 2 || elig == wteam) ? s->sweep_bonus : 0);
}

/* Value of the trick start where `leader` leads, by fail-soft alpha-beta with the table. */
static int search_start(Solver *s, int leader, int elig, int alpha, int beta) {
    s->nodes++;
    uint32_t lead_hand = s->hand[leader];
    if (!lead_hand) return 0;
    if (!(lead_hand & (lead_hand - 1))) return last_trick(s, leader, elig);
    /* quick bounds: between the sure points and all points left */
    int lo = 0, hi = s->remaining + s->last_bonus + ((elig == 2 || elig == s->team) ? s->sweep_bonus : 0);
    if (s->trump < NO_TRUMP) sure_bounds(s, elig, &lo, &hi);
    if (hi <= alpha) return hi;
    if (lo >= beta) return lo;

    int meta = tt_meta(leader, elig, 0), tt_move = -1;
    TTEntry *e = tt_probe(s, meta);
    if (e) {
        if (e->lower >= beta) return e->lower;
        if (e->upper <= alpha) return e->upper;
        if (e->lower > alpha) alpha = e->lower;
        if (e->upper < beta) beta = e->upper;
        if (e->best != 0xFF) tt_move = e->best;
    }
    Trick t = {leader, 0, 0, 0, 0, 0, elig, 0};
    int best_card = -1;
    int v = search_play(s, &t, alpha, beta, tt_move, &best_card);
    if ((leader & 1) == s->team ? v >= beta : v <= alpha) { /* the lead refuted the window */
        int *k = s->killers[popcount32(lead_hand)][leader];
        if (k[0] != best_card) {
            k[1] = k[0];
            k[0] = best_card;
        }
    }
    if (v <= alpha)
        tt_store(s, meta, -INF, v, best_card);
    else if (v >= beta)
        tt_store(s, meta, v, INF, best_card);
    else
        tt_store(s, meta, v, v, best_card);
    return v;
}

/* Value of the root trick (0..4 cards played) for the window (alpha, beta). */
static int search_root(Solver *s, const Trick *t, int alpha, int beta) {
    if (t->n == 4) return finish_trick(s, t, alpha, beta);
    if (t->n == 0) return search_start(s, t->leader, t->elig, alpha, beta);
    return search_play(s, t, alpha, beta, -1, NULL);
}

/* Bounds of the root value: the sure points, and every point left with the bonuses. */
static void root_bounds(const Solver *s, const Trick *t, int *lo, int *hi) {
    *lo = 0;
    *hi = 0;
    if (t->n == 0 && !s->hand[t->leader]) return; /* nothing left to play */
    *hi = t->points + s->remaining + s->last_bonus + ((t->elig == 2 || t->elig == s->team) ? s->sweep_bonus : 0);
    if (s->trump < NO_TRUMP && t->n == 0) sure_bounds(s, t->elig, lo, hi);
}

/* The exact value: null-window tests "value >= b?" bisecting [lo, hi]. Each test returns a
 * fail-soft bound that narrows the range; the table keeps what earlier tests learned.
 * (Plain MTD(f), moving from the last bound, would creep one point per test: card points
 * make the value too fine-grained for it.) */
static int solve_exact(Solver *s, const Trick *t) {
    int lo, hi;
    root_bounds(s, t, &lo, &hi);
    while (lo < hi) {
        int b = (lo + hi + 1) / 2;
        int v = search_root(s, t, b - 1, b);
        if (v >= b)
            lo = v;
        else
            hi = v;
    }
    return lo;
}

/* ------------------------------------------------------------------------------------ */
/* The sweep search (can_sweep): can the team win every remaining trick?                */
/* ------------------------------------------------------------------------------------ */

static int sweep_start(Solver *s, int leader);

/* Does the trick won by `winner` keep the sweep alive? */
static inline int sweep_kept(const Solver *s, int winner) {
    return s->sweep_seat >= 0 ? winner == s->sweep_seat : (winner & 1) == s->team;
}

/* 1 if the sweep survives trick t and all that follow, against any defence. */
static int sweep_play(Solver *s, const Trick *t) {
    int seat = (t->leader + t->n) & 3;
    uint32_t hand = s->hand[seat];
    uint32_t legal = legal_mask(s, hand, t, seat);
    if (legal & (legal - 1)) { /* points do not matter here: any adjacent cards are equivalent */
        uint32_t in_play = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | t->cards;
        legal = drop_equivalents(s, legal, in_play, 0);
    }
    /* strongest cards first: the likeliest to win for the sweeping side, to refute for the
     * other */
    int moves[8], nm = 0;
    for (; legal; legal &= legal - 1) {
        int c = lowest_card(legal), i = nm++;
        while (i > 0 && s->power[moves[i - 1]] < s->power[c]) {
            moves[i] = moves[i - 1];
            i--;
        }
        moves[i] = c;
    }
    int ours = (seat & 1) == s->team;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        Trick child = *t;
        trick_add(s, &child, c);
        s->hand[seat] ^= 1u << c;
        int r;
        if (child.n == 4) {
            int winner = (child.leader + child.win_idx) & 3;
            r = sweep_kept(s, winner) && sweep_start(s, winner);
        } else {
            r = sweep_play(s, &child);
        }
        s->hand[seat] ^= 1u << c;
        if (ours ? r : !r) return r;
    }
    return !ours;
}

/* In a suit contract, a trump above all the sweeper's trumps, held by another seat, wins a
 * trick: no sweep. */
static int sweep_hopeless(const Solver *s) {
    if (s->trump >= NO_TRUMP) return 0;
    uint32_t tm = s->trump_mask, mine, others;
    if (s->sweep_seat >= 0) {
        mine = s->hand[s->sweep_seat] & tm;
        others = (s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3]) & tm & ~mine;
    } else {
        mine = (s->hand[s->team] | s->hand[s->team + 2]) & tm;
        others = (s->hand[s->team ^ 1] | s->hand[(s->team ^ 1) + 2]) & tm;
    }
    if (!others) return 0;
    return !mine || (others & s->above[top_trump(s, mine)]) != 0;
}

static int sweep_start(Solver *s, int leader) {
    s->nodes++;
    if (!s->hand[leader]) return 1;
    if (sweep_hopeless(s)) return 0;
    int meta = tt_meta(leader, -1, 1);
    TTEntry *e = tt_probe(s, meta);
    if (e) return e->lower;
    Trick t = {leader, 0, 0, 0, 0, 0, -1, 0};
    int r = sweep_play(s, &t);
    tt_store(s, meta, r, r, -1);
    return r;
}

/* ------------------------------------------------------------------------------------ */
/* Python interface                                                                     */
/* ------------------------------------------------------------------------------------ */

/* Every function takes the position first, as 9 positional arguments:
 *   hands (4 ints), trump, leader, trick (tuple of 0..3 cards), undertrump_forced,
 *   ffb_ta, last_trick_bonus, sweep_bonus, sweep_team (None, 0 or 1)
 * then its own arguments. */
#define POS_ARGS 9

static ModuleState *get_state(PyObject *module) { return (ModuleState *)PyModule_GetState(module); }

static int as_int(PyObject *o, const char *what, long lo, long hi, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld..%ld, not %ld", what, lo, hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

static int as_mask(PyObject *o, uint32_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a hand must be an int card mask");
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || v > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "a hand must be a 32-bit card mask");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* Read and check a position (POS_ARGS arguments, then `extra` more): set up the solver and
 * the root trick. */
static int parse_position(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t extra, Solver *s, Trick *root) {
    if (nargs != POS_ARGS + extra) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments, got %zd", POS_ARGS + extra, nargs);
        return -1;
    }
    long trump, leader, last_bonus, sweep_bonus, sweep_team = -1, c;
    PyObject *hands = args[0], *trick = args[3];
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != 4) {
        PyErr_SetString(PyExc_ValueError, "hands must be a tuple of 4 card masks");
        return -1;
    }
    uint32_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (as_mask(PyTuple_GET_ITEM(hands, i), &s->hand[i]) < 0) return -1;
        if (seen & s->hand[i]) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= s->hand[i];
    }
    if (as_int(args[1], "trump", 0, 5, &trump) < 0 || as_int(args[2], "leader", 0, 3, &leader) < 0) return -1;
    int uf = PyObject_IsTrue(args[4]), ffb = PyObject_IsTrue(args[5]);
    if (uf < 0 || ffb < 0) return -1;
    if (as_int(args[6], "last_trick_bonus", 0, MAX_BONUS, &last_bonus) < 0 ||
        as_int(args[7], "sweep_bonus", 0, MAX_BONUS, &sweep_bonus) < 0)
        return -1;
    if (args[8] != Py_None && as_int(args[8], "sweep_team", 0, 1, &sweep_team) < 0) return -1;

    set_rules(s, (int)trump, ffb);
    s->undertrump_forced = uf;
    s->last_bonus = (int)last_bonus;
    s->sweep_bonus = (int)sweep_bonus;

    if (!PyTuple_Check(trick) || PyTuple_GET_SIZE(trick) > 3) {
        PyErr_SetString(PyExc_ValueError, "the trick in progress must be a tuple of 0..3 cards");
        return -1;
    }
    Trick t = {(int)leader, 0, 0, 0, 0, 0, sweep_bonus == 0 ? -1 : (sweep_team < 0 ? 2 : (int)sweep_team), 0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(trick); i++) {
        if (as_int(PyTuple_GET_ITEM(trick, i), "a card", 0, 31, &c) < 0) return -1;
        if (seen >> c & 1) {
            PyErr_Format(PyExc_ValueError, "card %ld of the trick is also held or played twice", c);
            return -1;
        }
        seen |= 1u << c;
        trick_add(s, &t, (int)c);
    }
    int size = -1;
    for (int i = 0; i < 4; i++) {
        int played = ((i - t.leader) & 3) < t.n;
        int n = popcount32(s->hand[i]) + played;
        if (size >= 0 && n != size) {
            PyErr_SetString(PyExc_ValueError,
                            "hand sizes are inconsistent: after the trick every hand must hold as many cards");
            return -1;
        }
        size = n;
    }
    if (t.n && size == 0) {
        PyErr_SetString(PyExc_ValueError, "the player to move has no card");
        return -1;
    }
    s->remaining = 0;
    for (int i = 0; i < 4; i++)
        for (uint32_t h = s->hand[i]; h; h &= h - 1) s->remaining += s->points[lowest_card(h)];
    *root = t;
    s->nodes = 0;
    memset(s->killers, 0xFF, sizeof s->killers); /* -1: none */
    s->team = 0;
    s->sweep_seat = -1;
    s->tt = NULL;
    return 0;
}

/* Give the solver the table, allocated on first use, in a fresh generation (empty). */
static int begin_search(PyObject *module, Solver *s) {
    ModuleState *st = get_state(module);
    if (!st->table) {
        st->memory = calloc((size_t)TT_BUCKETS + 1, sizeof(TTBucket));
        if (!st->memory) {
            PyErr_NoMemory();
            return -1;
        }
        st->table = (TTBucket *)(((uintptr_t)st->memory + 63) & ~(uintptr_t)63);
        st->gen = 0;
    }
    if (++st->gen == 0) { /* wrapped: really clear */
        memset(st->table, 0, (size_t)TT_BUCKETS * sizeof(TTBucket));
        st->gen = 1;
    }
    s->tt = st->table;
    s->gen = st->gen;
    return 0;
}

static int parse_team(PyObject *o, Solver *s) {
    long team;
    if (as_int(o, "team", 0, 1, &team) < 0) return -1;
    s->team = (int)team;
    return 0;
}

static PyObject *py_legal_cards(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Solver s;
    Trick t;
    (void)module;
    if (parse_position(args, nargs, 0, &s, &t) < 0) return NULL;
    int seat = (t.leader + t.n) & 3;
    return PyLong_FromUnsignedLong(legal_mask(&s, s.hand[seat], &t, seat));
}

static PyObject *py_solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Solver s;
    Trick t;
    if (parse_position(args, nargs, 1, &s, &t) < 0 || parse_team(args[POS_ARGS], &s) < 0 || begin_search(module, &s) < 0)
        return NULL;
    int v = solve_exact(&s, &t);
    get_state(module)->last_nodes = s.nodes;
    return PyLong_FromLong(v);
}

static PyObject *py_can_reach(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Solver s;
    Trick t;
    long target;
    if (parse_position(args, nargs, 2, &s, &t) < 0 || parse_team(args[POS_ARGS], &s) < 0 || begin_search(module, &s) < 0)
        return NULL;
    if (as_int(args[POS_ARGS + 1], "target", -1000000, 1000000, &target) < 0) return NULL;
    int lo, hi, r;
    root_bounds(&s, &t, &lo, &hi);
    if (target <= lo)
        r = 1;
    else if (target > hi)
        r = 0;
    else
        r = search_root(&s, &t, (int)target - 1, (int)target) >= target;
    get_state(module)->last_nodes = s.nodes;
    return PyBool_FromLong(r);
}

static PyObject *py_can_sweep(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Solver s;
    Trick t;
    long seat = -1;
    if (parse_position(args, nargs, 2, &s, &t) < 0 || parse_team(args[POS_ARGS], &s) < 0 || begin_search(module, &s) < 0)
        return NULL;
    if (args[POS_ARGS + 1] != Py_None) {
        if (as_int(args[POS_ARGS + 1], "seat", 0, 3, &seat) < 0) return NULL;
        if ((seat & 1) != s.team) {
            PyErr_Format(PyExc_ValueError, "seat %ld is not a seat of team %d", seat, s.team);
            return NULL;
        }
    }
    s.sweep_seat = (int)seat;
    int r = t.n == 0 ? sweep_start(&s, t.leader) : sweep_play(&s, &t);
    get_state(module)->last_nodes = s.nodes;
    return PyBool_FromLong(r);
}

static PyObject *py_move_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Solver s;
    Trick t;
    if (parse_position(args, nargs, 1, &s, &t) < 0 || parse_team(args[POS_ARGS], &s) < 0 || begin_search(module, &s) < 0)
        return NULL;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    int seat = (t.leader + t.n) & 3;
    uint32_t legal = legal_mask(&s, s.hand[seat], &t, seat);
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = lowest_card(m);
        Trick child = t;
        trick_add(&s, &child, c);
        s.hand[seat] ^= 1u << c;
        s.remaining -= s.points[c];
        int v = solve_exact(&s, &child);
        s.hand[seat] ^= 1u << c;
        s.remaining += s.points[c];
        PyObject *k = PyLong_FromLong(c), *val = PyLong_FromLong(v);
        int err = !k || !val || PyDict_SetItem(out, k, val) < 0;
        Py_XDECREF(k);
        Py_XDECREF(val);
        if (err) {
            Py_DECREF(out);
            return NULL;
        }
    }
    get_state(module)->last_nodes = s.nodes;
    return out;
}

static PyObject *py_last_nodes(PyObject *module, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(get_state(module)->last_nodes);
}

static PyMethodDef dds_methods[] = {
    {"legal_cards", (PyCFunction)(void (*)(void))py_legal_cards, METH_FASTCALL,
     "legal_cards(*position) -> int: legal card mask of the player to move."},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL,
     "solve(*position, team) -> int: points not yet won that team secures."},
    {"can_reach", (PyCFunction)(void (*)(void))py_can_reach, METH_FASTCALL,
     "can_reach(*position, team, target) -> bool: solve(...) >= target, by one null-window search."},
    {"can_sweep", (PyCFunction)(void (*)(void))py_can_sweep, METH_FASTCALL,
     "can_sweep(*position, team, seat) -> bool: can team (seat if not None) win every remaining trick."},
    {"move_values", (PyCFunction)(void (*)(void))py_move_values, METH_FASTCALL,
     "move_values(*position, team) -> dict: solve() after each legal card of the player to move."},
    {"last_nodes", py_last_nodes, METH_NOARGS, "last_nodes() -> int: trick starts visited by the last call."},
    {NULL, NULL, 0, NULL},
};

static void dds_free(void *module) {
    ModuleState *st = get_state((PyObject *)module);
    if (st && st->memory) {
        free(st->memory);
        st->memory = NULL;
        st->table = NULL;
    }
}

static struct PyModuleDef dds_module = {
    PyModuleDef_HEAD_INIT,
    "coinche.bots.baselines.expert_v2._dds",
    "expert-v2's double-dummy solver (C), frozen. Use coinche.bots.baselines.expert_v2.solver.",
    sizeof(ModuleState),
    dds_methods,
    NULL,
    NULL,
    NULL,
    dds_free,
};

PyMODINIT_FUNC PyInit__dds(void) {
    PyObject *m = PyModule_Create(&dds_module);
    if (!m) return NULL;
    ModuleState *st = get_state(m);
    st->memory = NULL;
    st->table = NULL;
    st->gen = 0;
    st->last_nodes = 0;
    return m;
}
