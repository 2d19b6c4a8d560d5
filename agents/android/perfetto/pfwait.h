/*
 * Waiting for a `--perfetto` session to end without a device process per
 * poll (perfetto-recording.md §1): ONE device shell runs
 *
 *   while [ -d /proc/PID ]; do sleep 0.1; done; echo gone
 *
 * for as long as the session records ([ and sleep are mksh builtins, so
 * the loop forks nothing and the trace shows no poller; not `read -t`,
 * which returns at once on the closed stdin of a shell v2 command).  It ends when the
 * pid is gone: the session's duration_ms passed, the host stopped it
 * early (`kill -TERM PID` in a second shell), or something else ended it.
 * The host reads the loop a slice at a time, so Enter, Ctrl-C and -t stay
 * in its hands.  The pid is a number, never text from elsewhere.
 */
#ifndef SYSTRACE_PFWAIT_H
#define SYSTRACE_PFWAIT_H

#include "agents/capture.h"
#include "lib/error.h"

struct pfwait;

/* Start the loop for pid; on failure c->err says why.  stop: the same
 * shell first sends `kill -TERM PID` and then looks every 10 ms (the
 * session ends once its file is written: the sooner the host knows, the
 * sooner it has the trace), for the few hundred ms the end takes. */
enum st_err pfwait_open(struct capture *c, int pid, int stop, struct pfwait **out);

/* Wait up to ms (0: only look): ST_OK once the loop said the pid is gone,
 * ST_ETIMEOUT while it runs, ST_EINTR for the capture's cancel fd (a
 * second Ctrl-C, SIGTERM); anything else: the loop broke off (the link
 * dropped, the shell was killed), why in pfwait_error. */
enum st_err pfwait_read(struct pfwait *w, int ms);
const char *pfwait_error(const struct pfwait *w);

/* Until the pid is gone, at most ms in all: *w is read (opened if NULL);
 * a loop cut by a dropped link is opened again once the device is back
 * (devcmd.h's wait, once).  ST_ETIMEOUT when the pid outlived ms; other
 * errors with c->err set.  *w may be replaced. */
enum st_err pfwait_until_gone(struct capture *c, struct pfwait **w, int pid, int stop, int ms);

/* Closes the loop's shell (adbd hangs up on it).  NULL is a no-op. */
void pfwait_free(struct pfwait *w);

#endif
