/*
 * Temporary files that must not outlive the process: outputs still being
 * written, staging copies, raw dumps.  Their owners remove them on every
 * ordinary path; this list is for the paths that are not ordinary, where a
 * signal handler ends the process at once (a second Ctrl-C, a signal during
 * --from-file) and can only unlink what it finds here.
 *
 * The list is fixed-size and lock-free, so the handler may walk it while
 * the program adds and removes entries.  Strings are copied in.
 */
#ifndef SYSTRACE_TMPFILES_H
#define SYSTRACE_TMPFILES_H

/* Remember PATH; 0, or -1 if the list is full or PATH too long (it is then
 * removed only by its owner). */
int tmpfiles_add(const char *path);
/* Forget PATH (after its owner removed or renamed it). */
void tmpfiles_forget(const char *path);
/* A file is being made to be remembered (between hold and release), maybe
 * on another thread than a signal's handler: tmpfiles_close waits for it
 * to be listed.  hold is -1 once closing began: make no file then. */
int tmpfiles_hold(void);
void tmpfiles_release(void);
/* Unlink every remembered file.  Async-signal-safe. */
void tmpfiles_unlink_all(void);
/* The process ends: no more files are made (tmpfiles_hold), those being
 * made are waited for (bounded), then every remembered one is unlinked.
 * Async-signal-safe. */
void tmpfiles_close(void);

#endif
