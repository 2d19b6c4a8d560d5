/*
 * Host ftrace line normalisation; see ftrace_norm.h.
 *
 * An event line is `TASK-TID [(TGID)] [CPU] FLAGS TIMESTAMP: EVENT: ...`
 * where TASK may hold any character.  The CPU field is found as the first
 * ` [digits] ` that is followed by a flags token and `digits.digits:`;
 * such a match needs 18 bytes, more than a 15-byte task name can fake.
 */
#include "ftrace_norm.h"
#include "lib/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fnorm {
    struct fnorm_opts o;
    st_write_fn out;
    void *ctx;
    char carry[FNORM_LINE_MAX];
    size_t carrylen;
    int tail;               /* the rest of an examined long line streams through */
    int pass;               /* FNORM_AUTO decided: nothing to fix, bytes go straight on */
    size_t looked;          /* FNORM_AUTO: bytes looked at without a decision */
    struct fnorm_stats st;
};

struct fnorm *fnorm_new(const struct fnorm_opts *o, st_write_fn out, void *ctx)
{
    struct fnorm *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->o = *o;
    f->out = out;
    f->ctx = ctx;
    return f;
}

void fnorm_free(struct fnorm *f)
{
    free(f);
}

const struct fnorm_stats *fnorm_stats(const struct fnorm *f)
{
    return &f->st;
}

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

/* `digits.digits:` at p[i]; returns the index after ':' (and its value in
 * ns in *ns) or 0.  Parsing while checking saves the merge a second pass. */
static size_t timestamp_at(const char *p, size_t n, size_t i, uint64_t *ns)
{
    size_t d = i;
    uint64_t sec = 0, frac = 0;
    while (i < n && digit(p[i]))
        sec = sec * 10 + (uint64_t)(p[i++] - '0');
    if (i == d || i >= n || p[i] != '.')
        return 0;
    d = ++i;
    while (i < n && digit(p[i])) {
        if (i - d < 9)
            frac = frac * 10 + (uint64_t)(p[i] - '0');
        i++;
    }
    if (i == d || i >= n || p[i] != ':')
        return 0;
    for (size_t k = i - d; k < 9; k++)
        frac *= 10;
    *ns = sec * 1000000000u + frac;
    return i + 1;
}

/* The CPU field candidate at p[b] ('['): 1 and *f filled if it is one. */
static int fields_at(const char *p, size_t n, size_t b, struct fnorm_fields *f)
{
    size_t i = b + 1;
    while (i < n && digit(p[i]))
        i++;
    if (i == b + 1 || i + 1 >= n || p[i] != ']' || p[i + 1] != ' ')
        return 0;
    i += 2;
    size_t tok = i;
    while (i < n && p[i] != ' ' && i - tok < 8)
        i++;
    size_t after = timestamp_at(p, n, tok, &f->ns);
    if (after) {            /* no flags column (irq-info off) */
        f->nflags = 0;
        f->ts = tok;
    } else {
        if (i == tok || i >= n || p[i] != ' ')
            return 0;
        f->nflags = i - tok;
        while (i < n && p[i] == ' ')
            i++;
        if (!(after = timestamp_at(p, n, i, &f->ns)))
            return 0;
        f->ts = i;
    }
    f->cpu = b;
    f->flags = tok;
    f->event = after < n && p[after] == ' ' ? after + 1 : after;
    return 1;
}

static int find_fields(const char *p, size_t n, struct fnorm_fields *f)
{
    size_t i = 0;
    for (int tries = 0; tries < 6 && i < n; tries++) {
        const char *b = memchr(p + i, '[', n - i);
        if (!b)
            return 0;
        size_t k = (size_t)(b - p);
        if (k > 0 && p[k - 1] == ' ' && fields_at(p, n, k, f))
            return 1;
        i = k + 1;
    }
    return 0;
}

