/* model.c - what an engine value is worth: the expected score (win 1,
 * draw 1/2, loss 0) of the side to move, for judging moves by what they
 * change rather than by raw seed counts.
 *
 * The model is a logistic curve in the engine's estimate v (seeds, the
 * side to move's view), flattened by the seeds still in play n:
 *
 *     E(v, n) = 1 / (1 + exp(-k * v / n^p))
 *
 * A lead of 3 seeds decides little in an opening of 56 seeds and much in
 * an ending of 8: p says how much the seeds in play damp it, k how steep
 * the curve is.  Both are fitted, by maximum likelihood, from games whose
 * results are known: pmn's own self-play (pmn selfplay --fit, which prints
 * the table's line for a rule set).  Exact values need no model: a proved
 * win is 1, a draw 1/2, a loss 0. */
#include "pmn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fitted by
 *     pmn selfplay --rules NAME --games 400 --depth 6 --temperature T --seed 1 --fit
 * self-play at depth 6, the first 4 plies of each game at random, then each
 * move drawn with odds exp(value / T): players who err as much as the
 * players of the two Mancala World sample games of Hawalis do, as the
 * engine sees them (pmn selfplay --strength-of --depth 6 on them gives
 * 5.85 seeds: T = 6 of Hawalis' 56 seeds).  No records of expert play of
 * the other games are at hand: their T is the same share of their seeds
 * (5.1 of 48, 10.3 of 96).  Every position searched whose value was not
 * exact is a sample.  Columns: k, p, samples, the mean log-loss of the
 * fit, and of the best constant (the mean score), which knows nothing of
 * the position. */
static const pmn_model models[] = {
    /* name      k       p     samples  log-loss  constant */
    { "hawalis", 6.3705, 1.25, 26102,   0.6010,   0.6931 },
    { "kalah",   6.5922, 1.25, 11743,   0.5932,   0.6930 },
    { "oware",   0.2787, 0.25, 40129,   0.6155,   0.6931 },
    { "awale",   0.5751, 0.50, 40844,   0.6081,   0.6931 },
    { "anywoli", 0.1319, 0.00, 162866,  0.3333,   0.6931 },
};

#define NMODELS (sizeof models / sizeof models[0])

const pmn_model *pmn_model_for(const pmn_rules *r)
{
    for (size_t i = 0; i < NMODELS; i++)
        if (strcmp(models[i].game, r->name) == 0)
            return &models[i];
    /* A variant of a built-in game (a rule file, options over it) keeps
     * its name; one of no known name is judged as the game its goal is
     * closest to. */
    const char *like = r->goal == PMN_GOAL_MOST_SEEDS ? (r->stores ? "kalah" : "oware")
                                                      : "hawalis";
    for (size_t i = 0; i < NMODELS; i++)
        if (strcmp(models[i].game, like) == 0)
            return &models[i];
    return &models[0];
}

static double logistic(double x)
{
    return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
}

double pmn_model_expected(const pmn_model *m, double v, unsigned in_play)
{
    double n = in_play ? (double)in_play : 1;
    return logistic(m->k * v / pow(n, m->p));
}

double pmn_expected_score(const pmn_model *m, const pmn_value *v, unsigned in_play)
{
    if (v->exact || v->plies)   /* proved, or a win found to the end */
        return v->outcome > 0 ? 1 : v->outcome < 0 ? 0 : 0.5;
    return pmn_model_expected(m, v->margin, in_play);
}

int pmn_comment_eval(const char *comment, char *eval, size_t size)
{
    const char *at = strstr(comment, "[%eval");
    if (!at || size == 0)
        return 0;
    at += 6;
    while (*at == ' ' || *at == '\n' || *at == '\t')
        at++;
    size_t n = strcspn(at, "] \n\t");
    if (n == 0 || n >= size || at[n] == '\0')
        return 0;
    memcpy(eval, at, n);
    eval[n] = '\0';
    return 1;
}

int pmn_eval_expected(const pmn_model *m, const char *eval, unsigned in_play, double *south)
{
    /* A result without a margin: "won", "lost" (and "#+7", "#-4", the form
     * of pmn 0.1's first annotations and of chess's mates). */
    if (!strcmp(eval, "won") || !strcmp(eval, "lost")) {
        *south = *eval == 'w';
        return 0;
    }
    char *end;
    int proved = *eval == '=' || *eval == '#';
    const char *num = proved ? eval + 1 : eval;
    if (!*num)
        return -1;
    double v = strtod(num, &end);
    if (*end || end == num)
        return -1;
    if (proved)   /* a result: the margin's sign, or the winner's */
        *south = *eval == '#' ? (*num == '-' ? 0 : 1) : v > 0 ? 1 : v < 0 ? 0 : 0.5;
    else
        *south = pmn_model_expected(m, v, in_play);
    return 0;
}

/* ---- fitting ------------------------------------------------------------ */

/* The mean log-loss of slope k over the samples' x = v / n^p; with its
 * first and second derivatives in k. */
static double log_loss(const pmn_model_sample *s, const double *x, size_t n, double k,
                       double *d1, double *d2)
{
    double loss = 0, g = 0, h = 0;
    for (size_t i = 0; i < n; i++) {
        double e = logistic(k * x[i]);
        double y = s[i].score;
        /* -(y log e + (1-y) log(1-e)), kept finite where e rounds to 0 or 1 */
        double le = log(e > 1e-300 ? e : 1e-300), l1 = log(1 - e > 1e-300 ? 1 - e : 1e-300);
        loss -= y * le + (1 - y) * l1;
        g += (e - y) * x[i];
        h += e * (1 - e) * x[i] * x[i];
    }
    *d1 = g / (double)n;
    *d2 = h / (double)n;
    return loss / (double)n;
}

int pmn_model_fit(const pmn_model_sample *s, size_t n, double *x, pmn_model *m)
{
    static const double exponents[] = { 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3 };
    if (n == 0)
        return -1;
    double best = INFINITY;
    for (size_t j = 0; j < sizeof exponents / sizeof exponents[0]; j++) {
        double p = exponents[j];
        for (size_t i = 0; i < n; i++)
            x[i] = s[i].value / pow(s[i].in_play ? (double)s[i].in_play : 1, p);
        /* The loss is convex in k: Newton's method from 0, each step halved
         * until the loss goes down. */
        double k = 0, d1, d2, loss = log_loss(s, x, n, k, &d1, &d2);
        for (int it = 0; it < 100 && d2 > 0; it++) {
            double step = d1 / d2, nk, nl, e1, e2;
            for (int h = 0; h < 40; h++, step /= 2) {
                nk = k - step;
                nl = log_loss(s, x, n, nk, &e1, &e2);
                if (nl <= loss)
                    break;
            }
            if (!(nl <= loss))
                break;
            int done = fabs(nk - k) < 1e-9 * (1 + fabs(k));
            k = nk, loss = nl, d1 = e1, d2 = e2;
            if (done)
                break;
        }
        if (loss < best) {
            best = loss;
            m->k = k;
            m->p = p;
        }
    }
    /* The yardstick: the best constant, the mean score. */
    double mean = 0, base = 0;
    for (size_t i = 0; i < n; i++)
        mean += s[i].score;
    mean /= (double)n;
    if (mean > 0 && mean < 1)
        for (size_t i = 0; i < n; i++)
            base -= s[i].score * log(mean) + (1 - s[i].score) * log(1 - mean);
    m->samples = (unsigned long)n;
    m->log_loss = best;
    m->base_loss = base / (double)n;
    return 0;
}

/* ---- how a player chooses ------------------------------------------------- */

/* A move's worth in seeds, for choosing: a decided result outweighs any
 * count of seeds. */
static double worth(const pmn_value *v)
{
    if ((v->exact || v->plies) && v->outcome)
        return v->outcome * 1000.0 + v->margin;
    return v->margin;
}

int pmn_choice_of(const pmn_analysis *a, int hole, pmn_choice *c)
{
    c->nmoves = a->nmoves;
    c->played = -1;
    for (int i = 0; i < a->nmoves; i++) {
        c->worth[i] = worth(&a->moves[i].value);
        if (a->moves[i].hole == hole)
            c->played = i;
    }
    return c->played;
}

/* The log-likelihood of the choices under temperature t. */
static double choice_likelihood(const pmn_choice *c, size_t n, double t)
{
    double ll = 0;
    for (size_t i = 0; i < n; i++) {
        double top = c[i].worth[0], z = 0;
        for (int k = 0; k < c[i].nmoves; k++)
            top = c[i].worth[k] > top ? c[i].worth[k] : top;
        for (int k = 0; k < c[i].nmoves; k++)
            z += exp((c[i].worth[k] - top) / t);
        ll += (c[i].worth[c[i].played] - top) / t - log(z);
    }
    return ll;
}

double pmn_temperature_fit(const pmn_choice *c, size_t n, double *ll, double *uniform)
{
    /* Golden-section search on log t, from 0.05 to 1000 seeds: the
     * likelihood has one peak (or rises to the uniform choice). */
    double lo = log(0.05), hi = log(1000), g = (sqrt(5) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = choice_likelihood(c, n, exp(a)), fb = choice_likelihood(c, n, exp(b));
    for (int it = 0; it < 80; it++) {
        if (fa < fb) {
            lo = a, a = b, fa = fb;
            b = lo + g * (hi - lo);
            fb = choice_likelihood(c, n, exp(b));
        } else {
            hi = b, b = a, fb = fa;
            a = hi - g * (hi - lo);
            fa = choice_likelihood(c, n, exp(a));
        }
    }
    double t = exp((lo + hi) / 2);
    *ll = choice_likelihood(c, n, t);
    *uniform = 0;
    for (size_t i = 0; i < n; i++)
        *uniform -= log((double)c[i].nmoves);
    return t;
}
