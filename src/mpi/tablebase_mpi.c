/* tablebase_mpi.c - pmn-tablebase-mpi: the endgame databases built across
 * processes with MPI, the same files as pmn tablebase build writes.
 *
 *     mpirun -np N pmn-tablebase-mpi --rules SPEC --seeds S --dir DIR
 *
 * The layers form a chain (each needs every layer below), so the work is
 * divided inside a layer, as Romein and Bal divided Awari's: process r of
 * P owns the positions [size r / P, size (r + 1) / P) of each layer, in
 * the order of the index (tb.h).  The layers below are read where they
 * lie: DIR must be one folder every process sees (a shared file system,
 * or one machine), where each finished layer is written once and mapped
 * by all.  A layer is built in three steps, each process on its share:
 *
 *   1. Each position's moves are played (tb_exits(), the threaded build's
 *      own): the best move out of the layer, valued from the layers below,
 *      and each move in the layer, sent to the owner of the position it
 *      leads to as a predecessor entry (the rank it comes from and the
 *      hole), in batches of PASS_CHUNK positions, one exchange a batch.
 *   2. The solve from the highest value down (tablebase.c's comment), as
 *      tb_solve_graph() does it, generation by generation: each process
 *      sends, for each position of its share valued in the last
 *      generation, one message to the owner of each predecessor (one
 *      exchange a generation); the owner values its positions from them.
 *      A winner's hole is the lowest of his moves to the generation before
 *      his, whatever order the messages come in: the same bytes as the
 *      threaded build, on any number of processes.
 *   3. The codes written into DIR: each process its share, at its place
 *      (pwrite), the checksum handed from process to process in the order
 *      of the shares (FNV-1a is a chain), the header and the rename by
 *      process 0 when every share is written.
 *
 * Where positions keep own seeds (Oware's repetition=own-side), step 1 is
 * done across processes as for the other rules, with every predecessor
 * entry sent to process 0, which solves the layer's bounds with the
 * threaded build's code (linear in the layer) and writes it; the search
 * with the path over the positions they leave open (tb_own.c), where the
 * time goes, is divided among all, its budget spent in the order of the
 * ranks as on one machine (search_own_mpi()).  Process 0's memory bounds
 * such a layer, as one machine's does, and each process holds the graph
 * the search walks.
 *
 * Faults.  A layer is renamed into place only when whole, so every layer
 * finished stays usable; a process lost stops the run (mpirun ends the
 * others), and process 0 says how far it got (F007); the same command
 * starts again at the first layer missing, reading the others.  Before it
 * starts, a build is refused (F007) where the processes run different
 * pmns or formats, another build holds DIR, there are more processes than
 * positions, or a process would need more memory than it has (--memory,
 * else the machine's memory shared by its processes).
 *
 * For the tests, PMN_MPI_FAULT=version:R makes process R say it runs
 * another pmn, and PMN_MPI_FAULT=R:N makes process R end itself (SIGKILL) as
 * the solve of the layer of N seeds starts. */
#include "config.h"
#include "pmn.h"
#include "lib/analysis/tb.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>

#define PASS_CHUNK (1u << 20)   /* positions played between two exchanges */
#define MEMORY_A_POSITION 48.0  /* bytes a position of one's share, at most
                                   (measured: the arrays below, the
                                   predecessor lists, the buffers) */

static const char *prog = "pmn-tablebase-mpi";

struct vec {                    /* a growing array of 64-bit words */
    uint64_t *w;
    size_t n, cap;
};

/* n words more at the end of v (copied from x, if not NULL); -1 when
 * memory runs out. */
static int vec_append(struct vec *v, const uint64_t *x, size_t n)
{
    if (v->n + n > v->cap) {
        size_t cap = v->cap ? v->cap : 1024;
        while (cap < v->n + n)
            cap *= 2;
        uint64_t *w = realloc(v->w, cap * sizeof *w);
        if (!w)
            return -1;
        v->w = w;
        v->cap = cap;
    }
    if (n)
        memcpy(v->w + v->n, x, n * sizeof *x);
    v->n += n;
    return 0;
}

static int vec_push(struct vec *v, uint64_t x)
{
    if (v->n < v->cap) {   /* (the common case, without a call) */
        v->w[v->n++] = x;
        return 0;
    }
    return vec_append(v, &x, 1);
}

struct run {
    int rank, procs;
    const char *dir;
    pmn_tablebase *tb;
    int quiet;
    double memory;              /* bytes a process may use */
    uint64_t sent;              /* bytes this process sent */
    uint64_t built;             /* positions of the layers built */
    int fault_rank;             /* PMN_MPI_FAULT */
    unsigned fault_layer;
    int fault_version;          /* the process that says it runs another pmn */
};

/* ---- diagnostics ---------------------------------------------------------- */

/* What process 0 says if the run is ended under it (a process lost: mpirun
 * ends the others with SIGTERM), made before each layer: a handler may
 * only write(). */
static char stopped_text[6000];

static void on_stop(int sig)
{
    (void)sig;
    ssize_t w = write(2, stopped_text, strlen(stopped_text));
    (void)w;
    _exit(3);
}

static void say_stopped_at(const struct run *R, unsigned n)
{
    if (R->rank != 0)
        return;
    if (n == 0)
        snprintf(stopped_text, sizeof stopped_text, "%s: fatal[F007]: stopped during the "
                 "layer of 0 seeds (a process lost, or the run ended): no layer is whole in "
                 "%s; the same command starts again\n", prog, R->dir);
    else
        snprintf(stopped_text, sizeof stopped_text, "%s: fatal[F007]: stopped during the "
                 "layer of %u seeds (a process lost, or the run ended): the layers 0 to %u "
                 "in %s are whole; the same command starts again at %u\n", prog, n, n - 1,
                 R->dir, n);
}

/* A fatal diagnostic F007 (F005: a database file), said by process 0
 * alone where every process knows it (all), by the process that found it
 * otherwise; the run ends with status 3. */
