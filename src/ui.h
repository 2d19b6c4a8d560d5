/*
 * What the user sees during a capture: catapult's messages on stdout,
 * warnings on stderr, and on a terminal a countdown while tracing and the
 * bytes received and rate while collecting (plain lines when not a TTY).
 */
#ifndef SYSTRACE_UI_H
#define SYSTRACE_UI_H

#include <stdint.h>

#include "agents/capture.h"

struct ui {
    int quiet;
    int tty;                /* stderr is a terminal */
    int progress_shown;     /* a \r line is on screen */
    double t0;              /* collection start (µs) */
    double last;            /* last progress update (µs) */
    uint64_t bytes;
};

void ui_init(struct ui *u, int quiet, struct capture_ui *hooks);
/* Erase any \r progress line, so no stale count stays on screen; call
 * before printing anything else on the terminal. */
void ui_endline(struct ui *u);
/* The line while tracing: seconds left, or (left < 0: until Enter) the
 * seconds traced so far. */
void ui_countdown(struct ui *u, int left, int elapsed);
void ui_collect_start(struct ui *u);
void ui_collect_done(struct ui *u);

#endif
