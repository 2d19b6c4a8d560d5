/*
 * Tracing agents: each trace source exports one `const struct agent_ops`
 * with catapult's agent lifecycle (catapult-systrace.md §2): create from
 * the capture settings, start, optional clock sync, stop, collect (write
 * its parts into the result), and cleanup — the best-effort "leave the
 * device as it was" run after an error or interrupt.  The registry
 * (agents/registry.c) lists them in output order; adding an agent touches
 * its own file and the registry only.
 */
#ifndef SYSTRACE_AGENT_H
#define SYSTRACE_AGENT_H

#include "capture.h"
#include "lib/error.h"
#include "formats/html/tracewriter.h"

struct agent_ops {
    const char *name;
    /* ST_OK with *state == NULL: the agent does not apply to this run. */
    enum st_err (*create)(struct capture *c, void **state);
    enum st_err (*start)(void *state);
    /* may be NULL: stop recording at once, before the clock sync and the
     * other agents' stops use the device (a stream's backlog on a slow link
     * would hold each of them up); stop still runs afterwards */
    enum st_err (*halt)(void *state);
    enum st_err (*clock_sync)(void *state);     /* may be NULL */
    enum st_err (*stop)(void *state);
    enum st_err (*collect)(void *state, struct tracewriter *w);
    void (*cleanup)(void *state);               /* may be NULL */
    void (*destroy)(void *state);
    /* may be NULL: 1 once its tracing ended on its own while the capture
     * waits (a stream that broke off), so the wait need not go on;
     * AGENT_DONE once the capture holds what it was for (--launch: the app
     * drew), the wait ends without a word */
    int (*ended)(void *state);
    /* may be NULL: collect succeeded but the page could not be written (a
     * full disk, -o - into a full file): keep what was collected raw, as
     * after a failed collect, and append where to `said` ("; ... kept in
     * FILE ..."), the rest of the error line.  reader_left: the output's
     * reader went away (| head -c1), which asked for no file: only what is
     * kept anyway is named.  Before destroy, after collect. */
    void (*keep)(void *state, int reader_left, struct dynbuf *said);
};

#define AGENT_DONE 2

/* NULL-terminated, in output order: process dump, atrace, ftrace,
 * clock-sync controller part. */
extern const struct agent_ops *const st_agents[];

extern const struct agent_ops procdump_agent;
extern const struct agent_ops atrace_agent;
extern const struct agent_ops appprofile_agent;
extern const struct agent_ops launch_agent;
extern const struct agent_ops hostproc_agent;
extern const struct agent_ops ftrace_agent;
extern const struct agent_ops controller_agent;

#endif
