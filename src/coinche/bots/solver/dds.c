/*
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
 *   - A transposition table at trick starts (three tricks or more left), keyed by the shape
 *     of the position (see Shape): each suit's cards left renumbered by rank among
 *     themselves, interchangeable suits in a canonical order, the leader and who may still
 *     earn the sweep bonus. It stores a lower and an upper bound of the points still to win
 *     from there (so it does not depend on the points already won), the cards they were
 *     found for and the best lead. Another position of that shape reuses the bounds shifted
 *     by the points of corresponding cards (payoff similarity): 4x fewer nodes than keying
 *     on the exact cards. In front of it, a small direct-mapped table keyed by the exact
 *     cards (two tricks or more left) answers the positions met again without computing
 *     their shape or quick bounds.
 *   - The exact value comes from one full-window search with principal-variation scouting
 *     (every card after the first searched with a null window first). A threshold question
 *     (can_reach) is a single null-window search.
 *   - Quick bounds at trick starts: the team cannot win more than the points left; in a
 *     suit contract the trumps above all of the other team's trumps are sure points; the
 *     side on lead wins at least the tricks of the masters the leader can cash one after the
 *     other before an opponent may ruff (see quick_tricks), or those of the partner's
 *     masters when the leader can put the partner on lead at once with a card of a suit the
 *     partner cashes (see partner_tricks). The search then runs in the window these bounds
 *     leave. The quick tricks are counted after the transposition table is probed: it
 *     answers most of the trick starts they would.
 *   - Dominated cards: cards of one suit in one hand with no card of that suit between them
 *     still held by someone else or lying in the trick are interchangeable but for their
 *     points. Of such a run only one is searched: the richest when the trick surely goes to
 *     the player's team whatever the seats after it play (always known for the fourth seat),
 *     the cheapest when it surely goes to the other team, else one per point value (see
 *     drop_dominated).
 *   - Move ordering: the table's best lead, two killer leads per depth and seat, then a
 *     static heuristic (a low lead to the partner's master, sure winners and their points,
 *     feeding the partner's safe trick, the cheapest sure win, cheapest discards; in a suit
 *     contract, a lead the partner may ruff early and one an opponent may ruff last).
 *     Killers and history for the followers were measured and lost (they displace the
 *     static order, which cuts off on the first card 89 to 95% of the time).
 *   - The last two tricks: plain alpha-beta over every legal card (at most 16 lines), no
 *     ordering, equivalences or transposition table (only the table of exact positions).
 *   - can_sweep is a separate, boolean search on tricks (points do not matter there).
 *
 * The transposition table (2^14 buckets of two entries, 1 MB: as many nodes as 4 MB on full
 * deals, and both tables stay in a 2 MB L2 cache) and the table of exact positions (2^14
 * entries, 384 KB) belong to the module state; they are allocated on first use and emptied
 * for each public call by bumping a generation number. The GIL is held throughout, so the
 * tables are never used by two searches at once.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_TRUMP 4
#define ALL_TRUMP 5

#define TT_BUCKET_BITS 14                /* 2^14 buckets of 64 bytes: 1 MB */
#define TT_BUCKETS (1u << TT_BUCKET_BITS)
#define TT_WAYS 2                        /* entries per bucket: one cache line */

#define END_BITS 14                      /* table of exact positions: 2^14 entries of 24 bytes */
#define END_ENTRIES (1u << END_BITS)

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

/* The highest card of a non-empty set. */
static inline int highest_card(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(x);
#else
    int c = 31;
    while (!(x >> c & 1u)) c--;
    return c;
#endif
}

/* Of the cards `ls` (a suit in strength order), those above every card of `os` (the other
 * seats' cards of that suit in strength order): the masters. */
static inline uint32_t masters_over(uint32_t ls, uint32_t os) {
    return os ? ls & ~((2u << highest_card(os)) - 1) : ls;
}

/* ------------------------------------------------------------------------------------ */
/* Transposition table                                                                  */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t key[4]; /* the four hands at the trick start in relative ranks (see Shape) */
    uint32_t cards;  /* the cards left, a byte per suit slot in strength order (see Shape) */
    int16_t lower;   /* the value is >= lower (for the cards of `cards`) */
    int16_t upper;   /* the value is <= upper */
    uint8_t meta;    /* leader | (sweep eligibility + 1) << 2 | search kind << 4 */
    uint8_t best;    /* best lead found, relative: suit slot << 3 | rank among the suit's cards left; 0xFF none */
    uint16_t gen;    /* generation that wrote the entry; other generations are empty */
} TTEntry;

/* A bucket fills one 64-byte cache line, so a probe costs at most one cache miss. */
typedef struct {
    TTEntry e[TT_WAYS];
    uint8_t pad[64 - TT_WAYS * sizeof(TTEntry)];
} TTBucket;

/* The table of exact positions: bounds of trick starts (two cards a hand or more) keyed by the
 * exact cards, direct-mapped. About half the trick starts of two to four cards a hand met in a
 * search recur with the very same cards (the trick before played in another order); this
 * table answers them before the shape, the quick bounds and the transposition table are
 * computed, and is the only table of the last two tricks. */