/* The classic viewer's four sets, [dX.][Nnp.][Hhs.][0-9a-f.]. */
static char map_flag(int col, char c)
{
    switch (col) {
    case 0:
        return c == 'd' || c == 'X' || c == '.' ? c : c == 'D' ? 'd' : '.';
    case 1:
        if (c == 'N' || c == 'n' || c == 'p' || c == '.')
            return c;
        return c >= 'A' && c <= 'Z' ? 'N' : c >= 'a' && c <= 'z' ? 'n' : '.';
    case 2:
        if (c == 'H' || c == 'h' || c == 's' || c == '.')
            return c;
        return c == 'Z' ? 'H' : c == 'z' ? 'h' : '.';
    default:
        return digit(c) || (c >= 'a' && c <= 'f') || c == '.' ? c : '.';
    }
}

static int fix_flags(char *p, const struct fnorm_fields *f)
{
    if (f->nflags != 4 && f->nflags != 5)
        return 0;
    int changed = 0;
    char *q = p + f->flags;
    for (int c = 0; c < 4; c++) {
        char m = map_flag(c, q[c]);
        changed |= m != q[c];
        q[c] = m;
    }
    if (f->nflags == 5) {
        q[4] = ' ';
        changed = 1;
    }
    return changed;
}

int fnorm_fields(const char *line, size_t n, struct fnorm_fields *f)
{
    return find_fields(line, n < FNORM_LINE_MAX ? n : FNORM_LINE_MAX, f);
}

int fnorm_line_time(const char *line, size_t n, uint64_t *ns)
{
    struct fnorm_fields f;
    if (!find_fields(line, n, &f))
        return 0;
    *ns = f.ns;
    return 1;
}

int fnorm_fix_flags(char *line, size_t n)
{
    struct fnorm_fields f;
    return find_fields(line, n, &f) && fix_flags(line, &f);
}

/* "CPU:N [LOST M EVENTS]": M, or -1. */
static long long lost_count(const char *p, size_t n)
{
    if (n < 6 || memcmp(p, "CPU:", 4))
        return -1;
    const char *l = memmem(p, n, " [LOST ", 7);
    if (!l)
        return -1;
    long long v = 0;
    const char *d = l + 7, *end = p + n;
    while (d < end && digit(*d) && v < (1LL << 56))
        v = v * 10 + (*d++ - '0');
    return d < end && *d == ' ' ? v : -1;
}

/* TID of the `TASK-TID` before the CPU field when there is no TGID
 * column; 0 when there is one or it cannot be found. *at: where a
 * column goes (the '['). */
static unsigned long tid_without_tgid(const char *p, const struct fnorm_fields *f)
{
    size_t i = f->cpu;
    while (i > 0 && p[i - 1] == ' ')
        i--;
    if (i == 0 || p[i - 1] == ')')
        return 0;
    size_t end = i;
    while (i > 0 && digit(p[i - 1]))
        i--;
    if (i == end || i == 0 || p[i - 1] != '-' || end - i > 9)
        return 0;
    unsigned long v = 0;
    for (size_t k = i; k < end; k++)
        v = v * 10 + (unsigned long)(p[k] - '0');
    return v ? v : (unsigned long)-1;  /* TID 0 (idle) is its own TGID */
}

struct insert {
    size_t at;
    char text[32];
    size_t len;
};

/* Only trace_marker lines (`tracing_mark_write:`, or `print:` where a
 * kernel names the event so) are searched: one byte rules out the rest. */
static void watch_line(struct fnorm *f, const char *p, size_t n, const struct fnorm_fields *fl)
{
    if (fl->event < n && (p[fl->event] == 't' || p[fl->event] == 'p') &&
        memmem(p + fl->event, n - fl->event, f->o.watch, strlen(f->o.watch)))
        f->st.watch_seen = 1;
}

/* Examine one line (n bytes, complete or the prefix of a long one; fl its
 * fields or NULL); edit in place and say what to insert where.  Returns
 * the number of inserts (0..2, in increasing position). */