static void fatal(const struct run *R, int all, int code, const char *fmt, ...)
{
    if (!all || R->rank == 0) {
        char msg[2048];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        fprintf(stderr, "%s: fatal[F%03d]: %s\n", prog, code, msg);
        fflush(stderr);
    }
    if (all) {
        MPI_Finalize();
        exit(3);
    }
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* MPI's own failure (MPI_ERRORS_RETURN): a process lost, mostly. */
static void mpi_check(const struct run *R, int rc, unsigned n)
{
    if (rc == MPI_SUCCESS)
        return;
    char e[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, e, &len);
    fatal(R, 0, 7, "the layer of %u seeds: %s (a process lost?): the layers below it in %s "
          "are whole; the same command starts again at %u", n, e, R->dir, n);
}

/* Does every process say yes?  (A step each process checks for itself:
 * memory, a file.) */
static int all_agree(const struct run *R, int ok, unsigned n)
{
    int all = 0;
    mpi_check(R, MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), n);
    return all;
}

/* The command line is wrong: said by process 0, status 64 (pmn's). */
static void usage_fail(const struct run *R, const char *fmt, ...)
{
    if (R->rank == 0) {
        char msg[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        fprintf(stderr, "%s: error: %s\nTry '%s --help'.\n", prog, msg, prog);
    }
    MPI_Finalize();
    exit(64);
}

static void no_memory(const struct run *R, unsigned n)
{
    fatal(R, 0, 2, "out of memory for the layer of %u seeds (process %d of %d)", n, R->rank,
          R->procs);
}

/* ---- the shares ------------------------------------------------------------ */

struct share {
    uint64_t size;              /* the layer's positions */
    uint64_t *bound;            /* process r owns [bound[r], bound[r + 1]) */
    uint64_t lo, m;             /* this process's: its first, and how many */
};

static void share_make(const struct run *R, uint64_t size, struct share *s)
{
    s->size = size;
    for (int r = 0; r <= R->procs; r++)
        s->bound[r] = (uint64_t)((unsigned __int128)size * (unsigned)r / (unsigned)R->procs);
    s->lo = s->bound[R->rank];
    s->m = s->bound[R->rank + 1] - s->lo;
}

static int owner(const struct share *s, int procs, uint64_t p)
{
    int lo = 0, hi = procs - 1;   /* the last r with bound[r] <= p */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->bound[mid] <= p)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* out[r] sent to process r, what the others sent here into *in; each
 * out[r] emptied.  (Counts of words in an int: a batch is at most
 * PASS_CHUNK positions' moves, or a generation's messages.) */
static void exchange(struct run *R, struct vec *out, struct vec *in, unsigned n)
{
    int P = R->procs;
    int *sc = calloc((size_t)P * 4, sizeof *sc), *sd = sc + P, *rc = sc + 2 * P,
        *rd = sc + 3 * P;
    if (!sc)
        no_memory(R, n);
    size_t total = 0;
    for (int r = 0; r < P; r++) {
        if (out[r].n > INT_MAX)
            fatal(R, 0, 7, "the layer of %u seeds: more than %d messages for one process in a "
                  "step", n, INT_MAX);
        sc[r] = (int)out[r].n;
        sd[r] = (int)total;
        total += out[r].n;
    }
    uint64_t *send = malloc((total ? total : 1) * sizeof *send);
    if (!send || total > INT_MAX)
        no_memory(R, n);
    for (int r = 0; r < P; r++) {
        if (out[r].n)   /* (an empty batch may have no array yet) */
            memcpy(send + sd[r], out[r].w, out[r].n * sizeof *send);
        R->sent += r == R->rank ? 0 : out[r].n * sizeof *send;
        out[r].n = 0;
    }
    mpi_check(R, MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD), n);
    size_t got = 0;
    for (int r = 0; r < P; r++) {
        rd[r] = (int)got;
        got += (size_t)rc[r];
    }
    if (got > INT_MAX)
        fatal(R, 0, 7, "the layer of %u seeds: more than %d messages to one process in a step",
              n, INT_MAX);
    if (in->cap < got) {
        uint64_t *w = realloc(in->w, got * sizeof *w);
        if (!w)
            no_memory(R, n);
        in->w = w;
        in->cap = got;
    }
    in->n = got;
    mpi_check(R, MPI_Alltoallv(send, sc, sd, MPI_UINT64_T, in->w, rc, rd, MPI_UINT64_T,
                               MPI_COMM_WORLD), n);
    free(send);
    free(sc);
}

/* ---- a layer --------------------------------------------------------------- */

/* (tb.h's: the states UNKNOWN, AT_LEAST, AT_MOST; HOLE_NEW) */

struct layer_mpi {
    struct run *R;
    unsigned n;
    struct share s;             /* the positions this process plays */
    const struct share *to;     /* where their moves' predecessor entries go: s,
                                   or (own seeds) all to process 0 */
    int coded;
    int8_t *exit, *value;
    int8_t *exit_low;           /* own seeds: the L node's best exit */
    uint8_t *open, *state, *hole;
    uint32_t *first, *pred;     /* own position i's predecessors: pred[first[i] ..
                                   first[i + 1]), each a rank (and, coded, its hole
                                   above PRED_HOLE) */
    struct vec *out;            /* a batch for each process */
    uint64_t here;              /* the position being played */
    int failed;
};

/* A move of `here` that stays in the layer: one more open move of it, and
 * a predecessor entry for the owner of where it leads. */
static void inner(void *ctx, uint64_t child, const uint8_t *counts, int hole)
{
    struct layer_mpi *L = ctx;
    (void)counts;
    int r = owner(L->to, L->R->procs, child);
    uint64_t pred = L->coded ? L->here | (uint64_t)hole << PRED_HOLE : L->here;
    L->open[L->here - L->s.lo]++;
    if (vec_push(&L->out[r], (child - L->to->bound[r]) << 32 | pred) != 0)
        L->failed = 1;
}

