/* k-way merge of per-CPU ftrace text by timestamp; see ftrace_merge.h. */
#include "ftrace_merge.h"

#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/atrace/ftrace_norm.h"

struct fsrc {
    int fd;
    char *buf;
    size_t start, end;
    int eof;
    const char *line;       /* the current line (or piece), when have */
    size_t len;
    int have;
    int piece;              /* the current piece has no LF: more follows */
    int cont;               /* the current piece continues a line */
    int has_fields;         /* fields holds the current line's columns */
    struct fnorm_fields fields;
    uint64_t key;
};

struct fmerge {
    struct fsrc *s;
    size_t n;
    size_t sticky;          /* source in the middle of a long line, or n */
};

static void free_srcs(struct fmerge *m)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->s[i].fd >= 0)
            close(m->s[i].fd);
        free(m->s[i].buf);
    }
    free(m->s);
}

void fmerge_free(struct fmerge *m)
{
    if (!m)
        return;
    free_srcs(m);
    free(m);
}

/* Make the next line of s current; 0 (none left), 1, or -1 (errno). */
static int next_line(struct fsrc *s)
{
    int was_piece = s->have && s->piece;
    s->have = 0;
    for (;;) {
        char *nl = memchr(s->buf + s->start, '\n', s->end - s->start);
        if (nl || (s->eof && s->end > s->start) || (s->start == 0 && s->end == FMERGE_BUF)) {
            s->line = s->buf + s->start;
            s->len = nl ? (size_t)(nl + 1 - s->line) : s->end - s->start;
            s->piece = !nl && !s->eof;
            s->start += s->len;
            break;
        }
        if (s->eof)
            return 0;
        if (s->start) {
            memmove(s->buf, s->buf + s->start, s->end - s->start);
            s->end -= s->start;
            s->start = 0;
        }
        ssize_t r = read(s->fd, s->buf + s->end, FMERGE_BUF - s->end);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            s->eof = 1;
        s->end += (size_t)r;
    }
    s->cont = was_piece;
    s->has_fields = !was_piece && fnorm_fields(s->line, s->len, &s->fields);
    if (s->has_fields)
        s->key = s->fields.ns;
    s->have = 1;
    return 1;
}

enum st_err fmerge_open(char *const *paths, size_t n, struct fmerge **out, char *err,
                        size_t errlen)
{
    *out = NULL;
    struct fmerge *m = calloc(1, sizeof(*m));
    if (!m || !(m->s = calloc(n ? n : 1, sizeof(*m->s)))) {
        free(m);
        return ST_ENOMEM;
    }
    m->n = n;
    m->sticky = n;
    for (size_t i = 0; i < n; i++)
        m->s[i].fd = -1;
    for (size_t i = 0; i < n; i++) {
        struct fsrc *s = &m->s[i];
        if (!(s->buf = malloc(FMERGE_BUF))) {
            fmerge_free(m);
            return ST_ENOMEM;
        }
        if ((s->fd = open(paths[i], O_RDONLY | O_CLOEXEC)) < 0 || next_line(s) < 0) {
            snprintf(err, errlen, "%s: %s", paths[i], strerror(errno));
            fmerge_free(m);
            return ST_EIO;
        }
    }
    *out = m;
    return ST_OK;
}

/* The source whose line goes next, or n when all are done. */
static size_t pick(const struct fmerge *m)
{
    if (m->sticky < m->n)
        return m->sticky;
    size_t best = m->n;
    for (size_t i = 0; i < m->n; i++)
        if (m->s[i].have && (best == m->n || m->s[i].key < m->s[best].key))
            best = i;
    return best;
}

/* Copy up to k bytes of s's current line to out, normalised by f if any;
 * the bytes written. */
static size_t copy_line(struct fsrc *s, struct fnorm *f, char *out, size_t k)
{
    if (!f) {
        memcpy(out, s->line, k);
        return k;
    }
    size_t examined = k < FNORM_LINE_MAX ? k : FNORM_LINE_MAX;
    if (s->cont)
        examined = 0;       /* a continuation: the line's start had the edits */
    return fnorm_copy_line(f, out, (char *)s->line, k, examined,
                           s->has_fields ? &s->fields : NULL);
}

static ssize_t merge_into(struct fmerge *m, struct fnorm *f, char *out, size_t cap)
{
    size_t got = 0, grow = f ? FNORM_GROW : 0;
    if (cap <= grow + FNORM_LINE_MAX && f)
        return errno = EINVAL, -1;
    for (;;) {
        size_t i = pick(m);
        if (i == m->n)
            break;
        struct fsrc *s = &m->s[i];
        size_t k = s->len;
        if (got + k + grow > cap) {
            if (got)
                break;
            k = cap - grow;     /* a line longer than the caller's buffer */
        }
        got += copy_line(s, f, out + got, k);
        if (k < s->len) {
            s->line += k;
            s->len -= k;
            s->cont = 1;
            m->sticky = i;
            break;
        }
        m->sticky = s->piece ? i : m->n;
        if (next_line(s) < 0)
            return -1;
    }
    return (ssize_t)got;
}

ssize_t fmerge_read(struct fmerge *m, char *out, size_t cap)
{
    return merge_into(m, NULL, out, cap);
}

ssize_t fmerge_read_norm(struct fmerge *m, struct fnorm *f, char *out, size_t cap)
{
    return merge_into(m, f, out, cap);
}

int fmerge_to_file(char *const *paths, size_t n, const char *out_path, char **kept)
{
    struct fmerge *m;
    char err[64];
    *kept = NULL;
    if (fmerge_open(paths, n, &m, err, sizeof(err)))
        return errno ? errno : EIO;
    struct outfile *o = NULL;
    char *buf = malloc(1u << 20);
    int e = buf ? 0 : ENOMEM;
    if (!e && outfile_open_flags(out_path, OUTFILE_NOREPLACE, &o))
        e = EIO;
    ssize_t r;
    while (!e && (r = fmerge_read(m, buf, 1u << 20)) != 0) {
        if (r < 0)
            e = errno ? errno : EIO;
        else if (outfile_write(o, buf, (size_t)r))
            e = EIO;
    }
    if (!e && outfile_commit(o))
        e = EIO;
    if (!e && !(*kept = strdup(outfile_path(o))))
        e = ENOMEM;
    outfile_free(o);
    free(buf);
    fmerge_free(m);
    return e;
}