static int line_edits(struct fnorm *f, char *p, size_t n, const struct fnorm_fields *fl,
                      struct insert ins[2])
{
    if (!n || p[0] == '\n' || p[0] == '#')
        return 0;
    long long lost = lost_count(p, n);
    if (lost >= 0) {
        f->st.lost += (uint64_t)lost;
        f->st.lost_lines++;
        ins[0].at = 0;
        memcpy(ins[0].text, "# ", 2);
        ins[0].len = 2;
        return 1;
    }
    f->st.events++;
    if (!fl)
        return 0;
    if (f->o.flags && fix_flags(p, fl))
        f->st.flags_fixed++;
    if (f->o.watch && !f->st.watch_seen)
        watch_line(f, p, n, fl);
    int k = 0;
    unsigned long tid;
    if (f->o.tgids && (tid = tid_without_tgid(p, fl))) {
        uint32_t pid = tid == (unsigned long)-1 ? 0 : tgid_map_get(f->o.tgids, (uint32_t)tid);
        ins[k].at = fl->cpu;
        if (pid || tid == (unsigned long)-1)
            ins[k].len = (size_t)snprintf(ins[k].text, sizeof(ins[k].text), "(%7u) ", pid);
        else
            ins[k].len = (size_t)snprintf(ins[k].text, sizeof(ins[k].text), "(-------) ");
        k++;
    }
    if (f->o.func_events && fl->event < n) {
        size_t e = fl->event;
        while (e < n && p[e] != ' ' && p[e] != '\n')
            e++;
        if (e > fl->event && p[e - 1] != ':') {
            ins[k].at = fl->event;
            memcpy(ins[k].text, "function: ", 10);
            ins[k].len = 10;
            k++;
        }
    }
    return k;
}

static int do_line(struct fnorm *f, char *p, size_t n, struct insert ins[2])
{
    struct fnorm_fields fl;
    int has = n && p[0] != '#' && p[0] != '\n' && find_fields(p, n, &fl);
    return line_edits(f, p, n, has ? &fl : NULL, ins);
}

size_t fnorm_copy_line(struct fnorm *f, char *dst, char *line, size_t n, size_t examined,
                       const struct fnorm_fields *fl)
{
    struct insert ins[2];
    int k = line_edits(f, line, examined, fl, ins);
    size_t at = 0, out = 0;
    for (int i = 0; i < k; i++) {
        memcpy(dst + out, line + at, ins[i].at - at);
        out += ins[i].at - at;
        memcpy(dst + out, ins[i].text, ins[i].len);
        out += ins[i].len;
        at = ins[i].at;
    }
    memcpy(dst + out, line + at, n - at);
    return out + n - at;
}

static enum st_err put(struct fnorm *f, const char *p, size_t n)
{
    return n ? f->out(f->ctx, p, n) : ST_OK;
}

/* Emit line [p, p+n) with its inserts. */
static enum st_err emit_line(struct fnorm *f, char *p, size_t n, size_t examined)
{
    struct insert ins[2];
    int k = do_line(f, p, examined, ins);
    size_t at = 0;
    enum st_err e = ST_OK;
    for (int i = 0; i < k && !e; i++) {
        e = put(f, p + at, ins[i].at - at);
        if (!e)
            e = put(f, ins[i].text, ins[i].len);
        at = ins[i].at;
    }
    return e ? e : put(f, p + at, n - at);
}

/* Complete the carried line from the chunk; emit it once complete. */
static enum st_err feed_carry(struct fnorm *f, char **pp, size_t *pn)
{
    char *p = *pp;
    size_t n = *pn;
    char *nl = memchr(p, '\n', n);
    size_t want = nl ? (size_t)(nl - p) + 1 : n;
    size_t room = FNORM_LINE_MAX - f->carrylen;
    size_t take = want < room ? want : room;
    memcpy(f->carry + f->carrylen, p, take);
    f->carrylen += take;
    *pp = p + take;
    *pn = n - take;
    int complete = f->carry[f->carrylen - 1] == '\n';
    if (!complete && f->carrylen < FNORM_LINE_MAX)
        return ST_OK;
    enum st_err e = emit_line(f, f->carry, f->carrylen, f->carrylen);
    f->tail = !complete;
    f->carrylen = 0;
    return e;
}