/* Step 1: the share's exits and moves; the predecessor lists of the
 * positions L->to gives this process, from every process's moves. */
static void play_share(struct layer_mpi *L)
{
    struct run *R = L->R;
    const pmn_tablebase *tb = R->tb;
    uint64_t m = L->s.m, chunks = (m + PASS_CHUNK - 1) / PASS_CHUNK, most = 0;
    mpi_check(R, MPI_Allreduce(&chunks, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), L->n);
    struct vec in = { 0 }, edges = { 0 };
    uint8_t h[TB_MAX_HOLES];
    for (uint64_t c = 0; c < most; c++) {
        uint64_t from = L->s.lo + c * PASS_CHUNK, to = from + PASS_CHUNK;
        if (to > L->s.lo + m)
            to = L->s.lo + m;
        if (from < to)
            tb_unrank(tb, from, L->n, h);
        for (L->here = from; L->here < to; L->here++) {
            int hole, low;
            int e = tb_exits(tb, &tb->rules, h, L->n, inner, L, L->exit_low ? &low : NULL,
                             &hole, 1);
            L->exit[L->here - L->s.lo] = (int8_t)e;
            if (L->exit_low)
                L->exit_low[L->here - L->s.lo] = (int8_t)low;
            if (L->hole)
                L->hole[L->here - L->s.lo] = (uint8_t)hole;
            if (L->here + 1 < to)
                tb_successor(h, tb->k);
        }
        if (!all_agree(R, !L->failed, L->n))
            no_memory(R, L->n);
        exchange(R, L->out, &in, L->n);
        if (vec_append(&edges, in.w, in.n) != 0)
            no_memory(R, L->n);
    }
    free(in.w);
    /* The lists, by a counting sort on the position moved to. */
    m = L->to->bound[R->rank + 1] - L->to->bound[R->rank];
    if (edges.n >= UINT32_MAX)
        fatal(R, 0, 7, "the layer of %u seeds has too many moves into one process's share "
              "(%zu) for this format", L->n, edges.n);
    L->first = calloc(m + 1, sizeof *L->first);
    L->pred = malloc((edges.n ? edges.n : 1) * sizeof *L->pred);
    if (!L->first || !L->pred)
        no_memory(R, L->n);
    for (size_t i = 0; i < edges.n; i++)
        L->first[(edges.w[i] >> 32) + 1]++;
    for (uint64_t i = 0; i < m; i++)
        L->first[i + 1] += L->first[i];
    uint32_t *at = malloc((m ? m : 1) * sizeof *at);
    if (!at)
        no_memory(R, L->n);
    memcpy(at, L->first, m * sizeof *at);
    for (size_t i = 0; i < edges.n; i++)
        L->pred[at[edges.w[i] >> 32]++] = (uint32_t)edges.w[i];
    free(at);
    free(edges.w);
}

/* A message from a position valued in the last generation to its
 * predecessor p (this process's, p its index in the share): kind its
 * state, h the hole p moves from to reach it. */
static void take(struct layer_mpi *L, uint64_t p, int kind, int h, int v, struct vec *next)
{
    if (L->state[p] == UNKNOWN) {
        if (kind == AT_LEAST) {   /* one move fewer that might lead below v */
            if (--L->open[p] != 0 || L->exit[p] > -v)
                return;
            L->state[p] = AT_MOST;
            L->value[p] = (int8_t)-v;
        } else {                  /* a move to a position worth -v: p is worth v */
            L->state[p] = AT_LEAST;
            L->value[p] = (int8_t)v;
            if (L->hole)
                L->hole[p] = (uint8_t)(HOLE_NEW | h);
        }
        if (vec_push(next, p) != 0)
            L->failed = 1;
    } else if (kind == AT_MOST && L->hole && L->state[p] == AT_LEAST
               && (L->hole[p] & HOLE_NEW) && (HOLE_NEW | h) < L->hole[p]) {
        L->hole[p] = (uint8_t)(HOLE_NEW | h);   /* the lowest of this generation's */
    }
}

/* Step 2: the solve, level by level, generation by generation. */
static void solve_share(struct layer_mpi *L)
{
    struct run *R = L->R;
    uint64_t m = L->s.m;
    int n = (int)L->n;
    struct vec now = { 0 }, next = { 0 }, in = { 0 };
    /* The share by exit, so that a level's seeds need no scan. */
    uint64_t at[2 * TB_MAX_SEEDS + 2];
    uint32_t *by = malloc((m ? m : 1) * sizeof *by);
    if (!by)
        no_memory(R, L->n);
    tb_by_exit(L->exit, m, L->n, at, by);
    for (int v = n; v >= 1; v--) {
        now.n = 0;
        for (uint64_t k = at[v + n]; k < at[v + n + 1]; k++)
            if (L->state[by[k]] == UNKNOWN) {
                L->state[by[k]] = AT_LEAST;
                L->value[by[k]] = (int8_t)v;
                if (vec_push(&now, by[k]) != 0)
                    L->failed = 1;
            }
        for (uint64_t k = at[-v + n]; k < at[-v + n + 1]; k++)
            if (L->state[by[k]] == UNKNOWN && L->open[by[k]] == 0) {
                L->state[by[k]] = AT_MOST;
                L->value[by[k]] = (int8_t)-v;
                if (vec_push(&now, by[k]) != 0)
                    L->failed = 1;
            }
        for (;;) {
            uint64_t mine = now.n, all = 0;
            if (!all_agree(R, !L->failed, L->n))
                no_memory(R, L->n);
            mpi_check(R, MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
                      L->n);
            if (all == 0)
                break;
            for (size_t q = 0; q < now.n; q++) {
                uint64_t x = now.w[q];
                uint64_t kind = L->state[x];
                for (uint32_t j = L->first[x]; j < L->first[x + 1]; j++) {
                    uint64_t p = L->coded ? L->pred[j] & PRED_RANK : L->pred[j];
                    uint64_t h = L->coded ? L->pred[j] >> PRED_HOLE : 0;
                    int r = owner(&L->s, R->procs, p);
                    if (vec_push(&L->out[r], (p - L->s.bound[r]) << 8 | kind << 4 | h) != 0)
                        L->failed = 1;
                }
            }
            if (!all_agree(R, !L->failed, L->n))
                no_memory(R, L->n);
            exchange(R, L->out, &in, L->n);
            next.n = 0;
            for (size_t i = 0; i < in.n; i++)
                take(L, in.w[i] >> 8, (int)(in.w[i] >> 4 & 15), (int)(in.w[i] & 15), v, &next);
            if (L->hole)   /* the generation whole: its winners' holes are final */
                for (size_t q = 0; q < next.n; q++)
                    L->hole[next.w[q]] &= (uint8_t)~HOLE_NEW;
            struct vec t = now;
            now = next;
            next = t;
        }
    }
    free(by);
    free(now.w);
    free(next.w);
    free(in.w);
}

