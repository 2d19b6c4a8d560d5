/*
 * Drives the agents of one capture (catapult's TracingController): create
 * all, start all, wait (-t N, Enter, or Ctrl-C for an early stop), clock
 * sync, stop all, collect all into the result.  After any failure or
 * SIGTERM every started agent's cleanup runs, so the device is never left
 * tracing.
 */
#ifndef SYSTRACE_CONTROLLER_H
#define SYSTRACE_CONTROLLER_H

#include "agents/capture.h"
#include "lib/error.h"
#include "formats/html/tracewriter.h"
#include "ui.h"

/* ST_EINTR: stopped by SIGTERM or a Ctrl-C during collection;
 * ST_ETIMEOUT: --collection-timeout expired.  Detail in c->err. */
enum st_err controller_run(struct capture *c, struct ui *u, struct tracewriter *w,
                           int sigfd);

#endif