typedef struct {
    uint32_t hand[4]; /* the four hands */
    int16_t lower;    /* the value is >= lower */
    int16_t upper;    /* the value is <= upper */
    uint8_t meta;     /* leader | (sweep eligibility + 1) << 2 */
    uint8_t pad;
    uint16_t gen;     /* generation that wrote the entry; other generations are empty */
} EndEntry;

_Static_assert(END_ENTRIES * sizeof(EndEntry) % sizeof(TTBucket) == 0, "the exact table fills whole buckets");

/* The module state: the transposition table (and the table of exact positions after it) and
 * their generation counter. */
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

static inline uint32_t tt_index(const uint32_t *key, int meta) {
    uint64_t a = (uint64_t)key[0] | (uint64_t)key[1] << 32;
    uint64_t b = (uint64_t)key[2] | (uint64_t)key[3] << 32;
    return (uint32_t)mix64(a ^ mix64(b + (uint64_t)meta * 0x9e3779b97f4a7c15ULL)) & (TT_BUCKETS - 1);
}

/* Tables of the relative ranks, filled once when the module loads (read-only after).
 * STRENGTH_BYTE[order][b]: the suit byte b (bit r: the card of rank r) with its bits moved to
 * the cards' strength order (0 the plain order, 1 the trump order); COMPRESS[u][h]: the bits
 * of h (a subset of u) renumbered by rank among the bits of u (bit k: the k-th weakest). */
static uint8_t STRENGTH_BYTE[2][256];
static uint8_t COMPRESS[256][256];

static void init_rank_tables(void) {
    for (int b = 0; b < 256; b++) {
        int p = 0, t = 0;
        for (int r = 0; r < 8; r++)
            if (b >> r & 1) {
                p |= 1 << PLAIN_STRENGTH[r];
                t |= 1 << TRUMP_STRENGTH[r];
            }
        STRENGTH_BYTE[0][b] = (uint8_t)p;
        STRENGTH_BYTE[1][b] = (uint8_t)t;
    }
    for (int u = 0; u < 256; u++)
        for (int h = 0; h < 256; h++) {
            int out = 0, k = 0;
            for (int i = 0; i < 8; i++)
                if (u >> i & 1) {
                    if (h >> i & 1) out |= 1 << k;
                    k++;
                }
            COMPRESS[u][h] = (uint8_t)out;
        }
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
    uint8_t trump_order[4];      /* 1 when the suit ranks in the trump order */
    uint8_t strength_points[4][8]; /* each suit's card points, weakest card first */
    int symmetric_from;  /* suits interchangeable in the table from this slot: 1 in a suit
                            contract (the trump suit stays first), 0 at SA and TA */
    /* the search */
    uint32_t hand[4];    /* cards still held */
    int remaining;       /* their card points */
    int team;            /* the team whose points are counted: the maximizer */
    int sweep_seat;      /* can_sweep: the seat that must win every trick, -1: any seat of team */
    TTBucket *tt;
    EndEntry *end;       /* the table of exact positions (after the buckets) */
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
        s->strength_points[suit][strength] = pts[rank];
    }
    for (int suit = 0; suit < 4; suit++) s->trump_order[suit] = trump == ALL_TRUMP || suit == trump;
    s->symmetric_from = trump < NO_TRUMP ? 1 : 0;
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

/* Could the seat holding `hand` ruff a lead of plain suit `suit` in a suit contract (void in
 * it, holding a trump)? */
static inline int may_ruff(const Solver *s, uint32_t hand, int suit) {
    return s->trump < NO_TRUMP && suit != s->trump && !(hand & SUIT_MASK[suit]) && (hand & s->trump_mask);
}

/* Could the seat holding `hand`, playing later in a trick of suit `led`, beat card x? Never
 * no when it may: a seat void in the suit led is taken to ruff whenever it holds a trump. */
static inline int can_beat(const Solver *s, uint32_t hand, int led, int x) {
    uint32_t follow = hand & SUIT_MASK[led];
    if (follow) return (x >> 3) == led && (follow & s->above[x]) != 0;
    uint32_t trumps = hand & s->trump_mask;
    if (!trumps) return 0;
    if (s->trump_mask >> x & 1) return (trumps & s->above[x]) != 0;
    return 1;
}

/* Which team surely takes trick t once the seat to move plays c: 0 or 1, -1 when the seats
 * still to play may change it (a seat of the other team may beat the winning card). */
static int sure_trick_team(const Solver *s, const Trick *t, int c) {
    if (t->n == 3) /* the fourth seat: its card decides */
        return beats(s, c, t->win_card) ? (t->leader + 3) & 1 : (t->leader + t->win_idx) & 1;
    Trick child = *t;
    trick_add(s, &child, c);
    int wteam = (child.leader + child.win_idx) & 1;
    for (int j = child.n; j < 4; j++) {
        int seat = (child.leader + j) & 3;
        if ((seat & 1) != wteam && can_beat(s, s->hand[seat], child.led, child.win_card)) return -1;
    }
    return wteam;
}

/* Drop the legal cards of the seat to move that are never better than another one. In a run
 * of its legal cards of one suit with no card of another seat still in play (held, or in the
 * trick) between them, all give the trick to the same seat and they are interchangeable
 * afterwards but for their points. So when the trick surely goes to its team, whatever the
 * seats after it play, the strongest card of the run (the richest: points grow with strength
 * in every suit) is at least as good as the others; when it surely goes to the other team,
 * the weakest (the cheapest); otherwise the cards worth the same points (the zero-point
 * ones) are alike. One is kept. */