/* Step 3: the share's codes written into the layer's file, whose header
 * process 0 writes once the checksum has passed through every share. */
static void write_share(struct layer_mpi *L, const int8_t *codes)
{
    struct run *R = L->R;
    const pmn_tablebase *tb = R->tb;
    unsigned n = L->n;
    char path[4200], tmp[4300];
    tb_layer_path(tb, R->dir, n, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    uint64_t body = tb_body_bytes(tb, n), sum = TB_CHECKSUM_START;
    if (R->rank > 0)
        mpi_check(R, MPI_Recv(&sum, 1, MPI_UINT64_T, R->rank - 1, 1, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE), n);
    sum = tb_checksum(codes, L->s.m, sum);
    if (R->rank == R->procs - 1 && body > L->s.size) {   /* (an empty layer's padding) */
        static const uint8_t pad[1];
        sum = tb_checksum(pad, body - L->s.size, sum);
    }
    if (R->rank + 1 < R->procs)
        mpi_check(R, MPI_Send(&sum, 1, MPI_UINT64_T, R->rank + 1, 1, MPI_COMM_WORLD), n);
    mpi_check(R, MPI_Bcast(&sum, 1, MPI_UINT64_T, R->procs - 1, MPI_COMM_WORLD), n);
    int ok = 1, e = 0;
    if (R->rank == 0) {
        unsigned char h[TB_HEADER_MAX];
        tb_layer_header(tb, n, sum, h);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        ok = fd >= 0 && pwrite(fd, h, tb->header, 0) == (ssize_t)tb->header
          && ftruncate(fd, (off_t)(tb->header + body)) == 0;
        e = errno;
        if (fd >= 0 && close(fd) != 0)
            ok = 0;
    }
    if (!all_agree(R, ok, n))
        fatal(R, 1, 7, "cannot write %s: %s", tmp, strerror(e));
    int fd = open(tmp, O_WRONLY);
    ok = fd >= 0;
    for (uint64_t done = 0; ok && done < L->s.m;) {
        ssize_t w = pwrite(fd, codes + done, L->s.m - done,
                           (off_t)(tb->header + L->s.lo + done));
        ok = w > 0;
        done += ok ? (uint64_t)w : 0;
    }
    ok = ok && fsync(fd) == 0;
    e = errno;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "%s: fatal[F007]: process %d cannot write its share of %s: %s (the "
                "folder must be one every process sees)\n", prog, R->rank, tmp, strerror(e));
    if (!all_agree(R, ok, n))
        fatal(R, 1, 7, "the layer of %u seeds could not be written whole: the layers below it "
              "in %s are whole", n, R->dir);
    if (R->rank == 0 && rename(tmp, path) != 0)
        ok = 0, e = errno;
    if (!all_agree(R, ok, n))
        fatal(R, 1, 7, "cannot write %s: %s", path, strerror(e));
}

/* The bytes of an array of the share of each process, gathered whole to
 * process 0 (into all, there). */
static void gather(struct run *R, const struct layer_mpi *L, const void *mine, void *all)
{
    int P = R->procs, *count = malloc((size_t)P * 2 * sizeof *count), *at = count + P;
    if (!count)
        no_memory(R, L->n);
    for (int r = 0; r < P; r++) {
        count[r] = (int)(L->s.bound[r + 1] - L->s.bound[r]);
        at[r] = (int)L->s.bound[r];
    }
    mpi_check(R, MPI_Gatherv(mine, (int)L->s.m, MPI_BYTE, all, count, at, MPI_BYTE, 0,
                             MPI_COMM_WORLD), L->n);
    R->sent += R->rank ? L->s.m : 0;
    free(count);
}

/* n bytes of buf from process 0 to all, in pieces an int counts. */
static void bcast(struct run *R, void *buf, uint64_t bytes, unsigned n)
{
    for (uint64_t at = 0; at < bytes; at += 1u << 30) {
        uint64_t piece = bytes - at < (1u << 30) ? bytes - at : 1u << 30;
        mpi_check(R, MPI_Bcast((char *)buf + at, (int)piece, MPI_BYTE, 0, MPI_COMM_WORLD), n);
    }
    if (R->rank == 0)
        R->sent += bytes * (uint64_t)(R->procs - 1);   /* (to each, as counted) */
}

#define SEARCH_CHUNK (1u << 22)   /* outcomes of the first round gathered at once, at most */

/* Own seeds: the search with the path of the positions the bounds leave
 * open (tb_own.c's rounds), divided.  Process 0's graph g and rounds c
 * (tb_cycle_prepare()) are sent to all; in each round the open positions
 * are taken in chunks, entry j of a chunk searched by process j mod P,
 * and the outcomes gathered by all and committed by each in the order of
 * the ranks, as the threaded build commits them (which positions the
 * second round reaches depends on what those before spent): so every
 * process stops where the budget runs out, and process 0 narrows w[] and
 * the holes -- the same bytes on any number of processes.  The second
 * round's chunks are two searches a process: a search may cost the whole
 * budget of a position, and those of a chunk past the point where the
 * layer's budget ran out are dropped. */
