/*
 * Every signal that can end the process, turned into a readable fd
 * (self-pipe) that the adb library watches as its cancel fd, so each one
 * goes through the same stop path:
 *
 *   SIGINT, SIGHUP    an interrupt: the first stops tracing early and keeps
 *                     the trace (a closed terminal is not a reason to lose
 *                     a capture; SIGHUP does not cancel a collection under
 *                     way); the second abandons the trace, stops tracing and
 *                     exits 130; the third exits at once
 *   SIGTERM, SIGQUIT  stop tracing, write nothing, exit 143 (131); a second
 *                     one exits at once
 *   SIGPIPE           ignored: a reader that went away (`| head -1`) makes
 *                     writes fail with EPIPE instead of killing the process,
 *                     so messages to it are lost but the stop path runs
 *   SIGALRM           the collection deadline
 *
 * "At once" is _exit after removing the tmpfiles list's files, running the
 * emergency hook and printing the hint (the command that stops a device).
 * This file holds the only mutable globals of the program: what the signal
 * handler must reach.
 */
#ifndef SYSTRACE_SIGNALS_H
#define SYSTRACE_SIGNALS_H

/* Install the handlers; returns the fd to watch, or -1. */
int sig_install(void);
void sig_restore(void);

int sig_interrupts(void);   /* SIGINTs and SIGHUPs so far */
int sig_hangup(void);       /* SIGHUP seen: the terminal is gone */
int sig_terminated(void);   /* SIGTERM or SIGQUIT seen */
int sig_exit_status(void);  /* 143 (SIGTERM), 131 (SIGQUIT) or 130 */
int sig_alarmed(void);      /* the collection deadline passed */

/* Captures that may still be tracing: each one started counts, and is
 * let go once its device is known to have stopped (or it ended).  When
 * none is left, the next Ctrl-C only says that the page is still being
 * written ("Ctrl-C again to abandon it"); the one after abandons it, and
 * a further one exits at once.  (Abandoning then costs nothing on a
 * device, and a long conversion should not be lost to one keypress.) */
void sig_tracing_begin(void);
void sig_tracing_end(void);
/* Tracing has stopped everywhere (the counters above reached 0). */
int sig_tracing_over(void);

/* Empty the pipe so device commands can run again (cleanup after an
 * interrupt); the counters stay. */
void sig_drain(void);

/* Whether SIGHUP wakes the pipe: on while waiting for the end of tracing
 * (it then stops early like Ctrl-C), off while collecting (a hang-up must
 * not cancel a collection that will write the file). */
void sig_hangup_stops(int on);

/* Exit at once on the first signal: for jobs with nothing on a device to
 * clean up, like --from-file. */
void sig_exit_first(void);

/* The output is written and only serving it is left (--open=perfetto):
 * from now on SIGINT, SIGHUP, SIGTERM and SIGQUIT only wake the pipe, so
 * the first ends serving and the run ends as it would have (the page is
 * kept, exit 0), whatever the counters above say; the third exits at once
 * with status 0.  sig_restore ends it. */
void sig_serving(void);

/* Text printed (after "systrace: ") when the process exits at once, e.g.
 * how to stop a device left tracing; NULL clears it.  Copied. */
void sig_set_hint(const char *text);
/* Called in the handler before an exit at once: must be
 * async-signal-safe.  NULL clears it. */
void sig_set_emergency(void (*fn)(void *ctx), void *ctx);

/* Arm (seconds > 0) or disarm (0) the collection deadline; disarming
 * keeps sig_alarmed() so the caller can still tell why it stopped. */
void sig_deadline(int seconds);

#endif
