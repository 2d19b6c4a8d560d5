/* The PROCESS DUMP part's lines; see psdump.h. */
#include "psdump.h"

#include <string.h>

#define TOKENS_MAX 10

struct tok {
    const char *p;
    size_t n;
};

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static size_t split(const char *p, size_t n, struct tok *tk, size_t max)
{
    size_t k = 0, i = 0;
    while (i < n && k < max) {
        while (i < n && blank(p[i]))
            i++;
        if (i == n)
            break;
        tk[k].p = p + i;
        while (i < n && !blank(p[i]))
            i++;
        tk[k].n = (size_t)(p + i - tk[k].p);
        k++;
    }
    return k;
}

static int tok_is(const struct tok *t, const char *s)
{
    return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

/* 1-10 decimal digits */
static int tok_num(const struct tok *t, int64_t *v)
{
    if (!t->n || t->n > 10)
        return 0;
    int64_t x = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->p[i] < '0' || t->p[i] > '9')
            return 0;
        x = x * 10 + (t->p[i] - '0');
    }
    *v = x;
    return 1;
}

void psdump_init(struct psdump *d)
{
    d->form = 0;
}

enum psdump_row_kind psdump_line(struct psdump *d, const char *p, size_t n,
                                 struct psdump_row *row)
{
    struct tok tk[TOKENS_MAX];
    size_t k = split(p, n, tk, TOKENS_MAX);
    if (k >= 3 && tok_is(&tk[0], "USER") && tok_is(&tk[1], "PID")) {
        d->form = tok_is(&tk[2], "TID") ? 2 : 1;
        return PSDUMP_NONE;
    }
    memset(row, 0, sizeof(*row));
    if (d->form == 2 && k >= 4 && tok_num(&tk[1], &row->pid) && tok_num(&tk[2], &row->tid)) {
        size_t len = n - (size_t)(tk[3].p - p);
        while (len && blank(tk[3].p[len - 1]))
            len--;
        row->name = tk[3].p;
        row->name_len = len;
        row->word_len = tk[3].n;
        return PSDUMP_THREAD;
    }
    if (d->form == 1 && k >= 9 && tok_num(&tk[1], &row->pid)) {
        row->tid = row->pid;
        row->name = tk[8].p;
        row->name_len = row->word_len = tk[8].n;
        return PSDUMP_PROCESS;
    }
    return PSDUMP_NONE;
}