static void search_own_mpi(struct run *R, unsigned n, struct cycle_graph *g,
                           struct cycle_rounds *c, int8_t *w, uint8_t *hole)
{
    int P = R->procs, root = R->rank == 0;
    uint64_t head[4] = { c->n, g->size, root && c->n ? g->first[g->size] : 0, g->exits_exact };
    bcast(R, head, sizeof head, n);
    if (head[0] == 0)
        return;   /* (none open) */
    uint64_t size = head[1], edges = head[2], one = size ? size : 1;
    int8_t *exits = NULL;
    if (!root) {
        g->size = size;
        g->exits_exact = (int)head[3];
        g->first = malloc((size + 1) * sizeof *g->first);
        g->kid = malloc((edges ? edges : 1) * sizeof *g->kid);
        g->own = malloc(one);
        g->hi = malloc(one);
        g->lo = malloc(one);
        exits = malloc(2 * one);
        g->exit_hi = exits;
        g->exit_lo = exits ? exits + one : NULL;
        c->n = head[0];
        c->todo = malloc(c->n * sizeof *c->todo);
        c->found = calloc(c->n, 1);
        c->g = g;
    }
    struct cycle_search s;
    memset(&s, 0, sizeof s);
    s.on_path = calloc(2 * one, 1);
    uint64_t most = c->n < SEARCH_CHUNK ? c->n : SEARCH_CHUNK;
    struct cycle_outcome *mine = malloc((most / (unsigned)P + 1) * sizeof *mine),
                         *all = malloc(most * sizeof *all);
    int *count = malloc((size_t)P * 2 * sizeof *count), *at = count ? count + P : NULL;
    if (!all_agree(R, g->first && g->kid && g->own && g->hi && g->lo && g->exit_hi && c->todo
                          && c->found && s.on_path && mine && all && count, n))
        no_memory(R, n);
    bcast(R, g->first, (size + 1) * sizeof *g->first, n);
    bcast(R, g->kid, edges * sizeof *g->kid, n);
    bcast(R, g->own, size, n);
    bcast(R, g->hi, size, n);
    bcast(R, g->lo, size, n);
    bcast(R, (void *)g->exit_hi, size, n);   /* (process 0's: the layer's own arrays) */
    bcast(R, (void *)g->exit_lo, size, n);
    bcast(R, c->todo, c->n * sizeof *c->todo, n);
    for (int round = 0; round < 2; round++) {
        tb_cycle_round(c, round);
        uint64_t chunk = round == 0 ? most : 4 * (uint64_t)P;
        while (c->done < c->n && !c->stopped) {
            uint64_t from = c->done, k = 0, take = c->n - from < chunk ? c->n - from : chunk;
            for (uint64_t j = (uint64_t)R->rank; j < take; j += (uint64_t)P)
                tb_cycle_search(&s, c, c->todo[from + j], &mine[k++]);
            for (int r = 0, sum = 0; r < P; r++) {
                uint64_t of = (uint64_t)r < take ? (take - (uint64_t)r + (uint64_t)P - 1) / (uint64_t)P : 0;
                count[r] = (int)(of * sizeof *all);
                at[r] = sum;
                sum += count[r];
            }
            mpi_check(R, MPI_Allgatherv(mine, (int)(k * sizeof *mine), MPI_BYTE, all, count, at,
                                        MPI_BYTE, MPI_COMM_WORLD), n);
            R->sent += k * sizeof *mine * (uint64_t)(P - 1);
            for (uint64_t j = 0; j < take; j++) {
                const struct cycle_outcome *o =
                    all + (uint64_t)at[j % (uint64_t)P] / sizeof *all + j / (uint64_t)P;
                if (tb_cycle_commit(c, o, w, hole) != 0)
                    break;
            }
        }
    }
    free(s.on_path);
    free(mine);
    free(all);
    free(count);
    if (!root) {
        free(exits);
        tb_cycle_rounds_free(c);
        tb_cycle_graph_free(g);
    }
}

/* Own seeds: the positions played across processes as for the other
 * rules, every predecessor entry sent to process 0, which solves the
 * layer's bounds with the threaded build's code -- both seats apart
 * (tb_own_bounds()), then those from the endless games
 * (tb_cycle_prepare()), each linear in the layer.  The search with the
 * path over the positions they leave open, where the time goes, is
 * divided (search_own_mpi()); process 0 then makes the codes
 * (tb_own_codes()) and writes the layer.  So process 0 holds the layer's
 * whole graph, as one machine does, and every other process the graph the
 * search walks (check_memory() counts them).  M is played (play_share()). */
