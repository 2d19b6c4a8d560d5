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
/* End any \r progress line. */
void ui_endline(struct ui *u);
/* Countdown line: seconds left (-1: waiting for Enter). */
void ui_countdown(struct ui *u, int left);
void ui_collect_start(struct ui *u);
void ui_collect_done(struct ui *u);

#endif
