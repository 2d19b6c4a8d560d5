/* Capture progress output; see ui.h. */
#include "ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

static void vnote(struct ui *u, const char *prefix, const char *fmt, va_list ap)
{
    if (u->quiet)
        return;
    pthread_mutex_lock(&u->lock);
    endline_locked(u);
    if (prefix[0])
        printf("%s: ", prefix);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&u->lock);
}

static void vwarn(struct ui *u, const char *prefix, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&u->lock);
    endline_locked(u);
    fputs("systrace: warning: ", stderr);
    if (prefix[0])
        fprintf(stderr, "%s: ", prefix);
    vfprintf(stderr, fmt, ap);
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

static void note(void *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(ctx, "", fmt, ap);
    va_end(ap);
}

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

static void dev_note(void *ctx, const char *fmt, ...)
{
    struct ui_dev *d = ctx;
    va_list ap;
    va_start(ap, fmt);
    vnote(d->u, d->prefix, fmt, ap);
    va_end(ap);
}

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
    u->tty = isatty(STDERR_FILENO);
    pthread_mutex_init(&u->lock, NULL);
    if (hooks)
        *hooks = (struct capture_ui){note, warn, progress, u};
}

void ui_free(struct ui *u)
{
    pthread_mutex_destroy(&u->lock);
}

void ui_dev_hooks(struct ui *u, struct ui_dev *d, const char *prefix, struct capture_ui *hooks)
{
    d->u = u;
    d->bytes = 0;
    snprintf(d->prefix, sizeof(d->prefix), "%s", prefix ? prefix : "");
    *hooks = (struct capture_ui){dev_note, dev_warn, dev_progress, d};
}

void ui_countdown(struct ui *u, int left, int elapsed)
{
    if (u->quiet || !u->tty)
        return;
    pthread_mutex_lock(&u->lock);
    if (left >= 0)
        fprintf(stderr, "\r\033[KTracing: %d s left (Enter or Ctrl-C stops early)", left);
    else
        fprintf(stderr, "\r\033[KTracing: %d:%02d (press Enter to stop)", elapsed / 60,
                elapsed % 60);
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