static void build_own_layer_mpi(struct run *R, struct layer_mpi *M)
{
    pmn_tablebase *tb = R->tb;
    unsigned n = M->n;
    uint64_t size = M->s.size, one = size ? size : 1;
    struct layer L;
    struct cycle_graph g;
    struct cycle_rounds c;
    memset(&L, 0, sizeof L);
    memset(&g, 0, sizeof g);
    memset(&c, 0, sizeof c);
    int8_t *w = NULL;
    int ok = 1;
    if (R->rank == 0) {
        L.exit = malloc(one);
        L.exit_low = malloc(one);
        L.hole = malloc(one);
        L.open = malloc(one);
        L.cursor = malloc(one * sizeof *L.cursor);
        L.by_exit = malloc(one * sizeof *L.by_exit);
        w = malloc(2 * one);
        ok = L.exit && L.exit_low && L.hole && L.open && L.cursor && L.by_exit && w;
    }
    if (!all_agree(R, ok, n))
        no_memory(R, n);
    gather(R, M, M->exit, L.exit);
    gather(R, M, M->exit_low, L.exit_low);
    gather(R, M, M->hole, L.hole);
    gather(R, M, M->open, L.open);
    if (R->rank == 0) {
        /* The layer as layer_graph() makes it: the lists' ends, the
         * positions by exit. */
        L.tb = tb;
        L.r = &tb->rules;
        L.n = n;
        L.size = size;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        L.threads = cores < 1 ? 1 : cores > 16 ? 16 : (unsigned)cores;
        L.pred = M->pred;
        for (uint64_t i = 0; i < size; i++)
            L.cursor[i] = M->first[i + 1];
        tb_by_exit(L.exit, size, n, L.exit_at, L.by_exit);
        ok = tb_own_bounds(&L, w) == 0 && tb_cycle_prepare(&L, w, &g, &c) == 0;
    }
    if (!all_agree(R, ok, n))
        fatal(R, 1, 7, "the layer of %u seeds: out of memory for the solve in process 0: the "
              "layers below it in %s are whole", n, R->dir);
    search_own_mpi(R, n, &g, &c, w, L.hole);
    const char *why = NULL;
    if (R->rank == 0) {
        tb_cycle_rounds_free(&c);
        tb_cycle_graph_free(&g);
        int8_t *value = calloc(tb_body_bytes(tb, n), 1);
        int rc = value ? tb_own_codes(&L, w, value) : -1;
        pmn_error err;
        if (rc == -2)
            why = "more than 256 kinds of bounds and moves, more than a byte a position holds";
        else if (rc != 0)
            why = "out of memory for the solve";
        else if (tb_own_table_read(tb, n, value) != 0)
            why = "a table of codes no position can have";
        else if (tb_write_layer(tb, R->dir, n, value, &err) != 0)
            why = err.message;
        free(value);
        ok = why == NULL;
        if (!ok)
            fprintf(stderr, "%s: fatal[F007]: the layer of %u seeds: %s: the layers below it "
                    "in %s are whole\n", prog, n, why, R->dir);
        free(L.exit);
        free(L.exit_low);
        free(L.hole);
        free(L.open);
        free(L.cursor);
        free(L.by_exit);
        free(w);
    }
    if (!all_agree(R, ok, n)) {
        MPI_Finalize();
        exit(3);
    }
}

static void build_layer_mpi(struct run *R, unsigned n, struct vec *out)
{
    const pmn_tablebase *tb = R->tb;
    struct layer_mpi L;
    memset(&L, 0, sizeof L);
    uint64_t bound[R->procs + 1];
    L.R = R;
    L.n = n;
    L.s.bound = bound;
    L.out = out;
    L.coded = tb->coded || tb->own;   /* (a hole with each predecessor) */
    L.to = &L.s;
    share_make(R, tb->size[n], &L.s);
    uint64_t to0[R->procs + 1];   /* own seeds: every position process 0's */
    struct share all0 = { L.s.size, to0, 0, R->rank == 0 ? L.s.size : 0 };
    for (int r = 0; r <= R->procs; r++)
        to0[r] = r == 0 ? 0 : L.s.size;
    if (L.coded && L.s.size > (uint64_t)PRED_RANK + 1)
        fatal(R, 1, 7, "the layer of %u seeds has too many positions (%llu) for this format", n,
              (unsigned long long)L.s.size);
    if (!tb->coded && L.s.size > UINT32_MAX)
        fatal(R, 1, 7, "the layer of %u seeds has too many positions (%llu) for a build across "
              "processes", n, (unsigned long long)L.s.size);
    uint64_t m = L.s.m ? L.s.m : 1;
    L.exit = malloc(m);
    L.open = calloc(m, 1);
    L.hole = L.coded ? calloc(m, 1) : NULL;
    L.exit_low = tb->own ? malloc(m) : NULL;
    L.value = tb->own ? NULL : calloc(m, 1);   /* (own seeds: solved by process 0) */
    L.state = tb->own ? NULL : calloc(m, 1);
    if (!all_agree(R, L.exit && L.open && (L.hole || !L.coded)
                      && (tb->own ? L.exit_low != NULL : L.value && L.state), n))
        no_memory(R, n);
    if (tb->own)
        L.to = &all0;
    play_share(&L);
    if (R->fault_rank == R->rank && R->fault_layer == n)
        raise(SIGKILL);   /* (PMN_MPI_FAULT: the tests' lost process) */
    if (tb->own) {
        build_own_layer_mpi(R, &L);
    } else {
        solve_share(&L);
        /* The codes, in place of the values (code_of(): the value, and the
         * winner's hole where it is above 0). */
        for (uint64_t i = 0; tb->coded && i < L.s.m; i++)
            L.value[i] = (int8_t)tb_code_of(tb, n, L.value[i],
                                            L.value[i] > 0 ? L.hole[i] : -1);
        write_share(&L, L.value);
    }
    R->built += L.s.size;
    free(L.exit);
    free(L.value);
    free(L.open);
    free(L.state);
    free(L.hole);
    free(L.exit_low);
    free(L.first);
    free(L.pred);
}

/* ---- the run ---------------------------------------------------------------- */

static void print_layer(const pmn_tablebase *tb, unsigned n)
{
    pmn_tablebase_layer s;
    if (pmn_tablebase_layer_stats(tb, n, &s) != 0)
        return;
    printf("seeds %u: %llu positions", s.seeds, (unsigned long long)s.positions);
    for (int v = -(int)s.seeds; v <= (int)s.seeds; v++) {
        uint64_t c = s.by_value[v + PMN_TABLEBASE_MAX_SEEDS];
        if (c)
            printf(" %+d:%llu", v, (unsigned long long)c);
    }
    if (s.bounded)
        printf(" bounded:%llu", (unsigned long long)s.bounded);
    printf("\n");
    fflush(stdout);
}

/* The bytes a process needs for the layer of n seeds: its share of the
 * layer's arrays, and every layer below mapped whole. */
