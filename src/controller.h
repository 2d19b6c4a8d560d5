/*
 * Drives the agents of a capture (catapult's TracingController): create
 * all, start all, wait (-t, Enter, or Ctrl-C for an early stop), clock
 * sync, stop all, collect all into the result.  After any failure or
 * SIGTERM every started agent's cleanup runs, so a device is never left
 * tracing.
 *
 * The phases are separate calls so several captures (one per device) can
 * start together, share one wait, and collect in parallel: ctl_start and
 * ctl_collect of different captures may run on different threads; ctl_wait
 * runs once, on the thread that owns the signal pipe.  controller_run is
 * the whole sequence for one capture.
 */
#ifndef SYSTRACE_CONTROLLER_H
#define SYSTRACE_CONTROLLER_H

#include "agents/capture.h"
#include "lib/error.h"
#include "formats/html/tracewriter.h"
#include "ui.h"

struct ctl;

/* Create the agents that apply to c (a failure leaves detail in c->err;
 * *out is set either way and must be freed). */
enum st_err ctl_new(struct capture *c, struct ctl **out);
/* Start every agent; on failure the started ones are cleaned up. */
enum st_err ctl_start(struct ctl *r);
/* Clock sync, stop and collect into w; on failure (ST_EINTR: cancelled,
 * ST_ETIMEOUT: --collection-timeout) the agents are cleaned up. */
enum st_err ctl_collect(struct ctl *r, struct tracewriter *w);
/* Clean up after a failure elsewhere (the shared wait, another phase):
 * stop tracing, put settings back. */
void ctl_abort(struct ctl *r);
/* After a collection that succeeded, the page could not be written: every
 * agent keeps what it collected raw and appends where to `said` (agent.h
 * keep).  NULL is a no-op. */
void ctl_keep(struct ctl *r, int reader_left, struct dynbuf *said);
void ctl_free(struct ctl *r);

/* Wait -t, or for Enter, or a signal, or until every one of the n
 * captures has ended on its own (ctl_ended): ST_OK to collect, ST_EINTR
 * when terminated or interrupted twice (detail in err).  Notes go through
 * hooks. */
enum st_err ctl_wait(const struct capture_opts *o, const struct capture_ui *hooks,
                     struct ui *u, int sigfd, struct ctl *const *ctls, size_t n,
                     struct dynbuf *err);
/* 1 if an agent's tracing ended on its own (a stream broke off). */
int ctl_ended(struct ctl *r);

/* The failure of a collection as the user reads it: the deadline or the
 * interrupt named, the agent's detail kept. */
enum st_err ctl_explain(struct capture *c, enum st_err e);

/* All of it for one capture. */
enum st_err controller_run(struct capture *c, struct ui *u, struct tracewriter *w,
                           int sigfd);

#endif
