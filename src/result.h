/*
 * The result file of a capture (live Android or host Linux): output and
 * raw-dump paths, viewer, writer and the optional --trace-events file,
 * opened before tracing starts (so a bad path or a missing viewer never
 * wastes a capture) and committed together at the end.
 */
#ifndef SYSTRACE_RESULT_H
#define SYSTRACE_RESULT_H

#include "options.h"
#include "formats/tevents/tevents.h"
#include "formats/html/tracewriter.h"
#include "formats/html/viewer.h"
#include "formats/summary/summary.h"

struct ctl;

struct result {
    char *out;              /* output path */
    char *raw;              /* OUT minus extension plus raw_ext */
    struct viewer v;
    int shared_viewer;      /* v is a copy of a viewer someone else frees */
    struct tracewriter *w;
    struct tevents *te;     /* --trace-events, or NULL */
    struct summary *sum;    /* the summary's state, or NULL when not wanted */
    int sum_show;           /* print its lines (a run of several devices
                             * is quiet but for them) */
    const char *sum_prefix; /* before each line ("SERIAL: "), or NULL */
    const char *device;     /* the JSON's "device" */
    const char *model, *release;    /* the device's, for a piece's summary */
    char *piece_tmp;        /* a piece (issue 35): the whole capture goes
                             * here first (JSON), the piece to out at the end */
    struct ctl *ctl;        /* the capture's agents, which keep their raw data
                             * when the page cannot be written; NULL: none */
};

/* raw_ext: ".atrace" for device dumps, ".ftrace" for host text.  Prints
 * its own error; returns an exit code (cli.h). */
int result_open(const struct st_options *o, const char *raw_ext, struct result *r);
/* The same with a viewer loaded once for several results (NULL: load);
 * show_summary: print the summary's lines even if o->quiet (-1: unless
 * o->quiet). */
int result_open_viewer(const struct st_options *o, const char *raw_ext,
                       const struct viewer *v, int show_summary, struct result *r);
/* Commit the page and the trace-event file, report them; exit code.  A
 * page that cannot be written has r->ctl keep the raw data (ctl_keep), and
 * the error line says where. */
int result_commit(const struct st_options *o, struct result *r);
void result_free(struct result *r);

/* A capture failed: "systrace: WHO: DETAIL", preceded by the output's own
 * error when writing it is what failed (a full disk, not the device). */
void result_report_error(const struct result *r, const char *who, const char *detail);

#endif