static double need_for(const pmn_tablebase *tb, unsigned n, int procs)
{
    double below = 0;
    for (unsigned k = 0; k < n; k++)
        below += (double)tb_body_bytes(tb, k);
    if (tb->own)   /* (process 0 holds the whole layer: pmn_tablebase_build_bytes()'s,
                      less the moves the threaded build keeps between its passes; the
                      others the search's graph, less) */
        return (2 + 39 + 14) * (double)tb->size[n] + below;
    return MEMORY_A_POSITION * (double)tb->size[n] / procs + below;
}

static double budget_of(double asked)
{
    if (asked > 0)
        return asked;
    /* The machine's memory, shared by the processes on it. */
    MPI_Comm node;
    int here = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)
        == MPI_SUCCESS) {
        MPI_Comm_size(node, &here);
        MPI_Comm_free(&node);
    }
    double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    return mem / here;
}

static const char *human(double b, char *buf, size_t size)
{
    const char *unit[] = { "bytes", "KB", "MB", "GB", "TB", "PB" };
    int u = 0;
    while (b >= 1000 && u < 5)
        b /= 1000, u++;
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

/* Refused before anything is built: more memory a process than it has,
 * for the largest layer (what a process needs grows with the layer). */
static void check_memory(struct run *R, unsigned seeds)
{
    const pmn_tablebase *tb = R->tb;
    double need = need_for(tb, seeds, R->procs), below = need_for(tb, seeds, INT_MAX);
    char a[32], b[32], c[32];
    if (need <= R->memory)
        return;
    if (tb->own)
        fatal(R, 1, 7, "the layer of %u seeds needs about %s in process 0, which solves its "
              "bounds whole where positions keep their own seeds, and a process has %s: more "
              "memory for process 0", seeds, human(need, a, sizeof a),
              human(R->memory, b, sizeof b));
    if (below + MEMORY_A_POSITION >= R->memory)
        fatal(R, 1, 7, "the layer of %u seeds needs the layers below it mapped whole in each "
              "process, %s, and a process has %s: more memory a process, whatever their number",
              seeds, human(below, a, sizeof a), human(R->memory, b, sizeof b));
    double procs = ceil(MEMORY_A_POSITION * (double)tb->size[seeds] / (R->memory - below));
    fatal(R, 1, 7, "the layer of %u seeds needs about %s a process on %d processes, and a "
          "process has %s: %.0f processes of this size, or %s each", seeds,
          human(need, a, sizeof a), R->procs, human(R->memory, b, sizeof b), procs,
          human(need, c, sizeof c));
}

/* Every process the same pmn, the same format and the same rules. */
static void check_same(struct run *R)
{
    char mine[128], *all = malloc((size_t)R->procs * sizeof mine);
    if (!all)
        no_memory(R, 0);
    snprintf(mine, sizeof mine, "pmn %s (format %d, rules %.80s)",
             R->fault_version == R->rank ? "0.0-other" : PACKAGE_VERSION, TB_VERSION,
             R->tb->spec);
    mpi_check(R, MPI_Allgather(mine, sizeof mine, MPI_CHAR, all, sizeof mine, MPI_CHAR,
                               MPI_COMM_WORLD), 0);
    for (int r = 1; r < R->procs; r++)
        if (strcmp(all, all + (size_t)r * sizeof mine) != 0)
            fatal(R, 1, 7, "process %d runs %s, process 0 %s: one pmn on every node", r,
                  all + (size_t)r * sizeof mine, all);
    free(all);
}

/* A rule file's first problem, kept. */
static void first_problem(void *ctx, const pmn_diag *d)
{
    char *why = ctx;
    if (!*why) {
        char code[8];
        pmn_diag_code_name(d->code, code);
        snprintf(why, 512, "%s: %s", code, d->message);
    }
}

/* --rules: a spec (a rule set's name and options), or a rule file (a path,
 * or a name ending in .xml), as pmn takes it.  0, or -1 and why. */
static int rules_of(const char *spec, pmn_rules *r, char why[512])
{
    size_t n = strlen(spec);
    *why = 0;
    if (strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".xml") == 0)) {
        FILE *f = fopen(spec, "r");
        if (!f) {
            snprintf(why, 512, "%s: %s", spec, strerror(errno));
            return -1;
        }
        pmn_rule_file *rf = pmn_rule_file_read(f, spec, first_problem, why);
        fclose(f);
        if (rf)
            *r = *pmn_rule_file_rules(rf);
        pmn_rule_file_free(rf);
        return rf ? 0 : -1;
    }
    pmn_error err;
    if (pmn_rules_init(r, spec, &err) != 0) {
        snprintf(why, 512, "%s", err.message);
        return -1;
    }
    return 0;
}

static void usage(int status)
{
    fprintf(status ? stderr : stdout,
            "Usage: mpirun -np N %s --rules SPEC --seeds N [--dir DIR] [--memory BYTES] [-q]\n"
            "\n"
            "The endgame databases of pmn tablebase build (the same files), built across N\n"
            "processes: each owns a share of every layer's positions, the layers below\n"
            "are read from DIR, which every process must see (one machine, or a shared\n"
            "file system).  A layer already in DIR is read, not built again, so that the\n"
            "same command resumes a run that was stopped.  Where positions keep their own\n"
            "seeds on a repetition (Oware), process 0 solves each layer whole.\n"
            "\n"
            "Options:\n"
            "  -r, --rules=SPEC    rule set and options, or a rule file\n"
            "  -s, --seeds=N       every layer up to N seeds in play\n"
            "      --dir=DIR       the databases' directory (default: $PMN_TABLEBASES, else\n"
            "                      ~/.local/share/pmn/tablebases)\n"
            "      --memory=BYTES  what a process may use (K, M, G); default: the machine's\n"
            "                      memory shared by its processes\n"
            "  -q, --quiet         no line a layer\n"
            "  -h, --help          this help\n", prog);
}