enum st_err fnorm_feed(struct fnorm *f, char *p, size_t n)
{
    enum st_err e;
    while (n && (f->tail || f->carrylen)) {
        if (f->tail) {
            char *nl = memchr(p, '\n', n);
            size_t k = nl ? (size_t)(nl - p) + 1 : n;
            if ((e = put(f, p, k)))
                return e;
            p += k;
            n -= k;
            f->tail = !nl;
        } else if ((e = feed_carry(f, &p, &n))) {
            return e;
        }
    }
    char *run = p, *end = p + n;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        size_t examined = len > FNORM_LINE_MAX ? FNORM_LINE_MAX : len;
        if (!nl && len <= FNORM_LINE_MAX) {
            if ((e = put(f, run, (size_t)(p - run))))
                return e;
            memcpy(f->carry, p, len);
            f->carrylen = len;
            return ST_OK;
        }
        struct insert ins[2];
        int k = do_line(f, p, examined, ins);
        for (int i = 0; i < k; i++) {
            if ((e = put(f, run, (size_t)(p + ins[i].at - run))) ||
                (e = put(f, ins[i].text, ins[i].len)))
                return e;
            run = p + ins[i].at;
        }
        if (!nl) {
            f->tail = 1;    /* a long line continues in the next chunk */
            break;
        }
        p += len;
    }
    return put(f, run, (size_t)(end - run));
}

/* FNORM_AUTO: the first event line decides for the whole trace (a kernel
 * prints one flags format); text whose flags the viewer reads then costs
 * nothing more. */
static void auto_decide(struct fnorm *f, const char *p, size_t n)
{
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        size_t len = (size_t)(nl - p);
        const char *q = p;
        while (q < nl && (*q == ' ' || *q == '\t'))
            q++;
        if (q < nl && *q != '#') {
            char tmp[FNORM_LINE_MAX];
            size_t k = len < sizeof(tmp) ? len : sizeof(tmp);
            memcpy(tmp, p, k);
            f->o.flags = fnorm_fix_flags(tmp, k) ? 1 : 0;
            f->pass = !f->o.flags && !f->o.func_events && !f->o.tgids;
            return;
        }
        p = nl + 1;
    }
    f->looked += n;
    if (f->looked > (1u << 20)) {   /* a megabyte of comments: leave it be */
        f->o.flags = 0;
        f->pass = !f->o.func_events && !f->o.tgids;
    }
}

/* fnorm_feed edits in place: feed n const bytes through a copy. */
static enum st_err feed_copy(struct fnorm *f, const char *s, size_t n)
{
    char buf[16384];
    while (n) {
        size_t k = n < sizeof(buf) ? n : sizeof(buf);
        memcpy(buf, s, k);
        enum st_err e = fnorm_feed(f, buf, k);
        if (e)
            return e;
        s += k;
        n -= k;
    }
    return ST_OK;
}

enum st_err fnorm_write(void *ctx, const void *p, size_t n)
{
    struct fnorm *f = ctx;
    const char *s = p;
    if (f->o.flags == FNORM_AUTO)
        auto_decide(f, p, n);
    if (f->pass && (f->carrylen || f->tail)) {
        /* finish the line in progress the normal way, then step aside */
        const char *nl = memchr(s, '\n', n);
        size_t k = nl ? (size_t)(nl - s) + 1 : n;
        enum st_err e = feed_copy(f, s, k);
        if (e)
            return e;
        s += k;
        n -= k;
    }
    if (f->pass && !f->carrylen && !f->tail)
        return n ? f->out(f->ctx, s, n) : ST_OK;
    return feed_copy(f, s, n);
}

enum st_err fnorm_finish(struct fnorm *f)
{
    enum st_err e = ST_OK;
    if (f->carrylen)
        e = emit_line(f, f->carry, f->carrylen, f->carrylen);
    f->carrylen = 0;
    f->tail = 0;
    return e;
}
