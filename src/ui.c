/* Capture progress output; see ui.h. */
#include "ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/esctext.h"
#include "lib/printf.h"

static void endline_locked(struct ui *u)
{
    if (u->progress_shown) {
        fputs("\r\033[K", stderr);    /* erase the line: its count is stale now */
        u->progress_shown = 0;
    }
}

void ui_endline(struct ui *u)
{
    pthread_mutex_lock(&u->lock);
    endline_locked(u);
    pthread_mutex_unlock(&u->lock);
}

/* The message with any control character a quoted device answer brought
 * made visible (its own line ends kept), allocated; NULL without memory. */
ST_PRINTF(1, 0)
static char *escaped(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    char *shown = msg ? malloc((size_t)n * 4 + 1) : NULL;
    if (shown) {
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        esc_text(shown, (size_t)n * 4 + 1, msg, (size_t)n, ESC_KEEP_NL);
    }
    free(msg);
    return shown;
}

ST_PRINTF(2, 0)
static void put_escaped(FILE *f, const char *fmt, va_list ap)
{
    char *shown = escaped(fmt, ap);
    fputs(shown ? shown : "(out of memory)", f);
    free(shown);
}

ST_PRINTF(3, 0)
static void vnote(struct ui *u, const char *prefix, const char *fmt, va_list ap)
{
    if (u->quiet)
        return;
    pthread_mutex_lock(&u->lock);
    endline_locked(u);
    if (!prefix[0]) {
        put_escaped(stdout, fmt, ap);
        putchar('\n');
    } else {
        /* every line of a note carries the device's serial; blank ones
         * stay blank rather than a bare "SERIAL: " */
        char *text = escaped(fmt, ap);
        for (const char *p = text ? text : "(out of memory)", *nl;; p = nl + 1) {
            nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            if (n)
                printf("%s: %.*s\n", prefix, n, p);
            else if (nl)
                putchar('\n');
            if (!nl)
                break;
        }
        free(text);
    }
    fflush(stdout);
    pthread_mutex_unlock(&u->lock);
}

ST_PRINTF(3, 0)
static void vwarn(struct ui *u, const char *prefix, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&u->lock);
    endline_locked(u);
    fputs("systrace: warning: ", stderr);
    if (prefix[0])
        fprintf(stderr, "%s: ", prefix);
    put_escaped(stderr, fmt, ap);
    fputc('\n', stderr);
    pthread_mutex_unlock(&u->lock);
}

/* The progress line, at most five times a second: the total is set (one
 * capture: its own count) or grown by a delta (one of several). */
static void count_bytes(struct ui *u, uint64_t n, int is_delta)
{
    pthread_mutex_lock(&u->lock);
    u->bytes = is_delta ? u->bytes + n : n;
    double now = capture_now_us();
    if (!u->quiet && u->tty && now - u->last >= 200000) {
        u->last = now;
        double secs = (now - u->t0) / 1e6;
        fprintf(stderr, "\r\033[KCollecting trace: %.1f MB received (%.1f MB/s)",
                (double)u->bytes / 1e6, secs > 0 ? (double)u->bytes / 1e6 / secs : 0.0);
        u->progress_shown = 1;
    }
    pthread_mutex_unlock(&u->lock);
}

ST_PRINTF(2, 3)
static void note(void *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(ctx, "", fmt, ap);
    va_end(ap);
}

ST_PRINTF(2, 3)
static void warn(void *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(ctx, "", fmt, ap);
    va_end(ap);
}

static void progress(void *ctx, uint64_t bytes)
{
    count_bytes(ctx, bytes, 0);
}

/* A stream's totals, grown by deltas (one capture, or one of several). */
static void add_stream(struct ui *u, uint64_t bytes, uint64_t events)
{
    pthread_mutex_lock(&u->lock);
    u->streaming = 1;
    u->stream_bytes += bytes;
    u->stream_events += events;
    pthread_mutex_unlock(&u->lock);
}

static void stream(void *ctx, uint64_t bytes, uint64_t events)
{
    struct ui *u = ctx;
    pthread_mutex_lock(&u->lock);
    u->streaming = 1;
    u->stream_bytes = bytes;
    u->stream_events = events;
    pthread_mutex_unlock(&u->lock);
}

