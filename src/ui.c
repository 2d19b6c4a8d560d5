/* Capture progress output; see ui.h. */
#include "ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void ui_endline(struct ui *u)
{
    if (u->progress_shown) {
        fputs("\r\033[K", stderr);    /* erase the line: its count is stale now */
        u->progress_shown = 0;
    }
}

static void note(void *ctx, const char *fmt, ...)
{
    struct ui *u = ctx;
    if (u->quiet)
        return;
    ui_endline(u);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void warn(void *ctx, const char *fmt, ...)
{
    struct ui *u = ctx;
    ui_endline(u);
    va_list ap;
    va_start(ap, fmt);
    fputs("systrace: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void progress(void *ctx, uint64_t bytes)
{
    struct ui *u = ctx;
    u->bytes = bytes;
    if (u->quiet || !u->tty)
        return;
    double now = capture_now_us();
    if (now - u->last < 200000)
        return;
    u->last = now;
    double secs = (now - u->t0) / 1e6;
    fprintf(stderr, "\r\033[KCollecting trace: %.1f MB received (%.1f MB/s)",
            (double)bytes / 1e6, secs > 0 ? (double)bytes / 1e6 / secs : 0.0);
    u->progress_shown = 1;
}

void ui_init(struct ui *u, int quiet, struct capture_ui *hooks)
{
    u->quiet = quiet;
    u->tty = isatty(STDERR_FILENO);
    u->progress_shown = 0;
    u->bytes = 0;
    u->t0 = u->last = 0;
    hooks->note = note;
    hooks->warn = warn;
    hooks->progress = progress;
    hooks->ctx = u;
}

void ui_countdown(struct ui *u, int left, int elapsed)
{
    if (u->quiet || !u->tty)
        return;
    if (left >= 0)
        fprintf(stderr, "\r\033[KTracing: %d s left (Enter or Ctrl-C stops early)", left);
    else
        fprintf(stderr, "\r\033[KTracing: %d:%02d (press Enter to stop)", elapsed / 60,
                elapsed % 60);
    u->progress_shown = 1;
}

void ui_collect_start(struct ui *u)
{
    u->t0 = u->last = capture_now_us();
    u->bytes = 0;
}

void ui_collect_done(struct ui *u)
{
    if (u->quiet)
        return;
    double secs = (capture_now_us() - u->t0) / 1e6;
    ui_endline(u);
    if (u->bytes)
        printf("Received %.1f MB of trace data in %.1f s (%.1f MB/s)\n",
               (double)u->bytes / 1e6, secs, secs > 0 ? (double)u->bytes / 1e6 / secs : 0.0);
    fflush(stdout);
}