static double bytes_of(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9
                : *end == 'T' ? 1e12 : 1;
    if (end == s || v <= 0 || (*end && unit == 1) || (*end && end[1]))
        return -1;
    return v * unit;
}

int main(int argc, char **argv)
{
    struct run R;
    memset(&R, 0, sizeof R);
    R.fault_rank = R.fault_version = -1;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "%s: fatal[F007]: MPI cannot start (run it with mpirun)\n", prog);
        return 3;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &R.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &R.procs);

    const char *spec = NULL, *dir = getenv("PMN_TABLEBASES");
    long seeds = -1;
    double asked = 0;
    static const struct option opts[] = {
        { "rules", required_argument, NULL, 'r' }, { "seeds", required_argument, NULL, 's' },
        { "dir", required_argument, NULL, 'd' }, { "memory", required_argument, NULL, 'm' },
        { "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    opterr = R.rank == 0;   /* (getopt's words, once) */
    for (int c; (c = getopt_long(argc, argv, "r:s:qh", opts, NULL)) != -1;) {
        char *end;
        switch (c) {
        case 'r': spec = optarg; break;
        case 's':
            seeds = strtol(optarg, &end, 10);
            if (*end || !*optarg || seeds < 0)
                usage_fail(&R, "--seeds: '%s' is not a count of seeds", optarg);
            break;
        case 'd': dir = optarg; break;
        case 'm':
            if ((asked = bytes_of(optarg)) < 0)
                usage_fail(&R, "--memory: '%s' is not a size (BYTES, or with K, M, G, T)",
                           optarg);
            break;
        case 'q': R.quiet = 1; break;
        case 'h':
            if (R.rank == 0)
                usage(0);
            MPI_Finalize();
            return 0;
        default: usage_fail(&R, "unknown option");
        }
    }
    if (optind < argc)
        usage_fail(&R, "'%s': no file is read (--rules, --seeds, --dir)", argv[optind]);
    if (!spec || seeds < 0)
        usage_fail(&R, "--rules and --seeds are needed");
    char home[4096];
    if (!dir) {
        const char *h = getenv("HOME");
        snprintf(home, sizeof home, "%s/.local/share/pmn/tablebases", h ? h : ".");
        dir = home;
    }
    R.dir = dir;
    const char *fault = getenv("PMN_MPI_FAULT");
    if (fault && sscanf(fault, "version:%d", &R.fault_version) != 1
        && sscanf(fault, "%d:%u", &R.fault_rank, &R.fault_layer) != 2)
        R.fault_rank = R.fault_version = -1;

    pmn_rules rules;
    pmn_error err;
    char why[512];
    memset(&err, 0, sizeof err);
    if (rules_of(spec, &rules, why) != 0)
        usage_fail(&R, "--rules '%s': %s", spec, why);
    if (pmn_tablebase_check_rules(&rules, &err) != 0)
        usage_fail(&R, "--rules '%s': %s", spec, err.message);
    if ((unsigned long)seeds > pmn_tablebase_max_seeds(&rules))
        usage_fail(&R, "--seeds: at most %u for these rules", pmn_tablebase_max_seeds(&rules));
    R.tb = tablebase_new(&rules, &err);
    if (!R.tb)
        fatal(&R, 1, 2, "%s", err.message);
    check_same(&R);
    if ((uint64_t)R.procs > R.tb->size[seeds])
        fatal(&R, 1, 7, "%d processes for a layer of %llu position%s: at most one a position",
              R.procs, (unsigned long long)R.tb->size[seeds], R.tb->size[seeds] == 1 ? "" : "s");
    R.memory = budget_of(asked);
    check_memory(&R, (unsigned)seeds);

    /* One build in a folder at a time (the threaded build's lock). */
    int ok = 1, e = 0, lock = -1;
    if (R.rank == 0) {
        ok = mkdir(dir, 0777) == 0 || errno == EEXIST;
        lock = ok ? open(dir, O_RDONLY | O_DIRECTORY) : -1;
        ok = lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0;
        e = errno;
    }
    if (!all_agree(&R, ok, 0))
        fatal(&R, 1, 7, "cannot write %s: %s", dir, e == EWOULDBLOCK ? "another pmn is "
              "building databases there (one build a folder at a time)" : strerror(e));
    if (R.rank == 0) {
        signal(SIGTERM, on_stop);
        signal(SIGINT, on_stop);
    }

    struct vec *out = calloc((size_t)R.procs, sizeof *out);
    if (!out)
        no_memory(&R, 0);
    double t0 = MPI_Wtime();
    for (unsigned n = 0; n <= (unsigned)seeds; n++) {
        say_stopped_at(&R, n);
        int rc = tablebase_load_layer(R.tb, dir, n, &err);
        int worst = 0;
        mpi_check(&R, MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), n);
        if (worst == -1)
            fatal(&R, rc == -1 ? 0 : 1, 5, "%s", rc == -1 ? err.message : "a layer file unusable");
        if (rc != 1) {
            build_layer_mpi(&R, n, out);
            rc = tablebase_load_layer(R.tb, dir, n, &err);
            if (!all_agree(&R, rc == 1, n))
                fatal(&R, 0, 7, "process %d: %s (the folder must be one every process sees)",
                      R.rank, rc == 1 ? "" : rc == 0 ? "the layer just written is not there"
                      : err.message);
        }
        if (R.rank == 0 && !R.quiet)
            print_layer(R.tb, n);
    }
    uint64_t sent = 0;
    mpi_check(&R, MPI_Reduce(&R.sent, &sent, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD),
              (unsigned)seeds);
    if (R.rank == 0 && !R.quiet && R.built)
        fprintf(stderr, "%s: %d processes, %.1f s, %.2f bytes exchanged a position built\n",
                prog, R.procs, MPI_Wtime() - t0, (double)sent / (double)R.built);
    if (lock >= 0)
        close(lock);
    free(out);
    pmn_tablebase_close(R.tb);
    MPI_Finalize();
    return 0;
}