static void dev_stream(void *ctx, uint64_t bytes, uint64_t events)
{
    struct ui_dev *d = ctx;
    uint64_t db = bytes >= d->stream_bytes ? bytes - d->stream_bytes : 0;
    uint64_t de = events >= d->stream_events ? events - d->stream_events : 0;
    d->stream_bytes = bytes;
    d->stream_events = events;
    add_stream(d->u, db, de);
}

ST_PRINTF(2, 3)
static void dev_note(void *ctx, const char *fmt, ...)
{
    struct ui_dev *d = ctx;
    va_list ap;
    va_start(ap, fmt);
    vnote(d->u, d->prefix, fmt, ap);
    va_end(ap);
}

ST_PRINTF(2, 3)
static void dev_warn(void *ctx, const char *fmt, ...)
{
    struct ui_dev *d = ctx;
    va_list ap;
    va_start(ap, fmt);
    vwarn(d->u, d->prefix, fmt, ap);
    va_end(ap);
}

static void dev_progress(void *ctx, uint64_t bytes)
{
    struct ui_dev *d = ctx;
    uint64_t delta = bytes >= d->bytes ? bytes - d->bytes : 0;
    d->bytes = bytes;
    count_bytes(d->u, delta, 1);
}

void ui_init(struct ui *u, int quiet, struct capture_ui *hooks)
{
    memset(u, 0, sizeof(*u));
    u->quiet = quiet;
    u->tty = plat_isatty(STDERR_FILENO);
    pthread_mutex_init(&u->lock, NULL);
    if (hooks)
        *hooks = (struct capture_ui){note, warn, progress, stream, u};
}

void ui_free(struct ui *u)
{
    pthread_mutex_destroy(&u->lock);
}

void ui_dev_hooks(struct ui *u, struct ui_dev *d, const char *prefix, struct capture_ui *hooks)
{
    d->u = u;
    d->bytes = d->stream_bytes = d->stream_events = 0;
    snprintf(d->prefix, sizeof(d->prefix), "%s", prefix ? prefix : "");
    *hooks = (struct capture_ui){dev_note, dev_warn, dev_progress, dev_stream, d};
}

/* ", 36.2 MB, 402117 events, 3.0 MB/s" while streaming, else "". */
static void stream_text(struct ui *u, char *out, size_t n)
{
    out[0] = '\0';
    if (!u->streaming)
        return;
    double now = capture_now_us();
    if (!u->rate_t) {
        u->rate_t = now;
        u->rate_bytes = u->stream_bytes;
    } else if (now - u->rate_t >= 900000) {
        u->rate = (double)(u->stream_bytes - u->rate_bytes) / ((now - u->rate_t) / 1e6);
        u->rate_t = now;
        u->rate_bytes = u->stream_bytes;
    }
    snprintf(out, n, ", %.1f MB, %llu events, %.1f MB/s", (double)u->stream_bytes / 1e6,
             (unsigned long long)u->stream_events, u->rate / 1e6);
}

void ui_countdown(struct ui *u, int left, int elapsed)
{
    if (u->quiet || !u->tty)
        return;
    pthread_mutex_lock(&u->lock);
    char st[128];
    stream_text(u, st, sizeof(st));
    if (left >= 0)
        fprintf(stderr, "\r\033[KTracing: %d s left%s (Enter or Ctrl-C stops early)", left,
                st);
    else
        fprintf(stderr, "\r\033[KTracing: %d:%02d%s (press Enter to stop)", elapsed / 60,
                elapsed % 60, st);
    u->progress_shown = 1;
    pthread_mutex_unlock(&u->lock);
}

void ui_collect_start(struct ui *u)
{
    pthread_mutex_lock(&u->lock);
    u->t0 = u->last = capture_now_us();
    u->bytes = 0;
    pthread_mutex_unlock(&u->lock);
}

void ui_collect_failed(struct ui *u)
{
    pthread_mutex_lock(&u->lock);
    u->bytes = 0;
    pthread_mutex_unlock(&u->lock);
}

void ui_collect_done(struct ui *u)
{
    if (u->quiet)
        return;
    pthread_mutex_lock(&u->lock);
    double secs = (capture_now_us() - u->t0) / 1e6;
    endline_locked(u);
    if (u->bytes)
        printf("Received %.1f MB of trace data in %.1f s (%.1f MB/s)\n",
               (double)u->bytes / 1e6, secs, secs > 0 ? (double)u->bytes / 1e6 / secs : 0.0);
    fflush(stdout);
    pthread_mutex_unlock(&u->lock);
}
