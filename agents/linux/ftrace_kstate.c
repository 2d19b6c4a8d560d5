/* Kernel tracing state to restore; see ftrace_kstate.h. */
#include "ftrace_kstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum kval_kind kstate_kind(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (!strcmp(base, "buffer_size_kb"))
        return KV_BUFSIZE;
    if (!strcmp(base, "trace_clock"))
        return KV_CHOICE;
    if (!strcmp(base, "enable"))
        return KV_ENABLE;
    if (!strncmp(base, "set_ftrace_", 11) || !strncmp(base, "set_graph_", 10) ||
        !strcmp(base, "set_event_pid"))
        return KV_FILTER;
    return KV_PLAIN;
}

/* Text without trailing whitespace, as [p, p + *n). */
static void rtrim(const char *p, size_t *n)
{
    while (*n && (p[*n - 1] == '\n' || p[*n - 1] == ' ' || p[*n - 1] == '\t'))
        (*n)--;
}

/* "7 (expanded: 1408)": the size the kernel will use once tracing
 * starts; it cannot be made unexpanded again, and the current 7 KB would
 * leave the next user a tiny buffer. */
static enum st_err bufsize_value(const char *p, size_t n, struct dynbuf *out)
{
    static const char key[] = "(expanded: ";
    const char *x = memmem(p, n, key, sizeof(key) - 1);
    if (x) {
        const char *d = x + sizeof(key) - 1, *end = p + n;
        const char *e = d;
        while (e < end && *e >= '0' && *e <= '9')
            e++;
        if (e > d)
            return dynbuf_add(out, d, (size_t)(e - d));
    }
    size_t k = 0;
    while (k < n && p[k] >= '0' && p[k] <= '9')
        k++;
    return k ? dynbuf_add(out, p, k) : ST_EFORMAT;
}

static enum st_err choice_value(const char *p, size_t n, struct dynbuf *out)
{
    const char *a = memchr(p, '[', n);
    const char *b = a ? memchr(a, ']', n - (size_t)(a - p)) : NULL;
    if (!a || !b)
        return n ? dynbuf_add(out, p, n) : ST_EFORMAT;
    return dynbuf_add(out, a + 1, (size_t)(b - a - 1));
}

/* Lines, without "#..." comment lines, joined by LF. */
static enum st_err filter_value(const char *p, size_t n, struct dynbuf *out)
{
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len && p[0] != '#') {
            enum st_err e = dynbuf_add(out, p, len);
            if (!e)
                e = dynbuf_addc(out, '\n');
            if (e)
                return e;
        }
        p += len + (nl ? 1 : 0);
    }
    return ST_OK;
}

enum st_err kstate_value(enum kval_kind k, const char *text, size_t n, struct dynbuf *out)
{
    dynbuf_reset(out);
    if (k == KV_FILTER) {
        enum st_err e = filter_value(text, n, out);
        return e ? e : dynbuf_add(out, "", 0);
    }
    rtrim(text, &n);
    switch (k) {
    case KV_BUFSIZE:
        return bufsize_value(text, n, out);
    case KV_CHOICE:
        return choice_value(text, n, out);
    case KV_ENABLE:
        if (n && text[n - 1] == '*')
            n--;
        if (n != 1 || (text[0] != '0' && text[0] != '1'))
            return ST_EFORMAT;
        return dynbuf_add(out, text, 1);
    default:
        return dynbuf_add(out, text, n);
    }
}

void kstate_init(struct kstate *k)
{
    memset(k, 0, sizeof(*k));
}

void kstate_free(struct kstate *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free(k->items[i].path);
        free(k->items[i].value);
    }
    free(k->items);
    kstate_init(k);
}

int kstate_has(const struct kstate *k, const char *path)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->items[i].path, path) && !k->items[i].done)
            return 1;
    return 0;
}

enum st_err kstate_add(struct kstate *k, const char *path, const char *value, size_t len)
{
    if (kstate_has(k, path))
        return ST_OK;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        struct kstate_item *it = realloc(k->items, cap * sizeof(*it));
        if (!it)
            return ST_ENOMEM;
        k->items = it;
        k->cap = cap;
    }
    struct kstate_item *it = &k->items[k->n];
    it->path = strdup(path);
    it->value = malloc(len + 1);
    if (!it->path || !it->value) {
        free(it->path);
        free(it->value);
        return ST_ENOMEM;
    }
    memcpy(it->value, value, len);
    it->value[len] = '\0';
    it->len = len;
    it->done = 0;
    k->n++;
    return ST_OK;
}

int kstate_write_file(const char *path, const char *value, size_t len)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int err = 0;
    /* a filter file consumes one item per write and returns a short
     * count; keep writing the rest, as stdio would */
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, value + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            err = w < 0 ? errno : EIO;
            break;
        }
        off += (size_t)w;
    }
    if (close(fd) != 0 && !err)
        err = errno;
    return err;
}

int kstate_restore(struct kstate *k, char *fail_path, size_t fail_len)
{
    int failed = 0;
    for (size_t i = k->n; i-- > 0;) {
        struct kstate_item *it = &k->items[i];
        if (it->done)
            continue;
        if (kstate_write_file(it->path, it->value, it->len)) {
            if (!failed && fail_path)
                snprintf(fail_path, fail_len, "%s", it->path);
            failed++;
        }
        it->done = 1;
    }
    return failed;
}
