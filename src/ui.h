/*
 * What the user sees during a capture: catapult's messages on stdout,
 * warnings on stderr, and on a terminal a countdown (or the elapsed time)
 * while tracing (with --stream also what has arrived and the rate) and
 * the bytes received and rate while collecting (plain lines when not a
 * TTY).
 *
 * Several captures (one per device) may report at once from their own
 * threads: every call takes the ui's lock, each device's messages carry
 * its serial in front, and the progress line shows the bytes of all.
 */
#ifndef SYSTRACE_UI_H
#define SYSTRACE_UI_H

#include <stdint.h>

#include "agents/capture.h"
#include "lib/plat.h"

struct ui {
    int quiet;
    int tty;                /* stderr is a terminal */
    int progress_shown;     /* a \r line is on screen */
    double t0;              /* collection start (µs) */
    double last;            /* last progress update (µs) */
    uint64_t bytes;         /* of every capture */
    /* streams while tracing: totals of every capture, and the rate over
     * about the last second */
    int streaming;
    uint64_t stream_bytes, stream_events;
    double rate_t;          /* µs of the rate's last sample */
    uint64_t rate_bytes;
    double rate;            /* bytes/s */
    pthread_mutex_t lock;
};

/* One capture's view of the ui: its messages prefixed "PREFIX: " (empty:
 * none, as with one device), its bytes counted into the total. */
struct ui_dev {
    struct ui *u;
    char prefix[128];
    uint64_t bytes;
    uint64_t stream_bytes, stream_events;
};

/* hooks: the single-capture hooks (no prefix).  ui_free when done. */
void ui_init(struct ui *u, int quiet, struct capture_ui *hooks);
void ui_free(struct ui *u);
/* Hooks for one of several captures. */
void ui_dev_hooks(struct ui *u, struct ui_dev *d, const char *prefix, struct capture_ui *hooks);

/* Erase any \r progress line, so no stale count stays on screen; call
 * before printing anything else on the terminal. */
void ui_endline(struct ui *u);
/* The line while tracing: seconds left, or (left < 0: until Enter) the
 * seconds traced so far; while streaming also the bytes and events
 * received and the current rate. */
void ui_countdown(struct ui *u, int left, int elapsed);
void ui_collect_start(struct ui *u);
void ui_collect_done(struct ui *u);
/* The collection failed (its message is out): no "Received" summary after
 * it, which would read as success. */
void ui_collect_failed(struct ui *u);

#endif
