/*
 * Ctrl-C, SIGTERM and the collection deadline, turned into a readable fd
 * (self-pipe) that the adb library watches as its cancel fd.  The first
 * Ctrl-C asks for an early stop; a second one exits at once (status 130).
 * This file holds the only mutable globals of the program: what the signal
 * handler must reach.
 */
#ifndef SYSTRACE_SIGNALS_H
#define SYSTRACE_SIGNALS_H

/* Install handlers for SIGINT, SIGTERM and SIGALRM; returns the fd to
 * watch, or -1. */
int sig_install(void);
void sig_restore(void);

int sig_interrupts(void);   /* SIGINTs so far */
int sig_terminated(void);   /* SIGTERM seen */
int sig_alarmed(void);      /* the collection deadline passed */

/* Empty the pipe so device commands can run again (cleanup after an
 * interrupt); the counters stay. */
void sig_drain(void);

/* A temporary output file the handler removes before it exits the
 * process at once (second Ctrl-C, or any signal after sig_exit_first).
 * The string must stay valid until sig_restore; NULL clears it. */
void sig_unlink_on_exit(const char *path);
/* Exit (130/143) on the first SIGINT/SIGTERM: for jobs with nothing on a
 * device to clean up, like --from-file. */
void sig_exit_first(void);

/* Arm (seconds > 0) or disarm (0) the collection deadline; disarming
 * keeps sig_alarmed() so the caller can still tell why it stopped. */
void sig_deadline(int seconds);

#endif