static uint32_t drop_dominated(const Solver *s, const Trick *t, int seat, uint32_t legal) {
    uint32_t others = (s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | t->cards) & ~s->hand[seat];
    for (uint32_t m = legal; m;) {
        int suit = lowest_card(m) >> 3, shift = 8 * suit;
        uint32_t lb = legal >> shift & 0xFF;
        m &= ~SUIT_MASK[suit];
        if (!(lb & (lb - 1))) continue;
        const uint8_t *to_strength = STRENGTH_BYTE[s->trump_order[suit]];
        /* in strength order: the legal cards, and the cards of the other seats or the trick */
        uint32_t ls = to_strength[lb], os = to_strength[others >> shift & 0xFF];
        uint32_t ranks = COMPRESS[ls | os][ls]; /* the legal cards among the suit's cards in play */
        if (!(ranks & (ranks >> 1))) continue;   /* no two of them adjacent */
        int last = -1, keep = -1, team = -2; /* previous legal card, card kept of its run, who takes the trick */
        for (; ls; ls &= ls - 1) {
            int k = lowest_card(ls), c = s->order[suit][k];
            if (last < 0 || (os & ((1u << k) - (2u << last)))) { /* a new run */
                keep = c;
                team = -2; /* not known yet */
            } else {
                if (team == -2) team = sure_trick_team(s, t, keep);
                if (team == (seat & 1)) {
                    legal &= ~(1u << keep); /* keep the stronger */
                    keep = c;
                } else if (team >= 0 || s->points[c] == s->points[keep]) {
                    legal &= ~(1u << c); /* keep the weaker */
                } else {
                    keep = c;
                }
            }
            last = k;
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

/* Insert card c of score sc into moves[0..n) kept sorted by descending score (insertion sort:
 * at most eight cards). */
static inline void insert_move(int *scores, int *moves, int n, int c, int sc) {
    int i = n;
    while (i > 0 && scores[i - 1] < sc) {
        scores[i] = scores[i - 1];
        moves[i] = moves[i - 1];
        i--;
    }
    scores[i] = sc;
    moves[i] = c;
}

/* Sort the legal cards of the seat to move, most promising first, into moves[]; returns
 * their number (order_moves for the leader, order_follow for the others). The leader's
 * order: the table's best lead, then the killer leads (the two last leads that refuted a
 * trick start with as many cards left, by this seat), then by a static score: a low card to
 * the partner's master (the partner holds a card above it and above every opponent's card
 * of the suit, no ruff), cheapest first; in a suit contract, a card of a suit the partner
 * may ruff; a sure winner (no higher card outside, no ruff), richest first, the trumps after
 * the plain suits; then the others, lowest first, in a suit contract the suits an opponent
 * may ruff last. Measured in trick starts on 1200 suit-contract deals (and 300 SA and TA
 * deals): the partner's master first, 2 to 4% fewer (8 to 15% at SA and TA); the partner's
 * ruff before the sure winners, 4%; the trumps after the plain winners, 4%; the opponents'
 * ruffs last, 3%. (The partner's master used to require that the partner hold no card above
 * the lead: the lead was then a sure winner, scored before, and that score was never given.) */
static int order_moves(const Solver *s, int seat, uint32_t legal, int tt_move, const int *killers, int *moves) {
    uint32_t lho = s->hand[(seat + 1) & 3], partner = s->hand[(seat + 2) & 3], rho = s->hand[(seat + 3) & 3];
    uint32_t opp = lho | rho;
    int scores[8];
    int n = 0;
    while (legal) {
        int c = lowest_card(legal);
        legal &= legal - 1;
        int suit = c >> 3, pts = s->points[c], sc;
        if (c == tt_move) {
            sc = 1 << 20;
        } else if (c == killers[0]) {
            sc = 1 << 19;
        } else if (c == killers[1]) {
            sc = 1 << 18;
        } else {
            int ruff = may_ruff(s, lho, suit) || may_ruff(s, rho, suit);
            int pc;
            if (!(s->above[c] & opp) && !ruff)
                sc = 4000 + 16 * pts - ((s->trump_mask >> c & 1) ? 500 : 0);
            else if (!ruff && (s->above[c] & partner) && (pc = top_card(s, partner, suit)) >= 0 &&
                     !(s->above[pc] & opp))
                sc = 5000 - 16 * pts;
            else if (may_ruff(s, partner, suit))
                sc = 4500 - 8 * s->power[c] - pts;
            else if (ruff)
                sc = 500 - 8 * s->power[c] - pts;
            else
                sc = 1000 - 8 * s->power[c] - pts;
        }
        insert_move(scores, moves, n++, c, sc);
    }
    return n;
}

/* The followers' order: a win the left-hand opponent cannot take back (always, for the fourth
 * seat), cheapest first (keeping the strong cards for later tricks: 10 to 14% fewer trick
 * starts than richest first, in every trump mode); the partner's safe trick, fed with points
 * (non-master cards first), in a suit contract before overtaking the partner (2.5% fewer;
 * 3% more at SA); a win that may be overtaken, cheapest first; else the cheapest discard,
 * the sooner when the partner is winning. */
static int order_follow(const Solver *s, const Trick *t, int seat, uint32_t legal, int *moves) {
    uint32_t lho = s->hand[(seat + 1) & 3];
    uint32_t others = lho | s->hand[(seat + 2) & 3] | s->hand[(seat + 3) & 3];
    int lho_to_play = t->n < 3; /* the left-hand opponent still plays after this seat */
    int partner_wins = ((t->leader + t->win_idx) & 1) == (seat & 1);
    int partner_safe = partner_wins && (!lho_to_play || !can_beat(s, lho, t->led, t->win_card));
    int scores[8];
    int n = 0;
    for (; legal; legal &= legal - 1) {
        int c = lowest_card(legal), pts = s->points[c], sc;
        int wins = beats(s, c, t->win_card);
        if (partner_safe && (s->trump < NO_TRUMP || !wins)) { /* feed the partner's trick */
            sc = 3000 + 16 * pts - ((s->above[c] & others) ? 0 : 160);
        } else if (wins) {
            if (!lho_to_play || !can_beat(s, lho, t->led, c))
                sc = 4000 - 16 * pts - s->power[c];
            else
                sc = 2000 - 16 * pts - s->power[c];
        } else {
            sc = (partner_wins ? 2500 : 1000) - 16 * pts - s->power[c];
        }
        insert_move(scores, moves, n++, c, sc);
    }
    return n;
}

/* ------------------------------------------------------------------------------------ */
/* Transposition table access                                                           */
/* ------------------------------------------------------------------------------------ */

/* kind 0: the points search (bounds shift with the cards' points); 1: the sweep search (a
 * yes or no that points do not change). */
static inline int tt_meta(int leader, int elig, int kind) { return leader | (elig + 1) << 2 | kind << 4; }

/* The shape of a trick start: what the search from there depends on, up to card points.
 * Each suit's cards left are renumbered by rank among themselves (the 9 and the jack left of
 * a plain suit are its cards 0 and 1, whichever cards were played), and interchangeable suits
 * (the plain suits of a suit contract, every suit at SA and TA) are put in a canonical order.
 * Two trick starts of one shape are played out alike, trick for trick, by corresponding
 * cards: their values differ only by the points of corresponding cards, so a bound stored
 * for one holds for the other shifted by at most that difference ("payoff similarity",
 * Furtak and Buro, IJCAI 2011). The bonuses depend only on who wins the tricks. */
typedef struct {
    uint32_t key[4];  /* each hand in relative ranks: bit slot * 8 + k, the k-th weakest card left */
    uint32_t cards;   /* the cards left: byte `slot` in strength order */
    uint8_t suit[4];  /* the actual suit of each slot */
    uint8_t slot[4];  /* the slot of each actual suit */
} Shape;

static void shape_of(const Solver *s, Shape *sh) {
    uint32_t all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
    uint64_t sort_key[4];
    uint32_t column[4], left[4];
    for (int suit = 0; suit < 4; suit++) {
        const uint8_t *to_strength = STRENGTH_BYTE[s->trump_order[suit]];
        int shift = 8 * suit;
        uint32_t u = to_strength[(all >> shift) & 0xFF], col = 0;
        for (int seat = 0; seat < 4; seat++)
            col |= (uint32_t)COMPRESS[u][to_strength[(s->hand[seat] >> shift) & 0xFF]] << 8 * seat;
        column[suit] = col;
        left[suit] = u;
        sort_key[suit] = (uint64_t)col << 8 | u;
    }
    int order[4];
    int n = 0;
    if (s->symmetric_from) order[n++] = s->trump;
    for (int suit = 0; suit < 4; suit++) {
        if (s->symmetric_from && suit == s->trump) continue;
        int i = n++; /* insertion sort of the interchangeable suits, largest key first */
        while (i > s->symmetric_from && sort_key[order[i - 1]] < sort_key[suit]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = suit;
    }
    sh->key[0] = sh->key[1] = sh->key[2] = sh->key[3] = 0;
    sh->cards = 0;
    for (int slot = 0; slot < 4; slot++) {
        int suit = order[slot];
        sh->suit[slot] = (uint8_t)suit;
        sh->slot[suit] = (uint8_t)slot;
        sh->cards |= left[suit] << 8 * slot;
        for (int seat = 0; seat < 4; seat++) sh->key[seat] |= (column[suit] >> 8 * seat & 0xFF) << 8 * slot;
    }
}

/* How much the value of the current shape `sh` may exceed (*up) or fall short of (*down,
 * negative) the value of the same shape over the cards `stored`: each pair of corresponding
 * cards may be won by either team. */
static void shape_shift(const Solver *s, const Shape *sh, uint32_t stored, int *down, int *up) {
    int lo = 0, hi = 0;
    for (int slot = 0; slot < 4; slot++) {
        uint32_t a = stored >> 8 * slot & 0xFF, b = sh->cards >> 8 * slot & 0xFF;
        if (a == b) continue;
        const uint8_t *pts = s->strength_points[sh->suit[slot]];
        for (; a; a &= a - 1, b &= b - 1) {
            int d = pts[lowest_card(b)] - pts[lowest_card(a)];
            if (d < 0)
                lo += d;
            else
                hi += d;
        }
    }
    *down = lo;
    *up = hi;
}

/* A card as the table stores it: slot << 3 | its rank among its suit's cards left. */
static int relative_card(const Solver *s, const Shape *sh, int c) {
    if (c < 0) return 0xFF;
    int suit = c >> 3, slot = sh->slot[suit];
    uint32_t strength = s->power[c] & 7u;
    return slot << 3 | popcount32((sh->cards >> 8 * slot) & ((1u << strength) - 1));
}

static int actual_card(const Solver *s, const Shape *sh, int rel) {
    if (rel == 0xFF) return -1;
    int slot = rel >> 3, k = rel & 7, suit = sh->suit[slot];
    uint32_t u = sh->cards >> 8 * slot & 0xFF;
    for (; k; k--) u &= u - 1;
    return u ? s->order[suit][lowest_card(u)] : -1;
}

static inline int tt_match(const TTEntry *e, const Solver *s, const Shape *sh, int meta) {
    return e->gen == s->gen && e->meta == meta && e->key[0] == sh->key[0] && e->key[1] == sh->key[1] &&
           e->key[2] == sh->key[2] && e->key[3] == sh->key[3];
}

/* What the table knows of the current trick start: its bounds (shifted to its cards) and
 * best lead. Returns 0 when nothing is known. */
static int tt_probe(Solver *s, const Shape *sh, int meta, int *lower, int *upper, int *best) {
    TTEntry *b = s->tt[tt_index(sh->key, meta)].e;
    for (int i = 0; i < TT_WAYS; i++) {
        TTEntry *e = b + i;
        if (!tt_match(e, s, sh, meta)) continue;
        int down = 0, up = 0;
        if (e->cards != sh->cards && !(meta >> 4)) shape_shift(s, sh, e->cards, &down, &up);
        *lower = e->lower <= -INF ? -INF : e->lower + down;
        *upper = e->upper >= INF ? INF : e->upper + up;
        *best = actual_card(s, sh, e->best);
        return 1;
    }
    return 0;
}

/* Record lower <= value <= upper for the current trick start, merged with what is known of
 * its shape. Replaces, in order of preference: the same shape, an empty (stale) entry, the
 * entry with the fewest cards left (the cheapest to search again). */
static void tt_store(Solver *s, const Shape *sh, int meta, int lower, int upper, int best) {
    TTEntry *b = s->tt[tt_index(sh->key, meta)].e;
    TTEntry *victim = NULL;
    int victim_cards = 99;
    for (int i = 0; i < TT_WAYS; i++) {
        TTEntry *e = b + i;
        if (tt_match(e, s, sh, meta)) {
            int down = 0, up = 0;
            if (e->cards != sh->cards && !(meta >> 4)) shape_shift(s, sh, e->cards, &down, &up);
            if (e->lower > -INF && e->lower + down > lower) lower = e->lower + down;
            if (e->upper < INF && e->upper + up < upper) upper = e->upper + up;
            victim = e;
            break;
        }
        int cards = e->gen != s->gen ? -1 : popcount32(e->key[0]);
        if (cards < victim_cards) {
            victim = e;
            victim_cards = cards;
        }
    }
    memcpy(victim->key, sh->key, sizeof victim->key);
    victim->cards = sh->cards;
    victim->lower = (int16_t)lower;
    victim->upper = (int16_t)upper;
    victim->meta = (uint8_t)meta;
    victim->best = (uint8_t)relative_card(s, sh, best);
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

/* The fewest points the seat holding `h` gives to `total` tricks in which it must follow at
 * least min(its length, k[suit]) times in each suit: its k[suit] weakest cards of each suit
 * (points grow with strength in every suit), then its cheapest other cards. */
static int min_given(const Solver *s, uint32_t h, const int *k, int total) {
    int p = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!k[suit]) continue;
        uint32_t hs = STRENGTH_BYTE[s->trump_order[suit]][h >> 8 * suit & 0xFF];
        int m = k[suit];
        h &= ~SUIT_MASK[suit];
        for (; hs && m; hs &= hs - 1, m--, total--) p += s->strength_points[suit][lowest_card(hs)];
        for (; hs; hs &= hs - 1) h |= 1u << s->order[suit][lowest_card(hs)]; /* not played: back */
    }
    if (total <= 0 || popcount32(h & s->zero_mask) >= total) return p; /* the rest: worthless cards */
    for (; total > 0; total--) { /* the cheapest of the rest */
        int best = -1;
        for (uint32_t m = h; m; m &= m - 1) {
            int c = lowest_card(m);
            if (best < 0 || s->points[c] < s->points[best]) best = c;
        }
        p += s->points[best];
        h ^= 1u << best;
    }
    return p;
}

/* A lower bound of the points the leader's team wins from this trick start (DDS's quick
 * tricks): the leader cashes its masters one after the other (its cards above every card of
 * their suit held by another seat), first its trumps in a suit contract, then in every
 * suit where no opponent may ruff before it stops: at most as many rounds of a plain suit as
 * each opponent still holding trumps after those rounds of trumps can follow. Every trick
 * brings its master's points and, from each other seat, at least its cheapest cards it may
 * play (see min_given); when they are all the tricks left, the last-trick bonus too. 0 when
 * no lead is sure. *cashed: the suits it cashes (bit suit), for partner_tricks. */
static int quick_tricks(const Solver *s, int leader, int *cashed) {
    uint32_t lead = s->hand[leader], lho = s->hand[(leader + 1) & 3], rho = s->hand[(leader + 3) & 3];
    uint32_t others = lho | rho | s->hand[(leader + 2) & 3];
    int k[4] = {0, 0, 0, 0}, total = 0, q = 0;
    uint32_t ruffers = 0; /* the opponents that may ruff a plain suit (suit contract) */
    if (s->trump < NO_TRUMP) {
        int suit = s->trump, shift = 8 * suit;
        uint32_t ls = STRENGTH_BYTE[1][lead >> shift & 0xFF], os = STRENGTH_BYTE[1][others >> shift & 0xFF];
        uint32_t masters = masters_over(ls, os);
        int n = popcount32(masters); /* rounds of trumps: an opponent follows while it can */
        k[suit] = n;
        total = n;
        for (; masters; masters &= masters - 1) q += s->strength_points[suit][lowest_card(masters)];
        if (popcount32(lho & s->trump_mask) > n) ruffers |= lho;
        if (popcount32(rho & s->trump_mask) > n) ruffers |= rho;
    }
    for (uint32_t m = lead & ~s->trump_mask; m;) {
        int suit = lowest_card(m) >> 3, shift = 8 * suit;
        m &= ~SUIT_MASK[suit];
        const uint8_t *to_strength = STRENGTH_BYTE[s->trump_order[suit]];
        uint32_t ls = to_strength[lead >> shift & 0xFF], os = to_strength[others >> shift & 0xFF];
        uint32_t masters = masters_over(ls, os);
        if (!masters) continue;
        int n = popcount32(masters);
        if (ruffers) {
            if ((ruffers & lho) && popcount32(lho & SUIT_MASK[suit]) < n) n = popcount32(lho & SUIT_MASK[suit]);
            if ((ruffers & rho) && popcount32(rho & SUIT_MASK[suit]) < n) n = popcount32(rho & SUIT_MASK[suit]);
            if (!n) continue;
        }
        k[suit] = n;
        total += n;
        for (int i = 0; i < n; i++) { /* the n strongest, the richest */
            int top = highest_card(masters);
            q += s->strength_points[suit][top];
            masters ^= 1u << top;
        }
    }
    *cashed = 0;
    if (!total) return 0;
    for (int suit = 0; suit < 4; suit++)
        if (k[suit]) *cashed |= 1 << suit;
    for (int i = 1; i < 4; i++) q += min_given(s, s->hand[(leader + i) & 3], k, total);
    if (total == popcount32(lead)) q += s->last_bonus;
    return q;
}

/* A lower bound of the points the leader's team wins by handing the lead to the partner at
 * once: the leader leads any card of a suit in which the partner holds a master (a card
 * above every other seat's card of the suit), the partner takes the trick with it and cashes
 * its quick tricks (see quick_tricks). The partner's master takes that trick unless an
 * opponent void in the suit ruffs it, so in a suit contract a plain suit serves only when
 * every opponent holding a trump holds that suit. The trick led by the leader is then one of
 * the rounds of that suit quick_tricks(partner) counts, in which every seat follows as it
 * would (no trump has been drawn yet, but no opponent may ruff it either), and the leader's
 * card is one of those min_given counts for the leader. 0 when there is no such entry. */
static int partner_tricks(const Solver *s, int leader) {
    int partner = (leader + 2) & 3;
    uint32_t lead = s->hand[leader], mate = s->hand[partner];
    uint32_t lho = s->hand[(leader + 1) & 3], rho = s->hand[(leader + 3) & 3];
    uint32_t others = lead | lho | rho;
    int entries = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t sm = SUIT_MASK[suit];
        if (!(lead & sm) || !(mate & sm)) continue;
        if (may_ruff(s, lho, suit) || may_ruff(s, rho, suit)) continue;
        const uint8_t *to_strength = STRENGTH_BYTE[s->trump_order[suit]];
        int shift = 8 * suit;
        if (masters_over(to_strength[mate >> shift & 0xFF], to_strength[others >> shift & 0xFF])) entries |= 1 << suit;
    }
    if (!entries) return 0;
    int cashed, q = quick_tricks(s, partner, &cashed);
    return (cashed & entries) ? q : 0;
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
    if (legal & (legal - 1)) legal = drop_dominated(s, t, seat, legal);
    int moves[8];
    int *killers = t->n == 0 ? s->killers[popcount32(hand)][seat] : NULL;
    int nm;
    if (!(legal & (legal - 1))) { /* a single card: nothing to order */
        moves[0] = lowest_card(legal);
        nm = 1;
    } else {
        nm = t->n ? order_follow(s, t, seat, legal, moves) : order_moves(s, seat, legal, tt_move, killers, moves);
    }
    int maximizing = (seat & 1) == s->team;
    int best = maximizing ? -INF : INF, bc = -1;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        Trick child = *t;
        trick_add(s, &child, c);
        s->hand[seat] ^= 1u << c;
        s->remaining -= s->points[c];
        int v;
        if (i == 0 || beta - alpha <= 1) {
            v = child.n == 4 ? finish_trick(s, &child, alpha, beta) : search_play(s, &child, alpha, beta, -1, NULL);
        } else { /* principal variation search: does this card beat the best so far at all? */
            int a = maximizing ? alpha : beta - 1;
            v = child.n == 4 ? finish_trick(s, &child, a, a + 1) : search_play(s, &child, a, a + 1, -1, NULL);
            if (maximizing ? (v > alpha && v < beta) : (v < beta && v > alpha))
                v = child.n == 4 ? finish_trick(s, &child, alpha, beta) : search_play(s, &child, alpha, beta, -1, NULL);
        }
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
                if (alpha >= beta) {
                    if (t->n == 0 && killers[0] != c) {
                        killers[1] = killers[0];
                        killers[0] = c;
                    }
                    break;
                }
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

/* The last two tricks (trick t of two cards a hand, in progress): plain fail-soft alpha-beta
 * over every legal card, without move ordering, equivalences or the table (at most 16
 * lines: cheaper than any of them). One function per card of the trick, so that the
 * compiler writes the four nested loops out. */
#define TWO_TRICKS_PLY(name, next)                                                               \
    static inline __attribute__((always_inline)) int name(Solver *s, const Trick *t, int alpha, int beta) { \
        int seat = (t->leader + t->n) & 3;                                                       \
        uint32_t legal = legal_mask(s, s->hand[seat], t, seat);                                  \
        int maximizing = (seat & 1) == s->team;                                                  \
        int best = maximizing ? -INF : INF;                                                      \
        for (; legal; legal &= legal - 1) {                                                      \
            int c = lowest_card(legal), v;                                                       \
            Trick child = *t;                                                                    \
            trick_add(s, &child, c);                                                             \
            s->hand[seat] ^= 1u << c;                                                            \
            v = next(s, &child, alpha, beta);                                                    \
            s->hand[seat] ^= 1u << c;                                                            \
            if (maximizing ? v > best : v < best) {                                              \
                best = v;                                                                        \
                if (maximizing ? v > alpha : v < beta) {                                         \
                    if (maximizing)                                                              \
                        alpha = v;                                                               \
                    else                                                                         \
                        beta = v;                                                                \
                    if (alpha >= beta) break;                                                    \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        return best;                                                                             \
    }

/* The first of the two tricks is complete: its points, then the last trick. */
static inline __attribute__((always_inline)) int two_tricks_done(Solver *s, const Trick *t, int alpha, int beta) {
    (void)alpha;
    (void)beta;
    int winner = (t->leader + t->win_idx) & 3, wteam = winner & 1;
    int elig = (t->elig == 2 || t->elig == wteam) ? wteam : -1;
    return (wteam == s->team ? t->points : 0) + last_trick(s, winner, elig);
}

TWO_TRICKS_PLY(two_tricks_4th, two_tricks_done)
TWO_TRICKS_PLY(two_tricks_3rd, two_tricks_4th)
TWO_TRICKS_PLY(two_tricks_2nd, two_tricks_3rd)
TWO_TRICKS_PLY(two_tricks_lead, two_tricks_2nd)

/* The entry of the table of exact positions for the current trick start. */
static inline EndEntry *exact_entry(const Solver *s, int meta) {
    uint64_t x = (uint64_t)(s->hand[0] ^ (s->hand[1] << 7 | s->hand[1] >> 25)) * 0x9e3779b97f4a7c15ULL +
                 (uint64_t)(s->hand[2] ^ (s->hand[3] << 13 | s->hand[3] >> 19)) * 0xc2b2ae3d27d4eb4fULL +
                 (uint64_t)meta * 0x165667b19e3779f9ULL;
    return s->end + (x >> (64 - END_BITS));
}

static inline int exact_match(const EndEntry *e, const Solver *s, int meta) {
    return e->gen == s->gen && e->meta == meta && e->hand[0] == s->hand[0] && e->hand[1] == s->hand[1] &&
           e->hand[2] == s->hand[2] && e->hand[3] == s->hand[3];
}

/* Record lower <= value <= upper for the current trick start in its entry e, merged with what
 * the entry knows of it (if the search below has not replaced it since). */
static inline void exact_store(const Solver *s, EndEntry *e, int meta, int lower, int upper) {
    if (exact_match(e, s, meta)) {
        if (e->lower > lower) lower = e->lower;
        if (e->upper < upper) upper = e->upper;
    }
    memcpy(e->hand, s->hand, sizeof e->hand);
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    e->meta = (uint8_t)meta;
    e->gen = s->gen;
}

static int search_deep(Solver *s, int leader, int elig, int alpha, int beta, int top);

/* Value of the trick start where `leader` leads, by fail-soft alpha-beta with the tables: the
 * table of exact positions first, then (three cards a hand or more) search_deep. */
static int search_start(Solver *s, int leader, int elig, int alpha, int beta) {
    s->nodes++;
    uint32_t lead_hand = s->hand[leader];
    if (!lead_hand) return 0;
    if (!(lead_hand & (lead_hand - 1))) return last_trick(s, leader, elig);
    int top = s->remaining + s->last_bonus + ((elig == 2 || elig == s->team) ? s->sweep_bonus : 0);
    if (top <= alpha) return top;
    if (beta <= 0) return 0;
    /* the table of exact positions: the same cards, leader and sweep eligibility */
    int emeta = leader | (elig + 1) << 2;
    EndEntry *e = exact_entry(s, emeta);
    int ehit = exact_match(e, s, emeta);
    if (ehit) {
        if (e->lower >= beta || e->lower >= e->upper) return e->lower;
        if (e->upper <= alpha) return e->upper;
        if (e->lower > alpha) alpha = e->lower;
        if (e->upper < beta) beta = e->upper;
    }
    int v;
    uint32_t rest = lead_hand & (lead_hand - 1);
    if (!(rest & (rest - 1))) { /* two tricks left: searching costs less than a shape */
        Trick t2 = {leader, 0, 0, 0, 0, 0, elig, 0};
        v = two_tricks_lead(s, &t2, alpha, beta);
    } else {
        v = search_deep(s, leader, elig, alpha, beta, top);
    }
    if (v <= alpha)
        exact_store(s, e, emeta, -INF, v);
    else if (v >= beta)
        exact_store(s, e, emeta, v, INF);
    else
        exact_store(s, e, emeta, v, v);
    return v;
}

/* A trick start with three cards a hand or more: the sure points, the transposition table,
 * the quick tricks, then the search. */
static int search_deep(Solver *s, int leader, int elig, int alpha, int beta, int top) {
    int meta = tt_meta(leader, elig, 0), tt_move = -1, tt_lower, tt_upper;
    /* quick bounds: between the sure points and all points left */
    int lo = 0, hi = top;
    if (s->trump < NO_TRUMP) sure_bounds(s, elig, &lo, &hi);
    if (hi <= alpha) return hi;
    if (lo >= beta) return lo;
    if (lo >= hi) return lo;
    if (lo > alpha) alpha = lo; /* search the window the bounds leave (never empty) */
    if (hi < beta) beta = hi;

    Shape sh;
    shape_of(s, &sh);

    if (tt_probe(s, &sh, meta, &tt_lower, &tt_upper, &tt_move)) {
        if (tt_lower >= beta || tt_lower >= tt_upper) return tt_lower; /* (an exact value: no empty window) */
        if (tt_upper <= alpha) return tt_upper;
        if (tt_lower > alpha) alpha = tt_lower;
        if (tt_upper < beta) beta = tt_upper;
    }
    /* the quick tricks of the leader, then of its partner (see partner_tricks): after the
     * table, which answers most of the trick starts they would */
    for (int line = 0; line < 2; line++) {
        int cashed, q = line ? partner_tricks(s, leader) : quick_tricks(s, leader, &cashed);
        if (!q) continue;
        if ((leader & 1) == s->team) {
            if (q >= beta) return q;
            if (q > alpha) alpha = q;
        } else {
            int h2 = s->remaining + s->last_bonus - q;
            if (h2 <= alpha) return h2;
            if (h2 < beta) beta = h2;
        }
    }
    Trick t = {leader, 0, 0, 0, 0, 0, elig, 0};
    int best_card = -1;
    int v = search_play(s, &t, alpha, beta, tt_move, &best_card);
    if (v <= alpha)
        tt_store(s, &sh, meta, -INF, v, best_card);
    else if (v >= beta)
        tt_store(s, &sh, meta, v, INF, best_card);
    else
        tt_store(s, &sh, meta, v, v, best_card);
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

/* The exact value: one full-window search from the root's bounds (the cards after the first
 * of every seat are scouted with null windows inside it). Bisecting with null-window tests
 * took 6.5 searches a solve and was slower. */
static int solve_exact(Solver *s, const Trick *t) {
    int lo, hi;
    root_bounds(s, t, &lo, &hi);
    return lo < hi ? search_root(s, t, lo - 1, hi + 1) : lo;
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
    int meta = tt_meta(leader, -1, 1), lower, upper, best;
    Shape sh;
    shape_of(s, &sh);
    if (tt_probe(s, &sh, meta, &lower, &upper, &best)) return lower;
    Trick t = {leader, 0, 0, 0, 0, 0, -1, 0};
    int r = sweep_play(s, &t);
    tt_store(s, &sh, meta, r, r, -1);
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
        st->memory = calloc((size_t)TT_BUCKETS + 1 + END_ENTRIES * sizeof(EndEntry) / sizeof(TTBucket), sizeof(TTBucket));
        if (!st->memory) {
            PyErr_NoMemory();
            return -1;
        }
        st->table = (TTBucket *)(((uintptr_t)st->memory + 63) & ~(uintptr_t)63);
        st->gen = 0;
    }
    if (++st->gen == 0) { /* wrapped: really clear */
        memset(st->table, 0, (size_t)TT_BUCKETS * sizeof(TTBucket) + END_ENTRIES * sizeof(EndEntry));
        st->gen = 1;
    }
    s->tt = st->table;
    s->end = (EndEntry *)(st->table + TT_BUCKETS);
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
    "coinche.bots.solver._dds",
    "Double-dummy solver for coinche (C). Use coinche.bots.solver, not this module.",
    sizeof(ModuleState),
    dds_methods,
    NULL,
    NULL,
    NULL,
    dds_free,
};

PyMODINIT_FUNC PyInit__dds(void) {
    init_rank_tables();
    PyObject *m = PyModule_Create(&dds_module);
    if (!m) return NULL;
    ModuleState *st = get_state(m);
    st->memory = NULL;
    st->table = NULL;
    st->gen = 0;
    st->last_nodes = 0;
    return m;
}
